// The cumulative duration sketches of check_sketch_edges (issue 20) as the server handles them: the
// same bins as sketch.ts (keyOf/valueOf, within 1 % of the exact percentile), held as one dense run
// of counts from the lowest key to the highest (cumulative sketches have few gaps), and stored as a
// compact bytea: zigzag varint of the lowest key, varint of how many counts, then each count as a
// varint (a check's month of runs at one a minute: ~170 keys, ~500 bytes).
//
// A range's sketch is the end edge's minus the start edge's: quantilesBetween walks both at once,
// so the difference is never built.
import { keyOf, rankOf, valueOf } from './sketch.js';

export interface DenseSketch {
  /** The key of counts[0]. */
  lo: number;
  /** counts[i]: how many durations fell in bin lo + i. Only the first `len` are used. */
  counts: Float64Array;
  len: number;
}

export const emptySketch = (): DenseSketch => ({ lo: 0, counts: new Float64Array(0), len: 0 });

export function cloneSketch(s: DenseSketch): DenseSketch {
  return { lo: s.lo, counts: s.counts.slice(0, s.len), len: s.len };
}

/** Adds `count` durations to bin `key`, growing the run as needed. */
export function addKey(s: DenseSketch, key: number, count = 1): void {
  if (s.len === 0) {
    if (s.counts.length < 1) s.counts = new Float64Array(16);
    s.lo = key;
    s.len = 1;
    s.counts.fill(0, 0, 1);
  } else if (key < s.lo) {
    const shift = s.lo - key;
    const grown = new Float64Array(Math.max(s.len + shift, s.counts.length) + 8);
    grown.set(s.counts.subarray(0, s.len), shift);
    s.counts = grown;
    s.lo = key;
    s.len += shift;
  } else if (key >= s.lo + s.len) {
    const need = key - s.lo + 1;
    if (need > s.counts.length) {
      const grown = new Float64Array(need + 16);
      grown.set(s.counts.subarray(0, s.len));
      s.counts = grown;
    } else s.counts.fill(0, s.len, need);
    s.len = need;
  }
  s.counts[key - s.lo]! += count;
}

/** Adds one duration (ms). */
export const addDuration = (s: DenseSketch, ms: number) => addKey(s, keyOf(ms));

/** Adds (sign 1) or takes away (sign -1) every count of `other`. */
export function mergeInto(s: DenseSketch, other: DenseSketch, sign: 1 | -1 = 1): void {
  if (other.len === 0) return;
  // Grow once to cover both ends, then add in place.
  addKey(s, other.lo, 0);
  addKey(s, other.lo + other.len - 1, 0);
  const off = other.lo - s.lo;
  for (let i = 0; i < other.len; i++) s.counts[off + i]! += sign * other.counts[i]!;
}

export function sketchTotal(s: DenseSketch): number {
  let n = 0;
  for (let i = 0; i < s.len; i++) n += s.counts[i]!;
  return n;
}

function writeVarint(out: number[], v: number): void {
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/** The stored form (see the top of this file); leading and trailing empty bins are left out. */
export function encodeSketch(s: DenseSketch): Buffer {
  let a = 0;
  let b = s.len;
  while (a < b && s.counts[a] === 0) a++;
  while (b > a && s.counts[b - 1] === 0) b--;
  const out: number[] = [];
  const hi = b > a ? s.lo + b - 1 : 0;
  let total = 0;
  for (let i = a; i < b; i++) {
    const c = s.counts[i]!;
    if (c < 0 || !Number.isInteger(c)) throw new Error(`a sketch count must be a whole number ≥ 0, not ${c}`);
    total += c;
  }
  writeVarint(out, hi >= 0 ? hi * 2 : -hi * 2 - 1);
  writeVarint(out, b - a);
  writeVarint(out, total);
  for (let i = b - 1; i >= a; i--) writeVarint(out, s.counts[i]!);
  return Buffer.from(out);
}

/** Reads a stored sketch from its highest key down. */
class Reader {
  private p: number;
  readonly hi: number;
  readonly len: number;
  readonly total: number;
  private i = 0;

  constructor(
    private readonly buf: Uint8Array,
    at = 0,
  ) {
    this.p = at;
    const z = this.varint();
    this.hi = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    this.len = this.varint();
    this.total = this.varint();
  }

  varint(): number {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (this.p >= this.buf.length) throw new Error('a stored sketch ends early');
      const byte = this.buf[this.p++]!;
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 0x80;
    }
  }

  /** The count of the next key down (0 past the lowest). */
  next(): number {
    if (this.i >= this.len) return 0;
    this.i++;
    return this.varint();
  }
}

