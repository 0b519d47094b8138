import { describe, expect, it } from 'vitest';
import { decodeRuns, encodeRuns, rangeOf, readTally, Sketch, SKETCH_RELATIVE_ERROR, Tally } from './sketch.js';

const QS = [0.5, 0.95, 0.97, 0.99] as const;

/** percentile_disc: the value at rank ceil(q·n) of the sorted values. */
function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

/** A deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const rnd = random(42);
const SETS: Record<string, number[]> = {
  uniform: Array.from({ length: 5000 }, () => Math.round(rnd() * 2000)),
  bimodal: Array.from({ length: 4000 }, (_, i) =>
    i % 10 < 7 ? 20 + Math.round(rnd() * 10) : 5000 + Math.round(rnd() * 500),
  ),
  'heavy tail (Pareto)': Array.from({ length: 6000 }, () => Math.round(10 / Math.pow(1 - rnd(), 1 / 1.2))),
  'log-normal': Array.from({ length: 3000 }, () =>
    Math.round(Math.exp(5 + 1.5 * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd()))),
  ),
  'all equal': Array.from({ length: 1000 }, () => 250),
  'single value': [731],
  zeros: Array.from({ length: 200 }, () => 0),
  'zeros and a few slow': Array.from({ length: 300 }, (_, i) => (i % 50 === 0 ? 30_000 : 0)),
  'one to a hundred': Array.from({ length: 100 }, (_, i) => i + 1),
  'timeouts (minutes)': Array.from({ length: 500 }, (_, i) => (i % 3 ? 120_000 + i : 1)),
  'every integer 0..3000': Array.from({ length: 3001 }, (_, i) => i),
};

describe('Sketch', () => {
  for (const [name, values] of Object.entries(SETS)) {
    it(`reports p50/p95/p97/p99 within ${SKETCH_RELATIVE_ERROR * 100} % of exact sorting: ${name}`, () => {
      const s = new Sketch();
      for (const v of values) s.add(v);
      const got = s.quantiles(QS);
      QS.forEach((q, i) => {
        const want = exact(values, q);
        expect(Math.abs(got[i]! - want), `q${q}: ${got[i]} vs ${want}`).toBeLessThanOrEqual(
          SKETCH_RELATIVE_ERROR * want,
        );
      });
    });
  }

  it('reports every integer from 0 to 100,000 within the bound on its own', () => {
    for (let v = 0; v <= 100_000; v++) {
      const got = new Sketch().add(v).quantiles([0.5])[0]!;
      if (Math.abs(got - v) > SKETCH_RELATIVE_ERROR * v) throw new Error(`${v} reported as ${got}`);
    }
  });

  it('is empty-safe: no quantiles without runs', () => {
    expect(new Sketch().quantiles(QS)).toEqual([null, null, null, null]);
  });

  it('merges associatively and commutatively, the same as adding every value to one sketch', () => {
    const parts = Object.values(SETS).map((vs) => vs.reduce((s, v) => s.add(v), new Sketch()));
    const all = Object.values(SETS)
      .flat()
      .reduce((s, v) => s.add(v), new Sketch());
    const [a, b, c] = parts;
    expect(
      a!
        .clone()
        .merge(b!)
        .merge(c!)
        .equals(a!.clone().merge(b!.clone().merge(c!))),
    ).toBe(true);
    expect(a!.clone().merge(b!).equals(b!.clone().merge(a!))).toBe(true);
    const merged = parts.reduceRight((s, p) => s.merge(p), new Sketch());
    expect(merged.equals(all)).toBe(true);
    expect(merged.quantiles(QS)).toEqual(all.quantiles(QS));
  });

  it('subtracts exactly: (a + b) - a is b', () => {
    const a = SETS.uniform!.reduce((s, v) => s.add(v), new Sketch());
    const b = SETS.bimodal!.reduce((s, v) => s.add(v), new Sketch());
    expect(a.clone().merge(b).merge(a, -1).equals(b)).toBe(true);
    expect(a.clone().merge(a, -1).count).toBe(0);
    expect(a.clone().merge(a, -1).bins.size).toBe(0);
  });

  it('survives a binary round trip, compactly', () => {
    for (const values of Object.values(SETS)) {
      const s = values.reduce((sk, v) => sk.add(v), new Sketch());
      const bytes = s.encode();
      expect(Sketch.decode(bytes).equals(s)).toBe(true);
      expect(bytes.length).toBeLessThanOrEqual(6 + 5 * s.bins.size);
    }
    expect(() => Sketch.decode(Buffer.from([9]))).toThrow();
  });
});

describe('Tally', () => {
  it('counts, sums and keeps the last pass and failure; round-trips; subtracts', () => {
    const a = new Tally().addRun(1_000, true, 10).addRun(2_000, false, 3_000);
    const b = new Tally().addRun(5_000, true, 20).addRun(2 ** 40, true, 0);
    const ab = a.clone().merge(b);
    expect([ab.passed, ab.failed, ab.sum, ab.lastPass, ab.lastFail]).toEqual([3, 1, 3_030, 2 ** 40, 2_000]);
    const back = Tally.decode(ab.encode());
    expect([back.passed, back.failed, back.sum, back.lastPass, back.lastFail]).toEqual([3, 1, 3_030, 2 ** 40, 2_000]);
    expect(back.sketch.equals(ab.sketch)).toBe(true);
    const onlyB = ab.clone().merge(a, -1);
    expect([onlyB.passed, onlyB.failed, onlyB.sum]).toEqual([2, 0, 20]);
    expect(onlyB.sketch.equals(b.sketch)).toBe(true);
    expect(Tally.decode(null).total).toBe(0);
  });
});

describe('runs of an hour', () => {
  it('round-trip in time order', () => {
    const start = Date.UTC(2026, 0, 1, 10);
    const runs = [
      { time: start, pass: true, duration: 0 },
      { time: start + 59_999, pass: false, duration: 120_000 },
      { time: start + 3_599_999, pass: true, duration: 7 },
    ];
    expect(decodeRuns(encodeRuns(runs, start), start)).toEqual(runs);
    expect(decodeRuns(null, start)).toEqual([]);
  });
});

describe('rangeOf', () => {
  it('gives the same counts and quantiles as subtracting whole tallies, in one merge', () => {
    const rnd = random(9);
    const runs = Array.from({ length: 3000 }, (_, i) => ({
      time: i * 1000,
      pass: rnd() > 0.1,
      duration: rnd() < 0.05 ? 0 : Math.round(10 + rnd() * rnd() * 5000),
    }));
    const tallyOf = (rs: typeof runs) => rs.reduce((t, r) => t.addRun(r.time, r.pass, r.duration), new Tally());
    for (const [s, e] of [
      [0, 2999],
      [500, 700],
      [1000, 1000],
      [2000, 2999],
    ] as const) {
      // The start's row ends at s - 10 (its next 10 runs are the boundary hour's), the end's at e - 20.
      const startCum = tallyOf(runs.slice(0, Math.max(0, s - 10)));
      const minus = runs.slice(Math.max(0, s - 10), s);
      const endCum = tallyOf(runs.slice(0, Math.max(0, e - 20)));
      const plus = runs.slice(Math.max(0, e - 20), e + 1);
      const got = rangeOf(readTally(endCum.encode()), plus, readTally(startCum.encode()), minus, QS);
      const want = tallyOf(runs.slice(s, e + 1));
      expect([got.passed, got.failed, got.sum]).toEqual([want.passed, want.failed, want.sum]);
      expect(got.quantiles).toEqual(want.sketch.quantiles(QS));
      const durations = runs.slice(s, e + 1).map((r) => r.duration);
      QS.forEach((q, i) => {
        const x = exact(durations, q);
        expect(Math.abs(got.quantiles[i]! - x)).toBeLessThanOrEqual(SKETCH_RELATIVE_ERROR * x);
      });
    }
  });
});
