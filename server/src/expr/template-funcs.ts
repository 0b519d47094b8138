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

import { createHash } from 'node:crypto';
import { durationToMs, formatDuration, isDuration, parseDuration } from './duration.js';
import {
  formatNumber,
  formatGoTime,
  formatValue,
  goQuote,
  goTypeName,
  isTrue,
  sprint,
  sprintf,
  sprintln,
} from './gofmt.js';
import { toJsonText } from './values.js';

export type TemplateFunction = (...args: unknown[]) => unknown;

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

// ---------------------------------------------------------------- coercions

function str(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  return formatValue(value, true);
}

function num(value: unknown, fn: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === null || value === undefined) return 0;
  if (isDuration(value)) return durationToMs(value);
  if (typeof value === 'string') {
    const text = value.trim();
    const n = text === '' ? 0 : Number(text);
    if (!Number.isNaN(n)) return n;
  }
  throw new Error(`${fn}: cannot use ${goTypeName(value)} ${JSON.stringify(formatValue(value, true))} as a number`);
}

function int(value: unknown, fn: string): number {
  return Math.trunc(num(value, fn));
}

function list(value: unknown, fn: string): unknown[] {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  if (value === null || value === undefined) return [];
  throw new Error(`${fn}: expected a list, got ${goTypeName(value)}`);
}

function entriesOf(value: unknown): Array<[string, unknown]> | undefined {
  if (value instanceof Map) return [...value].map(([k, v]): [string, unknown] => [String(k), v]);
  if (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    !(value instanceof Date) &&
    !isDuration(value)
  ) {
    return Object.entries(value as Record<string, unknown>);
  }
  return undefined;
}

function isInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value);
}

/** A time value: a Date, a number of Unix seconds, or a date string. */
function toTime(value: unknown, fn: string): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number') return new Date(value * 1000);
  if (typeof value === 'string') {
    const t = Date.parse(value);
    if (!Number.isNaN(t)) return new Date(t);
  }
  throw new Error(`${fn}: cannot use ${goTypeName(value)} ${JSON.stringify(formatValue(value, true))} as a time`);
}