export function decodeSketch(buf: Uint8Array): DenseSketch {
  const r = new Reader(buf);
  const counts = new Float64Array(r.len);
  for (let i = r.len - 1; i >= 0; i--) counts[i] = r.next();
  return { lo: r.hi - r.len + 1, counts, len: r.len };
}

/** The sum of a stored sketch's counts, from its header. */
export const storedTotal = (buf: Uint8Array) => new Reader(buf).total;

/** A stored sketch inside a larger buffer (many read at once, see edgeWire.ts). */
export interface PackedSketch {
  buf: Uint8Array;
  at: number;
}

/**
 * A sketch to walk down from: stored bytes, one in memory, or a few keys sorted highest first (the
 * runs since the latest edge: a handful per check, not worth a sketch).
 */
export type SketchSource = Uint8Array | PackedSketch | DenseSketch | number[];

interface Walk {
  hi: number;
  len: number;
  total: number;
  /** The count at key `hi`, then one key lower at each call. */
  next(): number;
}

function walk(s: SketchSource): Walk {
  if (s instanceof Uint8Array) return s.length ? new Reader(s) : { hi: -Infinity, len: 0, total: 0, next: () => 0 };
  if (Array.isArray(s)) {
    if (!s.length) return { hi: -Infinity, len: 0, total: 0, next: () => 0 };
    let k = s[0]! + 1;
    let i = 0;
    return {
      hi: s[0]!,
      len: s[0]! - s[s.length - 1]! + 1,
      total: s.length,
      next: () => {
        k--;
        let c = 0;
        while (i < s.length && s[i] === k) {
          c++;
          i++;
        }
        return c;
      },
    };
  }
  if ('buf' in s) return new Reader(s.buf, s.at);
  let i = s.len;
  const hi = s.len ? s.lo + s.len - 1 : -Infinity;
  return { hi, len: s.len, total: sketchTotal(s), next: () => (i > 0 ? s.counts[--i]! : 0) };
}

/**
 * The quantiles (percentile_disc ranks) of `end` minus `start` plus `extra` (any may be empty),
 * walking down from the highest key and stopping at the lowest quantile asked for: null for each
 * when the difference holds no durations.
 */
export function quantilesBetween(
  end: SketchSource,
  start: SketchSource,
  extra: SketchSource,
  qs: readonly number[],
): Array<number | null> {
  const parts: Array<[Walk, number]> = [
    [walk(end), 1],
    [walk(start), -1],
    [walk(extra), 1],
  ];
  const n = parts.reduce((sum, [w, sign]) => sum + sign * w.total, 0);
  if (n <= 0) return qs.map(() => null);
  // The r-th smallest of n is the (n - r + 1)-th largest.
  const fromTop = qs.map((q) => n - rankOf(q, n) + 1);
  const out: Array<number | null> = qs.map(() => null);
  let left = qs.length;
  let top = -Infinity;
  let bottom = Infinity;
  for (const [w] of parts)
    if (w.len > 0) {
      top = Math.max(top, w.hi);
      bottom = Math.min(bottom, w.hi - w.len + 1);
    }
  let seen = 0;
  let lowest = top;
  // Each walk joins when the walk down reaches its own highest key.
  for (let k = top; k >= bottom && left > 0; k--) {
    let c = 0;
    for (const [w, sign] of parts) if (k <= w.hi) c += sign * w.next();
    if (c <= 0) continue;
    lowest = k;
    seen += c;
    for (let j = 0; j < qs.length; j++)
      if (out[j] === null && seen >= fromTop[j]!) {
        out[j] = valueOf(k);
        left--;
      }
  }
  // Counts that do not add up (a start edge ahead of its end) answer the lowest bin seen.
  return out.map((v) => v ?? valueOf(lowest));
}

