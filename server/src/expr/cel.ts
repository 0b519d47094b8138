// CEL (Common Expression Language) evaluation for `test.expr`, `display.expr`, notification
// filters and the like, on @marcbachmann/cel-js with the functions canary-checker users rely on.
//
// Values in: variables are converted to CEL values on each call. Integral JavaScript numbers
// become CEL `int` (so `code + 1`, `code / 100 == 2` and list indexes behave as with Go's int
// status code); other numbers become `double`. Mixed int/double arithmetic is allowed and gives
// a double (standard CEL refuses `1 + 1.5`; comparisons across int/double are standard). Dates
// become timestamps, `Duration` values (see duration.ts) durations, Buffers bytes, Maps and
// class instances plain maps; undefined properties and functions are dropped. A duration
// compared with a number (<, <=, >, >=, ==, !=) reads the number as milliseconds, so
// `elapsed < Duration('500ms')` also works when a caller passes `elapsed` as a number of ms.
//
// Values out: ints become JavaScript numbers (precision is lost beyond 2^53), uints numbers,
// optionals their value or null; timestamps stay Dates and durations stay `Duration`s.
//
// Extra functions (beyond the CEL standard library and cel-js's string/list/time helpers):
//   Duration(string) → duration   Go durations plus d, w, y units: Duration('7d') > Duration('36h')
//   age(timestamp|string) → duration   time elapsed since the given time
//   now() → timestamp; string(timestamp) → RFC 3339; string(duration) → "90s"
//   toJSON(x) / x.toJSON() → string, fromJSON(string) / string.JSON() → value
// and canary-checker's extension functions (celFunctions.ts and the modules it names: string
// methods, strings.*, HumanDuration/HumanSize, .keys()/.values()/.merge(), sets.*, math.*,
// toYAML/fromYAML, jsonpath, base64.*, crypto.*, uuid.*, random.*, regexp.*, filepath.*, time.*,
// matchQuery, matchLabel, aws.*, k8s.*; the full list is docs/expressions.md). checkCel
// (celCheck.ts) finds unknown functions without evaluating, for apply-time validation.
// Note: the standard `duration('1h')` keeps CEL's strict Go syntax (no days); use Duration().
//
// Limits: expressions longer than CEL_MAX_EXPRESSION_LENGTH are refused; cel-js caps AST size,
// nesting and literal sizes. CEL has no loops, so evaluation ends, but a macro over a huge list
// (or nested macros over two) takes time proportional to the data.
//
// Compiled programs are cached (LRU, CEL_CACHE_SIZE entries) by expression text.

import {
  Environment,
  EvaluationError,
  ParseError,
  TypeError as CelTypeError,
  type ParseResult,
} from '@marcbachmann/cel-js';
import { CEL_NAMESPACES, registerCelExtensions } from './celFunctions.js';
import { fromCelValue, guard, toCelDuration, toCelValue } from './celValues.js';
import { CelDuration, durationToNanos, parseDuration } from './duration.js';
import { ExpressionError, errorAt, messageOf } from './errors.js';
import { LruCache } from './lru.js';
import { toJsonText } from './values.js';

export { fromCelValue, toCelValue } from './celValues.js';

/** Longest expression accepted (characters). */
export const CEL_MAX_EXPRESSION_LENGTH = 10 * 1024;
/** Compiled expressions kept in memory. */
export const CEL_CACHE_SIZE = 1000;

const DURATION = 'google.protobuf.Duration';
const TIMESTAMP = 'google.protobuf.Timestamp';

