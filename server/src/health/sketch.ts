// Mergeable summaries of check runs: a DDSketch of durations (relative-error quantiles), and a
// Tally (pass/fail counts, duration sum, last pass and failure, and the sketch). Both add and, since
// a sketch is only counts per logarithmic bin, subtract exactly: the summary of a range is the
// running tally at its end minus the one at its start (see sketches.ts).
//
// Error bound: for integer millisecond durations (as stored), every reported quantile is within
// SKETCH_RELATIVE_ERROR (1 %) of the exact one by the percentile_disc definition (the value at
// rank ceil(q·n) among the n sorted durations). The bins are built at 0.45 % accuracy, so
// rounding the estimate to whole milliseconds stays inside the bound (a bin holding two integers
// starts above 110 ms, where half a millisecond is under 0.46 %); a bin holding one integer reports
// it exactly.

/** The stated relative error of a reported quantile. */
export const SKETCH_RELATIVE_ERROR = 0.01;
const ALPHA = 0.0045;
const GAMMA = (1 + ALPHA) / (1 - ALPHA);
const LN_GAMMA = Math.log(GAMMA);

/** The bin of a positive value: values in (γ^(k-1), γ^k] share bin k. */
export function binOf(value: number): number {
  return Math.ceil(Math.log(value) / LN_GAMMA - 1e-9);
}

/** What a bin reports, as a whole number of milliseconds (see the error bound above). */
export function binValue(key: number): number {
  const lo = Math.pow(GAMMA, key - 1);
  const hi = Math.pow(GAMMA, key);
  if (Math.floor(hi) - Math.floor(lo) === 1) return Math.floor(hi);
  return Math.round((2 * hi) / (GAMMA + 1));
}

export class Sketch {
  /** Runs with a duration of 0 (or less). */
  zeros = 0;
  readonly bins = new Map<number, number>();

  get count(): number {
    let n = this.zeros;
    for (const c of this.bins.values()) n += c;
    return n;
  }

  add(value: number, count = 1): this {
    if (value <= 0) this.zeros += count;
    else {
      const k = binOf(value);
      this.bins.set(k, (this.bins.get(k) ?? 0) + count);
    }
    return this;
  }

  /** Adds (sign 1) or takes away (sign -1) another sketch's counts. */
  merge(other: Sketch, sign: 1 | -1 = 1): this {
    this.zeros += sign * other.zeros;
    for (const [k, c] of other.bins) {
      const n = (this.bins.get(k) ?? 0) + sign * c;
      if (n === 0) this.bins.delete(k);
      else this.bins.set(k, n);
    }
    return this;
  }

  clone(): Sketch {
    return new Sketch().merge(this);
  }

  /** Several quantiles (0..1) at once, by the percentile_disc rank; null when empty. */
  quantiles(qs: readonly number[]): Array<number | null> {
    const n = this.count;
    if (n <= 0) return qs.map(() => null);
    const keys = [...this.bins.keys()].sort((a, b) => a - b);
    return qs.map((q) => {
      const rank = Math.max(0, Math.ceil(q * n) - 1);
      let seen = this.zeros;
      if (rank < seen) return 0;
      for (const k of keys) {
        seen += this.bins.get(k)!;
        if (rank < seen) return binValue(k);
      }
      return binValue(keys[keys.length - 1]!);
    });
  }

  equals(other: Sketch): boolean {
    if (this.zeros !== other.zeros || this.bins.size !== other.bins.size) return false;
    for (const [k, c] of this.bins) if (other.bins.get(k) !== c) return false;
    return true;
  }

  /** Binary form: zeros, number of bins, then (key delta, count) per bin in key order, as varints. */
  write(w: Writer): void {
    w.uint(this.zeros);
    const keys = [...this.bins.keys()].sort((a, b) => a - b);
    w.uint(keys.length);
    let prev = 0;
    for (const k of keys) {
      w.int(k - prev);
      w.uint(this.bins.get(k)!);
      prev = k;
    }
  }

  static read(r: Reader): Sketch {
    const s = new Sketch();
    s.zeros = r.uint();
    const n = r.uint();
    let k = 0;
    for (let i = 0; i < n; i++) {
      k += r.int();
      s.bins.set(k, r.uint());
    }
    return s;
  }

  encode(): Buffer {
    const w = new Writer();
    w.byte(1);
    this.write(w);
    return w.done();
  }

  static decode(bytes: Uint8Array): Sketch {
    const r = new Reader(bytes);
    if (r.byte() !== 1) throw new Error('not a sketch');
    return Sketch.read(r);
  }
}