function roundHalfAwayFromZero(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

// ---------------------------------------------------------------- comparison (Go built-ins)

type Comparable = { kind: 'number' | 'string' | 'bool'; value: number | string | boolean };

function comparable(value: unknown): Comparable | undefined {
  if (typeof value === 'number') return { kind: 'number', value };
  if (typeof value === 'bigint') return { kind: 'number', value: Number(value) };
  if (isDuration(value)) return { kind: 'number', value: durationToMs(value) };
  if (value instanceof Date) return { kind: 'number', value: value.getTime() };
  if (typeof value === 'string') return { kind: 'string', value };
  if (typeof value === 'boolean') return { kind: 'bool', value };
  return undefined;
}

function equal(a: unknown, b: unknown): boolean {
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  const x = comparable(a);
  const y = comparable(b);
  if (x && y) return x.kind === y.kind && x.value === y.value;
  return a === b;
}

function compare(a: unknown, b: unknown, fn: string): number {
  const x = comparable(a);
  const y = comparable(b);
  if (!x || !y || x.kind !== y.kind || x.kind === 'bool') {
    throw new Error(`${fn}: incompatible types for comparison (${goTypeName(a)} and ${goTypeName(b)})`);
  }
  return x.value < y.value ? -1 : x.value > y.value ? 1 : 0;
}

// ---------------------------------------------------------------- Go built-ins

define('not', 1, 1, (a) => !isTrue(a));
define('eq', 2, Infinity, (a, ...rest) => rest.some((b) => equal(a, b)));
define('ne', 2, 2, (a, b) => !equal(a, b));
define('lt', 2, 2, (a, b) => compare(a, b, 'lt') < 0);
define('le', 2, 2, (a, b) => compare(a, b, 'le') <= 0);
define('gt', 2, 2, (a, b) => compare(a, b, 'gt') > 0);
define('ge', 2, 2, (a, b) => compare(a, b, 'ge') >= 0);

define('len', 1, 1, (value) => {
  if (value === null || value === undefined) return 0;
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8');
  if (Array.isArray(value) || value instanceof Uint8Array) return value.length;
  if (value instanceof Map || value instanceof Set) return value.size;
  const entries = entriesOf(value);
  if (entries) return entries.length;
  throw new Error(`len of type ${goTypeName(value)}`);
});

define('index', 1, Infinity, (collection, ...keys) => {
  let value = collection;
  for (const key of keys) {
    if (value === null || value === undefined) return undefined;
    if (Array.isArray(value) || typeof value === 'string') {
      if (!isInteger(key)) throw new Error(`cannot index ${goTypeName(value)} with ${goTypeName(key)}`);
      const length = typeof value === 'string' ? Buffer.byteLength(value) : value.length;
      if (key < 0 || key >= length) throw new Error(`index out of range: ${key}`);
      value = typeof value === 'string' ? Buffer.from(value)[key] : value[key];
    } else if (value instanceof Map) {
      value = value.get(key) ?? value.get(String(key));
    } else if (entriesOf(value)) {
      const record = value as Record<string, unknown>;
      const name = String(key);
      value = Object.hasOwn(record, name) ? record[name] : undefined;
    } else {
      throw new Error(`can't index item of type ${goTypeName(value)}`);
    }
  }
  return value;
});

define('slice', 0, Infinity, (...args) => {
  const [subject, ...bounds] = args;
  const isSlicing =
    (typeof subject === 'string' || Array.isArray(subject)) &&
    bounds.length > 0 &&
    bounds.length <= 3 &&
    bounds.every(isInteger);
  if (!isSlicing) return args; // gomplate: `slice "a" "b"` builds a list
  const length = subject.length;
  const low = bounds[0] as number;
  const high = bounds.length > 1 ? (bounds[1] as number) : length;
  if (low < 0 || high < low || high > length)
    throw new Error(`slice index out of range: [${low}:${high}] with length ${length}`);
  return subject.slice(low, high);
});

define('print', 0, Infinity, (...args) => sprint(args));
define('println', 0, Infinity, (...args) => sprintln(args));
define('printf', 1, Infinity, (format, ...args) => sprintf(str(format), args));
define('html', 0, Infinity, (...args) => sprint(args).replace(/[&<>"'\0]/g, (c) => HTML_ESCAPES[c] ?? c));
define('js', 0, Infinity, (...args) => {
  let out = '';
  for (const c of sprint(args)) {
    const code = c.charCodeAt(0);
    if (c === '\\' || c === "'" || c === '"') out += `\\${c}`;
    else if (c === '<' || c === '>' || c === '&' || c === '=' || code < 0x20) {
      out += `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
    } else out += c;
  }
  return out;
});
define('urlquery', 0, Infinity, (...args) => encodeURIComponent(sprint(args)).replace(/%20/g, '+'));

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  "'": '&#39;',
  '\0': '\uFFFD',
};

// ---------------------------------------------------------------- strings (sprig)

define('upper', 1, 1, (s) => str(s).toUpperCase());
define('lower', 1, 1, (s) => str(s).toLowerCase());
define('title', 1, 1, (s) =>
  str(s).replace(/(^|[^\p{L}\p{N}_'])(\p{L})/gu, (_m, before: string, letter: string) => before + letter.toUpperCase()),
);
define('trim', 1, 1, (s) => str(s).trim());
define('trimAll', 2, 2, (cutset, s) => trimCutset(str(s), str(cutset)));
define('trimPrefix', 2, 2, (prefix, s) => {
  const text = str(s);
  const p = str(prefix);
  return p !== '' && text.startsWith(p) ? text.slice(p.length) : text;
});
define('trimSuffix', 2, 2, (suffix, s) => {
  const text = str(s);
  const x = str(suffix);
  return x !== '' && text.endsWith(x) ? text.slice(0, text.length - x.length) : text;
});
define('replace', 3, 3, (from, to, s) => str(s).split(str(from)).join(str(to)));
define('contains', 2, 2, (substr, s) => str(s).includes(str(substr)));
define('hasPrefix', 2, 2, (prefix, s) => str(s).startsWith(str(prefix)));
define('hasSuffix', 2, 2, (suffix, s) => str(s).endsWith(str(suffix)));
define('split', 2, 2, (sep, s) => str(s).split(str(sep)));
define('splitList', 2, 2, (sep, s) => str(s).split(str(sep)));
define('join', 2, 2, (a, b) => {
  // sprig: join SEP LIST (`{{ .items | join ", " }}`); gomplate: join LIST SEP.
  const [sep, items] = Array.isArray(a) || a instanceof Set ? [b, a] : [a, b];
  if (typeof items === 'string') return items;
  return list(items, 'join')
    .map((item) => str(item))
    .join(str(sep));
});
define('repeat', 2, 2, (count, s) => {
  const n = int(count, 'repeat');
  const text = str(s);
  if (n < 0) throw new Error('repeat: negative count');
  if (n * text.length > MAX_FUNCTION_OUTPUT)
    throw new Error(`repeat: result longer than ${MAX_FUNCTION_OUTPUT} characters`);
  return text.repeat(n);
});
define('substr', 3, 3, (start, end, s) => {
  const text = str(s);
  const a = int(start, 'substr');
  const b = int(end, 'substr');
  if (a < 0) return text.slice(0, b);
  if (b < 0 || b > text.length) return text.slice(a);
  return text.slice(a, b);
});
define('trunc', 2, 2, (length, s) => {
  const text = str(s);
  const n = int(length, 'trunc');
  return n >= 0 ? text.slice(0, n) : text.slice(Math.max(0, text.length + n));
});
define('quote', 0, Infinity, (...args) =>
  args
    .filter((a) => a !== null && a !== undefined)
    .map((a) => goQuote(str(a)))
    .join(' '),
);
define('squote', 0, Infinity, (...args) =>
  args
    .filter((a) => a !== null && a !== undefined)
    .map((a) => `'${str(a)}'`)
    .join(' '),
);
define('cat', 0, Infinity, (...args) =>
  args
    .filter((a) => a !== null && a !== undefined)
    .map(str)
    .join(' '),
);
define('indent', 2, 2, (spaces, s) => indent(int(spaces, 'indent'), str(s)));
define('nindent', 2, 2, (spaces, s) => `\n${indent(int(spaces, 'nindent'), str(s))}`);
define('nospace', 1, 1, (s) => str(s).replace(/\s+/g, ''));
define('toString', 1, 1, (v) => str(v));

const MAX_FUNCTION_OUTPUT = 1_000_000;

function indent(spaces: number, text: string): string {
  const pad = ' '.repeat(Math.max(0, spaces));
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

function trimCutset(text: string, cutset: string): string {
  const chars = new Set(cutset);
  let start = 0;
  let end = text.length;
  while (start < end && chars.has(text[start] ?? '')) start++;
  while (end > start && chars.has(text[end - 1] ?? '')) end--;
  return text.slice(start, end);
}

// ---------------------------------------------------------------- defaults and logic (sprig)

define('default', 1, 2, (fallback, ...value) => (value.length > 0 && isTrue(value[0]) ? value[0] : fallback));
define('empty', 1, 1, (v) => !isTrue(v));
define('coalesce', 0, Infinity, (...args) => args.find((a) => isTrue(a)));
define('ternary', 3, 3, (whenTrue, whenFalse, condition) => (isTrue(condition) ? whenTrue : whenFalse));

// ---------------------------------------------------------------- encoding

define('toJson', 1, 1, (v) => toJsonText(v));
alias('toJSON', 'toJson');
define('toPrettyJson', 1, 2, (...args) => {
  // sprig: toPrettyJson VALUE (two-space indent); gomplate: toJSONPretty INDENT VALUE.
  const [indentText, value] = args.length === 2 ? [str(args[0]), args[1]] : ['  ', args[0]];
  return toJsonText(value, indentText);
});
alias('toJSONPretty', 'toPrettyJson');
define('fromJson', 1, 1, (s) => {
  try {
    return JSON.parse(str(s)) as unknown;
  } catch (error) {
    throw new Error(`invalid JSON: ${(error as Error).message}`);
  }
});
alias('fromJSON', 'fromJson');
define('b64enc', 1, 1, (s) => Buffer.from(str(s), 'utf8').toString('base64'));
define('b64dec', 1, 1, (s) => Buffer.from(str(s), 'base64').toString('utf8'));
define('sha256sum', 1, 1, (s) => createHash('sha256').update(str(s)).digest('hex'));

// ---------------------------------------------------------------- math (sprig)

define('add', 0, Infinity, (...args) => args.reduce<number>((sum, a) => sum + num(a, 'add'), 0));
define('add1', 1, 1, (a) => num(a, 'add1') + 1);
define('sub', 2, 2, (a, b) => num(a, 'sub') - num(b, 'sub'));
define('mul', 1, Infinity, (...args) => args.reduce<number>((product, a) => product * num(a, 'mul'), 1));
define('div', 2, 2, (a, b) => {
  const divisor = int(b, 'div');
  if (divisor === 0) throw new Error('div: division by zero');
  return Math.trunc(int(a, 'div') / divisor);
});
define('mod', 2, 2, (a, b) => {
  const divisor = int(b, 'mod');
  if (divisor === 0) throw new Error('mod: division by zero');
  return int(a, 'mod') % divisor;
});
define('addf', 0, Infinity, (...args) => args.reduce<number>((sum, a) => sum + num(a, 'addf'), 0));
define('subf', 2, 2, (a, b) => num(a, 'subf') - num(b, 'subf'));
define('mulf', 1, Infinity, (...args) => args.reduce<number>((product, a) => product * num(a, 'mulf'), 1));
define('divf', 2, 2, (a, b) => {
  const divisor = num(b, 'divf');
  if (divisor === 0) throw new Error('divf: division by zero');
  return num(a, 'divf') / divisor;
});
define('max', 1, Infinity, (...args) => Math.max(...args.map((a) => num(a, 'max'))));
define('min', 1, Infinity, (...args) => Math.min(...args.map((a) => num(a, 'min'))));
define('floor', 1, 1, (a) => Math.floor(num(a, 'floor')));
define('ceil', 1, 1, (a) => Math.ceil(num(a, 'ceil')));
define('round', 1, 2, (a, places) => {
  const factor = 10 ** (places === undefined ? 0 : int(places, 'round'));
  return roundHalfAwayFromZero(num(a, 'round') * factor) / factor;
});
define('abs', 1, 1, (a) => Math.abs(num(a, 'abs')));
define('int', 1, 1, (a) => int(a, 'int'));
alias('int64', 'int');
define('float64', 1, 1, (a) => num(a, 'float64'));
define('atoi', 1, 1, (s) => {
  const n = Number.parseInt(str(s).trim(), 10);
  return Number.isNaN(n) ? 0 : n;
});

// ---------------------------------------------------------------- lists and maps (sprig)

define('list', 0, Infinity, (...args) => args);
define('dict', 0, Infinity, (...args) => {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < args.length; i += 2) out[str(args[i])] = i + 1 < args.length ? args[i + 1] : '';
  return out;
});
define('get', 2, 2, (map, key) => {
  const entries = entriesOf(map);
  const found = entries?.find(([k]) => k === str(key));
  return found ? found[1] : '';
});
define('hasKey', 2, 2, (map, key) => (entriesOf(map) ?? []).some(([k]) => k === str(key)));
define('keys', 1, Infinity, (...maps) => maps.flatMap((m) => (entriesOf(m) ?? []).map(([k]) => k)).sort());
define('first', 1, 1, (l) => list(l, 'first')[0]);
define('last', 1, 1, (l) => {
  const items = list(l, 'last');
  return items[items.length - 1];
});
define('uniq', 1, 1, (l) => {
  const out: unknown[] = [];
  for (const item of list(l, 'uniq')) if (!out.some((o) => equal(o, item))) out.push(item);
  return out;
});
define('sortAlpha', 1, 1, (l) =>
  list(l, 'sortAlpha')
    .map((item) => str(item))
    .sort(),
);
define('reverse', 1, 1, (l) => [...list(l, 'reverse')].reverse());

// ---------------------------------------------------------------- time

define('now', 0, 0, () => new Date());
define('date', 2, 2, (layout, t) => formatGoTime(toTime(t, 'date'), str(layout)));
define('unixEpoch', 1, 1, (t) => String(Math.floor(toTime(t, 'unixEpoch').getTime() / 1000)));
define('ago', 1, 1, (t) => formatDuration(Math.round((Date.now() - toTime(t, 'ago').getTime()) / 1000) * 1000));
define('duration', 1, 1, (seconds) => formatDuration(num(seconds, 'duration') * 1000));
define('humanizeDuration', 1, 1, (value) => {
  const seconds = isDuration(value)
    ? durationToMs(value) / 1000
    : typeof value === 'string' && !/^\s*[-+]?[\d.]+\s*$/.test(value)
      ? durationToMs(parseDuration(value)) / 1000
      : num(value, 'humanizeDuration');
  return humanizeSeconds(seconds);
});
/** go-humanize's Time (canary-checker's humanizeTime): "3 minutes ago", "2 days from now". */
define('humanizeTime', 1, 1, (t) => {
  const ms = Date.now() - toTime(t, 'humanizeTime').getTime();
  const when = ms >= 0 ? 'ago' : 'from now';
  const s = Math.abs(ms) / 1000;
  const [MIN, HOUR, DAY, WEEK, MONTH, YEAR] = [60, 3600, 86_400, 604_800, 2_592_000, 31_104_000];
  const steps: Array<[number, string, number]> = [
    [1, 'now', 0],
    [2, '1 second', 0],
    [MIN, 'seconds', 1],
    [2 * MIN, '1 minute', 0],
    [HOUR, 'minutes', MIN],
    [2 * HOUR, '1 hour', 0],
    [DAY, 'hours', HOUR],
    [2 * DAY, '1 day', 0],
    [WEEK, 'days', DAY],
    [2 * WEEK, '1 week', 0],
    [MONTH, 'weeks', WEEK],
    [2 * MONTH, '1 month', 0],
    [YEAR, 'months', MONTH],
    [YEAR * 1.5, '1 year', 0],
    [2 * YEAR, '2 years', 0],
    [37 * YEAR, 'years', YEAR],
  ];
  const step = steps.find(([limit]) => s < limit);
  if (!step) return `a long while ${when}`;
  const [, text, unit] = step;
  if (text === 'now') return 'now';
  return unit ? `${Math.floor(s / unit)} ${text} ${when}` : `${text} ${when}`;
});
define('humanizeBytes', 1, 1, (value) => {
  let n = num(value, 'humanizeBytes');
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
  let unit = 0;
  while (Math.abs(n) >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit++;
  }
  return `${unit === 0 ? formatNumber(n) : String(Number(n.toFixed(1)))} ${units[unit]}`;
});

/** Prometheus' humanizeDuration: "1d 2h 3m 4s", "45.5s", "12.3ms". */
function humanizeSeconds(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0s';
  const sign = value < 0 ? '-' : '';
  let v = Math.abs(value);
  if (v >= 1) {
    const whole = Math.floor(v);
    const seconds = whole % 60;
    const minutes = Math.floor(whole / 60) % 60;
    const hours = Math.floor(whole / 3600) % 24;
    const days = Math.floor(whole / 86_400);
    if (days) return `${sign}${days}d ${hours}h ${minutes}m ${seconds}s`;
    if (hours) return `${sign}${hours}h ${minutes}m ${seconds}s`;
    if (minutes) return `${sign}${minutes}m ${seconds}s`;
    return `${sign}${Number(v.toPrecision(4))}s`;
  }
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p']) {
    if (v >= 1) break;
    prefix = p;
    v *= 1000;
  }
  return `${sign}${Number(v.toPrecision(4))}${prefix}s`;
}

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
