import { describe, expect, it } from 'vitest';
import { durationFromMs } from './duration.js';
import { formatGoTime, formatNumber, formatValue, goTypeName, isTrue, sprint, sprintf } from './gofmt.js';

describe('sprintf', () => {
  it('formats the common verbs', () => {
    expect(sprintf('%s|%v|%d|%t', ['a', [1, 'b'], 42, false])).toBe('a|[1 b]|42|false');
    expect(sprintf('%f|%.2f|%.0f', [1.5, 3.14159, 2.5])).toBe('1.500000|3.14|3');
    expect(sprintf('%e|%.2E', [1234.5678, 0.000123])).toBe('1.234568e+03|1.23E-04');
    expect(sprintf('%g|%.3g', [0.5, 3.14159])).toBe('0.5|3.14');
    expect(sprintf('%x|%X|%#x|%o|%#o|%b|%x', [255, 255, 255, 8, 8, 5, 'hi'])).toBe('ff|FF|0xff|10|010|101|6869');
    expect(sprintf('%q|%c|%T|%T|%T', ['a"b', 65, 1.5, 'x', { a: 1 }])).toBe(
      '"a\\"b"|A|float64|string|map[string]interface {}',
    );
  });

  it('honours flags, width and precision', () => {
    expect(sprintf('[%5d][%-5d][%05d][%+d][% d][%+d]', [42, 42, 42, 42, 42, -42])).toBe(
      '[   42][42   ][00042][+42][ 42][-42]',
    );
    expect(sprintf('[%8.3f][%-8s][%.3s][%06.2f]', [3.14159, 'ab', 'abcdef', -1.5])).toBe(
      '[   3.142][ab      ][abc][-01.50]',
    );
  });

  it("marks wrong types, missing and extra arguments like Go's fmt", () => {
    expect(sprintf('%d', ['x'])).toBe('%!d(string=x)');
    expect(sprintf('%t', [1])).toBe('%!t(int=1)');
    expect(sprintf('%s %s', ['a'])).toBe('a %!s(MISSING)');
    expect(sprintf('%s', ['a', 1, 'b'])).toBe('a%!(EXTRA int=1, string=b)');
    expect(sprintf('%z', [1])).toBe('%!z(int=1)');
    expect(sprintf('100%%', [])).toBe('100%');
    expect(sprintf('%', [])).toBe('%!(NOVERB)');
  });
});

describe('formatValue (%v)', () => {
  it('prints values the way Go prints interface{} data', () => {
    expect(formatValue('x')).toBe('x');
    expect(formatValue(1000000)).toBe('1000000');
    expect(formatValue(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(formatValue(true)).toBe('true');
    expect(formatValue(null)).toBe('<no value>');
    expect(formatValue([1, null, 'a'])).toBe('[1 <nil> a]');
    expect(formatValue({ b: { y: 2, x: 1 }, a: [] })).toBe('map[a:[] b:map[x:1 y:2]]');
    expect(formatValue(new Map([['k', 1]]))).toBe('map[k:1]');
    expect(formatValue(durationFromMs(61_000))).toBe('1m1s');
    expect(formatValue(new Date('2024-01-02T03:04:05Z'))).toBe('2024-01-02 03:04:05 +0000 UTC');
    expect(formatValue(new Uint8Array([1, 2]))).toBe('[1 2]');
  });

  it('prints special numbers like Go', () => {
    expect(formatNumber(Number.NaN)).toBe('NaN');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('+Inf');
    expect(formatNumber(-0.5)).toBe('-0.5');
  });

  it('separates Sprint operands only between non-strings', () => {
    expect(sprint(['a', 'b', 1, 2, 'c'])).toBe('ab1 2c');
  });
});

describe('formatGoTime', () => {
  const t = new Date('2024-03-05T15:04:09.120Z');

  it('understands the reference-time layouts', () => {
    expect(formatGoTime(t, '2006-01-02T15:04:05Z07:00')).toBe('2024-03-05T15:04:09Z');
    expect(formatGoTime(t, 'Mon Jan _2 15:04:05 MST 2006')).toBe('Tue Mar  5 15:04:09 UTC 2024');
    expect(formatGoTime(t, 'Monday, January 2, 2006 3:04PM')).toBe('Tuesday, March 5, 2024 3:04PM');
    expect(formatGoTime(t, '02/01/06 03:04:05 pm -0700')).toBe('05/03/24 03:04:09 pm +0000');
    expect(formatGoTime(t, '002 __2 1 2 3 4 5')).toBe('065  65 3 5 3 4 9');
    expect(formatGoTime(t, '-07 -07:00:00 -070000 Z0700')).toBe('+00 +00:00:00 +000000 Z');
  });

  it('writes fractional seconds fixed (.000) or trimmed (.999)', () => {
    expect(formatGoTime(t, '05.000')).toBe('09.120');
    expect(formatGoTime(t, '05.999999')).toBe('09.12');
    expect(formatGoTime(new Date('2024-01-01T00:00:00Z'), '05.999|05.000000')).toBe('00|00.000000');
    expect(formatGoTime(t, '2006.01.02')).toBe('2024.03.05');
  });
});

describe('isTrue and goTypeName', () => {
  it("follow Go's template truth and type names", () => {
    expect([false, 0, '', null, undefined, [], {}, new Map(), durationFromMs(0)].map(isTrue)).toEqual(
      Array(9).fill(false),
    );
    expect([true, -1, 'x', [0], { a: 0 }, new Date(0), durationFromMs(1)].map(isTrue)).toEqual(Array(7).fill(true));
    expect([1, 1.5, 'x', true, [], {}, null].map(goTypeName)).toEqual([
      'int',
      'float64',
      'string',
      'bool',
      '[]interface {}',
      'map[string]interface {}',
      '<nil>',
    ]);
  });
});
