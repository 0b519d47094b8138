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
  const lo = s.lo + a;
  writeVarint(out, lo >= 0 ? lo * 2 : -lo * 2 - 1);
  writeVarint(out, b - a);
  for (let i = a; i < b; i++) {
    const c = s.counts[i]!;
    if (c < 0 || !Number.isInteger(c)) throw new Error(`a sketch count must be a whole number ≥ 0, not ${c}`);
    writeVarint(out, c);
  }
  return Buffer.from(out);
}

export function decodeSketch(buf: Uint8Array): DenseSketch {
  let p = 0;
  const read = () => {
    let v = 0;
    let mul = 1;
    for (;;) {
      if (p >= buf.length) throw new Error('a stored sketch ends early');
      const byte = buf[p++]!;
      v += (byte & 0x7f) * mul;
      if (byte < 0x80) return v;
      mul *= 0x80;
    }
  };
  const z = read();
  const lo = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  const len = read();
  const counts = new Float64Array(len);
  for (let i = 0; i < len; i++) counts[i] = read();
  return { lo, counts, len };
}

/**
 * The quantiles (percentile_disc ranks) of `end` minus `start` plus `extra` (any may be empty),
 * without building the difference: null for each when the difference holds no durations.
 */
export function quantilesBetween(
  end: DenseSketch,
  start: DenseSketch,
  extra: DenseSketch,
  qs: readonly number[],
): Array<number | null> {
  const parts = [end, start, extra].filter((s) => s.len > 0);
  if (!parts.length) return qs.map(() => null);
  let lo = Infinity;
  let hi = -Infinity;
  for (const s of parts) {
    lo = Math.min(lo, s.lo);
    hi = Math.max(hi, s.lo + s.len - 1);
  }
  const at = (s: DenseSketch, k: number) => {
    const i = k - s.lo;
    return i >= 0 && i < s.len ? s.counts[i]! : 0;
  };
  const n = sketchTotal(end) - sketchTotal(start) + sketchTotal(extra);
  if (n <= 0) return qs.map(() => null);
  const ranks = qs.map((q) => rankOf(q, n));
  const out: Array<number | null> = qs.map(() => null);
  let seen = 0;
  let last = lo;
  for (let k = lo; k <= hi; k++) {
    const c = at(end, k) - at(start, k) + at(extra, k);
    if (c <= 0) continue;
    last = k;
    seen += c;
    for (let j = 0; j < ranks.length; j++) if (out[j] === null && seen >= ranks[j]!) out[j] = valueOf(k);
  }
  // Counts that do not add up (a start edge ahead of its end) answer the highest bin seen.
  return out.map((v) => v ?? valueOf(last));
}
