import { describe, expect, it } from 'vitest';
import { CEL_MAX_EXPRESSION_LENGTH, compileCel, evaluateCel } from './cel.js';
import { CelDuration, durationFromMs, formatDuration, isDuration } from './duration.js';
import { ExpressionError } from './errors.js';

const DAY = 86_400_000;

/** Variables as an HTTP check provides them. */
function httpVars(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    code: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'abc' },
    elapsed: durationFromMs(120),
    sslAge: durationFromMs(30 * DAY),
    content: '{"status":"ok","items":[{"name":"a"},{"name":"b"}]}',
    json: { status: 'ok', items: [{ name: 'a' }, { name: 'b' }], ratio: 0.75, count: 3, nothing: null },
    ...overrides,
  };
}

function celError(expr: string, vars: Record<string, unknown> = httpVars()): ExpressionError {
  try {
    evaluateCel(expr, vars);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`expected ${expr} to fail`);
}

describe('evaluateCel: what canary-checker users write', () => {
  it('runs the FORMATS.md example: status code list and certificate age', () => {
    const expr = "code in [200,201,301] && sslAge > Duration('7d')";
    expect(evaluateCel(expr, httpVars())).toBe(true);
    expect(evaluateCel(expr, httpVars({ code: 500 }))).toBe(false);
    expect(evaluateCel(expr, httpVars({ sslAge: durationFromMs(3 * DAY) }))).toBe(false);
  });

  it('reads JSON bodies and headers', () => {
    expect(evaluateCel("json.status == 'ok'", httpVars())).toBe(true);
    expect(evaluateCel('size(json.items) > 0', httpVars())).toBe(true);
    expect(evaluateCel('json.items[1].name', httpVars())).toBe('b');
    expect(evaluateCel("headers['Content-Type'].startsWith('application/json')", httpVars())).toBe(true);
    expect(evaluateCel("json.items.map(i, i.name).join(',')", httpVars())).toBe('a,b');
    expect(evaluateCel("json.items.exists(i, i.name == 'b')", httpVars())).toBe(true);
  });

  it('compares elapsed time with durations', () => {
    expect(evaluateCel("elapsed < Duration('500ms')", httpVars())).toBe(true);
    expect(evaluateCel("elapsed < duration('100ms')", httpVars())).toBe(false);
    expect(evaluateCel('elapsed.getMilliseconds()', httpVars())).toBe(120);
  });

  it('has the string functions', () => {
    const vars = { s: 'Hello World' };
    expect(evaluateCel("s.contains('lo W')", vars)).toBe(true);
    expect(evaluateCel("s.startsWith('Hell')", vars)).toBe(true);
    expect(evaluateCel("s.endsWith('World')", vars)).toBe(true);
    expect(evaluateCel("s.matches('^H.*d$')", vars)).toBe(true);
    expect(evaluateCel('s.lowerAscii()', vars)).toBe('hello world');
    expect(evaluateCel('s.upperAscii()', vars)).toBe('HELLO WORLD');
    expect(evaluateCel('size(s)', vars)).toBe(11);
  });

  it('tests for fields with has() and optional chaining', () => {
    expect(evaluateCel('has(json.status)', httpVars())).toBe(true);
    expect(evaluateCel('has(json.a)', httpVars())).toBe(false);
    expect(evaluateCel("json.?missing.orValue('fallback')", httpVars())).toBe('fallback');
    expect(evaluateCel('json.nothing == null', httpVars())).toBe(true);
  });

  it('mixes ints and doubles in comparisons and arithmetic', () => {
    expect(evaluateCel('json.ratio < 1', httpVars())).toBe(true);
    expect(evaluateCel('json.count > 2.5', httpVars())).toBe(true);
    expect(evaluateCel('json.count == 3.0', httpVars())).toBe(true);
    expect(evaluateCel('code + 1', httpVars())).toBe(201);
    expect(evaluateCel('code / 100 == 2', httpVars())).toBe(true); // integral numbers are CEL ints
    expect(evaluateCel('json.count * json.ratio', httpVars())).toBe(2.25);
    expect(evaluateCel('json.ratio + 1', httpVars())).toBe(1.75);
    expect(evaluateCel('1 - json.ratio', httpVars())).toBe(0.25);
    expect(evaluateCel('3 / 1.5', {})).toBe(2);
  });

  it('makes timestamps and durations', () => {
    const vars = { at: new Date('2024-01-01T00:00:00Z') };
    expect(evaluateCel("timestamp('2024-01-01T00:00:00Z') == at", vars)).toBe(true);
    expect(evaluateCel("at + duration('1h') > at", vars)).toBe(true);
    expect(evaluateCel("timestamp('2024-01-01T10:00:00Z').getHours()", vars)).toBe(10);
    const d = evaluateCel("duration('1h30m')", {});
    expect(isDuration(d) && formatDuration(d)).toBe('1h30m0s');
    expect(evaluateCel("timestamp('2024-01-02T00:00:00Z')", {})).toEqual(new Date('2024-01-02T00:00:00Z'));
  });
});

