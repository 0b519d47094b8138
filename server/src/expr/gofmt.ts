// Go formatting for the template engine: how Go's fmt prints a value with %v (maps as
// "map[a:1 b:2]" with sorted keys, lists as "[1 2 3]", nil as "<nil>"), a printf subset
// (%v %s %q %d %f %e %g %t %x %X %o %b %c %T %% with flags, width and precision), Go's
// reference-time layouts ("2006-01-02 15:04:05") for dates, and the truthiness Go templates use.
//
// Numbers come from JavaScript, where ints and floats are one type: an integral number prints
// like a Go int ("1000000", where Go would print a float64 as "1e+06"); others print as
// JavaScript writes them ("1.5"). Times are formatted in UTC.

import { formatDuration, isDuration } from './duration.js';

/** Go's text/template truth: false, 0, "", nil and empty lists/maps are false. */
export function isTrue(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return value !== 0;
    case 'bigint':
      return value !== 0n;
    case 'string':
      return value.length > 0;
  }
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Map || value instanceof Set) return value.size > 0;
  if (isDuration(value)) return value.valueOf() !== 0;
  if (value instanceof Date || value instanceof Uint8Array) return value instanceof Date || value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** The Go type name used in messages ("string", "float64", "map[string]interface {}", ...). */
export function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float64';
    case 'bigint':
      return 'int64';
  }
  if (Array.isArray(value) || value instanceof Set) return '[]interface {}';
  if (isDuration(value)) return 'time.Duration';
  if (value instanceof Date) return 'time.Time';
  if (value instanceof Uint8Array) return '[]uint8';
  if (typeof value === 'function') return 'func';
  return 'map[string]interface {}';
}

/** A number as Go prints an int (integral values) or as JavaScript prints it. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return value.toFixed(0);
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return String(value);
}

/** Go's %v. `nested` is true inside a list or map, where nil prints as "<nil>". */
export function formatValue(value: unknown, nested = false): string {
  if (value === null || value === undefined) return nested ? '<nil>' : '<no value>';
  switch (typeof value) {
    case 'string':
      return value;
    case 'boolean':
    case 'bigint':
      return String(value);
    case 'number':
      return formatNumber(value);
    case 'function':
      return '<func>';
  }
  if (isDuration(value)) return formatDuration(value);
  if (value instanceof Date) return formatGoTime(value, '2006-01-02 15:04:05.999999999 -0700 MST');
  if (value instanceof Uint8Array) return `[${[...value].join(' ')}]`;
  if (Array.isArray(value) || value instanceof Set) return `[${[...value].map((v) => formatValue(v, true)).join(' ')}]`;
  const entries: Array<[string, unknown]> =
    value instanceof Map
      ? [...value].map(([k, v]): [string, unknown] => [String(k), v])
      : Object.entries(value as Record<string, unknown>);
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `map[${entries.map(([k, v]) => `${k}:${formatValue(v, true)}`).join(' ')}]`;
}

/** Go's fmt.Sprint: operands are separated by a space when neither side is a string. */
export function sprint(args: unknown[]): string {
  let out = '';
  args.forEach((arg, i) => {
    if (i > 0 && typeof arg !== 'string' && typeof args[i - 1] !== 'string') out += ' ';
    out += formatValue(arg, true);
  });
  return out;
}

/** Go's fmt.Sprintln: operands always separated by spaces, newline appended. */
export function sprintln(args: unknown[]): string {
  return `${args.map((a) => formatValue(a, true)).join(' ')}\n`;
}

