// The cumulative duration sketches of check_sketch_edges (issue 20) as the server handles them: the
// same bins as sketch.ts (keyOf/valueOf, within 1 % of the exact percentile), held as one dense run
// of counts from the lowest key to the highest (cumulative sketches have few gaps), and stored as a
// compact bytea: zigzag varint of the highest key, varint of how many counts, varint of their sum,
// then each count as a varint from the highest key down (a month of runs at one a minute: ~170
// keys, ~220 bytes).
//
// A range's sketch is the end edge's minus the start edge's: topQuantiles walks both at once from
// the highest key down, straight from the stored bytes, and stops at p95 (in the top 5 % of the
// runs), so the difference is never built and most of the bytes are never read.
import { keyOf, rankOf, valueOf } from './sketch.js';

export interface DenseSketch {
  /** The key of counts[0]. */
  lo: number;
  /** counts[i]: how many durations fell in bin lo + i. Only the first `len` are used. */
  counts: Float64Array;
  len: number;
}

export const emptySketch = (): DenseSketch => ({ lo: 0, counts: new Float64Array(0), len: 0 });

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

/** A growing buffer that sketches are written into one after another (no allocation per sketch). */
export class SketchWriter {
  buf: Buffer;
  p = 0;

  constructor(initialBytes = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(initialBytes);
  }

  /** Room for `n` more bytes. */
  private room(n: number): void {
    if (this.p + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.p + n));
    this.buf.copy(grown, 0, 0, this.p);
    this.buf = grown;
  }

  private varint(v: number): void {
    while (v >= 0x80) {
      this.buf[this.p++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.p++] = v;
  }

  /** Appends the stored form of `s` (see encodeSketch); returns its length in bytes. */
  write(s: DenseSketch): number {
    let a = 0;
    let b = s.len;
    while (a < b && s.counts[a] === 0) a++;
    while (b > a && s.counts[b - 1] === 0) b--;
    const hi = b > a ? s.lo + b - 1 : 0;
    let total = 0;
    for (let i = a; i < b; i++) {
      const c = s.counts[i]!;
      if (c < 0 || !Number.isInteger(c)) throw new Error(`a sketch count must be a whole number ≥ 0, not ${c}`);
      total += c;
    }
    // A varint of a whole number below 2^53 takes at most 8 bytes.
    this.room(8 * (3 + b - a));
    const start = this.p;
    this.varint(hi >= 0 ? hi * 2 : -hi * 2 - 1);
    this.varint(b - a);
    this.varint(total);
    for (let i = b - 1; i >= a; i--) this.varint(s.counts[i]!);
    return this.p - start;
  }

  /** What was written. */
  bytes(): Buffer {
    return this.buf.subarray(0, this.p);
  }

  /** Starts again at the beginning of the same buffer (what was written is no longer needed). */
  reset(): void {
    this.p = 0;
  }
}

/** The stored form (see the top of this file); leading and trailing empty bins are left out. */
export function encodeSketch(s: DenseSketch): Buffer {
  const w = new SketchWriter(256);
  w.write(s);
  return Buffer.from(w.bytes());
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

/** The sketch stored at `at` in `buf` (the job adds runs to it). */
export function decodeSketch(buf: Uint8Array, at = 0): DenseSketch {
  P = at;
  const z = readAt(buf);
  const hi = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  const len = readAt(buf);
  readAt(buf);
  const counts = new Float64Array(len);
  for (let i = len - 1; i >= 0; i--) counts[i] = readAt(buf);
  return { lo: hi - len + 1, counts, len };
}

/**
 * p95, p97 and p99 (percentile_disc ranks) of the stored sketch at `endAt` in `b`, minus the one at
 * `startAt` (-1: none), plus keys[keysFrom..keysTo) (bins sorted highest first), written to out[0..2] (NaN: no
 * runs), walking down from the highest key: what the sparse Sketch of sketch.ts reports for the
 * same durations (tested).
 */
export function topQuantiles(
  b: Uint8Array,
  endAt: number,
  startAt: number,
  keys: ArrayLike<number>,
  out: Float64Array,
  keysFrom = 0,
  keysTo = keys.length,
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
  const n = eTot - sTot + keysTo - keysFrom;
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
  if (keysTo > keysFrom) {
    top = Math.max(top, keys[keysFrom]!);
    bottom = Math.min(bottom, keys[keysTo - 1]!);
  }
  let ei = 0;
  let si = 0;
  let ki = keysFrom;
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
    while (ki < keysTo && keys[ki] === k) {
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
