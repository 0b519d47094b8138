// CEL string functions of canary-checker's environment (cel-go's strings extension and gomplate's
// string exports): methods on strings, the `strings.*` namespace (gomplate's template names and
// argument order), HumanDuration/HumanSize, the humanize* helpers of templates, and semver.

import { type CelHandler, type CelRegistrar, entriesOf, int, num } from './celFunctions.js';
import { fromCelValue } from './celValues.js';
import {
  durationFromNanos,
  durationToNanos,
  formatDuration,
  isDuration,
  parseDuration,
  type CelDuration,
} from './duration.js';
import { TEMPLATE_FUNCTIONS } from './template-funcs.js';
import { toDisplayString } from './values.js';

const S = 'string';

/** Words of an identifier or phrase: "helloWorld_x y" → hello, World, x, y. */
const words = (s: string): string[] =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const capitalize = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase();

/** Go's strings.Title: the first letter of each word upper-cased, the rest unchanged. */
export const title = (s: string): string =>
  s.replace(/(^|[^\p{L}\p{N}'])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());

/** Apache commons' abbreviate, as gomplate's strings.Abbrev. */
function abbrev(s: string, offset: number, width: number): string {
  if (width < 4) throw new RangeError('abbrev(): the width must be at least 4');
  if (s.length <= width) return s;
  let at = Math.min(offset, s.length);
  if (s.length - at < width - 3) at = s.length - (width - 3);
  if (at <= 4) return `${s.slice(0, width - 3)}...`;
  if (width < 7) throw new RangeError('abbrev(): with an offset the width must be at least 7');
  if (at + width - 3 < s.length) return `...${abbrev(s.slice(at), 0, width - 3)}`;
  return `...${s.slice(s.length - (width - 3))}`;
}

/** printf-style `"%s is %d".format([a, b])` (cel-go's strings extension). */
function format(template: string, args: unknown[]): string {
  let next = 0;
  return template.replace(/%(\.\d+)?([sdfeExXobq%])/g, (_m, precision: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (next >= args.length)
      throw new RangeError(`format(): the format has more verbs than the ${args.length} arguments`);
    const arg = args[next++];
    const prec = precision ? Number(precision.slice(1)) : undefined;
    switch (verb) {
      case 's':
        return toDisplayString(fromCelValue(arg));
      case 'q':
        return JSON.stringify(toDisplayString(fromCelValue(arg)));
      case 'd':
        return String(typeof arg === 'bigint' ? arg : int(num(arg, 'format() %d')));
      case 'f':
        return num(arg, 'format() %f').toFixed(prec ?? 6);
      case 'e':
      case 'E': {
        const text = num(arg, 'format() %e')
          .toExponential(prec ?? 6)
          .replace(/e([+-])(\d)$/, 'e$10$2');
        return verb === 'E' ? text.toUpperCase() : text;
      }
      case 'x':
      case 'X': {
        const text =
          typeof arg === 'string'
            ? Buffer.from(arg).toString('hex')
            : arg instanceof Uint8Array
              ? Buffer.from(arg).toString('hex')
              : int(num(arg, 'format() %x')).toString(16);
        return verb === 'X' ? text.toUpperCase() : text;
      }
      case 'o':
        return int(num(arg, 'format() %o')).toString(8);
      default:
        return int(num(arg, 'format() %b')).toString(2);
    }
  });
}

/** gomplate's HumanDuration: Go durations below a day, then "1d2h3m", then "1w2d3h". */
export function humanDuration(value: unknown): string {
  let nanos: bigint;
  if (isDuration(value)) nanos = durationToNanos(value as CelDuration);
  else if (typeof value === 'string') nanos = durationToNanos(parseDuration(value));
  else nanos = BigInt(Math.trunc(num(value, 'HumanDuration()'))); // a number is nanoseconds, as a Go time.Duration
  const HOUR = 3_600_000_000_000n;
  const DAY = 24n * HOUR;
  const abs = nanos < 0n ? -nanos : nanos;
  const sign = nanos < 0n ? '-' : '';
  if (abs > 7n * DAY) {
    const hours = abs / HOUR;
    const days = hours / 24n;
    return `${sign}${days / 7n}w${days % 7n}d${hours % 24n}h`;
  }
  if (abs > DAY) {
    const minutes = abs / 60_000_000_000n;
    const hours = minutes / 60n;
    return `${sign}${hours / 24n}d${hours % 24n}h${minutes % 60n}m`;
  }
  return formatDuration(durationFromNanos(nanos));
}

/** gomplate's HumanSize (HumanBytes): "0B", "512B", "1.5K", "10M", "2G" (powers of 1024). */
export function humanSize(value: unknown): string {
  const bytes = typeof value === 'string' ? Number(value) : num(value, 'HumanSize()');
  if (!Number.isFinite(bytes) || bytes < 0) return 'NaN';
  if (bytes === 0) return '0B';
  const units = ['B', 'K', 'M', 'G', 'T', 'P', 'E'];
  let unit = 0;
  let v = Math.trunc(bytes);
  while (v >= 1024 && unit < units.length - 1) {
    v /= 1024;
    unit++;
  }
  return `${v.toFixed(1).replace(/\.0$/, '')}${units[unit]}`;
}

/** A semantic version's parts; null when `text` is not one. */
export function semver(
  text: string,
): { major: number; minor: number; patch: number; pre: string; meta: string } | null {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+([0-9A-Za-z.-]+))?$/.exec(text.trim());
  if (!m) return null;
  return { major: Number(m[1]), minor: Number(m[2] ?? 0), patch: Number(m[3] ?? 0), pre: m[4] ?? '', meta: m[5] ?? '' };
}

function compareVersions(a: string, b: string): number {
  const x = semver(a);
  const y = semver(b);
  if (!x || !y) throw new RangeError(`"${x ? b : a}" is not a semantic version`);
  for (const k of ['major', 'minor', 'patch'] as const) if (x[k] !== y[k]) return x[k] < y[k] ? -1 : 1;
  if (x.pre === y.pre) return 0;
  if (!x.pre || !y.pre) return x.pre ? -1 : 1;
  return x.pre.localeCompare(y.pre, 'en', { numeric: true });
}

/**
 * gomplate's SemverCompare(constraint, version) is true when version satisfies the constraint
 * ("1.2.3", ">=1.2", "<2.0.0", "~1.2", "^1.2", several separated by commas or spaces). A bare
 * version is an exact match.
 */
export function semverSatisfies(constraint: string, version: string): boolean {
  return constraint.split('||').some((alt) =>
    alt
      .split(/[, ]+/)
      .filter(Boolean)
      .every((part) => {
        const m = /^(>=|<=|!=|=|>|<|~|\^)?\s*(.+)$/.exec(part)!;
        const op = m[1] ?? '=';
        const target = m[2]!.replace(/\.[x*]$/i, '');
        const c = compareVersions(version, target);
        const t = semver(target)!;
        switch (op) {
          case '>=':
            return c >= 0;
          case '<=':
            return c <= 0;
          case '>':
            return c > 0;
          case '<':
            return c < 0;
          case '!=':
            return c !== 0;
          case '~':
            return c >= 0 && compareVersions(version, `${t.major}.${t.minor + 1}.0-0`) < 0;
          case '^':
            return c >= 0 && compareVersions(version, `${t.major + 1}.0.0-0`) < 0;
          default:
            return c === 0;
        }
      }),
  );
}

const templateFn = (name: string) => {
  const fn = TEMPLATE_FUNCTIONS.get(name);
  if (!fn) throw new Error(`template function ${name} is missing`);
  return fn;
};

export function registerStringFunctions({ fn, ns }: CelRegistrar): void {
  // Methods (cel-go strings extension and gomplate's member functions).
  fn(`${S}.replace(${S}, ${S}): ${S}`, (s: string, a: string, b: string) => s.split(a).join(b));
  fn(`${S}.replace(${S}, ${S}, int): ${S}`, (s: string, a: string, b: string, n: bigint) => {
    if (n < 0n) return s.split(a).join(b);
    let out = s;
    let from = 0;
    for (let i = 0n; i < n; i++) {
      const at = out.indexOf(a, from);
      if (at < 0) break;
      out = out.slice(0, at) + b + out.slice(at + a.length);
      from = at + b.length + (a === '' ? 1 : 0);
    }
    return out;
  });
  fn(`${S}.replaceAll(${S}, ${S}): ${S}`, (s: string, a: string, b: string) => s.split(a).join(b));
  fn(`${S}.charAt(int): ${S}`, (s: string, i: bigint) => {
    if (i < 0n || i > BigInt(s.length)) throw new RangeError(`charAt(): index ${i} is out of range`);
    return s.charAt(Number(i));
  });
  fn(`${S}.reverse(): ${S}`, (s: string) => [...s].reverse().join(''));
  fn(`${S}.format(list): ${S}`, (s: string, args: unknown[]) => format(s, args));
  fn(`${S}.title(): ${S}`, title);
  fn(`${S}.trimPrefix(${S}): ${S}`, (s: string, p: string) => (s.startsWith(p) ? s.slice(p.length) : s));
  fn(`${S}.trimSuffix(${S}): ${S}`, (s: string, p: string) => (p && s.endsWith(p) ? s.slice(0, -p.length) : s));
  fn(`${S}.trimSpace(): ${S}`, (s: string) => s.trim());
  fn(`${S}.toUpper(): ${S}`, (s: string) => s.toUpperCase());
  fn(`${S}.toLower(): ${S}`, (s: string) => s.toLowerCase());
  fn(`${S}.upper(): ${S}`, (s: string) => s.toUpperCase());
  fn(`${S}.lower(): ${S}`, (s: string) => s.toLowerCase());
  fn(`${S}.repeat(int): ${S}`, (s: string, n: bigint) => {
    if (n < 0n || BigInt(s.length) * n > 1_000_000n) throw new RangeError('repeat(): the result would be too long');
    return s.repeat(Number(n));
  });
  fn(`${S}.indent(int): ${S}`, (s: string, n: bigint) => s.replace(/^/gm, ' '.repeat(Number(n))));
  fn(`${S}.indent(int, ${S}): ${S}`, (s: string, n: bigint, p: string) => s.replace(/^/gm, p.repeat(Number(n))));
  fn(`${S}.slug(): ${S}`, (s: string) =>
    words(s.normalize('NFKD').replace(/[\u0300-\u036f]/g, ''))
      .join('-')
      .toLowerCase(),
  );
  fn(`${S}.snakeCase(): ${S}`, (s: string) => words(s).join('_').toLowerCase());
  fn(`${S}.kebabCase(): ${S}`, (s: string) => words(s).join('-').toLowerCase());
  fn(`${S}.camelCase(): ${S}`, (s: string) => words(s).map(capitalize).join(''));
  fn(`${S}.quote(): ${S}`, (s: string) => JSON.stringify(s));
  fn(`${S}.squote(): ${S}`, (s: string) => `'${s.replace(/'/g, "''")}'`);
  fn(`${S}.shellQuote(): ${S}`, (s: string) => `'${s.replace(/'/g, `'"'"'`)}'`);
  fn(`${S}.runeCount(): int`, (s: string) => BigInt([...s].length));
  fn(`${S}.sort(): ${S}`, (s: string) => [...s].sort().join(''));
  fn(`${S}.trunc(int): ${S}`, (s: string, n: bigint) => (n < 0n ? s.slice(Number(n)) : s.slice(0, Number(n))));
  fn(`${S}.abbrev(int): ${S}`, (s: string, w: bigint) => abbrev(s, 0, Number(w)));
  fn(`${S}.abbrev(int, int): ${S}`, (s: string, o: bigint, w: bigint) => abbrev(s, Number(o), Number(w)));
  fn(`${S}.wordWrap(int): ${S}`, (s: string, width: bigint) => {
    const lines: string[] = [];
    let line = '';
    for (const w of s.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + w.length > Number(width)) {
        lines.push(line);
        line = w;
      } else line = line ? `${line} ${w}` : w;
    }
    return [...lines, line].join('\n');
  });
  fn(`map.mapToKeyVal(): ${S}`, (m: unknown) =>
    entriesOf(m)
      .map(([k, v]) => `${k}=${toDisplayString(fromCelValue(v))}`)
      .join(','),
  );
  fn(`keyValToMap(${S}): map`, (s: string) => {
    const out: Record<string, string> = {};
    for (const pair of s.split(',')) {
      if (!pair.trim()) continue;
      const at = pair.indexOf('=');
      if (at < 0) throw new RangeError(`keyValToMap(): "${pair}" is not key=value`);
      out[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
    }
    return out;
  });

  // Humanized values (gomplate and Prometheus-style template helpers).
  fn(`HumanDuration(dyn): ${S}`, humanDuration);
  fn(`HumanSize(dyn): ${S}`, humanSize);
  fn(`humanizeDuration(dyn): ${S}`, (v: unknown) => templateFn('humanizeDuration')(fromCelValue(v)));
  fn(`humanizeBytes(dyn): ${S}`, (v: unknown) => templateFn('humanizeBytes')(fromCelValue(v)));
  fn(`humanizeTime(dyn): ${S}`, (v: unknown) => templateFn('humanizeTime')(fromCelValue(v)));
  fn(`Semver(${S}): map`, (s: string) => {
    const v = semver(s);
    if (!v) throw new RangeError(`Semver(): "${s}" is not a semantic version`);
    return {
      major: BigInt(v.major),
      minor: BigInt(v.minor),
      patch: BigInt(v.patch),
      prerelease: v.pre,
      metadata: v.meta,
      original: s,
    };
  });
  fn(`SemverCompare(${S}, ${S}): bool`, semverSatisfies);

  // strings.* as gomplate's templates name them (same argument order as there).
  const strings: Array<[string, CelHandler]> = [
    [`Title(${S}): ${S}`, title],
    [`ToUpper(${S}): ${S}`, (s: string) => s.toUpperCase()],
    [`ToLower(${S}): ${S}`, (s: string) => s.toLowerCase()],
    [`TrimSpace(${S}): ${S}`, (s: string) => s.trim()],
    [`Trim(${S}, ${S}): ${S}`, (s: string, cut: string) => trimCutset(s, cut)],
    [`TrimPrefix(${S}, ${S}): ${S}`, (p: string, s: string) => (s.startsWith(p) ? s.slice(p.length) : s)],
    [`TrimSuffix(${S}, ${S}): ${S}`, (p: string, s: string) => (p && s.endsWith(p) ? s.slice(0, -p.length) : s)],
    [`Contains(${S}, ${S}): bool`, (sub: string, s: string) => s.includes(sub)],
    [`HasPrefix(${S}, ${S}): bool`, (p: string, s: string) => s.startsWith(p)],
    [`HasSuffix(${S}, ${S}): bool`, (p: string, s: string) => s.endsWith(p)],
    [`ReplaceAll(${S}, ${S}, ${S}): ${S}`, (a: string, b: string, s: string) => s.split(a).join(b)],
    [`Split(${S}, ${S}): list<string>`, (sep: string, s: string) => s.split(sep)],
    [`Repeat(int, ${S}): ${S}`, (n: bigint, s: string) => s.repeat(Math.max(0, Math.min(Number(n), 1_000_000)))],
    [`Trunc(int, ${S}): ${S}`, (n: bigint, s: string) => s.slice(0, Number(n))],
    [`Quote(dyn): ${S}`, (v: unknown) => JSON.stringify(toDisplayString(fromCelValue(v)))],
    [`quote(${S}): ${S}`, (s: string) => JSON.stringify(s)],
    [`Squote(dyn): ${S}`, (v: unknown) => `'${toDisplayString(fromCelValue(v)).replace(/'/g, "''")}'`],
    [`Slug(${S}): ${S}`, (s: string) => words(s).join('-').toLowerCase()],
    [`SnakeCase(${S}): ${S}`, (s: string) => words(s).join('_').toLowerCase()],
    [`KebabCase(${S}): ${S}`, (s: string) => words(s).join('-').toLowerCase()],
    [`CamelCase(${S}): ${S}`, (s: string) => words(s).map(capitalize).join('')],
    [`RuneCount(${S}): int`, (s: string) => BigInt([...s].length)],
    [`HumanDuration(dyn): ${S}`, humanDuration],
    [`HumanBytes(dyn): ${S}`, humanSize],
    [`HumanSize(dyn): ${S}`, humanSize],
    [`SemverCompare(${S}, ${S}): bool`, semverSatisfies],
  ];
  for (const [signature, handler] of strings) ns('strings', signature, handler);
}

function trimCutset(s: string, cut: string): string {
  const set = new Set(cut);
  let a = 0;
  let b = s.length;
  while (a < b && set.has(s[a]!)) a++;
  while (b > a && set.has(s[b - 1]!)) b--;
  return s.slice(a, b);
}
