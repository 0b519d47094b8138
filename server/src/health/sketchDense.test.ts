import { describe, expect, it } from 'vitest';
import { random } from '../../test/helpers/random.js';
import { edgeKept, gridPoints, EDGE_STEP_MS } from './edges.js';
import { nearestEdge } from './edgeFigures.js';
import { keyOf, Sketch } from './sketch.js';
import {
  addDuration,
  decodeSketch,
  emptySketch,
  encodeSketch,
  mergeInto,
  sketchTotal,
  topQuantiles,
  type DenseSketch,
} from './sketchDense.js';

const rnd = random(7);
const QS = [0.95, 0.97, 0.99];
const dense = (values: number[]) => {
  const s = emptySketch();
  for (const v of values) addDuration(s, v);
  return s;
};
/**
 * p95/p97/p99 of end − start + the runs since (their durations) as the summary gets them: both
 * sketches stored side by side in one buffer (after some other bytes) and walked by topQuantiles,
 * the runs' bins a slice of a longer array.
 */
function top(end: DenseSketch, start: DenseSketch | null, since: number[] = []): Array<number | null> {
  const pad = Buffer.from([7, 7, 7]);
  const e = encodeSketch(end);
  const s = start ? encodeSketch(start) : Buffer.alloc(0);
  const q = new Float64Array(3);
  const keys = since.map((d) => keyOf(d)).sort((a, b) => b - a);
  // Among other checks' bins, as the summary passes them (one array for every check).
  const all = Int32Array.from([3000, 2500, ...keys, 2, 1]);
  topQuantiles(Buffer.concat([pad, e, s]), 3, start ? 3 + e.length : -1, all, q, 2, 2 + keys.length);
  return [...q].map((v) => (Number.isNaN(v) ? null : v));
}
const sparse = (values: number[]) => {
  const s = new Sketch();
  for (const v of values) s.add(v);
  return s;
};

describe('dense sketches (the edges of the summary)', () => {
  const sets: Record<string, number[]> = {
    'heavy tail': Array.from({ length: 3000 }, () => Math.round(10 / Math.pow(1 - rnd(), 1 / 1.1))),
    'with zeros, growing down': [
      5000,
      4000,
      3,
      2,
      1,
      0,
      0,
      7,
      ...Array.from({ length: 500 }, () => Math.round(rnd() * 9000)),
    ],
    'all equal': Array.from({ length: 100 }, () => 250),
  };

  it.each(Object.entries(sets))('reports what the sparse sketch reports: %s', (_, values) => {
    const d = dense(values);
    expect(sketchTotal(d)).toBe(values.length);
    expect(top(d, null)).toEqual(sparse(values).quantiles(QS));
  });

  it('round-trips through its stored form, trimmed of empty bins', () => {
    for (const values of Object.values(sets)) {
      const d = dense(values);
      const back = decodeSketch(encodeSketch(d));
      expect(sketchTotal(back)).toBe(values.length);
      expect(top(back, null)).toEqual(sparse(values).quantiles(QS));
      expect(back.counts[0]).toBeGreaterThan(0);
      expect(back.counts[back.len - 1]).toBeGreaterThan(0);
    }
    expect(() => decodeSketch(encodeSketch(dense([1, 2, 3])).subarray(0, 3))).toThrow(/ends early/);
    const neg: DenseSketch = { lo: 5, counts: new Float64Array([1, -1]), len: 2 };
    expect(() => encodeSketch(neg)).toThrow(/whole number/);
  });

  it('gives the quantiles of a range as end minus start plus the runs since', () => {
    const before = Array.from({ length: 2000 }, () => 20 + Math.round(rnd() * 30));
    const inside = Array.from({ length: 700 }, () => 900 + Math.round(rnd() * 3000));
    const tail = Array.from({ length: 50 }, () => Math.round(rnd() * 5));
    const start = dense(before);
    const end = dense(before);
    mergeInto(end, dense(inside));
    expect(top(end, start, tail)).toEqual(sparse([...inside, ...tail]).quantiles(QS));
    // Merging is associative: (a + b) + c and a + (b + c) hold the same counts.
    const [a, b, c] = [dense(before), dense(inside), dense(tail)];
    const left = dense([]);
    mergeInto(left, a);
    mergeInto(left, b);
    mergeInto(left, c);
    const bc = dense([]);
    mergeInto(bc, b);
    mergeInto(bc, c);
    const right = dense([]);
    mergeInto(right, a);
    mergeInto(right, bc);
    expect(encodeSketch(left)).toEqual(encodeSketch(right));
    expect(top(start, start)).toEqual([null, null, null]);
  });
});

