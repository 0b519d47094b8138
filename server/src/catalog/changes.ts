// Change detection for catalog items (pure): normalizes a config (keys sorted), compares it with the
// stored one and describes the difference as a unified diff of the YAML renderings, a JSON merge
// patch (RFC 7396), the list of changed paths and a fingerprint for repeat detection.
import crypto from 'node:crypto';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A JSON value with object keys sorted recursively; undefined and functions dropped. */
export function normalize(value: unknown): Json {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : normalize(v)));
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined && typeof v !== 'function') out[key] = normalize(v);
    }
    return out;
  }
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  return null;
}

/** Deep equality of two normalized values. */
export function sameJson(a: Json, b: Json): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

// Plain scalars YAML would read back as something else (numbers, booleans, null, dates...) or that
// hold indicators are written double-quoted (JSON string syntax is valid YAML).
const PLAIN = /^[A-Za-z_/][A-Za-z0-9_./ -]*$/;
const AMBIGUOUS = /^(?:true|false|yes|no|on|off|y|n|null|~)$/i;

function scalar(v: string | number | boolean | null): string {
  if (v === null) return 'null';
  if (typeof v !== 'string') return String(v);
  return PLAIN.test(v) && !AMBIGUOUS.test(v) && !v.endsWith(' ') && !v.includes(' #') ? v : JSON.stringify(v);
}

const keyText = (k: string) => scalar(k);

function emit(value: Json, indent: string, out: string[]): void {
  // Called for a collection that starts on its own line; scalars are written by the caller.
  if (Array.isArray(value)) {
    for (const v of value) {
      if (v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length : Object.keys(v).length)) {
        // "- " then the first line of the nested collection on the same line.
        const inner: string[] = [];
        emit(v, `${indent}  `, inner);
        out.push(`${indent}- ${inner[0]!.slice(indent.length + 2)}`, ...inner.slice(1));
      } else out.push(`${indent}- ${inline(v)}`);
    }
    return;
  }
  for (const [k, v] of Object.entries(value as { [key: string]: Json })) {
    if (v !== null && typeof v === 'object' && (Array.isArray(v) ? v.length : Object.keys(v).length)) {
      out.push(`${indent}${keyText(k)}:`);
      emit(v, Array.isArray(v) ? indent : `${indent}  `, out);
    } else out.push(`${indent}${keyText(k)}: ${inline(v)}`);
  }
}

const inline = (v: Json): string => (Array.isArray(v) ? '[]' : v !== null && typeof v === 'object' ? '{}' : scalar(v));

/**
 * YAML rendering used for diffs (keys already sorted by normalize()): block style, one value per
 * line, strings quoted only where YAML would misread them. Hand-written because diffs render every
 * changed item twice and the general-purpose YAML library is the slowest step of a big scrape.
 */
export function renderYaml(value: Json): string {
  if (value === null || typeof value !== 'object') return `${scalar(value)}\n`;
  if (Array.isArray(value) ? !value.length : !Object.keys(value).length) return `${inline(value)}\n`;
  const out: string[] = [];
  emit(value, '', out);
  return `${out.join('\n')}\n`;
}

/**
 * RFC 7396 merge patch turning `from` into `to`: changed and added members with their new value,
 * removed members as null; arrays and scalars are replaced whole.
 */
export function mergePatch(from: Json, to: Json): Json {
  if (!isObject(from) || !isObject(to)) return to;
  const patch: { [key: string]: Json } = {};
  for (const key of Object.keys(from)) if (!(key in to)) patch[key] = null;
  for (const [key, value] of Object.entries(to)) {
    const before = from[key];
    if (before === undefined) patch[key] = value;
    else if (!sameJson(before, value)) patch[key] = mergePatch(before, value);
  }
  return patch;
}

/** The dotted paths a merge patch touches, e.g. ["metadata.labels.app", "spec.replicas"]. */
export function changedPaths(from: Json, to: Json, prefix = ''): string[] {
  if (!isObject(from) || !isObject(to)) return [prefix || '.'];
  const out: string[] = [];
  const keys = new Set([...Object.keys(from), ...Object.keys(to)]);
  for (const key of [...keys].sort()) {
    const a = from[key];
    const b = to[key];
    if (a !== undefined && b !== undefined && sameJson(a, b)) continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if (a !== undefined && b !== undefined && isObject(a) && isObject(b)) out.push(...changedPaths(a, b, path));
    else out.push(path);
  }
  return out;
}

