// The per-check figures of any summary range from the edges (edges.ts, migration 0031): the end
// edge minus the start edge, plus the raw runs since the latest edge when the range reaches it.
// Reads one pack per edge instant it needs (its ends, the latest, an hour ago; migration 0036) and
// the runs of the last few minutes, whatever the range and the number of checks.
//
// The ends are rounded to the nearest edge instant (every minute for the last 15 minutes, 5
// minutes for 3 hours, hourly for 8 days, daily before), so a range's figures cover [from, to) as returned; a start at or
// before the oldest run counts from the first run. Counts, the last pass and failure are exact for
// that range; p95/p97/p99 within the sketch's stated error (sketch.ts, 1 %). rolling1h is the mean
// duration since the edge nearest an hour ago. Runs recorded late (timed before the latest edge)
// count from the edge job's next run (within a minute).
import type { Queryable } from '../db/database.js';
import { msOrNull, readRecentRuns, uuidAt } from './edgeWire.js';
import { compareUuid, RANGE_FIELDS, RangeField, readRangeEdges } from './edgePacks.js';
import { topQuantiles } from './sketchDense.js';
import { Slices } from '../jobs/slices.js';

/** The latest edge may be this old before the figures stop coming from the edges (job not running). */
export const EDGES_STALE_MS = 15 * 60_000;

/** The figures of a range as columns (one entry per check that ran), for the summary's `s` CTE. */
export interface RangeFigures {
  from: Date;
  to: Date;
  check_id: string[];
  passed: number[];
  failed: number[];
  /** Milliseconds since the epoch (null: none in the range). */
  last_pass: Array<number | null>;
  last_fail: Array<number | null>;
  p95: Array<number | null>;
  p97: Array<number | null>;
  p99: Array<number | null>;
  rolling1h: Array<number | null>;
}

export interface EdgeClock {
  builtTo: number;
  origin: number;
  times: number[];
}

/**
 * Where the edges stand, or undefined when they cannot answer: never built, or the latest edge is
 * older than EDGES_STALE_MS (no replica runs the job).
 */
export async function edgeClock(db: Queryable): Promise<EdgeClock | undefined> {
  const { rows } = await db.query<{ built_to: string | null; origin: string | null; times: string[] | null }>(
    `SELECT built_to, origin, (SELECT array_agg(at::text ORDER BY at) FROM check_sketch_edge_times) AS times
     FROM check_sketch_state`,
  );
  const r = rows[0];
  if (!r?.built_to) return undefined;
  const builtTo = new Date(r.built_to).getTime();
  if (Date.now() - builtTo > EDGES_STALE_MS) return undefined;
  return {
    builtTo,
    origin: new Date(r.origin ?? r.built_to).getTime(),
    times: (r.times ?? []).map((t) => new Date(t).getTime()),
  };
}

/** The edge instant nearest `t` (no later than `max`); null: before the first run (nothing). */
export function nearestEdge(times: readonly number[], origin: number, t: number, max: number): number | null {
  if (t <= origin) return null;
  let best: number | null = null;
  for (const at of times) {
    if (at > max) break;
    if (best === null || Math.abs(at - t) < Math.abs(best - t)) best = at;
  }
  return best;
}

const lastOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * The figures of [start, end] from the edges, or undefined when they cannot answer (see edgeClock;
 * `clock` when the caller has read it). Two queries whatever the range: the packs of the edge
 * instants at its ends (with the latest edge and the one an hour ago, for rolling1h; migration
 * 0036), one value each, and the runs since the latest edge per check (edgeWire.ts).
 */
export async function edgeFigures(
  db: Queryable,
  start: Date,
  end: Date,
  clock?: EdgeClock,
  slices = new Slices(),
): Promise<RangeFigures | undefined> {
  // An instant pruned between reading the clock and its pack: once more with the clock read again.
  for (let attempt = 0; ; attempt++) {
    const c = attempt === 0 && clock ? clock : await edgeClock(db);
    if (!c) return undefined;
    const f = await figuresAt(db, start, end, c, slices);
    if (f) return f;
    if (attempt > 0) throw new Error('the edge instants changed while they were read');
  }
}