/** Go's strconv.Quote, close enough: JSON string escaping. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

interface Spec {
  minus: boolean;
  plus: boolean;
  space: boolean;
  zero: boolean;
  sharp: boolean;
  width?: number;
  precision?: number;
}

/** Go's fmt.Sprintf for the verbs listed in the module header. */
export function sprintf(format: string, args: unknown[]): string {
  let out = '';
  let argIndex = 0;
  let i = 0;
  while (i < format.length) {
    const percent = format.indexOf('%', i);
    if (percent < 0) {
      out += format.slice(i);
      break;
    }
    out += format.slice(i, percent);
    i = percent + 1;
    const spec: Spec = { minus: false, plus: false, space: false, zero: false, sharp: false };
    for (; i < format.length; i++) {
      const c = format[i];
      if (c === '-') spec.minus = true;
      else if (c === '+') spec.plus = true;
      else if (c === ' ') spec.space = true;
      else if (c === '0') spec.zero = true;
      else if (c === '#') spec.sharp = true;
      else break;
    }
    const width = /^\d+/.exec(format.slice(i));
    if (width) {
      spec.width = Number(width[0]);
      i += width[0].length;
    }
    if (format[i] === '.') {
      const precision = /^\d*/.exec(format.slice(i + 1))?.[0] ?? '';
      spec.precision = Number(precision || '0');
      i += 1 + precision.length;
    }
    const verb = format[i];
    i++;
    if (verb === undefined) {
      out += '%!(NOVERB)';
      break;
    }
    if (verb === '%') {
      out += '%';
      continue;
    }
    if (argIndex >= args.length) {
      out += `%!${verb}(MISSING)`;
      continue;
    }
    out += formatVerb(verb, spec, args[argIndex++]);
  }
  if (argIndex < args.length) {
    const extra = args.slice(argIndex).map((a) => `${goTypeName(a)}=${formatValue(a, true)}`);
    out += `%!(EXTRA ${extra.join(', ')})`;
  }
  return out;
}

