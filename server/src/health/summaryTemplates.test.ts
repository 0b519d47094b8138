import { describe, expect, it } from 'vitest';
import { pgTimestamp } from './summaryTemplates.js';

describe('pgTimestamp', () => {
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
