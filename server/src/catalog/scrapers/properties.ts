// `format: properties` as config-db reads it: a Java .properties file (also PostgreSQL's
// postgresql.conf) becomes an object of its keys, every value text.
//
// - `key = value`, `key: value` or `key value`: the key ends at the first unescaped `=`, `:` or
//   whitespace; whitespace around the separator is skipped; a key alone has the value "".
// - Lines whose first non-blank character is `#` or `!` are comments; blank lines are skipped.
// - A line ending in an odd number of backslashes continues on the next line (its leading
//   whitespace dropped).
// - Escapes: `\t \n \r \f`, `\uXXXX`, and `\x` for any other x (`\=`, `\:`, `\ `, `\\`, `\#`).
// - A later key replaces an earlier one. Values are kept as written (quotes included).
// - Then config-db's clean-up of trailing comments: a value is cut at its first tab, and at the
//   first `#` outside single quotes (trimmed), so `listen_addresses = '*'   # where` is `'*'`.
//
// `${key}` references are kept as written (config-db reads the raw values).

const BLANK = new Set([' ', '\t', '\f']);
const ESCAPED: Record<string, string> = { t: '\t', n: '\n', r: '\r', f: '\f' };

/** The logical lines: continuations joined, comments and blank lines dropped. */
function logicalLines(text: string): string[] {
  const physical = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const out: string[] = [];
  let pending: string | undefined;
  for (const raw of physical) {
    const line = pending === undefined ? raw : raw.replace(/^[ \t\f]+/, '');
    if (pending === undefined) {
      const start = line.replace(/^[ \t\f]+/, '');
      if (start === '' || start.startsWith('#') || start.startsWith('!')) continue;
    }
    const trailing = /\\+$/.exec(line)?.[0].length ?? 0;
    const joined = (pending ?? '') + (trailing % 2 === 1 ? line.slice(0, -1) : line);
    if (trailing % 2 === 1) pending = joined;
    else {
      out.push(joined);
      pending = undefined;
    }
  }
  if (pending !== undefined) out.push(pending);
  return out;
}

/** Reads one escape sequence at `s[i]` (just after the backslash): the text and the next index. */
function unescape(s: string, i: number): [string, number] {
  const c = s[i];
  if (c === undefined) return ['', i];
  if (c === 'u' && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 1, i + 5)))
    return [String.fromCharCode(parseInt(s.slice(i + 1, i + 5), 16)), i + 5];
  return [ESCAPED[c] ?? c, i + 1];
}

/** One logical line → key and raw value (escapes decoded). */
function splitLine(line: string): [string, string] {
  let i = 0;
  while (BLANK.has(line[i] ?? '')) i++;
  let key = '';
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') {
      const [t, next] = unescape(line, i + 1);
      key += t;
      i = next;
      continue;
    }
    if (c === '=' || c === ':' || BLANK.has(c)) break;
    key += c;
    i++;
  }
  while (BLANK.has(line[i] ?? '')) i++;
  if (line[i] === '=' || line[i] === ':') i++;
  while (BLANK.has(line[i] ?? '')) i++;
  let value = '';
  while (i < line.length) {
    const c = line[i]!;
    if (c === '\\') {
      const [t, next] = unescape(line, i + 1);
      value += t;
      i = next;
    } else {
      value += c;
      i++;
    }
  }
  return [key, value];
}

/** config-db's clean-up: cut at the first tab, then at a `#` outside single quotes. */
function withoutComment(value: string): string {
  let v = value;
  const tab = v.indexOf('\t');
  if (tab >= 0) v = v.slice(0, tab);
  if (!v.includes('#')) return v;
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    if (v[i] === "'") quoted = !quoted;
    if (v[i] === '#' && !quoted) return v.slice(0, i).trim();
  }
  return v;
}

/** The keys of a properties file and their values, as config-db stores them. */
export function parseProperties(text: string): Record<string, string> {
  // A Map, so a key such as __proto__ is an ordinary key.
  const out = new Map<string, string>();
  for (const line of logicalLines(text)) {
    const [key, value] = splitLine(line);
    out.set(key, withoutComment(value));
  }
  return Object.fromEntries(out);
}
