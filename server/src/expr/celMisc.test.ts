import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';

const ev = (expr: string, vars: Record<string, unknown> = {}) => evaluateCel(expr, vars);

describe('CEL net.*', () => {
  it('ContainsCIDR for IPv4 and IPv6, IsValidIP', () => {
    expect(ev('net.ContainsCIDR("10.0.0.0/8", "10.1.2.3")')).toBe(true);
    expect(ev('net.ContainsCIDR("10.0.0.0/8", "11.1.2.3")')).toBe(false);
    expect(ev('net.ContainsCIDR("192.168.1.0/24", "192.168.1.255")')).toBe(true);
    expect(ev('net.ContainsCIDR("fd00::/8", "fd12:3456::1")')).toBe(true);
    expect(ev('net.ContainsCIDR("fd00::/8", "fe80::1")')).toBe(false);
    expect(ev('net.ContainsCIDR("10.0.0.0/8", "::1")')).toBe(false);
    expect(() => ev('net.ContainsCIDR("10.0.0.0", "10.0.0.1")')).toThrow(/not a CIDR/);
    expect(ev('net.IsValidIP("1.2.3.4") && net.IsValidIP("::1") && !net.IsValidIP("1.2.3")')).toBe(true);
  });
});

describe('CEL test.*', () => {
  it('Assert, Fail, Required, Ternary, Kind, IsKind', () => {
    expect(ev('test.Assert(1 == 1)')).toBe(true);
    expect(() => ev('test.Assert("code is 200", code == 200)', { code: 500 })).toThrow(/assertion failed: code is 200/);
    expect(() => ev('test.Fail("nope")')).toThrow(/failed: nope/);
    expect(ev('test.Required("x")')).toBe('x');
    expect(() => ev('test.Required("")')).toThrow(/required/);
    expect(ev('test.Ternary("yes", "no", code == 200)', { code: 200 })).toBe('yes');
    expect(ev('test.Kind(1) + " " + test.Kind(1.5) + " " + test.Kind([1]) + " " + test.Kind({"a": 1})')).toBe(
      'int64 float64 slice map',
    );
    expect(ev('test.IsKind("number", 1) && test.IsKind("string", "a")')).toBe(true);
  });
});

describe('CEL gomplate collection helpers', () => {
  it('first, last, Has, Dict, Append, Prepend, sortBy', () => {
    expect(ev('first([1, 2]) + last([1, 2])')).toBe(3);
    expect(ev('first([])')).toBeNull();
    expect(ev('Has({"a": 1}, "a") && !Has({"a": 1}, "b") && !Has("x", "a")')).toBe(true);
    expect(ev('Dict(["a", 1, "b", "x"])')).toEqual({ a: 1, b: 'x' });
    expect(() => ev('Dict(["a"])')).toThrow(/pairs/);
    expect(ev('Append(3, [1, 2])')).toEqual([1, 2, 3]);
    expect(ev('Prepend(0, [1])')).toEqual([0, 1]);
    expect(
      ev('items.sortBy("meta.age").map(i, i.n)', {
        items: [
          { n: 'b', meta: { age: 9 } },
          { n: 'a', meta: { age: 3 } },
        ],
      }),
    ).toEqual(['a', 'b']);
  });
});

describe('CEL sortBy macro (cel-go lists extension)', () => {
  it('orders by a key expression, stable', () => {
    const items = [
      { n: 'b', age: 9 },
      { n: 'a', age: 3 },
      { n: 'c', age: 3 },
    ];
    expect(ev('items.sortBy(i, i.age).map(i, i.n)', { items })).toEqual(['a', 'c', 'b']);
    expect(ev('items.sortBy(i, -i.age)[0].n', { items })).toBe('b');
    expect(ev('["bb", "a"].sortBy(s, s.size())')).toEqual(['a', 'bb']);
  });
});