/** Counts, duration sum, last pass and failure (epoch ms, 0 for none) and the duration sketch of some runs. */
export class Tally {
  passed = 0;
  failed = 0;
  sum = 0;
  lastPass = 0;
  lastFail = 0;
  sketch = new Sketch();

  get total(): number {
    return this.passed + this.failed;
  }

  addRun(time: number, pass: boolean, duration: number): this {
    if (pass) {
      this.passed++;
      this.lastPass = Math.max(this.lastPass, time);
    } else {
      this.failed++;
      this.lastFail = Math.max(this.lastFail, time);
    }
    this.sum += duration;
    this.sketch.add(duration);
    return this;
  }

  /**
   * Adds (1) or takes away (-1) another tally. The last pass and failure only grow: taking away the
   * runs before a range leaves the latest of the later ones, which the caller compares with the start.
   */
  merge(other: Tally, sign: 1 | -1 = 1): this {
    this.passed += sign * other.passed;
    this.failed += sign * other.failed;
    this.sum += sign * other.sum;
    if (sign === 1) {
      this.lastPass = Math.max(this.lastPass, other.lastPass);
      this.lastFail = Math.max(this.lastFail, other.lastFail);
    }
    this.sketch.merge(other.sketch, sign);
    return this;
  }

  clone(): Tally {
    return new Tally().merge(this);
  }

  encode(): Buffer {
    const w = new Writer();
    w.byte(1);
    w.uint(this.passed);
    w.uint(this.failed);
    w.uint(this.sum);
    w.uint(this.lastPass);
    w.uint(this.lastFail);
    this.sketch.write(w);
    return w.done();
  }

  static decode(bytes: Uint8Array | null | undefined): Tally {
    const t = new Tally();
    if (!bytes || bytes.length === 0) return t;
    const r = new Reader(bytes);
    if (r.byte() !== 1) throw new Error('not a tally');
    t.passed = r.uint();
    t.failed = r.uint();
    t.sum = r.uint();
    t.lastPass = r.uint();
    t.lastFail = r.uint();
    t.sketch = Sketch.read(r);
    return t;
  }
}

/** One run as kept in an hour bucket. */
export interface Run {
  time: number;
  pass: boolean;
  duration: number;
}

/** The runs of one hour in time order: count, then (time delta, pass, duration) per run. */
export function encodeRuns(runs: readonly Run[], hourStart: number): Buffer {
  const w = new Writer();
  w.byte(1);
  w.uint(runs.length);
  let prev = hourStart;
  for (const r of runs) {
    w.uint(r.time - prev);
    w.byte(r.pass ? 1 : 0);
    w.uint(Math.max(0, Math.round(r.duration)));
    prev = r.time;
  }
  return w.done();
}

export function decodeRuns(bytes: Uint8Array | null | undefined, hourStart: number): Run[] {
  if (!bytes || bytes.length === 0) return [];
  const r = new Reader(bytes);
  if (r.byte() !== 1) throw new Error('not a run list');
  const n = r.uint();
  const runs: Run[] = new Array<Run>(n);
  let t = hourStart;
  for (let i = 0; i < n; i++) {
    t += r.uint();
    const pass = r.byte() === 1;
    runs[i] = { time: t, pass, duration: r.uint() };
  }
  return runs;
}

/** Unsigned LEB128 varints (up to 2^53) and zigzag signed ones. */
export class Writer {
  private buf = Buffer.allocUnsafe(64);
  private n = 0;

  private room(k: number) {
    if (this.n + k <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.n + k));
    this.buf.copy(next, 0, 0, this.n);
    this.buf = next;
  }

  byte(b: number): void {
    this.room(1);
    this.buf[this.n++] = b;
  }

  uint(v: number): void {
    if (!Number.isSafeInteger(v) || v < 0) throw new RangeError(`not an unsigned integer: ${v}`);
    this.room(8);
    while (v >= 0x80) {
      this.buf[this.n++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.n++] = v;
  }

  int(v: number): void {
    this.uint(v >= 0 ? v * 2 : -v * 2 - 1);
  }

  done(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.n));
  }
}

export class Reader {
  private i = 0;
  constructor(private readonly bytes: Uint8Array) {}

  byte(): number {
    if (this.i >= this.bytes.length) throw new RangeError('truncated');
    return this.bytes[this.i++]!;
  }

  uint(): number {
    let v = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      v += (b & 0x7f) * scale;
      if (b < 0x80) return v;
      scale *= 0x80;
    }
  }

  int(): number {
    const z = this.uint();
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
  }
}