function formatVerb(verb: string, spec: Spec, arg: unknown): string {
  const bad = () => `%!${verb}(${goTypeName(arg)}=${formatValue(arg, true)})`;
  const num = typeof arg === 'bigint' ? Number(arg) : arg;
  let text: string;
  let numeric = false;
  switch (verb) {
    case 'v':
      text = arg === undefined ? '<nil>' : formatValue(arg, true);
      numeric = typeof num === 'number';
      break;
    case 's':
      text = arg === undefined ? '%!s(<nil>)' : formatValue(arg, true);
      if (spec.precision !== undefined) text = [...text].slice(0, spec.precision).join('');
      break;
    case 'q':
      text =
        typeof arg === 'string' ? goQuote(arg) : typeof num === 'number' ? `'${String.fromCodePoint(num)}'` : bad();
      break;
    case 't':
      text = typeof arg === 'boolean' ? String(arg) : bad();
      break;
    case 'd':
      if (typeof num !== 'number' || !Number.isFinite(num)) return bad();
      text = Math.trunc(num).toFixed(0);
      numeric = true;
      break;
    case 'f':
    case 'F':
      if (typeof num !== 'number') return bad();
      text = num.toFixed(spec.precision ?? 6);
      numeric = true;
      break;
    case 'e':
    case 'E':
      if (typeof num !== 'number') return bad();
      text = num.toExponential(spec.precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
      if (verb === 'E') text = text.toUpperCase();
      numeric = true;
      break;
    case 'g':
    case 'G':
      if (typeof num !== 'number') return bad();
      text = spec.precision === undefined ? String(num) : String(Number(num.toPrecision(Math.max(1, spec.precision))));
      if (verb === 'G') text = text.toUpperCase();
      numeric = true;
      break;
    case 'x':
    case 'X':
    case 'o':
    case 'b': {
      const base = verb === 'o' ? 8 : verb === 'b' ? 2 : 16;
      if (typeof num === 'number' && Number.isInteger(num)) {
        text = num.toString(base);
        if (spec.sharp && base === 16) text = text.replace(/^(-?)/, '$10x');
        if (spec.sharp && base === 8) text = text.replace(/^(-?)/, '$10');
        numeric = true;
      } else if (typeof arg === 'string' && base === 16) {
        text = Buffer.from(arg, 'utf8').toString('hex');
      } else return bad();
      if (verb === 'X') text = text.toUpperCase();
      break;
    }
    case 'c':
      if (typeof num !== 'number') return bad();
      text = String.fromCodePoint(num);
      break;
    case 'T':
      text = goTypeName(arg);
      break;
    default:
      return `%!${verb}(${goTypeName(arg)}=${formatValue(arg, true)})`;
  }
  if (numeric && typeof num === 'number' && num >= 0 && !text.startsWith('-')) {
    if (spec.plus) text = `+${text}`;
    else if (spec.space) text = ` ${text}`;
  }
  return pad(text, spec, numeric);
}

function pad(text: string, spec: Spec, numeric: boolean): string {
  const width = spec.width ?? 0;
  const length = [...text].length;
  if (length >= width) return text;
  const fill = width - length;
  if (spec.minus) return text + ' '.repeat(fill);
  if (spec.zero && numeric) {
    const sign = /^[+\- ]/.test(text) ? text[0] : '';
    return sign + '0'.repeat(fill) + text.slice(sign.length);
  }
  return ' '.repeat(fill) + text;
}

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
export const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Layout chunks in the order Go's time package recognises them at each position. */
const LAYOUT_CHUNKS: Array<[string, (d: Date) => string]> = [
  ['January', (d) => MONTHS[d.getUTCMonth()] ?? ''],
  ['Jan', (d) => (MONTHS[d.getUTCMonth()] ?? '').slice(0, 3)],
  ['Monday', (d) => DAYS[d.getUTCDay()] ?? ''],
  ['Mon', (d) => (DAYS[d.getUTCDay()] ?? '').slice(0, 3)],
  ['MST', () => 'UTC'],
  ['2006', (d) => String(d.getUTCFullYear()).padStart(4, '0')],
  ['002', (d) => String(dayOfYear(d)).padStart(3, '0')],
  ['01', (d) => two(d.getUTCMonth() + 1)],
  ['02', (d) => two(d.getUTCDate())],
  ['03', (d) => two(hour12(d))],
  ['04', (d) => two(d.getUTCMinutes())],
  ['05', (d) => two(d.getUTCSeconds())],
  ['06', (d) => two(d.getUTCFullYear() % 100)],
  ['15', (d) => two(d.getUTCHours())],
  ['__2', (d) => String(dayOfYear(d)).padStart(3, ' ')],
  ['_2', (d) => String(d.getUTCDate()).padStart(2, ' ')],
  ['1', (d) => String(d.getUTCMonth() + 1)],
  ['2', (d) => String(d.getUTCDate())],
  ['3', (d) => String(hour12(d))],
  ['4', (d) => String(d.getUTCMinutes())],
  ['5', (d) => String(d.getUTCSeconds())],
  ['PM', (d) => (d.getUTCHours() >= 12 ? 'PM' : 'AM')],
  ['pm', (d) => (d.getUTCHours() >= 12 ? 'pm' : 'am')],
  ['-07:00:00', () => '+00:00:00'],
  ['-070000', () => '+000000'],
  ['-07:00', () => '+00:00'],
  ['-0700', () => '+0000'],
  ['-07', () => '+00'],
  ['Z07:00:00', () => 'Z'],
  ['Z070000', () => 'Z'],
  ['Z07:00', () => 'Z'],
  ['Z0700', () => 'Z'],
  ['Z07', () => 'Z'],
];

function two(n: number): string {
  return String(n).padStart(2, '0');
}

function hour12(d: Date): number {
  const h = d.getUTCHours() % 12;
  return h === 0 ? 12 : h;
}

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}

/**
 * Format a date with a Go layout (the reference time "Mon Jan 2 15:04:05 MST 2006"), in UTC.
 * Fractional seconds: ".000" (fixed digits) and ".999" (trailing zeros dropped); JavaScript
 * dates have millisecond precision, so digits past the third are zeros.
 */
export function formatGoTime(date: Date, layout: string): string {
  let out = '';
  let i = 0;
  outer: while (i < layout.length) {
    const rest = layout.slice(i);
    const fraction = /^[.,](0+|9+)(?![0-9])/.exec(rest);
    if (fraction) {
      const digits = fraction[1] ?? '';
      const full = String(date.getUTCMilliseconds()).padStart(3, '0').padEnd(9, '0').slice(0, digits.length);
      if (digits.startsWith('0')) out += (rest[0] ?? '.') + full;
      else {
        const trimmed = full.replace(/0+$/, '');
        if (trimmed) out += (rest[0] ?? '.') + trimmed;
      }
      i += fraction[0].length;
      continue;
    }
    for (const [chunk, render] of LAYOUT_CHUNKS) {
      if (rest.startsWith(chunk)) {
        out += render(date);
        i += chunk.length;
        continue outer;
      }
    }
    out += layout[i];
    i++;
  }
  return out;
}
