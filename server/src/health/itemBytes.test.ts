import { describe, expect, it } from 'vitest';
import { RAW_COLUMNS, templatesOfRawCopy } from './itemBytes.js';
import { ITEM_HEAD_KEYS, ITEM_TAIL_KEYS } from './summary.js';
import { random } from '../../test/helpers/random.js';
import { rowPartsOfBytes, rowPartsParsed } from './summaryRows.js';

const PG_EPOCH_MS = Date.UTC(2000, 0, 1);

/** A binary COPY of rows whose fields are given as bytes (null: NULL), as PostgreSQL writes it. */
function copyOf(rows: Array<Array<Buffer | null>>): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)];
  for (const row of rows) {
    const n = Buffer.alloc(2);
    n.writeInt16BE(row.length);
    parts.push(n);
    for (const f of row) {
      const len = Buffer.alloc(4);
      len.writeInt32BE(f === null ? -1 : f.length);
      parts.push(len, ...(f === null ? [] : [f]));
    }
  }
  const end = Buffer.alloc(2);
  end.writeInt16BE(-1);
  parts.push(end);
  return Buffer.concat(parts);
}

const text = (s: string) => Buffer.from(s);
const uuidBytes = (u: string) => Buffer.from(u.replace(/-/g, ''), 'hex');
const jsonb = (t: string) => Buffer.concat([Buffer.from([1]), Buffer.from(t)]);
/** A timestamptz's binary form: microseconds since 2000 as int8. */
const time = (us: bigint) => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(us);
  return b;
};
const usOf = (iso: string, micro = 0) => BigInt(Date.parse(iso) - PG_EPOCH_MS) * 1000n + BigInt(micro);

/** The item row_to_json writes for these values (jsonb as its text, times as given). */
interface Item {
  strings: Record<string, string | null>;
  labels: string | null;
  times: Array<string | null>;
}

function rowOf(id: string, canary: string, item: Item): Array<Buffer | null> {
  const head = ITEM_HEAD_KEYS.map((k) => {
    if (k === 'id') return uuidBytes(id);
    if (k === 'canary_id') return uuidBytes(canary);
    if (k === 'agent_id') return null;
    if (k === 'labels') return item.labels === null ? null : jsonb(item.labels);
    const v = item.strings[k];
    return v === null || v === undefined ? null : text(v);
  });
  return [text(id), text('v1'), text('k1'), ...head, ...item.times.map((t) => (t === null ? null : time(BigInt(t))))];
}

const expectedJson = (id: string, canary: string, item: Item, times: Array<string | null>) => {
  const head = ITEM_HEAD_KEYS.map((k) => {
    const v =
      k === 'id'
        ? JSON.stringify(id)
        : k === 'canary_id'
          ? JSON.stringify(canary)
          : k === 'agent_id'
            ? 'null'
            : k === 'labels'
              ? (item.labels ?? 'null')
              : JSON.stringify(item.strings[k] ?? null);
    return `"${k}":${v}`;
  });
  const tail = ITEM_TAIL_KEYS.map((k, i) => `"${k}":${times[i] === null ? 'null' : `"${times[i]}"`}`);
  return { head: `{${head.join(',')}`, tail: `${tail.join(',')}}` };
};

