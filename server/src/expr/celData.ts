// CEL data functions of canary-checker's environment: JSON/YAML in and out, jsonpath, base64,
// crypto.SHA*, urlencode/urldecode, uuid.*, random.*, regexp.* and filepath.* (gomplate's names
// and argument order: the subject comes last, `regexp.Replace(pattern, replacement, input)`).

import { createHash, randomInt, randomUUID } from 'node:crypto';
import { posix } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { type CelRegistrar, int, listOf, num } from './celFunctions.js';
import { fromCelValue, toCelValue } from './celValues.js';
import { evaluateJsonPath } from './jsonpath.js';
import { toDisplayString, toJsonText } from './values.js';

const text = (v: unknown): string => (typeof v === 'string' ? v : toDisplayString(fromCelValue(v)));
const bytesOf = (v: unknown): Buffer =>
  v instanceof Uint8Array ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : Buffer.from(text(v));
const toBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

function parseJson(source: string, fn: string): unknown {
  try {
    return JSON.parse(source) as unknown;
  } catch (error) {
    throw new SyntaxError(`${fn}: invalid JSON: ${(error as Error).message}`);
  }
}

function parseYamlText(source: string, fn: string): unknown {
  try {
    return parseYaml(source, { maxAliasCount: 100 }) as unknown;
  } catch (error) {
    throw new SyntaxError(`${fn}: invalid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

/** YAML text of a CEL value (durations as Go strings, via the JSON form). */
const toYamlText = (v: unknown): string => stringifyYaml(JSON.parse(toJsonText(fromCelValue(v))));

/** A Go regular expression as a JavaScript one ((?i) flags at the start become flags). */
export function goRegExp(pattern: string, global = false): RegExp {
  let source = pattern;
  let flags = global ? 'gu' : 'u';
  const m = /^\(\?([imsU]+)\)/.exec(source);
  if (m) {
    source = source.slice(m[0].length);
    for (const f of m[1]!) if (f !== 'U' && !flags.includes(f)) flags += f;
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new SyntaxError(`invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
}

/** Go's replacement syntax ($1, ${1}, ${name}) as JavaScript's ($1, $<name>). */
const goReplacement = (r: string) => r.replace(/\$\{(\d+)\}/g, '$$$1').replace(/\$\{(\w+)\}/g, '$$<$1>');

/** A shell glob (filepath.Match: *, ?, [...]) as a regular expression; `*` stops at "/". */
function globRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1);
      if (end < 0) throw new SyntaxError(`filepath.Match(): "${glob}" has an unclosed [`);
      out += `[${glob
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\')}]`;
      i = end;
    } else out += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, 'u');
}

const UUID_RE = /^(urn:uuid:)?\{?[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}\}?$/i;
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
const ALNUM = `${LETTERS}0123456789`;
const ASCII = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

