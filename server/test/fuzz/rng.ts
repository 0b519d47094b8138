// A small seeded PRNG (mulberry32) for the /api/db fuzz test: every request is generated from
// its own stream, derived from the run seed and the request's index, so a request can be
// regenerated on its own (FUZZ_SEED + FUZZ_ONLY) whatever the concurrency did to the order.

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A stream for request `index` of the run seeded with `seed`. */
  static forIndex(seed: number, index: number): Rng {
    let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    return new Rng((h ^ (h >>> 16)) >>> 0);
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  bool(p = 0.5): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(choices: readonly (readonly [number, T])[]): T {
    const total = choices.reduce((s, [w]) => s + w, 0);
    let r = this.next() * total;
    for (const [w, v] of choices) {
      r -= w;
      if (r < 0) return v;
    }
    return choices[choices.length - 1]![1];
  }

  /** Up to `max` distinct items, in random order. */
  some<T>(items: readonly T[], min: number, max: number): T[] {
    const copy = [...items];
    const n = Math.min(copy.length, this.int(min, max));
    const out: T[] = [];
    for (let i = 0; i < n; i++) out.push(copy.splice(this.int(0, copy.length - 1), 1)[0]!);
    return out;
  }
}
