// CEL collection and number functions of canary-checker's environment: map methods (.keys,
// .values, .merge, .omit, .pick), list methods (.sort, .distinct/.uniq, .flatten, .reverse,
// .slice, .first/.last), range, coalesce, sets.* (cel-go's sets extension) and math.* (gomplate's
// Add/Sub/.../Seq plus cel-go's greatest/least/ceil/.../bit operations).

import { type CelRegistrar, entriesOf, int, listOf, num } from './celFunctions.js';
import { fromCelValue } from './celValues.js';
import { toJsonText } from './values.js';

/** A key under which CEL-equal values (1, 1u, 1.0) collide. */
function equalityKey(value: unknown): string {
  if (typeof value === 'bigint' || typeof value === 'number') return `n:${Number(value)}`;
  if (typeof value === 'object' && value !== null && 'value' in value && typeof value.value === 'bigint')
    return `n:${Number(value.value)}`; // uint
  if (value instanceof Date) return `t:${value.getTime()}`;
  return `j:${toJsonText(fromCelValue(value))}`;
}

function distinct(list: unknown[]): unknown[] {
  const seen = new Set<string>();
  return list.filter((item) => {
    const key = equalityKey(item);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function compare(a: unknown, b: unknown): number {
  const kind = (v: unknown) =>
    typeof v === 'bigint' || typeof v === 'number' ? 'number' : v instanceof Date ? 'time' : typeof v;
  const [ka, kb] = [kind(a), kind(b)];
  if (ka !== kb || !['number', 'string', 'time', 'boolean'].includes(ka))
    throw new TypeError(`sort(): cannot order ${ka} and ${kb} values`);
  const [x, y] =
    ka === 'number' ? [Number(a), Number(b)] : ka === 'time' ? [(a as Date).getTime(), (b as Date).getTime()] : [a, b];
  return (x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0;
}

function flatten(list: unknown[], depth: number): unknown[] {
  if (depth < 0) throw new RangeError('flatten(): the depth must not be negative');
  return list.flatMap((item) => (Array.isArray(item) && depth > 0 ? flatten(item, depth - 1) : [item]));
}

function pickMap(map: unknown, keys: unknown, keep: boolean): Record<string, unknown> {
  const wanted = new Set(listOf(keys, 'the keys').map(String));
  return Object.fromEntries(entriesOf(map).filter(([k]) => wanted.has(k) === keep));
}

function mergeMaps(a: unknown, b: unknown): Record<string, unknown> {
  return { ...Object.fromEntries(entriesOf(a)), ...Object.fromEntries(entriesOf(b)) };
}

function range(start: bigint, end: bigint, step: bigint): bigint[] {
  if (step === 0n) throw new RangeError('range(): the step must not be 0');
  const count = (end - start) / step;
  if (count > 100_000n) throw new RangeError('range(): more than 100000 values');
  const out: bigint[] = [];
  for (let i = start; step > 0n ? i < end : i > end; i += step) out.push(i);
  return out;
}

/** A number result: an int when every input was an int and the result is integral. */
const numberResult = (value: number, inputs: unknown[]): bigint | number =>
  inputs.every((v) => typeof v === 'bigint') && Number.isSafeInteger(value) ? BigInt(value) : value;

const isInt = (v: unknown) => typeof v === 'bigint';
const extreme = (values: unknown[], pick: (a: number, b: number) => boolean, fn: string) => {
  if (values.length === 0) throw new RangeError(`math.${fn}(): no values`);
  return values.reduce((best, v) => (pick(num(v, `math.${fn}()`), num(best, `math.${fn}()`)) ? v : best));
};

export function registerCollectionFunctions({ fn, ns }: CelRegistrar): void {
  // Maps (dyn receivers resolve to these at run time: `json.headers.keys()`).
  fn('map.keys(): list<string>', (m: unknown) => entriesOf(m).map(([k]) => k));
  fn('map.values(): list', (m: unknown) => entriesOf(m).map(([, v]) => v));
  fn('map.merge(map): map', mergeMaps);
  fn('merge(map, map): map', mergeMaps);
  fn('map.omit(list): map', (m: unknown, keys: unknown) => pickMap(m, keys, false));
  fn('map.pick(list): map', (m: unknown, keys: unknown) => pickMap(m, keys, true));

  // Lists.
  fn('list.sort(): list', (l: unknown[]) => [...l].sort(compare));
  fn('list.distinct(): list', distinct);
  fn('list.uniq(): list', distinct);
  fn('list.flatten(): list', (l: unknown[]) => flatten(l, Number.MAX_SAFE_INTEGER));
  fn('list.flatten(int): list', (l: unknown[], depth: bigint) => flatten(l, Number(depth)));
  fn('list.reverse(): list', (l: unknown[]) => [...l].reverse());
  fn('list.slice(int, int): list', (l: unknown[], a: bigint, b: bigint) => {
    if (a < 0n || b < a || b > BigInt(l.length))
      throw new RangeError(`slice(): indexes ${a}..${b} are outside the list of ${l.length}`);
    return l.slice(Number(a), Number(b));
  });
  fn('list.first(): dyn', (l: unknown[]) => l[0] ?? null);
  fn('list.last(): dyn', (l: unknown[]) => l.at(-1) ?? null);
  fn('list.sum(): dyn', (l: unknown[]) =>
    numberResult(
      l.reduce<number>((s, v) => s + num(v, 'sum()'), 0),
      l,
    ),
  );
  fn('coalesce(list): dyn', (l: unknown[]) => l.find((v) => v !== null && v !== '' && v !== undefined) ?? null);
  fn('range(int): list<int>', (n: bigint) => range(0n, n, 1n));
  fn('range(int, int): list<int>', (a: bigint, b: bigint) => range(a, b, 1n));
  fn('range(int, int, int): list<int>', range);
  ns('lists', 'range(int): list<int>', (n: bigint) => range(0n, n, 1n));

  // sets.* (cel-go): membership by CEL equality.
  const keys = (l: unknown) => new Set(listOf(l, 'the set').map(equalityKey));
  ns('sets', 'contains(list, list): bool', (a: unknown, b: unknown) => {
    const have = keys(a);
    return [...keys(b)].every((k) => have.has(k));
  });
  ns('sets', 'equivalent(list, list): bool', (a: unknown, b: unknown) => {
    const [x, y] = [keys(a), keys(b)];
    return x.size === y.size && [...x].every((k) => y.has(k));
  });
  ns('sets', 'intersects(list, list): bool', (a: unknown, b: unknown) => {
    const have = keys(a);
    return [...keys(b)].some((k) => have.has(k));
  });

  // math.* : gomplate's (Add, Sub, ...) and cel-go's (greatest, least, ceil, ...).
  const m = (sig: string, handler: (...args: never[]) => unknown) => ns('math', sig, handler);
  m('Add(list): dyn', (l: unknown[]) =>
    numberResult(
      l.reduce<number>((s, v) => s + num(v, 'math.Add()'), 0),
      l,
    ),
  );
  m('Mul(list): dyn', (l: unknown[]) =>
    numberResult(
      l.reduce<number>((s, v) => s * num(v, 'math.Mul()'), 1),
      l,
    ),
  );
  m('Sub(dyn, dyn): dyn', (a: unknown, b: unknown) => numberResult(num(a) - num(b), [a, b]));
  m('Div(dyn, dyn): double', (a: unknown, b: unknown) => {
    if (num(b) === 0) throw new RangeError('math.Div(): division by zero');
    return num(a) / num(b);
  });
  m('Rem(dyn, dyn): dyn', (a: unknown, b: unknown) => {
    if (num(b) === 0) throw new RangeError('math.Rem(): division by zero');
    return numberResult(num(a) % num(b), [a, b]);
  });
  m('Pow(dyn, dyn): dyn', (a: unknown, b: unknown) => numberResult(num(a) ** num(b), [a, b]));
  m('Seq(list): list<int>', (l: unknown[]) => {
    const [a, b, step] = l.map((v) => int(num(v, 'math.Seq()')));
    if (a === undefined || b === undefined) throw new RangeError('math.Seq(): give [start, end] or [start, end, step]');
    const s = step ?? (b >= a ? 1n : -1n);
    return range(a, b + (s > 0n ? 1n : -1n), s);
  });
  for (const [name, pick] of [
    ['greatest', (a: number, b: number) => a > b],
    ['least', (a: number, b: number) => a < b],
  ] as const) {
    m(`${name}(list): dyn`, (l: unknown[]) => extreme(l, pick, name));
    m(`${name}(dyn, dyn): dyn`, (a: unknown, b: unknown) => extreme([a, b], pick, name));
    m(`${name}(dyn, dyn, dyn): dyn`, (a: unknown, b: unknown, c: unknown) => extreme([a, b, c], pick, name));
  }
  const unary: Array<[string[], (x: number) => number, 'same' | 'double' | 'int']> = [
    [['Abs', 'abs'], Math.abs, 'same'],
    [['Sign', 'sign'], Math.sign, 'same'],
    [['Ceil', 'ceil'], Math.ceil, 'double'],
    [['Floor', 'floor'], Math.floor, 'double'],
    [['Round', 'round'], (x) => (x < 0 ? -Math.round(-x) : Math.round(x)), 'double'],
    [['Trunc', 'trunc'], Math.trunc, 'double'],
    [['Sqrt', 'sqrt'], Math.sqrt, 'double'],
  ];
  for (const [names, op, kind] of unary)
    for (const name of names)
      m(`${name}(dyn): dyn`, (x: unknown) => {
        const value = op(num(x, `math.${name}()`));
        return kind === 'same' && isInt(x) ? BigInt(value) : value;
      });
  for (const [names, test] of [
    [['IsNaN', 'isNaN'], Number.isNaN],
    [['IsInf', 'isInf'], (x: number) => x === Infinity || x === -Infinity],
    [['IsFinite', 'isFinite'], Number.isFinite],
  ] as const)
    for (const name of names) m(`${name}(dyn): bool`, (x: unknown) => test(num(x, `math.${name}()`)));
  m('IsInt(dyn): bool', (x: unknown) => typeof x === 'bigint');
  m('IsFloat(dyn): bool', (x: unknown) => typeof x === 'number');
  m('IsNum(dyn): bool', (x: unknown) => typeof x === 'number' || typeof x === 'bigint');
  const bit: Array<[string, (a: bigint, b: bigint) => bigint]> = [
    ['bitOr', (a, b) => a | b],
    ['bitAnd', (a, b) => a & b],
    ['bitXor', (a, b) => a ^ b],
    ['bitShiftLeft', (a, b) => BigInt.asIntN(64, a << b)],
    ['bitShiftRight', (a, b) => a >> b],
  ];
  for (const [name, op] of bit) m(`${name}(int, int): int`, op);
  m('bitNot(int): int', (a: bigint) => ~a);
}