async function figuresAt(
  db: Queryable,
  start: Date,
  end: Date,
  c: EdgeClock,
  slices: Slices,
): Promise<RangeFigures | undefined> {
  const now = Date.now();
  const open = end.getTime() >= c.builtTo;
  const endAt = open ? c.builtTo : nearestEdge(c.times, c.origin, end.getTime(), c.builtTo);
  let startAt = nearestEdge(c.times, c.origin, start.getTime(), c.builtTo);
  if (startAt !== null && endAt !== null && startAt > endAt) startAt = endAt;
  const hourAt = nearestEdge(c.times, c.origin, now - 3_600_000, c.builtTo);
  const date = (t: number | null) => (t === null ? null : new Date(t));
  const [edges, tail] = await Promise.all([
    endAt === null
      ? Promise.resolve({
          ids: [],
          uuid: new Int32Array(0),
          n: new Float64Array(0),
          at: new Int32Array(0),
          b: Buffer.alloc(0),
        })
      : readRangeEdges(db, {
          end: new Date(endAt),
          start: date(startAt),
          latest: open ? null : new Date(c.builtTo),
          hour: date(hourAt),
        }),
    readRecentRuns(db, new Date(c.builtTo), open ? end : new Date(c.builtTo - 1)),
  ]);
  if (!edges) return undefined;
  const { ids, uuid, n: e, at, b } = edges;
  const endMs = end.getTime();
  const out: RangeFigures = {
    from: new Date(startAt ?? c.origin),
    to: new Date(open ? endMs : endAt!),
    check_id: [],
    passed: [],
    failed: [],
    last_pass: [],
    last_fail: [],
    p95: [],
    p97: [],
    p99: [],
    rolling1h: [],
  };
  const q = new Float64Array(3);
  const add = (
    id: string,
    passed: number,
    failed: number,
    lastPass: number | null,
    lastFail: number | null,
    n: number,
    sum: number,
  ) => {
    out.check_id.push(id);
    out.passed.push(passed);
    out.failed.push(failed);
    out.last_pass.push(passed > 0 ? lastPass : null);
    out.last_fail.push(failed > 0 ? lastFail : null);
    out.p95.push(orNull(q[0]!));
    out.p97.push(orNull(q[1]!));
    out.p99.push(orNull(q[2]!));
    out.rolling1h.push(n > 0 ? Math.round(sum / n) : null);
  };
  // The edges and the runs since the latest edge are both in check_id order: merged.
  const T = tail.count;
  let i = 0;
  let t = 0;
  while (i < ids.length || t < T) {
    if (slices.due()) await slices.pause();
    const d = i >= ids.length ? -1 : t >= T ? 1 : compareUuid(tail.b, tail.uuid[t]!, b, uuid[i]!);
    if (d < 0) {
      // A check whose first runs came after the latest edge.
      const inPassed = tail.inPassed[t]!;
      topQuantiles(b, -1, -1, tail.keys, q, tail.keyAt[t]!, tail.keyAt[t + 1]!);
      add(
        uuidAt(tail.b, tail.uuid[t]!),
        inPassed,
        tail.inN[t]! - inPassed,
        msOrNull(tail.inLastPass[t]!),
        msOrNull(tail.inLastFail[t]!),
        tail.n[t]!,
        tail.durationSum[t]!,
      );
      t++;
      continue;
    }
    const r = d === 0 ? t++ : -1;
    const o = i * RANGE_FIELDS;
    const inPassed = r < 0 ? 0 : tail.inPassed[r]!;
    const inFailed = r < 0 ? 0 : tail.inN[r]! - inPassed;
    const passed = e[o + RangeField.Passed]! - e[o + RangeField.StartPassed]! + inPassed;
    const failed = e[o + RangeField.Failed]! - e[o + RangeField.StartFailed]! + inFailed;
    // rolling1h: everything up to now (the latest edge and the runs since) minus the edge an hour ago.
    const n = e[o + RangeField.LatestTotal]! - e[o + RangeField.HourTotal]! + (r < 0 ? 0 : tail.n[r]!);
    const sum = e[o + RangeField.LatestSum]! - e[o + RangeField.HourSum]! + (r < 0 ? 0 : tail.durationSum[r]!);
    const keys = r < 0 ? 0 : tail.keyAt[r]!;
    topQuantiles(b, at[2 * i]!, at[2 * i + 1]!, tail.keys, q, keys, r < 0 ? 0 : tail.keyAt[r + 1]!);
    add(
      ids[i]!,
      passed,
      failed,
      lastOf(msOrNull(e[o + RangeField.LastPass]!), r < 0 ? null : msOrNull(tail.inLastPass[r]!)),
      lastOf(msOrNull(e[o + RangeField.LastFail]!), r < 0 ? null : msOrNull(tail.inLastFail[r]!)),
      n,
      sum,
    );
    i++;
  }
  return out;
}