// The hot path of a summary (10,000 checks per answer): p95/p97/p99 of a range straight from the
// two stored sketches inside one packed buffer, with no allocation per check.
let P = 0;
function readAt(b: Uint8Array): number {
  let v = 0;
  let mul = 1;
  for (;;) {
    const x = b[P++];
    if (x === undefined) throw new Error('a stored sketch ends early');
    v += (x & 0x7f) * mul;
    if (x < 0x80) return v;
    mul *= 0x80;
  }
}

/**
 * p95, p97 and p99 (percentile_disc ranks) of the stored sketch at `endAt` in `b`, minus the one at
 * `startAt` (-1: none), plus `keys` (bins sorted highest first), written to out[0..2] (NaN: no
 * runs). The same answer as quantilesBetween, walking down from the highest key.
 */
export function topQuantiles(
  b: Uint8Array,
  endAt: number,
  startAt: number,
  keys: readonly number[],
  out: Float64Array,
): void {
  out[0] = out[1] = out[2] = NaN;
  let eHi = -Infinity;
  let eLen = 0;
  let eTot = 0;
  let eP = 0;
  if (endAt >= 0) {
    P = endAt;
    const z = readAt(b);
    eHi = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    eLen = readAt(b);
    eTot = readAt(b);
    eP = P;
  }
  let sHi = -Infinity;
  let sLen = 0;
  let sTot = 0;
  let sP = 0;
  if (startAt >= 0) {
    P = startAt;
    const z = readAt(b);
    sHi = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    sLen = readAt(b);
    sTot = readAt(b);
    sP = P;
  }
  const kLen = keys.length;
  const n = eTot - sTot + kLen;
  if (n <= 0) return;
  const t99 = n - rankOf(0.99, n) + 1;
  const t97 = n - rankOf(0.97, n) + 1;
  const t95 = n - rankOf(0.95, n) + 1;
  let top = -Infinity;
  let bottom = Infinity;
  if (eLen) {
    top = eHi;
    bottom = eHi - eLen + 1;
  }
  if (sLen) {
    top = Math.max(top, sHi);
    bottom = Math.min(bottom, sHi - sLen + 1);
  }
  if (kLen) {
    top = Math.max(top, keys[0]!);
    bottom = Math.min(bottom, keys[kLen - 1]!);
  }
  let ei = 0;
  let si = 0;
  let ki = 0;
  let seen = 0;
  let lowest = top;
  for (let k = top; k >= bottom; k--) {
    let c = 0;
    if (k <= eHi && ei < eLen) {
      P = eP;
      c += readAt(b);
      eP = P;
      ei++;
    }
    if (k <= sHi && si < sLen) {
      P = sP;
      c -= readAt(b);
      sP = P;
      si++;
    }
    while (ki < kLen && keys[ki] === k) {
      c++;
      ki++;
    }
    if (c <= 0) continue;
    lowest = k;
    seen += c;
    if (seen >= t99 && Number.isNaN(out[2])) out[2] = valueOf(k);
    if (seen >= t97 && Number.isNaN(out[1])) out[1] = valueOf(k);
    if (seen >= t95) {
      out[0] = valueOf(k);
      return;
    }
  }
  // Counts that do not add up (a start edge ahead of its end): the lowest bin seen.
  for (let j = 0; j < 3; j++) if (Number.isNaN(out[j])) out[j] = valueOf(lowest);
}
