import { describe, expect, it } from 'vitest';
import type { RangeFigures } from './edgeFigures.js';
import { figuresSize, NO_FIGURES, num, writeFigures } from './figureBytes.js';
import { writeUtcTime } from './itemBytes.js';

/** A time (ms) as the figures write it, as text; null as null. */
function pgTimestamp(ms: number | null): string {
  if (ms === null) return 'null';
  const b = Buffer.alloc(64);
  return b.toString('latin1', 0, writeUtcTime(b, 0, ms * 1000));
}

/** The figures of the i-th check as text, as the answers wrote them before they were written as bytes. */
const figuresText = (f: RangeFigures, i: number | undefined) =>
  i === undefined
    ? NO_FIGURES
    : `,"uptime":{"passed":${f.passed[i]},"failed":${f.failed[i]},"last_pass":${pgTimestamp(f.last_pass[i]!)},"last_fail":${pgTimestamp(f.last_fail[i]!)}},"latency":{"p95":${num(f.p95[i])},"p97":${num(f.p97[i])},"p99":${num(f.p99[i])},"rolling1h":${num(f.rolling1h[i])}},`;

const figures = (rows: Array<Partial<Record<keyof RangeFigures, unknown>>>): RangeFigures => {
  const f = {
    from: new Date(0),
    to: new Date(0),
    ...{ check_id: [], passed: [], failed: [], last_pass: [], last_fail: [], p95: [], p97: [], p99: [], rolling1h: [] },
  } as unknown as Record<string, unknown[]>;
  rows.forEach((r, i) => {
    f.check_id!.push(`c${i}`);
    for (const k of ['passed', 'failed', 'last_pass', 'last_fail', 'p95', 'p97', 'p99', 'rolling1h'])
      f[k]!.push(k in r ? r[k as keyof RangeFigures] : null);
  });
  return f as unknown as RangeFigures;
};

/** Every check's figures written as bytes, each checked against its text and its stated size. */
function written(f: RangeFigures, at: Array<number | undefined>): string[] {
  return at.map((i) => {
    const size = figuresSize(f, i);
    const b = Buffer.alloc(size + 8, 0x7e);
    const end = writeFigures(b, 3, f, i);
    expect(end - 3).toBe(size);
    expect(b[2]).toBe(0x7e);
    expect(b[end]).toBe(0x7e);
    return b.toString('latin1', 3, end);
  });
}

describe("the figures' times (writeUtcTime, to the millisecond)", () => {
  it('writes a time as PostgreSQL writes a timestamptz in JSON (UTC): trailing zeros of the fraction left out', () => {
    const at = (iso: string) => pgTimestamp(Date.parse(iso));
    expect(at('2026-11-26T17:23:00.000Z')).toBe('"2026-11-26T17:23:00+00:00"');
    expect(at('2026-11-26T17:23:04.120Z')).toBe('"2026-11-26T17:23:04.12+00:00"');
    expect(at('2026-11-26T07:03:09.005Z')).toBe('"2026-11-26T07:03:09.005+00:00"');
    expect(at('2026-11-26T23:59:59.999Z')).toBe('"2026-11-26T23:59:59.999+00:00"');
    expect(at('2024-02-29T00:00:00.500Z')).toBe('"2024-02-29T00:00:00.5+00:00"');
    expect(at('1969-12-31T23:59:58.250Z')).toBe('"1969-12-31T23:59:58.25+00:00"');
    expect(pgTimestamp(null)).toBe('null');
  });

  it('agrees with toISOString for a spread of times', () => {
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 7_919_311) {
      const iso = new Date(ms).toISOString().replace('Z', '');
      const [whole, frac] = iso.split('.') as [string, string];
      const f = frac.replace(/0+$/, '');
      expect(pgTimestamp(ms)).toBe(`"${whole}${f ? `.${f}` : ''}+00:00"`);
    }
  });
});

describe('writeFigures', () => {
  it('writes what figuresText writes, byte for byte, with the size figuresSize says', () => {
    const f = figures([
      {
        passed: 0,
        failed: 12,
        last_pass: null,
        last_fail: Date.parse('2026-11-28T09:05:03.120Z'),
        p95: 0,
        p97: null,
        p99: 7,
        rolling1h: 1234567,
      },
      {
        passed: 9_007_199_254_740_991,
        failed: 1,
        last_pass: Date.parse('1969-12-31T23:59:59.001Z'),
        last_fail: Date.parse('2000-01-01T00:00:00.000Z'),
        p95: 12.5,
        p97: -3,
        p99: 1e21,
        rolling1h: -0,
      },
      { passed: 1, failed: 0, last_pass: Date.parse('2026-02-28T23:59:59.999Z'), p95: 100, p97: 101, p99: 1e25 },
    ]);
    const out = written(f, [0, 1, 2, undefined]);
    expect(out).toEqual([0, 1, 2, undefined].map((i) => figuresText(f, i)));
    expect(out[0]).toBe(
      ',"uptime":{"passed":0,"failed":12,"last_pass":null,"last_fail":"2026-11-28T09:05:03.12+00:00"},' +
        '"latency":{"p95":0,"p97":null,"p99":7,"rolling1h":1234567},',
    );
    expect(out[3]).toBe(NO_FIGURES);
    expect(JSON.parse(`{${out[1]!.slice(1, -1)}}`)).toMatchObject({ uptime: { passed: 9_007_199_254_740_991 } });
  });

  it('agrees with figuresText on 5,000 random checks', () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const pick = () => {
      const x = rnd();
      return x < 0.1 ? null : x < 0.2 ? Math.floor(rnd() * 10) : Math.floor(rnd() ** 3 * 1e9) * (x < 0.25 ? -1 : 1);
    };
    const time = () => (rnd() < 0.2 ? null : Math.floor((rnd() - 0.3) * 4e12));
    const rows = Array.from({ length: 5_000 }, () => ({
      passed: Math.floor(rnd() * 1e6),
      failed: Math.floor(rnd() * 1e3),
      last_pass: time(),
      last_fail: time(),
      p95: pick(),
      p97: pick(),
      p99: pick(),
      rolling1h: pick(),
    }));
    const f = figures(rows);
    const at = rows.map((_, i) => (i % 97 === 0 ? undefined : i));
    expect(written(f, at)).toEqual(at.map((i) => figuresText(f, i)));
  });
});
