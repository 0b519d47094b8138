// Sprig string functions for templates: case, trim, replace, split/join, substr, quote, indent, ...

import { goQuote } from './gofmt.js';
import type { TemplateRegistrar } from './template-funcs.js';
import { int, list, str } from './templateFuncsValues.js';

export function registerStringFunctions({ define }: TemplateRegistrar): void {
  define('upper', 1, 1, (s) => str(s).toUpperCase());
  define('lower', 1, 1, (s) => str(s).toLowerCase());
  define('title', 1, 1, (s) =>
    str(s).replace(
      /(^|[^\p{L}\p{N}_'])(\p{L})/gu,
      (_m, before: string, letter: string) => before + letter.toUpperCase(),
    ),
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
}

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
