// Values crossing into and out of cel-js (see cel.ts's header for the conversions), and `guard`,
// which makes a function's error a CEL evaluation error at the call's position. Shared by cel.ts
// and the extension functions (celFunctions*.ts).

import { EvaluationError, Optional } from '@marcbachmann/cel-js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { CelDuration, durationToNanos, isDuration } from './duration.js';
import { messageOf } from './errors.js';
import { isPlainObject } from './values.js';

/** Deepest nesting of variables accepted (guards against cyclic objects). */
const MAX_VALUE_DEPTH = 200;

/**
 * Rethrow a function's error as a cel-js EvaluationError: cel-js then attaches the call's
 * position, so the message points at the call.
 */
export function guard<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args: A) => {
    try {
      return fn(...args);
    } catch (error) {
      throw new EvaluationError(messageOf(error), undefined, error);
    }
  };
}

/** cel-js recognises durations by their exact class, so hand it the base class. */
export function toCelDuration(duration: CelDuration): CelDuration {
  if (duration.constructor === CelDuration) return duration;
  const nanos = durationToNanos(duration);
  return new CelDuration(nanos / 1_000_000_000n, Number(nanos % 1_000_000_000n));
}

/** A JavaScript value → the CEL value cel-js expects (see the module header). */
export function toCelValue(value: unknown, depth = 0): unknown {
  if (depth > MAX_VALUE_DEPTH) throw new RangeError(`values nest deeper than ${MAX_VALUE_DEPTH} levels (cyclic?)`);
  switch (typeof value) {
    case 'number':
      return Number.isSafeInteger(value) ? BigInt(value) : value;
    case 'string':
    case 'boolean':
    case 'bigint':
      return value;
    case 'undefined':
    case 'function':
    case 'symbol':
      return null;
  }
  if (value === null) return null;
  if (Array.isArray(value)) return value.map((item) => toCelValue(item, depth + 1));
  if (isDuration(value)) return toCelDuration(value);
  if (value instanceof Date || value instanceof UnsignedInt) return value;
  if (value instanceof Uint8Array) {
    return value.constructor === Uint8Array ? value : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  }
  if (value instanceof Set) return [...value].map((item) => toCelValue(item, depth + 1));
  const out: Record<string, unknown> = {};
  const entries: Iterable<[unknown, unknown]> =
    value instanceof Map ? value.entries() : Object.entries(value as Record<string, unknown>);
  for (const [key, item] of entries) {
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    out[String(key)] = toCelValue(item, depth + 1);
  }
  return out;
}

/** A CEL result → plain JavaScript (ints as numbers; Dates and Durations kept). */
export function fromCelValue(value: unknown): unknown {
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'object' || value === null) return value;
  if (value instanceof Date || isDuration(value) || value instanceof Uint8Array) return value;
  if (value instanceof UnsignedInt) return Number(value.value);
  if (value instanceof Optional) return value.hasValue() ? fromCelValue(value.value()) : null;
  if (Array.isArray(value) || value instanceof Set) return [...value].map(fromCelValue);
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [String(k), fromCelValue(v)]));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = fromCelValue(item);
    return out;
  }
  // A CEL type value (`type(x)`): its name ("int"); another library object: its text.
  const name: unknown = (value as { name?: unknown }).name;
  return value.constructor.name === 'Type' && typeof name === 'string' ? name : String(value);
}