/**
 * A tally as read from its bytes without building maps: the counts and the sketch's bins as sorted
 * arrays (the summary reads two per check and subtracts them, see rangeOf).
 */
export interface TallyView {
  passed: number;
  failed: number;
  sum: number;
  lastPass: number;
  lastFail: number;
  zeros: number;
  keys: number[];
  counts: number[];
}

const EMPTY_VIEW: TallyView = {
  passed: 0,
  failed: 0,
  sum: 0,
  lastPass: 0,
  lastFail: 0,
  zeros: 0,
  keys: [],
  counts: [],
};

/** Reads a tally's bytes (null: nothing before); `head`: the counts only, not the bins. */
export function readTally(bytes: Uint8Array | null | undefined, head = false): TallyView {
  if (!bytes || bytes.length === 0) return EMPTY_VIEW;
  const r = new Reader(bytes);
  if (r.byte() !== 1) throw new Error('not a tally');
  const v: TallyView = {
    passed: r.uint(),
    failed: r.uint(),
    sum: r.uint(),
    lastPass: r.uint(),
    lastFail: r.uint(),
    zeros: 0,
    keys: [],
    counts: [],
  };
  if (head) return v;
  v.zeros = r.uint();
  const n = r.uint();
  v.keys = new Array<number>(n);
  v.counts = new Array<number>(n);
  let k = 0;
  for (let i = 0; i < n; i++) {
    k += r.int();
    v.keys[i] = k;
    v.counts[i] = r.uint();
  }
  return v;
}

/** The figures of the runs between two running tallies: counts, sum, last pass/fail and quantiles. */
export interface RangeFigures {
  passed: number;
  failed: number;
  sum: number;
  lastPass: number;
  lastFail: number;
  quantiles: Array<number | null>;
}

/**
 * `end` + `plus` − `start` − `minus`: the tally at the end of a range (with the runs of its last
 * hour up to the end) minus the one at its start (with the runs of its first hour before the start),
 * and the quantiles `qs` (ascending) of the difference by the percentile_disc rank, in one merge of
 * the sorted bins.
 */
export function rangeOf(
  end: TallyView,
  plus: readonly Run[],
  start: TallyView,
  minus: readonly Run[],
  qs: readonly number[],
): RangeFigures {
  let { passed, failed, sum, lastPass, lastFail } = end;
  let zeros = end.zeros - start.zeros;
  passed -= start.passed;
  failed -= start.failed;
  sum -= start.sum;
  // The runs of the boundary hours, as (bin, ±1) sorted by bin.
  const adj: Array<[number, number]> = [];
  for (const r of plus) {
    if (r.pass) {
      passed++;
      lastPass = Math.max(lastPass, r.time);
    } else {
      failed++;
      lastFail = Math.max(lastFail, r.time);
    }
    sum += r.duration;
    if (r.duration <= 0) zeros++;
    else adj.push([binOf(r.duration), 1]);
  }
  for (const r of minus) {
    if (r.pass) passed--;
    else failed--;
    sum -= r.duration;
    if (r.duration <= 0) zeros--;
    else adj.push([binOf(r.duration), -1]);
  }
  adj.sort((a, b) => a[0] - b[0]);
  const n = passed + failed;
  const quantiles: Array<number | null> = qs.map(() => null);
  if (n > 0) {
    const ranks = qs.map((q) => Math.max(0, Math.ceil(q * n) - 1));
    let qi = 0;
    let seen = zeros;
    while (qi < ranks.length && ranks[qi]! < seen) quantiles[qi++] = 0;
    let i = 0;
    let j = 0;
    let a = 0;
    const ek = end.keys;
    const sk = start.keys;
    let last = 0;
    while (qi < ranks.length && (i < ek.length || j < sk.length || a < adj.length)) {
      const k = Math.min(
        i < ek.length ? ek[i]! : Infinity,
        j < sk.length ? sk[j]! : Infinity,
        a < adj.length ? adj[a]![0] : Infinity,
      );
      let c = 0;
      if (i < ek.length && ek[i] === k) c += end.counts[i++]!;
      if (j < sk.length && sk[j] === k) c -= start.counts[j++]!;
      while (a < adj.length && adj[a]![0] === k) c += adj[a++]![1];
      if (c <= 0) continue;
      seen += c;
      last = k;
      while (qi < ranks.length && ranks[qi]! < seen) quantiles[qi++] = binValue(k);
    }
    while (qi < ranks.length) quantiles[qi++] = seen > zeros ? binValue(last) : 0;
  }
  return { passed, failed, sum, lastPass, lastFail, quantiles };
}