function createEnvironment(): Environment {
  const env = new Environment({
    // Variables are whatever the check/scraper provides; treat all as `dyn` like canary-checker.
    unlistedVariablesAreDyn: true,
    // `[200, 'ok']` and `{'a': 1, 'b': 'x'}` are accepted, as in cel-go with dyn values.
    homogeneousAggregateLiterals: false,
    // `json.?a.orValue('x')`, as in canary-checker's CEL environment.
    enableOptionalTypes: true,
  });

  env.registerFunction(
    `Duration(string): ${DURATION}`,
    guard((text: string) => toCelDuration(parseDuration(text))),
  );
  env.registerFunction(`age(${TIMESTAMP}): ${DURATION}`, (time: Date) =>
    CelDuration.fromMilliseconds(Date.now() - time.getTime()),
  );
  env.registerFunction(
    `age(string): ${DURATION}`,
    guard((text: string) => {
      const time = Date.parse(text);
      if (Number.isNaN(time))
        throw new RangeError(`age(): "${text}" is not a timestamp (use RFC 3339, e.g. 2024-01-31T12:00:00Z)`);
      return CelDuration.fromMilliseconds(Date.now() - time);
    }),
  );
  env.registerFunction(`now(): ${TIMESTAMP}`, () => new Date());
  // Standard CEL conversions cel-js lacks: RFC 3339 text, and seconds as "3600s".
  env.registerFunction(`string(${TIMESTAMP}): string`, (time: Date) => time.toISOString());
  env.registerFunction(`string(${DURATION}): string`, (d: CelDuration) => `${Number(durationToNanos(d)) / 1e9}s`);
  env.registerFunction('toJSON(dyn): string', (value: unknown) => toJsonText(fromCelValue(value)));
  env.registerFunction('dyn.toJSON(): string', (value: unknown) => toJsonText(fromCelValue(value)));
  env.registerFunction(
    'fromJSON(string): dyn',
    guard((text: string) => toCelValue(parseJson(text, 'fromJSON'))),
  );
  env.registerFunction(
    'string.JSON(): dyn',
    guard((text: string) => toCelValue(parseJson(text, 'JSON'))),
  );

  registerCelExtensions(env);

  // Mixed int/double arithmetic (JSON numbers are doubles in Go but often integral here).
  const toNumber = (value: bigint | number): number => Number(value);
  const arithmetic: Array<[string, (a: number, b: number) => number]> = [
    ['+', (a, b) => a + b],
    ['-', (a, b) => a - b],
    ['*', (a, b) => a * b],
    ['/', (a, b) => a / b],
  ];
  for (const [op, apply] of arithmetic) {
    env.registerOperator(`int ${op} double`, (a: bigint, b: number) => apply(toNumber(a), b));
    env.registerOperator(`double ${op} int`, (a: number, b: bigint) => apply(a, toNumber(b)));
  }

  // A duration compared with a number reads the number as milliseconds (for callers that pass
  // `elapsed: 120` rather than a Duration). `==` also defines `!=` and both operand orders.
  const comparisons: Array<[string, (a: number, b: number) => boolean]> = [
    ['<', (a, b) => a < b],
    ['<=', (a, b) => a <= b],
    ['>', (a, b) => a > b],
    ['>=', (a, b) => a >= b],
  ];
  for (const numberType of ['int', 'double']) {
    for (const [op, compare] of comparisons) {
      env.registerOperator(`${DURATION} ${op} ${numberType}`, (d: CelDuration, n: bigint | number) =>
        compare(d.valueOf(), toNumber(n)),
      );
      env.registerOperator(`${numberType} ${op} ${DURATION}`, (n: bigint | number, d: CelDuration) =>
        compare(toNumber(n), d.valueOf()),
      );
    }
    env.registerOperator(
      `${DURATION} == ${numberType}`,
      (d: CelDuration, n: bigint | number) => d.valueOf() === toNumber(n),
    );
  }
  return env;
}

function parseJson(text: string, fn: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SyntaxError(`${fn}(): invalid JSON: ${messageOf(error)}`);
  }
}

const environment = createEnvironment();

/** The shared environment (read its definitions; do not register on it). */
export function celEnvironment(): Environment {
  return environment;
}
const cache = new LruCache<string, ParseResult>(CEL_CACHE_SIZE);

/**
 * Parse (or fetch from the cache) a CEL expression. Throws ExpressionError for an empty or too
 * long expression or a syntax error.
 */
export function compileCel(expr: string): ParseResult {
  const cached = cache.get(expr);
  if (cached) return cached;
  if (expr.trim() === '') throw new ExpressionError('CEL expression is empty', { language: 'cel', expression: expr });
  if (expr.length > CEL_MAX_EXPRESSION_LENGTH) {
    throw new ExpressionError(
      `CEL expression is too long (${expr.length} characters; the limit is ${CEL_MAX_EXPRESSION_LENGTH})`,
      { language: 'cel', expression: expr.slice(0, 200) },
    );
  }
  let program: ParseResult;
  try {
    program = environment.parse(expr);
  } catch (error) {
    throw celError(error, expr);
  }
  cache.set(expr, program);
  return program;
}

/**
 * Evaluate a CEL expression with `vars` as its variables and return the result as a plain
 * JavaScript value (see the module header for the conversions). Throws ExpressionError.
 */
export function evaluateCel(expr: string, vars: Record<string, unknown>): unknown {
  const program = compileCel(expr);
  let context: Record<string, unknown>;
  try {
    context = toCelContext(vars);
  } catch (error) {
    throw new ExpressionError(`CEL variables could not be converted: ${messageOf(error)}`, {
      language: 'cel',
      expression: expr,
      cause: error,
    });
  }
  let result: unknown;
  try {
    result = program(context);
  } catch (error) {
    throw celError(error, expr);
  }
  return fromCelValue(result);
}

/** Turn a cel-js error (or an error thrown by one of our functions) into an ExpressionError. */
function celError(error: unknown, expr: string): ExpressionError {
  if (error instanceof ExpressionError) return error;
  if (error instanceof ParseError || error instanceof EvaluationError || error instanceof CelTypeError) {
    const what =
      error instanceof ParseError
        ? 'CEL syntax error'
        : error instanceof CelTypeError
          ? 'CEL type error'
          : 'CEL evaluation error';
    const detail = namespaceNames(error.summary || firstLine(error.message));
    return errorAt('cel', what, detail, expr, error.range?.start, error);
  }
  return errorAt('cel', 'CEL evaluation error', messageOf(error), expr, undefined, error);
}

/** cel-js names a namespace by its type ("MathNamespace.foo(int)"): show "math.foo(int)". */
function namespaceNames(text: string): string {
  let out = text;
  for (const [ns, type] of CEL_NAMESPACES) out = out.split(`${type}.`).join(`${ns}.`);
  return out;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}

/** Variables → CEL context (a fresh object; the caller's values are not modified). */
function toCelContext(vars: Record<string, unknown>): Record<string, unknown> {
  const context: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(vars)) {
    if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
    context[key] = toCelValue(value);
  }
  return context;
}