describe('evaluateCel: extra functions', () => {
  it('Duration() reads Go durations plus d, w and y', () => {
    expect(evaluateCel("Duration('1d') == Duration('24h')", {})).toBe(true);
    expect(evaluateCel("Duration('1w') == Duration('7d')", {})).toBe(true);
    expect(evaluateCel("Duration('1y') == Duration('365d')", {})).toBe(true);
    expect(evaluateCel("Duration('1h30m') > Duration('90m')", {})).toBe(false);
    expect(evaluateCel("Duration('500ms') < Duration('1s')", {})).toBe(true);
    expect(evaluateCel("Duration('1.5h').getMinutes()", {})).toBe(90);
    const sum = evaluateCel("Duration('1d') + Duration('1h')", {});
    expect(sum).toBeInstanceOf(CelDuration);
    expect(formatDuration(sum as CelDuration)).toBe('25h0m0s');
  });

  it('age() measures time since a timestamp or RFC 3339 string', () => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    expect(evaluateCel("age(t) > Duration('59m') && age(t) < Duration('61m')", { t: hourAgo })).toBe(true);
    expect(evaluateCel("age(s) > Duration('59m')", { s: hourAgo.toISOString() })).toBe(true);
    expect(evaluateCel("now() - Duration('1h') < now()", {})).toBe(true);
  });

  it('toJSON and fromJSON convert between values and JSON text', () => {
    expect(evaluateCel("toJSON({'a': 1, 'b': [true, 'x', 1.5]})", {})).toBe('{"a":1,"b":[true,"x",1.5]}');
    expect(evaluateCel('json.items.toJSON()', httpVars())).toBe('[{"name":"a"},{"name":"b"}]');
    expect(evaluateCel("toJSON({'age': sslAge})", httpVars())).toBe('{"age":"720h0m0s"}');
    expect(evaluateCel('fromJSON(content).items[0].name', httpVars())).toBe('a');
    expect(evaluateCel('content.JSON().status', httpVars())).toBe('ok');
    expect(evaluateCel('fromJSON(\'{"n": 2}\').n + 1', {})).toBe(3); // parsed integers are ints
  });

  it('reads a plain number compared with a duration as milliseconds', () => {
    const vars = { elapsed: 120, sslAge: 30 * DAY };
    expect(evaluateCel("elapsed < Duration('500ms')", vars)).toBe(true);
    expect(evaluateCel("Duration('100ms') < elapsed", vars)).toBe(true);
    expect(evaluateCel("elapsed == Duration('120ms')", vars)).toBe(true);
    expect(evaluateCel("elapsed != Duration('120ms')", vars)).toBe(false);
    expect(evaluateCel("code in [200] && sslAge > Duration('7d')", { ...vars, code: 200 })).toBe(true);
    expect(evaluateCel("1.5 <= Duration('2ms')", {})).toBe(true);
  });
});

