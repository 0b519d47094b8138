// The per-check figures of any summary range from the edges (edges.ts, migration 0031): the end
// edge minus the start edge, plus the raw runs since the latest edge when the range reaches it.
// Reads two rows per check (and the runs of the last few minutes), whatever the range.
//
// The ends are rounded to the nearest edge instant (every 5 minutes for the last 3 hours, hourly
// for 8 days, daily before), so a range's figures cover [from, to) as returned; a start at or
// before the oldest run counts from the first run. Counts, the last pass and failure are exact for
// that range; p95/p97/p99 within the sketch's stated error (sketch.ts, 1 %). rolling1h is the mean
// duration since the edge nearest an hour ago. Runs recorded late (timed before the latest edge)
// count from the edge job's next run (within a minute).
import type { Queryable } from '../db/database.js';
import { emptyEdge, readEdges, type EdgeState } from './edges.js';
import { readRecentPacked } from './edgeWire.js';
import { quantilesBetween } from './sketchDense.js';

/** The latest edge may be this old before the figures stop coming from the edges (job not running). */
export const EDGES_STALE_MS = 15 * 60_000;

/** The figures of a range as columns (one entry per check that ran), for the summary's `s` CTE. */
export interface RangeFigures {
  from: Date;
  to: Date;
  check_id: string[];
  passed: number[];
  failed: number[];
  last_pass: Array<string | null>;
  last_fail: Array<string | null>;
  p95: Array<number | null>;
  p97: Array<number | null>;
  p99: Array<number | null>;
  rolling1h: Array<number | null>;
}

interface EdgeClock {
  builtTo: number;
  origin: number;
  times: number[];
}

async function clock(db: Queryable): Promise<EdgeClock | undefined> {
  const { rows } = await db.query<{ built_to: string | null; origin: string | null; times: string[] | null }>(
    `SELECT built_to, origin, (SELECT array_agg(at::text ORDER BY at) FROM check_sketch_edge_times) AS times
     FROM check_sketch_state`,
  );
  const r = rows[0];
  if (!r?.built_to) return undefined;
  return {
    builtTo: new Date(r.built_to).getTime(),
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

const isoOf = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/**
 * The figures of [start, end] from the edges, or undefined when they cannot answer (never built, or
 * the latest edge is older than EDGES_STALE_MS: no replica runs the job).
 */
export async function edgeFigures(db: Queryable, start: Date, end: Date): Promise<RangeFigures | undefined> {
  const c = await clock(db);
  const now = Date.now();
  if (!c || now - c.builtTo > EDGES_STALE_MS) return undefined;
  const open = end.getTime() >= c.builtTo;
  const endAt = open ? c.builtTo : nearestEdge(c.times, c.origin, end.getTime(), c.builtTo);
  let startAt = nearestEdge(c.times, c.origin, start.getTime(), c.builtTo);
  if (startAt !== null && endAt !== null && startAt > endAt) startAt = endAt;
  const hourAt = nearestEdge(c.times, c.origin, now - 3_600_000, c.builtTo);
  const nothing = async () => new Map<string, EdgeState>();
  const [atStart, atEnd, atHour, tail] = await Promise.all([
    startAt === null ? nothing() : readEdges(db, new Date(startAt), 'packed'),
    endAt === null ? nothing() : readEdges(db, new Date(endAt), 'packed'),
    hourAt === null ? nothing() : readEdges(db, new Date(hourAt), 'scalars'),
    readRecentPacked(db, new Date(c.builtTo), open ? end : new Date(c.builtTo - 1)),
  ]);
  const endMs = end.getTime();
  const latest = open ? atEnd : await readEdges(db, new Date(c.builtTo), 'scalars');
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
  const ids = new Set(atEnd.keys());
  for (const id of tail.keys()) ids.add(id);
  const zero = emptyEdge();
  const none = { n: 0, durationSum: 0, inRange: zero, keys: [] as number[] };
  const lastOf = (a: number | null, b: number | null) => (a === null ? b : b === null ? a : Math.max(a, b));
  const QS = [0.95, 0.97, 0.99];
  for (const id of ids) {
    const e = atEnd.get(id) ?? zero;
    const s = atStart.get(id) ?? zero;
    const r = tail.get(id) ?? none;
    const x = r.inRange;
    const passed = e.passed - s.passed + x.passed;
    const failed = e.failed - s.failed + x.failed;
    const [p95, p97, p99] = quantilesBetween(e.packed ?? e.sketch, s.packed ?? s.sketch, r.keys, QS);
    // rolling1h: everything up to now (latest edge + all runs since) minus the edge an hour ago.
    const l = latest.get(id) ?? zero;
    const h = atHour.get(id) ?? zero;
    const n = l.total - h.total + r.n;
    out.check_id.push(id);
    out.passed.push(passed);
    out.failed.push(failed);
    out.last_pass.push(passed > 0 ? isoOf(lastOf(e.lastPass, x.lastPass)) : null);
    out.last_fail.push(failed > 0 ? isoOf(lastOf(e.lastFail, x.lastFail)) : null);
    out.p95.push(p95!);
    out.p97.push(p97!);
    out.p99.push(p99!);
    out.rolling1h.push(n > 0 ? Math.round((l.durationSum - h.durationSum + r.durationSum) / n) : null);
  }
  return out;
}