function isObject(v: Json | undefined): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

type Op = { kind: ' ' | '-' | '+'; line: string };

/** Line edit script by Myers' O(ND) algorithm (shortest script of deletions and insertions). */
export function diffLines(a: string[], b: string[]): Op[] {
  // Common head and tail first: config edits are usually small and local.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const A = a.slice(head, a.length - tail);
  const B = b.slice(head, b.length - tail);
  const n = A.length;
  const m = B.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = n === 0 && m === 0;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && A[x] === B[y]) {
        x++;
        y++;
      }
      v[max + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  // Walk back through the saved frontiers.
  const middle: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[max + k - 1]! < vd[max + k + 1]!) ? k + 1 : k - 1;
    const prevX = vd[max + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      middle.push({ kind: ' ', line: A[--x]! });
      y--;
    }
    if (d === 0) break;
    if (x === prevX) middle.push({ kind: '+', line: B[--y]! });
    else middle.push({ kind: '-', line: A[--x]! });
  }
  while (x > 0 && y > 0) {
    middle.push({ kind: ' ', line: A[--x]! });
    y--;
  }
  middle.reverse();
  return [
    ...a.slice(0, head).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })),
  ];
}

/** A unified diff (3 lines of context) between two texts; '' when they are equal. */
export function unifiedDiff(before: string, after: string, context = 3, names = ['before', 'after']): string {
  const split = (t: string) => (t === '' ? [] : t.replace(/\n$/, '').split('\n'));
  const ops = diffLines(split(before), split(after));
  if (!ops.some((o) => o.kind !== ' ')) return '';
  const out = [`--- ${names[0]}`, `+++ ${names[1]}`];
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === ' ') i++;
    if (i >= ops.length) break;
    // A hunk: from `context` lines before the first change to `context` after the last one whose
    // gap to the next change is at most 2*context.
    const start = Math.max(0, i - context);
    let end = i;
    while (end < ops.length) {
      if (ops[end]!.kind !== ' ') {
        end++;
        continue;
      }
      let run = end;
      while (run < ops.length && ops[run]!.kind === ' ') run++;
      if (run >= ops.length || run - end > 2 * context) break;
      end = run;
    }
    const stop = Math.min(ops.length, end + context);
    let aLine = 1;
    let bLine = 1;
    for (let j = 0; j < start; j++) {
      if (ops[j]!.kind !== '+') aLine++;
      if (ops[j]!.kind !== '-') bLine++;
    }
    const hunk = ops.slice(start, stop);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    out.push(`@@ -${aCount ? aLine : aLine - 1},${aCount} +${bCount ? bLine : bLine - 1},${bCount} @@`);
    for (const o of hunk) out.push(`${o.kind}${o.line}`);
    i = stop;
  }
  return `${out.join('\n')}\n`;
}

export interface ConfigDiff {
  /** Unified diff of the YAML renderings. */
  diff: string;
  /** RFC 7396 merge patch as JSON text. */
  patch: string;
  paths: string[];
  /** e.g. "spec.replicas, metadata.labels.app" (first 10 paths, then "and N more"). */
  summary: string;
}

/** Describes how `after` differs from `before` (both normalized); undefined when they are equal. */
export function describeChange(before: Json, after: Json): ConfigDiff | undefined {
  if (sameJson(before, after)) return undefined;
  const paths = changedPaths(before, after);
  const shown = paths.slice(0, 10).join(', ');
  return {
    diff: unifiedDiff(renderYaml(before), renderYaml(after)),
    patch: JSON.stringify(mergePatch(before, after)),
    paths,
    summary: paths.length > 10 ? `${shown} and ${paths.length - 10} more` : shown,
  };
}

/** Same item, same kind of change, same patch: the same change seen again. */
export function changeFingerprint(configId: string, changeType: string, patch: string): string {
  return crypto.createHash('sha256').update(`${configId}\n${changeType}\n${patch}`).digest('hex').slice(0, 32);
}

/** Whether a change with this fingerprint last seen at `lastSeen` is a repeat inside the window. */
export function isRepeat(lastSeen: Date | undefined, now: Date, windowMs: number): boolean {
  return !!lastSeen && windowMs > 0 && now.getTime() - lastSeen.getTime() <= windowMs;
}
