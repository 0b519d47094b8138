// The CEL functions canary-checker's and config-db's expressions use beyond standard CEL (their
// environment is flanksource/gomplate's: cel-go's strings/encoders/lists/math/sets extensions plus
// gomplate's own exports), registered on the cel-js environment of cel.ts. Each group lives in its
// own module:
//   celStrings.ts      string methods (.replace, .title, .format, ...), strings.*, HumanDuration,
//                      HumanSize, humanize*, Semver/SemverCompare
//   celCollections.ts  .keys/.values/.merge/.omit/.sort/..., range, keyValToMap, sets.*, math.*
//   celData.ts         JSON/YAML, jsonpath, base64, crypto, url, uuid, random, regexp, filepath
//   celTime.ts         time.* (Now, Since, Until, Parse, ParseDuration, ZoneName, ZoneOffset)
//   celMatch.ts        matchQuery, matchLabel, aws.*, k8s.* health helpers
//   celMisc.ts         net.*, test.*, first/last, Has, Dict, Append, Prepend, .sortBy
//   celFold.ts         the fold macro: list.fold(e, acc, step), map.fold(k, v, acc, step)
//
// Namespaced functions (`math.Abs(x)`): cel-js has no function namespaces, so each namespace is a
// constant of its own type (as cel-js does for `cel.bind`) whose methods are the functions. A
// variable named like a namespace (math, strings, time, ...) is therefore not visible to
// expressions.

import type { Environment } from '@marcbachmann/cel-js';
import { UnsignedInt } from '@marcbachmann/cel-js/evaluator';
import { registerCollectionFunctions } from './celCollections.js';
import { registerDataFunctions } from './celData.js';
import { registerFoldMacro } from './celFold.js';
import { registerMatchFunctions } from './celMatch.js';
import { registerMiscFunctions } from './celMisc.js';
import { registerStringFunctions } from './celStrings.js';
import { registerTimeFunctions } from './celTime.js';
import { guard } from './celValues.js';

// Handlers take whatever cel-js passes for the declared types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type CelHandler = (...args: any[]) => unknown;

export interface CelRegistrar {
  /** A global function `name(...)` or a method `type.name(...)` (cel-js signature syntax). */
  fn(signature: string, handler: CelHandler): void;
  /** A function of a namespace: ns('math', 'Abs(int): int', f) gives `math.Abs(x)`. */
  ns(namespace: string, signature: string, handler: CelHandler): void;
}

/** The namespaces registered (name → type name), for messages that show cel-js's type names. */
export const CEL_NAMESPACES = new Map<string, string>();

export function registerCelExtensions(env: Environment): void {
  const namespaceType = (namespace: string): string => {
    let type = CEL_NAMESPACES.get(namespace);
    if (type) return type;
    type = `${namespace[0]!.toUpperCase()}${namespace.slice(1)}Namespace`;
    const ctor = { [type]: class {} }[type]!;
    env.registerType(type, ctor);
    env.registerConstant(namespace, type, new ctor());
    CEL_NAMESPACES.set(namespace, type);
    return type;
  };
  const registrar: CelRegistrar = {
    fn: (signature, handler) => env.registerFunction(signature, guard(handler)),
    ns: (namespace, signature, handler) => {
      const type = namespaceType(namespace);
      const fn = guard(handler);
      env.registerFunction(`${type}.${signature}`, (_ns: unknown, ...args: unknown[]) => fn(...args));
    },
  };
  registerStringFunctions(registrar);
  registerCollectionFunctions(registrar);
  registerDataFunctions(registrar);
  registerTimeFunctions(registrar);
  registerMatchFunctions(registrar);
  registerMiscFunctions(registrar);
  registerFoldMacro(env);
}

/** A CEL number (int as bigint, uint, double) as a JavaScript number. */
export function num(value: unknown, what = 'argument'): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof UnsignedInt) return Number(value.value);
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  throw new TypeError(`${what} must be a number, got ${typeName(value)}`);
}

/** An integral JavaScript number as a CEL int. */
export const int = (value: number): bigint => BigInt(Math.trunc(value));

/** The entries of a CEL map (a plain object or a Map). */
export function entriesOf(value: unknown, what = 'argument'): Array<[string, unknown]> {
  if (value instanceof Map) return [...value.entries()].map(([k, v]) => [String(k), v]);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.entries(value);
  throw new TypeError(`${what} must be a map, got ${typeName(value)}`);
}

export function listOf(value: unknown, what = 'argument'): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  throw new TypeError(`${what} must be a list, got ${typeName(value)}`);
}

export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return 'double';
  if (typeof value === 'object') return value instanceof Uint8Array ? 'bytes' : 'map';
  return typeof value;
}