function randomString(length: unknown, alphabet: string): string {
  const n = Number(int(num(length, 'the length')));
  if (n < 0 || n > 100_000) throw new RangeError('random: the length must be 0..100000');
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

export function registerDataFunctions({ fn, ns }: CelRegistrar): void {
  // JSON and YAML (toJSON, fromJSON and string.JSON() are in cel.ts).
  fn('dyn.toJSONPretty(): string', (v: unknown) => toJsonText(fromCelValue(v), '  '));
  fn('dyn.toJSONPretty(string): string', (v: unknown, indent: string) => toJsonText(fromCelValue(v), indent));
  fn('toJSONPretty(dyn): string', (v: unknown) => toJsonText(fromCelValue(v), '  '));
  fn('string.JSONArray(): list', (s: string) => {
    const value = parseJson(s, 'JSONArray()');
    if (!Array.isArray(value)) throw new TypeError('JSONArray(): the JSON is not an array');
    return toCelValue(value);
  });
  fn('YAML(string): dyn', (s: string) => toCelValue(parseYamlText(s, 'YAML()')));
  fn('fromYAML(string): dyn', (s: string) => toCelValue(parseYamlText(s, 'fromYAML()')));
  fn('YAMLArray(string): list', (s: string) => {
    const value = parseYamlText(s, 'YAMLArray()');
    if (!Array.isArray(value)) throw new TypeError('YAMLArray(): the YAML is not a list');
    return toCelValue(value);
  });
  fn('toYAML(dyn): string', toYamlText);
  fn('dyn.toYAML(): string', toYamlText);
  fn('jsonpath(string, dyn): dyn', (path: string, data: unknown) => {
    const value = typeof data === 'string' ? parseJson(data, 'jsonpath()') : fromCelValue(data);
    return toCelValue(evaluateJsonPath(path, value) ?? null);
  });

  // Encodings and hashes.
  ns('base64', 'encode(dyn): string', (v: unknown) => bytesOf(v).toString('base64'));
  ns('base64', 'decode(string): bytes', (s: string) => {
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(s.trim())) throw new RangeError('base64.decode(): the text is not base64');
    return toBytes(Buffer.from(s.trim(), 'base64'));
  });
  fn('urlencode(string): string', (s: string) => new URLSearchParams({ '': s }).toString().slice(1));
  fn('urldecode(string): string', (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      throw new RangeError(`urldecode(): "${s}" is not URL-encoded`);
    }
  });
  const hashes: Array<[string, string]> = [
    ['SHA1', 'sha1'],
    ['SHA224', 'sha224'],
    ['SHA256', 'sha256'],
    ['SHA384', 'sha384'],
    ['SHA512', 'sha512'],
    ['SHA512_224', 'sha512-224'],
    ['SHA512_256', 'sha512-256'],
  ];
  for (const [name, algorithm] of hashes) {
    ns('crypto', `${name}(dyn): string`, (v: unknown) => createHash(algorithm).update(bytesOf(v)).digest('hex'));
    ns('crypto', `${name}Bytes(dyn): bytes`, (v: unknown) =>
      toBytes(createHash(algorithm).update(bytesOf(v)).digest()),
    );
  }

  // uuid.* and random.* (values that change on each evaluation).
  ns('uuid', 'V4(): string', () => randomUUID());
  ns('uuid', 'Nil(): string', () => '00000000-0000-0000-0000-000000000000');
  ns('uuid', 'IsValid(string): bool', (s: string) => UUID_RE.test(s));
  ns('uuid', 'Parse(string): string', (s: string) => {
    if (!UUID_RE.test(s)) throw new RangeError(`uuid.Parse(): "${s}" is not a UUID`);
    const hex = s
      .replace(/^urn:uuid:/i, '')
      .replace(/[{}-]/g, '')
      .toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  });
  ns('random', 'ASCII(int): string', (n: bigint) => randomString(n, ASCII));
  ns('random', 'Alpha(int): string', (n: bigint) => randomString(n, LETTERS));
  ns('random', 'AlphaNum(int): string', (n: bigint) => randomString(n, ALNUM));
  ns('random', 'String(int): string', (n: bigint) => randomString(n, ALNUM));
  ns('random', 'String(int, list): string', (n: bigint, range: unknown) => {
    const [from, to] = listOf(range, 'the range').map((c) => text(c).codePointAt(0) ?? 0);
    if (from === undefined || to === undefined || to < from) throw new RangeError('random.String(): give ["a", "z"]');
    return randomString(n, Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)).join(''));
  });
  ns('random', 'Item(list): dyn', (l: unknown[]) => {
    if (l.length === 0) throw new RangeError('random.Item(): the list is empty');
    return l[randomInt(l.length)];
  });
  ns('random', 'Number(dyn, dyn): int', (a: unknown, b: unknown) =>
    BigInt(randomInt(Number(int(num(a))), Number(int(num(b))) + 1)),
  );
  ns('random', 'Float(dyn, dyn): double', (a: unknown, b: unknown) => num(a) + Math.random() * (num(b) - num(a)));

  // regexp.* (the input comes last, as in gomplate).
  ns('regexp', 'Find(string, string): string', (re: string, s: string) => goRegExp(re).exec(s)?.[0] ?? '');
  ns('regexp', 'FindAll(string, string): list<string>', (re: string, s: string) =>
    [...s.matchAll(goRegExp(re, true))].map((m) => m[0]),
  );
  ns('regexp', 'FindAll(string, int, string): list<string>', (re: string, n: bigint, s: string) => {
    const all = [...s.matchAll(goRegExp(re, true))].map((m) => m[0]);
    return n < 0n ? all : all.slice(0, Number(n));
  });
  ns('regexp', 'Match(string, string): bool', (re: string, s: string) => goRegExp(re).test(s));
  ns('regexp', 'QuoteMeta(string): string', (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&'));
  ns('regexp', 'Replace(string, string, string): string', (re: string, r: string, s: string) =>
    s.replace(goRegExp(re, true), goReplacement(r)),
  );
  ns('regexp', 'ReplaceLiteral(string, string, string): string', (re: string, r: string, s: string) =>
    s.replace(goRegExp(re, true), () => r),
  );
  ns('regexp', 'Split(string, int, string): list<string>', (re: string, n: bigint, s: string) => {
    if (n === 0n) return [];
    const parts = s.split(goRegExp(re, true));
    if (n < 0n || parts.length <= n) return parts;
    // Go keeps the rest of the input in the last part.
    const out: string[] = [];
    let rest = s;
    const g = goRegExp(re);
    while (out.length < Number(n) - 1) {
      const m = g.exec(rest);
      if (!m) break;
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + Math.max(1, m[0].length));
    }
    return [...out, rest];
  });

  // filepath.* (slash-separated paths).
  ns('filepath', 'Base(string): string', (p: string) => (p === '' ? '.' : posix.basename(p) || '/'));
  ns('filepath', 'Clean(string): string', (p: string) => (p === '' ? '.' : posix.normalize(p).replace(/(.)\/$/, '$1')));
  ns('filepath', 'Dir(string): string', (p: string) => posix.dirname(p));
  ns('filepath', 'Ext(string): string', (p: string) => posix.extname(p));
  ns('filepath', 'IsAbs(string): bool', (p: string) => posix.isAbsolute(p));
  ns('filepath', 'Join(list): string', (l: unknown[]) => posix.join(...l.map(text)));
  ns('filepath', 'Match(string, string): bool', (glob: string, name: string) => globRegExp(glob).test(name));
  ns('filepath', 'Rel(string, string): string', (a: string, b: string) => posix.relative(a, b) || '.');
  ns('filepath', 'Split(string): list<string>', (p: string) => {
    const at = p.lastIndexOf('/') + 1;
    return [p.slice(0, at), p.slice(at)];
  });
  ns('filepath', 'ToSlash(string): string', (p: string) => p);
  ns('filepath', 'FromSlash(string): string', (p: string) => p);
}
