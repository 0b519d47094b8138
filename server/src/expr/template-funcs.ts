// Functions available to Go templates: Go's text/template built-ins and the common sprig
// functions, with sprig's argument order (the subject comes last, so `{{ .name | upper }}` and
// `{{ .x | default "n/a" }}` read naturally), plus a few gomplate-style namespaced aliases
// (`strings.ToUpper`, `data.ToJSON`, `math.Add`, ...) whose argument order is the same.
//
// Deliberate differences from Go/sprig (templates are rendered for people, so leniency wins
// where Go would fail on a type):
//   - eq/ne compare values of different kinds as unequal instead of failing;
//   - len of a missing value is 0; index of a missing value is missing;
//   - `split` returns a list (sprig returns a map _0, _1, …; the template engine resolves
//     `._0` on lists, so both styles work); `join` accepts (sep, list) and (list, sep);
//   - `slice` is Go's slicing when given a list/string and integer bounds, and gomplate's list
//     constructor otherwise (`slice "a" "b"`);
//   - fromJson fails on invalid JSON (sprig returns an empty map);
//   - `div` and `mod` are integer operations like sprig's (use `divf` for a float quotient);
//   - dates are formatted in UTC; `humanizeDuration` takes a Duration, a Go duration string or
//     a number of seconds (Prometheus' convention); `humanizeBytes` uses IEC units ("1.5 KiB").
// and/or are not here: the template engine evaluates them lazily (they short-circuit).
//
// Each group lives in its own module; this file assembles them (in this order) into the map:
//   templateFuncsBuiltins.ts  Go's built-ins (eq, lt, len, index, slice, printf, html, js, ...)
//   templateFuncsStrings.ts   sprig strings (upper, trim, replace, split, join, substr, indent, ...)
//   templateFuncsData.ts      defaults and logic, encoding (toJson, b64enc, ...), math, lists and maps
//   templateFuncsTime.ts      now, date, ago, duration, humanizeDuration/Time/Bytes
//   templateFuncsValues.ts    the argument coercions and comparison they share

import { registerBuiltinFunctions } from './templateFuncsBuiltins.js';
import { registerDataFunctions } from './templateFuncsData.js';
import { registerStringFunctions } from './templateFuncsStrings.js';
import { registerTimeFunctions } from './templateFuncsTime.js';

export type TemplateFunction = (...args: unknown[]) => unknown;

/** How a function group module adds its functions. */
export interface TemplateRegistrar {
  define(name: string, min: number, max: number, impl: TemplateFunction): void;
  alias(name: string, target: string): void;
}

const registry = new Map<string, TemplateFunction>();
const aliases = new Map<string, string>();

/** Register `name` taking between `min` and `max` arguments (max = Infinity for variadic). */
function define(name: string, min: number, max: number, impl: TemplateFunction): void {
  registry.set(name, (...args: unknown[]) => {
    if (args.length < min || args.length > max) {
      const want = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
      throw new Error(`wrong number of args for ${name}: want ${want} got ${args.length}`);
    }
    return impl(...args);
  });
}

function alias(name: string, target: string): void {
  const fn = registry.get(target);
  if (!fn) throw new Error(`alias ${name} → unknown function ${target}`);
  registry.set(name, fn);
  aliases.set(name, target);
}

const registrar: TemplateRegistrar = { define, alias };
registerBuiltinFunctions(registrar);
registerStringFunctions(registrar);
registerDataFunctions(registrar);
registerTimeFunctions(registrar);

// ---------------------------------------------------------------- gomplate-style namespaced aliases

for (const [name, target] of [
  ['strings.ToUpper', 'upper'],
  ['strings.ToLower', 'lower'],
  ['strings.Title', 'title'],
  ['strings.TrimSpace', 'trim'],
  ['strings.TrimPrefix', 'trimPrefix'],
  ['strings.TrimSuffix', 'trimSuffix'],
  ['strings.Contains', 'contains'],
  ['strings.HasPrefix', 'hasPrefix'],
  ['strings.HasSuffix', 'hasSuffix'],
  ['strings.ReplaceAll', 'replace'],
  ['strings.Split', 'splitList'],
  ['strings.Repeat', 'repeat'],
  ['strings.Trunc', 'trunc'],
  ['strings.Quote', 'quote'],
  ['conv.ToString', 'toString'],
  ['conv.ToInt', 'int'],
  ['conv.ToInt64', 'int'],
  ['conv.Join', 'join'],
  ['conv.Default', 'default'],
  ['data.ToJSON', 'toJson'],
  ['data.ToJSONPretty', 'toPrettyJson'],
  ['data.JSON', 'fromJson'],
  ['math.Add', 'addf'],
  ['math.Sub', 'subf'],
  ['math.Mul', 'mulf'],
  ['math.Div', 'divf'],
  ['math.Max', 'max'],
  ['math.Min', 'min'],
  ['math.Floor', 'floor'],
  ['math.Ceil', 'ceil'],
  ['math.Round', 'round'],
  ['math.Abs', 'abs'],
  ['time.Now', 'now'],
] as const) {
  alias(name, target);
}

/** All template functions by name (and/or excluded: the engine handles them). */
export const TEMPLATE_FUNCTIONS: ReadonlyMap<string, TemplateFunction> = registry;

/** Alias name → the function it stands for (same implementation, same argument order). */
export const TEMPLATE_ALIASES: ReadonlyMap<string, string> = aliases;
