import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ITEM_HEAD_KEYS, ITEM_TAIL_KEYS } from './summary.js';
import { rowPartsOfBytes, rowPartsParsed } from './summaryRows.js';

/** A JSON value as jsonb writes it: a space after each `:` and `,`; numbers as given (`1.0` stays). */
type Jsonb = string | number | boolean | null | { raw: string } | Jsonb[] | { [k: string]: Jsonb };
const jsonbText = (v: Jsonb): string => {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(', ')}]`;
  if ('raw' in v && typeof v.raw === 'string' && Object.keys(v).length === 1) return v.raw;
  return `{${Object.entries(v)
    .map(([k, x]) => `${JSON.stringify(k)}: ${jsonbText(x)}`)
    .join(', ')}}`;
};

/** An item's template bytes as row_to_json writes the fields before and after its figures. */
function templateBytes(values: Record<string, unknown>, labels: Jsonb) {
  const obj = (keys: string[]) =>
    `{${keys.map((k) => `"${k}":${k === 'labels' ? jsonbText(labels) : JSON.stringify(values[k] ?? null)}`).join(',')}}`;
  const head = obj(ITEM_HEAD_KEYS);
  const tail = obj(ITEM_TAIL_KEYS);
  const b = Buffer.from(head + tail);
  const cut = Buffer.byteLength(head);
  return [b, 0, cut - 1, cut + 1, b.length] as const;
}

const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('","status":"x', '\\', '"', '{"labels": 1}', '\u0001\b\f\n\r\t\u007f\u2028', 'ünï €'),
);
const maybe = fc.option(text, { nil: null });
const jsonbValue: fc.Arbitrary<Jsonb> = fc.letrec<{ v: Jsonb }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.constantFrom({ raw: '1.0' }, { raw: '-2.50' }, { raw: '1e+21' }),
    fc.array(tie('v'), { maxLength: 3 }),
    fc.dictionary(text, tie('v'), { maxKeys: 3 }),
  ),
})).v;

describe('rowPartsOfBytes', () => {
  it('cuts the same console row text as parsing the item, whatever its values and labels', () => {
    fc.assert(
      fc.property(
        fc.record(Object.fromEntries([...ITEM_HEAD_KEYS, ...ITEM_TAIL_KEYS].map((k) => [k, maybe]))),
        fc.oneof(fc.constant(null), fc.dictionary(text, text, { maxKeys: 4 }), fc.dictionary(text, jsonbValue)),
        (values, labels) => {
          const t = templateBytes(values, labels);
          expect(rowPartsOfBytes(...t)).toEqual(rowPartsParsed(...t));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('cuts string labels without parsing them, and a row that parses to the item’s columns', () => {
    const t = templateBytes(
      { id: 'a', name: 'n', description: 'say "hi"\n', owner: 'team', last_runtime: '2026-11-27T10:00:00+00:00' },
      { tier: 'gold', 'a, b': 'c: d' },
    );
    const row = rowPartsOfBytes(...t)!;
    expect(row.head).toBe(
      '["a",null,null,null,null,null,{"tier":"gold","a, b":"c: d"},null,null,"n",null,null,null,"say \\"hi\\"\\n",null,',
    );
    expect(row.tail).toBe(',"2026-11-27T10:00:00+00:00",null,null]');
  });

  it('answers undefined for bytes that are not the expected keys in order (the row is parsed instead)', () => {
    const [b, ...cuts] = templateBytes({ id: 'a' }, null);
    const swapped = Buffer.from(b.toString().replace('"canary_id"', '"canary_ix"'));
    expect(rowPartsOfBytes(swapped, ...cuts)).toBeUndefined();
    const cut = Buffer.from(b.toString().replace('"status":null', '"status":"open'));
    expect(rowPartsOfBytes(cut, cuts[0], cuts[1] + 5, cuts[2] + 5, cuts[3] + 5)).toBeUndefined();
  });
});
