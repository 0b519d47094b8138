// Go's text/template built-in functions: comparison, len, index, slice, print*, html, js, urlquery.

import { goTypeName, isTrue, sprint, sprintf, sprintln } from './gofmt.js';
import type { TemplateRegistrar } from './template-funcs.js';
import { compare, entriesOf, equal, isInteger, str } from './templateFuncsValues.js';

export function registerBuiltinFunctions({ define }: TemplateRegistrar): void {
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
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  "'": '&#39;',
  '\0': '\uFFFD',
};
