import { describe, expect, it } from 'vitest';
import { random } from '../../test/helpers/random.js';
import { keyOf, Sketch, SKETCH_RELATIVE_ERROR, valueOf } from './sketch.js';

const QS = [0.5, 0.95, 0.97, 0.99] as const;

/** percentile_disc: the value at rank ceil(q·n) of the sorted values. */
function exact(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]!;
}

const rnd = random(42);
const SETS: Record<string, number[]> = {
  uniform: Array.from({ length: 5000 }, () => Math.round(rnd() * 2000)),
  bimodal: Array.from({ length: 4000 }, (_, i) =>
    i % 10 < 7 ? 20 + Math.round(rnd() * 10) : 5000 + Math.round(rnd() * 500),
  ),
  'bimodal at the 95th percentile': Array.from({ length: 2000 }, (_, i) => (i % 100 < 95 ? 3 : 9_000)),
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
  'hour-long durations': Array.from({ length: 700 }, () => 3_000_000 + Math.round(rnd() * 600_000)),
};
// Random sets of random sizes and shapes.
for (let i = 0; i < 40; i++) {
  const n = 1 + Math.floor(rnd() * 3000);
  const scale = Math.pow(10, rnd() * 5);
  SETS[`random #${i} (n=${n})`] = Array.from({ length: n }, () =>
    rnd() < 0.02 ? 0 : Math.round(scale * Math.pow(rnd(), 1 + rnd() * 3)),
  );
}

const sketchOf = (values: readonly number[]) => values.reduce((s, v) => s.add(v), new Sketch());

function expectWithin(got: number | null, want: number, what: string) {
  expect(got, what).not.toBeNull();
  expect(Math.abs(got! - want), `${what}: ${got} vs ${want}`).toBeLessThanOrEqual(SKETCH_RELATIVE_ERROR * want);
}

describe('Sketch', () => {
  for (const [name, values] of Object.entries(SETS)) {
    it(`reports p50/p95/p97/p99 within ${SKETCH_RELATIVE_ERROR * 100} % of exact sorting: ${name}`, () => {
      const got = sketchOf(values).quantiles(QS);
      QS.forEach((q, i) => expectWithin(got[i]!, exact(values, q), `q${q}`));
    });
  }

  it('reports every integer from 0 to 200,000 within the bound on its own, and small ones exactly', () => {
    for (let v = 0; v <= 200_000; v++) {
      const got = valueOf(keyOf(v));
      if (Math.abs(got - v) > SKETCH_RELATIVE_ERROR * v) throw new Error(`${v} reported as ${got}`);
      if (v <= 100 && got !== v) throw new Error(`${v} reported as ${got}`);
    }
  });

  it('is empty-safe: no quantiles without runs', () => {
    expect(new Sketch().quantiles(QS)).toEqual([null, null, null, null]);
  });

  it('merges associatively and commutatively, the same as adding every value to one sketch', () => {
    const parts = Object.values(SETS).map(sketchOf);
    const all = sketchOf(Object.values(SETS).flat());
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
    const shuffled = [...parts].sort(() => rnd() - 0.5).reduce((s, p) => s.merge(p), new Sketch());
    expect(shuffled.equals(all)).toBe(true);
    // The merged quantiles are within the bound of the exact ones of the union.
    const union = Object.values(SETS).flat();
    merged.quantiles(QS).forEach((got, i) => expectWithin(got, exact(union, QS[i]!), `merged q${QS[i]}`));
  });

  it('subtracts exactly: (a + b) - a is b', () => {
    const a = sketchOf(SETS.uniform!);
    const b = sketchOf(SETS.bimodal!);
    expect(a.clone().merge(b).merge(a, -1).equals(b)).toBe(true);
    expect(a.clone().merge(a, -1).count).toBe(0);
  });

  it('round-trips through its stored form (sorted keys, counts)', () => {
    for (const values of Object.values(SETS)) {
      const s = sketchOf(values);
      const { keys, counts } = s.toArrays();
      expect(keys).toEqual([...keys].sort((x, y) => x - y));
      expect(Sketch.fromArrays(keys, counts).equals(s)).toBe(true);
    }
    expect(() => Sketch.fromArrays([1, 2], [1])).toThrow();
    expect(() => Sketch.fromArrays([1.5], [1])).toThrow();
  });
});