describe('templatesOfRawCopy', () => {
  const id = '7d3a1c1e-0a9f-4b00-8c2d-00000000abcd';
  const canary = 'ffffffff-0000-4000-8000-0123456789ef';

  it('writes each item as row_to_json does: strings escaped, jsonb as its text, times in UTC to the microsecond', () => {
    const item: Item = {
      strings: {
        canary_name: 'web',
        canary_namespace: 'default',
        status: 'healthy',
        type: 'http',
        name: 'a "quoted" \\ name\t\n\r\b\f \u0001\u001f \u007f é ✓ 🚀',
        description: '',
      },
      labels: '{"a": "b \\"c\\"", "n": 1.0, "x": [1, null]}',
      times: [
        String(usOf('2026-11-26T17:23:04.123Z', 456)),
        String(usOf('2026-11-26T17:24:00.000Z', 100_000)),
        String(usOf('1969-07-20T20:17:40.050Z')),
        String(usOf('1999-12-31T23:59:59.999Z', 999)),
        String(usOf('2000-01-01T00:00:00.000Z')),
        null,
      ],
    };
    const { ids, templates } = templatesOfRawCopy(copyOf([rowOf(id, canary, item)]));
    const got = { id: ids[0], t: templates[0]! };
    const want = expectedJson(id, canary, item, [
      '2026-11-26T17:23:04.123456+00:00',
      '2026-11-26T17:24:00.1+00:00',
      '1969-07-20T20:17:40.05+00:00',
      '1999-12-31T23:59:59.999999+00:00',
      '2000-01-01T00:00:00+00:00',
      null,
    ]);
    expect(got.id).toBe(id);
    expect(got.t.v).toBe('v1');
    expect(got.t.k).toBe('k1');
    const { b, head, headEnd, tail, tailEnd } = got.t;
    expect(b.toString('utf8', head, headEnd)).toBe(want.head);
    expect(b.toString('utf8', tail, tailEnd)).toBe(want.tail);
    // The two parts with figures between are one JSON object.
    expect(JSON.parse(`${want.head},"uptime":1,${want.tail}`)).toMatchObject({ uptime: 1, labels: { n: 1 } });
  });

  it('escapes any string as JSON.stringify does, across the buffers it writes into', () => {
    const rnd = random(7);
    const chars = ['a', 'Z', '"', '\\', '/', '\u0000', '\u0008', '\u001b', '\u007f', 'é', '€', '𝄞', ' '];
    const items: Item[] = Array.from({ length: 3000 }, () => ({
      strings: {
        canary_name: 'c',
        name: Array.from({ length: Math.floor(rnd() * 300) }, () => chars[Math.floor(rnd() * chars.length)]).join(''),
        description: rnd() < 0.3 ? null : 'd'.repeat(Math.floor(rnd() * 2000)),
      },
      labels: rnd() < 0.5 ? null : '{}',
      times: ITEM_TAIL_KEYS.map(() => (rnd() < 0.5 ? null : String(BigInt(Math.floor(rnd() * 1e15))))),
    }));
    const got = templatesOfRawCopy(copyOf(items.map((it) => rowOf(id, canary, it)))).templates;
    expect(got).toHaveLength(items.length);
    expect(new Set(got.map((t) => t.b)).size).toBeGreaterThan(1);
    got.forEach((t, i) => {
      const item = JSON.parse(
        `${t.b.toString('utf8', t.head, t.headEnd)},${t.b.toString('utf8', t.tail, t.tailEnd)}`,
      ) as Record<string, unknown>;
      expect(item.name).toBe(items[i]!.strings.name);
      expect(item.description).toBe(items[i]!.strings.description);
      const us = items[i]!.times[0];
      const ms = us === null ? null : Number(BigInt(us) / 1000n) + PG_EPOCH_MS;
      expect(item.last_runtime === null ? null : Date.parse(item.last_runtime as string)).toBe(ms);
    });
  });

  it('with rows, cuts each console row from where it wrote the values: what the scan and JSON.parse give', () => {
    const rnd = random(11);
    const chars = ['a', '"', '\\', ',', ':', '{', '}', ' ', '\u0001', 'é', '🚀'];
    const str = (n: number) => Array.from({ length: n }, () => chars[Math.floor(rnd() * chars.length)]).join('');
    const labels = ['{}', '{"a": "b, c: d"}', '{"n": 1.0, "x": [1, null]}', '{"k": "v", "e": ""}', null];
    const items: Item[] = Array.from({ length: 400 }, (_, i) => ({
      strings: { canary_name: str(5), name: str(20), status: rnd() < 0.2 ? null : str(3), endpoint: str(30) },
      labels: labels[i % labels.length]!,
      times: ITEM_TAIL_KEYS.map(() => (rnd() < 0.3 ? null : String(BigInt(Math.floor(rnd() * 1e15))))),
    }));
    const data = copyOf(items.map((it) => rowOf(id, canary, it)));
    const plain = templatesOfRawCopy(data).templates;
    const cut = templatesOfRawCopy(data, true).templates;
    expect(plain.every((t) => t.row === undefined)).toBe(true);
    cut.forEach((t, i) => {
      const p = plain[i]!;
      expect(t.row).toEqual(rowPartsOfBytes(p.b, p.head, p.headEnd, p.tail, p.tailEnd));
      expect(t.row).toEqual(rowPartsParsed(p.b, p.head, p.headEnd, p.tail, p.tailEnd));
    });
  });

  it('stops at the end of the data and at rows of another shape', () => {
    expect(templatesOfRawCopy(copyOf([]))).toEqual({ ids: [], templates: [] });
    expect(RAW_COLUMNS).toBe(3 + ITEM_HEAD_KEYS.length + ITEM_TAIL_KEYS.length);
    expect(templatesOfRawCopy(copyOf([[text('x')]]))).toEqual({ ids: [], templates: [] });
  });
});