describe('p95/p97/p99 straight from stored sketches', () => {
  it('answers what the sparse sketch answers for end - start + the runs since, on random ranges', () => {
    for (let round = 0; round < 40; round++) {
      const before = Array.from({ length: Math.floor(rnd() * 3000) }, () => Math.round(rnd() * rnd() * 5000));
      const inside = Array.from({ length: Math.floor(rnd() * 300) }, () =>
        Math.round(10 / Math.pow(1 - rnd(), 1 / 1.1)),
      );
      const tail = Array.from({ length: Math.floor(rnd() * 6) }, () => Math.round(rnd() * 900));
      const start = dense(before);
      const end = dense(before);
      mergeInto(end, dense(inside));
      expect(top(end, before.length ? start : null, tail), `round ${round}`).toEqual(
        sparse([...inside, ...tail]).quantiles(QS),
      );
    }
  });
});

describe('the grid of edges', () => {
  const HOUR = 3_600_000;
  const DAY = 24 * HOUR;
  const now = Date.UTC(2026, 10, 26, 13, 7, 12);

  it('keeps 1-minute edges for 15 minutes, 5-minute ones for 3 hours, hourly ones for 8 days, daily ones after', () => {
    expect(edgeKept(Date.UTC(2026, 10, 26, 12, 56), now)).toBe(true);
    expect(edgeKept(Date.UTC(2026, 10, 26, 12, 56, 30), now)).toBe(false);
    expect(edgeKept(Date.UTC(2026, 10, 26, 12, 51), now)).toBe(false);
    expect(edgeKept(Date.UTC(2026, 10, 26, 12, 50), now)).toBe(true);
    expect(edgeKept(Date.UTC(2026, 10, 26, 9, 55), now)).toBe(false);
    expect(edgeKept(Date.UTC(2026, 10, 26, 9, 0), now)).toBe(true);
    expect(edgeKept(Date.UTC(2026, 10, 17, 9, 0), now)).toBe(false);
    expect(edgeKept(Date.UTC(2026, 10, 17, 0, 0), now)).toBe(true);
  });

  it('lists the kept points of a span in order, and only those', () => {
    const pts = gridPoints(now - 10 * DAY, now, now);
    expect(pts).toEqual([...pts].sort((a, b) => a - b));
    expect(pts.every((p) => edgeKept(p, now))).toBe(true);
    const recent = pts.filter((p) => now - p <= 15 * 60_000);
    const fine = pts.filter((p) => now - p > 15 * 60_000 && now - p <= 3 * HOUR);
    const hourly = pts.filter((p) => now - p > 3 * HOUR && now - p <= 8 * DAY).length;
    expect(recent).toHaveLength(15);
    expect(fine).toHaveLength(33);
    expect(fine.every((p) => p % (5 * 60_000) === 0)).toBe(true);
    expect(hourly).toBeGreaterThanOrEqual(8 * 24 - 4);
    expect(pts.filter((p) => now - p > 8 * DAY).length).toBe(2);
    expect(gridPoints(now - EDGE_STEP_MS, now, now)).toHaveLength(1);
  });

  it('rounds a range end to the nearest edge, and a start before the first run to nothing', () => {
    const times = [0, 100, 200, 300];
    expect(nearestEdge(times, 10, 140, 300)).toBe(100);
    expect(nearestEdge(times, 10, 160, 300)).toBe(200);
    expect(nearestEdge(times, 10, 290, 200)).toBe(200);
    expect(nearestEdge(times, 10, 5, 300)).toBeNull();
  });
});
