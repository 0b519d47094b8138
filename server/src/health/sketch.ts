// A mergeable quantile sketch of check durations (DDSketch with fixed logarithmic bins, issue 20):
// a count per bin, so two sketches merge (and subtract) exactly by adding (taking away) counts,
// in any order. The roll-ups keep one per check and hour (day) as two integer arrays, sorted
// keys and their counts (check_statuses_1h/_1d.sketch_keys/sketch_counts, migration 0029), built
// in SQL with check_sketch_key() and read back with check_sketch_value(); this module is the same
// arithmetic in TypeScript (the tests hold both to it).
//
// Error bound: for integer millisecond durations (as stored), every reported quantile is within
// SKETCH_RELATIVE_ERROR (1 %) of the exact one by the percentile_disc definition (the value at rank
// ceil(q·n) among the n sorted durations). The bins are built at 0.45 % accuracy (γ = 1.0045/0.9955),
// so rounding the estimate to whole milliseconds stays inside the bound (a bin holding two integers
// starts above 110 ms, where half a millisecond is under 0.46 %); a bin holding one integer reports it
// exactly, and durations of 0 (or less) have a key of their own (-1) and report 0.

/** The stated relative error of a reported quantile. */
export const SKETCH_RELATIVE_ERROR = 0.01;
/** γ: bin k holds the values in (γ^(k-1), γ^k]. The same literals as check_sketch_key() in SQL. */
export const SKETCH_GAMMA = 1.0045 / 0.9955;
const LN_GAMMA = Math.log(SKETCH_GAMMA);
/** The key of durations of 0 or less. */
export const ZERO_KEY = -1;

/** The bin of a duration (ms). */
export function keyOf(value: number): number {
  if (value <= 0) return ZERO_KEY;
  return Math.ceil(Math.log(value) / LN_GAMMA - 1e-9);
}

/** What each bin reports, worked out on first use (every duration up to 2^31 ms has a key under 2,400). */
const VALUES = new Float64Array(4096).fill(NaN);

function binValue(key: number): number {
  const lo = Math.pow(SKETCH_GAMMA, key - 1);
  const hi = Math.pow(SKETCH_GAMMA, key);
  if (Math.floor(hi) - Math.floor(lo) === 1) return Math.floor(hi);
  return Math.round((2 * hi) / (SKETCH_GAMMA + 1));
}

/** What a bin reports, as a whole number of milliseconds (see the error bound above). */
export function valueOf(key: number): number {
  if (key < 0) return 0;
  if (key < VALUES.length) {
    const v = VALUES[key]!;
    return Number.isNaN(v) ? (VALUES[key] = binValue(key)) : v;
  }
  return binValue(key);
}

/** The 1-based rank percentile_disc reports for quantile q of n values (q·n in float8, as PostgreSQL). */
export const rankOf = (q: number, n: number) => Math.max(1, Math.ceil(q * n));

export class Sketch {
  readonly bins = new Map<number, number>();

  get count(): number {
    let n = 0;
    for (const c of this.bins.values()) n += c;
    return n;
  }

  add(value: number, count = 1): this {
    const k = keyOf(value);
    this.bins.set(k, (this.bins.get(k) ?? 0) + count);
    return this;
  }

  /** Adds (sign 1) or takes away (sign -1) another sketch's counts. */
  merge(other: Sketch, sign: 1 | -1 = 1): this {
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

  /** Several quantiles (0..1] at once, by the percentile_disc rank; null when empty. */
  quantiles(qs: readonly number[]): Array<number | null> {
    const n = this.count;
    if (n <= 0) return qs.map(() => null);
    const keys = [...this.bins.keys()].sort((a, b) => a - b);
    return qs.map((q) => {
      const rank = rankOf(q, n);
      let seen = 0;
      for (const k of keys) {
        seen += this.bins.get(k)!;
        if (seen >= rank) return valueOf(k);
      }
      return valueOf(keys[keys.length - 1]!);
    });
  }

  equals(other: Sketch): boolean {
    if (this.bins.size !== other.bins.size) return false;
    for (const [k, c] of this.bins) if (other.bins.get(k) !== c) return false;
    return true;
  }

  /** The stored form: keys ascending and their counts (SQL: sketch_keys int[], sketch_counts int[]). */
  toArrays(): { keys: number[]; counts: number[] } {
    const keys = [...this.bins.keys()].sort((a, b) => a - b);
    return { keys, counts: keys.map((k) => this.bins.get(k)!) };
  }

  static fromArrays(keys: readonly number[], counts: readonly number[]): Sketch {
    if (keys.length !== counts.length) throw new Error('a sketch has as many counts as keys');
    const s = new Sketch();
    keys.forEach((k, i) => {
      if (!Number.isInteger(k) || !Number.isInteger(counts[i]) || counts[i]! < 0) throw new Error('not a sketch');
      if (counts[i]) s.bins.set(k, (s.bins.get(k) ?? 0) + counts[i]!);
    });
    return s;
  }
}
