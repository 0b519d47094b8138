import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';

const ev = (expr: string, vars: Record<string, unknown> = {}) => evaluateCel(expr, vars);
const vars = { json: { headers: { Host: 'x', 'User-Agent': 'y' }, rates: { EUR: 0.9, GBP: 0.8 } } };

describe('CEL map methods', () => {
  it('keys() and values() on literal and dynamic maps', () => {
    expect(ev('{"first": "John", "last": "Doe"}.keys()')).toEqual(['first', 'last']);
    expect(ev('json.headers.keys()', vars)).toEqual(['Host', 'User-Agent']);
    expect(ev('dyn(json.rates).keys().size()', vars)).toBe(2);
    expect(ev("{'a': 1, 'b': 2}.values()")).toEqual([1, 2]);
    expect(ev('json.rates.values().all(v, v < 1.0)', vars)).toBe(true);
    expect(() => ev('"x".keys()')).toThrow(/no matching overload/);
  });

  it('merge, omit, pick', () => {
    expect(ev('{"first": "John"}.merge({"last": "Doe"})')).toEqual({ first: 'John', last: 'Doe' });
    expect(ev('merge({"a": 1}, {"a": 2, "b": 3})')).toEqual({ a: 2, b: 3 });
    expect(ev('{"first": "John", "last": "Doe"}.omit(["first"])')).toEqual({ last: 'Doe' });
    expect(ev('json.headers.pick(["Host"])', vars)).toEqual({ Host: 'x' });
  });
});

describe('CEL list methods', () => {
  it('sort, distinct, uniq, reverse', () => {
    expect(ev('[3, 2, 1].sort()')).toEqual([1, 2, 3]);
    expect(ev("['c', 'b', 'a'].sort()")).toEqual(['a', 'b', 'c']);
    expect(() => ev("[1, 'a'].sort()")).toThrow(/cannot order/);
    expect(ev('[1, 2, 2, 3, 3, 3].distinct()')).toEqual([1, 2, 3]);
    expect(ev('["a", "b", "b"].uniq()')).toEqual(['a', 'b']);
    expect(ev('[1, 2, 3].reverse()')).toEqual([3, 2, 1]);
  });

  it('flatten (all levels or a depth), slice, first, last, sum', () => {
    expect(ev('[1, [2, [3, 4]]].flatten()')).toEqual([1, 2, 3, 4]);
    expect(ev('[1, [2, [3, 4]]].flatten(1)')).toEqual([1, 2, [3, 4]]);
    expect(ev("['a', 'b', 'c', 'd'].slice(1, 3).join(',')")).toBe('b,c');
    expect(() => ev('[1].slice(0, 3)')).toThrow(/outside the list/);
    expect(ev('[1, 2].first() + [1, 2].last()')).toBe(3);
    expect(ev('[].first()')).toBeNull();
    expect(ev('[1, 2, 3].sum()')).toBe(6);
    expect(ev('[1, 2.5].sum()')).toBe(3.5);
  });

  it('range, lists.range, coalesce', () => {
    expect(ev('range(5)')).toEqual([0, 1, 2, 3, 4]);
    expect(ev('range(2, 5)')).toEqual([2, 3, 4]);
    expect(ev('range(0, 10, 3)')).toEqual([0, 3, 6, 9]);
    expect(ev('lists.range(2)')).toEqual([0, 1]);
    expect(() => ev('range(0, 1, 0)')).toThrow(/step/);
    expect(ev('coalesce([null, "", "x", "y"])')).toBe('x');
  });
});

describe('CEL sets.*', () => {
  it('contains, equivalent, intersects with CEL equality across number types', () => {
    expect(ev('sets.contains([1, 2, 3, 4], [2, 3])')).toBe(true);
    expect(ev('sets.contains([], [1])')).toBe(false);
    expect(ev('sets.equivalent([1, 2, 3], [3u, 2.0, 1])')).toBe(true);
    expect(ev('sets.equivalent([1], [1, 1])')).toBe(true);
    expect(ev('sets.intersects([1], [1, 2])')).toBe(true);
    expect(ev('sets.intersects([1], [])')).toBe(false);
  });
});