describe('evaluateCel: values in and out', () => {
  it('returns plain JavaScript values', () => {
    expect(evaluateCel('1 + 2', {})).toBe(3);
    expect(evaluateCel("[1, 'a', 2.5, null]", {})).toEqual([1, 'a', 2.5, null]);
    expect(evaluateCel("{'a': {'b': [1u, 2]}}", {})).toEqual({ a: { b: [1, 2] } });
    expect(evaluateCel('type(1)', {})).toBe('int');
    expect(evaluateCel("b'hi'", {})).toEqual(new Uint8Array([104, 105]));
  });

  it('accepts Maps, Sets, Buffers, class instances and drops undefined and functions', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    const vars = {
      m: new Map([['k', 1]]),
      s: new Set(['a']),
      buf: Buffer.from('hi'),
      p: new Point(1, 2),
      o: { keep: 1, skip: undefined, fn: () => 1 },
    };
    expect(evaluateCel("m.k == 1 && 'a' in s && size(buf) == 2 && p.x + p.y == 3", vars)).toBe(true);
    expect(evaluateCel('has(o.skip) || has(o.fn)', vars)).toBe(false);
  });

  it('does not modify the caller variables', () => {
    const vars = httpVars();
    const before = JSON.stringify(vars);
    evaluateCel('json.count + 1', vars);
    expect(JSON.stringify(vars)).toBe(before);
    expect((vars.json as { count: unknown }).count).toBe(3);
  });

  it('refuses cyclic variables with a clear error', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(celError('true', { cyclic }).message).toMatch(/CEL variables could not be converted: .*cyclic/);
  });
});

describe('evaluateCel: errors', () => {
  it('reports syntax errors with line, column and the offending line', () => {
    const error = celError('json.status ==');
    expect(error.message).toBe(
      'CEL syntax error at line 1, column 15: Unexpected token: EOF\n  json.status ==\n                ^',
    );
    expect(error.position).toEqual({ offset: 14, line: 1, column: 15 });
    expect(error.language).toBe('cel');
    expect(error.expression).toBe('json.status ==');
  });

  it('reports evaluation errors at the failing part', () => {
    const missing = celError("code == 200 &&\n  json.missing == 'x'");
    expect(missing.message).toMatch(/^CEL evaluation error at line 2, column 8: No such key: missing/);
    expect(missing.message).toContain("    json.missing == 'x'\n         ^"); // caret under "missing"
    expect(celError("code + 'x'").message).toMatch(/no such overload: dyn<int> \+ string/);
    expect(celError('unknownVar > 1').message).toMatch(/Unknown variable: unknownVar/);
  });

  it('positions errors raised by the extra functions at the call', () => {
    const error = celError("code == 200 && sslAge > Duration('7x')");
    expect(error.message).toMatch(/at line 1, column 25: invalid duration "7x": unknown unit "x"/);
    expect(celError("fromJSON('{nope')").message).toMatch(/fromJSON\(\): invalid JSON/);
    expect(celError("age('yesterday')").message).toMatch(/"yesterday" is not a timestamp/);
  });

  it('refuses empty and over-long expressions', () => {
    expect(celError('  ').message).toBe('CEL expression is empty');
    const long = `true || ${'x'.repeat(CEL_MAX_EXPRESSION_LENGTH)}`;
    expect(celError(long).message).toMatch(/CEL expression is too long \(\d+ characters; the limit is 10240\)/);
  });

  it('only compares durations with durations or numbers', () => {
    expect(celError("sslAge > '7d'").message).toMatch(/no such overload/);
  });
});

describe('compileCel', () => {
  it('caches compiled programs by expression text', () => {
    const expr = `code == ${Math.random()}`;
    expect(compileCel(expr)).toBe(compileCel(expr));
  });

  it('does not cache failures', () => {
    expect(() => compileCel('1 +')).toThrow(ExpressionError);
    expect(() => compileCel('1 +')).toThrow(/CEL syntax error/);
  });
});