describe('CEL math.*', () => {
  it('Add, Sub, Mul, Div, Rem, Pow keep ints when all inputs are ints', () => {
    expect(ev('math.Add([1, 2, 3, 4, 5])')).toBe(15);
    expect(ev('type(math.Add([1, 2]))')).toBe('int');
    expect(ev('math.Add([1, 2.5])')).toBe(3.5);
    expect(ev('math.Sub(5, 4)')).toBe(1);
    expect(ev('math.Mul([1, 2, 3, 4, 5])')).toBe(120);
    expect(ev('math.Div(4, 2)')).toBe(2);
    expect(() => ev('math.Div(1, 0)')).toThrow(/division by zero/);
    expect(ev('math.Rem(4, 3)')).toBe(1);
    expect(ev('math.Pow(4, 2)')).toBe(16);
  });

  it('Seq, greatest, least', () => {
    expect(ev('math.Seq([1, 5])')).toEqual([1, 2, 3, 4, 5]);
    expect(ev('math.Seq([1, 6, 2])')).toEqual([1, 3, 5]);
    expect(ev('math.greatest([1, 5, 3])')).toBe(5);
    expect(ev('math.greatest(1, 2.5)')).toBe(2.5);
    expect(ev('math.least(4, 2, 3)')).toBe(2);
    expect(() => ev('math.least([])')).toThrow(/no values/);
  });

  it('Abs, Sign, Ceil, Floor, Round, Trunc, Sqrt (and the lower-case cel-go names)', () => {
    expect(ev('math.Abs(-1)')).toBe(1);
    expect(ev('type(math.abs(-1))')).toBe('int');
    expect(ev('math.Sign(-5) + math.sign(0)')).toBe(-1);
    expect(ev('math.Ceil(2.3)')).toBe(3);
    expect(ev('math.floor(2.7)')).toBe(2);
    expect(ev('math.Round(2.5)')).toBe(3);
    expect(ev('math.Round(-2.5)')).toBe(-3);
    expect(ev('math.Trunc(-2.7)')).toBe(-2);
    expect(ev('math.Sqrt(2)')).toBeCloseTo(1.4142135623730951);
  });

  it('IsNaN, IsInf, IsFinite, IsInt, IsFloat, IsNum and bit operations', () => {
    expect(ev('math.IsNaN(0.0 / 0.0)')).toBe(true);
    expect(ev('math.IsInf(1.0 / 0.0)')).toBe(true);
    expect(ev('math.isFinite(5.0)')).toBe(true);
    expect(ev('math.IsInt(1) && math.IsFloat(1.5) && math.IsNum(1)')).toBe(true);
    expect(ev('math.bitOr(5, 3)')).toBe(7);
    expect(ev('math.bitAnd(5, 3)')).toBe(1);
    expect(ev('math.bitXor(5, 3)')).toBe(6);
    expect(ev('math.bitNot(5)')).toBe(-6);
    expect(ev('math.bitShiftLeft(5, 1)')).toBe(10);
    expect(ev('math.bitShiftRight(10, 1)')).toBe(5);
  });
});

describe('CEL fold macro (gomplate)', () => {
  it('folds a list from the zero value of its first element', () => {
    expect(ev('[1, 2, 3].fold(e, acc, acc + e)')).toBe(6);
    expect(ev('[1.5, 2.0].fold(e, acc, acc + e)')).toBe(3.5);
    expect(ev('["a", "b"].fold(s, acc, acc + s + ".")')).toBe('a.b.');
    expect(ev('[].fold(e, acc, acc)')).toBeNull();
  });

  it('folds a map in key order, and builds a map from key/value objects', () => {
    expect(ev('{"b": "banana", "a": "apple"}.fold(k, v, acc, acc + v)')).toBe('applebanana');
    const tags = [
      { key: 'a', value: 1 },
      { key: 'b', value: 2 },
    ];
    expect(ev('dyn(tags).fold(tag, acc, merge(acc, {tag.key: tag.value}))', { tags })).toEqual({ a: 1, b: 2 });
  });

  it('refuses repeated or non-name variables', () => {
    expect(() => ev('[1].fold(e, e, 1)')).toThrow(/names must differ/);
    expect(() => ev('[1].fold(1, acc, acc)')).toThrow(/must be a name/);
    expect(() => ev('"x".fold(e, acc, acc)', {})).toThrow(/must be a list/);
  });
});
