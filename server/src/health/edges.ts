// The edges of the health summary (migration 0031): for each check and each instant on a grid,
// everything about its runs before that instant (counts, duration sum, last pass and failure, the
// cumulative duration sketch). Any range's figures are then two edges per check (edgeFigures.ts),
// read from each instant's pack (migration 0036: the instant's edges as one value, edgePacks.ts).
// This module is the grid, the rows and their packs; edgeJob.ts writes them, one replica at a time.
import type { Queryable } from '../db/database.js';
import { keyOf } from './sketch.js';
import { readEdges } from './edgeWire.js';
import { arrayParam } from '../db/arrayParam.js';
import { addKey, decodeSketch, emptySketch, SketchWriter, type DenseSketch } from './sketchDense.js';
import { Slices } from '../jobs/slices.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/**
 * The grid: every minute for RECENT_KEEP_MS (so a range reaching now reads at most a minute or two
 * of raw runs), every FINE_STEP_MS for FINE_KEEP_MS, hourly for HOURLY_KEEP_MS, daily after that.
 */
export const EDGE_STEP_MS = MIN;
export const RECENT_KEEP_MS = 15 * MIN;
export const FINE_STEP_MS = 5 * MIN;
export const FINE_KEEP_MS = 3 * HOUR;
export const HOURLY_KEEP_MS = 8 * DAY;

/** Whether the grid keeps an edge at `at` when it is `now` (ms since the epoch, UTC). */
export function edgeKept(at: number, now: number): boolean {
  if (at % EDGE_STEP_MS !== 0) return false;
  const age = now - at;
  if (age <= RECENT_KEEP_MS) return true;
  if (age <= FINE_KEEP_MS) return at % FINE_STEP_MS === 0;
  if (age <= HOURLY_KEEP_MS) return at % HOUR === 0;
  return at % DAY === 0;
}

/** The grid points kept at `now` in (after, upTo], ascending. */
export function gridPoints(after: number, upTo: number, now: number): number[] {
  const out: number[] = [];
  let t = Math.floor(after / EDGE_STEP_MS) * EDGE_STEP_MS + EDGE_STEP_MS;
  while (t <= upTo) {
    if (edgeKept(t, now)) out.push(t);
    const age = now - t;
    // Jump to the next point that can be kept (whole days, then hours, then steps).
    const unit =
      age > HOURLY_KEEP_MS + DAY
        ? DAY
        : age > FINE_KEEP_MS + HOUR
          ? HOUR
          : age > RECENT_KEEP_MS + FINE_STEP_MS
            ? FINE_STEP_MS
            : EDGE_STEP_MS;
    t = Math.floor(t / unit) * unit + unit;
  }
  return out;
}

/** One check's figures up to an edge. */
export interface EdgeState {
  total: number;
  passed: number;
  failed: number;
  durationSum: number;
  lastPass: number | null;
  lastFail: number | null;
  sketch: DenseSketch;
}

export const emptyEdge = (): EdgeState => ({
  total: 0,
  passed: 0,
  failed: 0,
  durationSum: 0,
  lastPass: null,
  lastFail: null,
  sketch: emptySketch(),
});

export interface EdgeRow {
  check_id: string;
  total: string | number;
  passed: string | number;
  failed: string | number;
  duration_sum: string | number;
  last_pass: string | Date | null;
  last_fail: string | Date | null;
  sketch?: Uint8Array;
}

export const ms = (v: string | Date | null): number | null => (v === null ? null : new Date(v).getTime());

export function edgeOf(r: EdgeRow): EdgeState {
  return {
    total: Number(r.total),
    passed: Number(r.passed),
    failed: Number(r.failed),
    durationSum: Number(r.duration_sum),
    lastPass: ms(r.last_pass),
    lastFail: ms(r.last_fail),
    sketch: r.sketch ? decodeSketch(r.sketch) : emptySketch(),
  };
}

export interface Run {
  check_id: string;
  time: string | Date;
  status: boolean;
  duration: number;
}

/** Adds one run to a check's figures. */
export function addRun(e: EdgeState, status: boolean, duration: number, time: number): void {
  e.total++;
  e.durationSum += duration;
  if (status) {
    e.passed++;
    if (e.lastPass === null || time > e.lastPass) e.lastPass = time;
  } else {
    e.failed++;
    if (e.lastFail === null || time > e.lastFail) e.lastFail = time;
  }
  addKey(e.sketch, keyOf(duration));
}

export const EDGE_COLUMNS = 'check_id, total, passed, failed, duration_sum, last_pass, last_fail';

/** Reads the edges at one instant, their sketches decoded (binary COPY or one packed value, edgeWire.ts). */
export { readEdges };

/** How many edges one statement writes. */
const WRITE_BATCH = 5_000;

/**
 * Writes (or replaces) the edges of some checks at one instant, and rebuilds the instant's pack
 * (every check's edge there as two values, migration 0036). The sketches of a batch go as one
 * bytea parameter (sent as its bytes) cut by offsets in SQL, and the times as milliseconds:
 * a sketch as a hex string in a text[] parameter made ~14 KB of garbage per check, ~140 MB a
 * minute at 10,000 checks, which kept an idle server's heap grown.
 */
export async function writeEdges(
  tx: Queryable,
  at: number,
  edges: Map<string, EdgeState>,
  slices = new Slices(),
): Promise<number> {
  const when = new Date(at);
  await tx.query(`INSERT INTO check_sketch_edge_times (at) VALUES ($1) ON CONFLICT DO NOTHING`, [when]);
  const sketches = new SketchWriter(lastSketchBytes);
  let written = 0;
  let batch: Batch = newBatch();
  const flush = async () => {
    if (!batch.ids.length) return;
    await tx.query(
      `INSERT INTO check_sketch_edges (at, check_id, total, passed, failed, duration_sum, last_pass, last_fail, sketch)
       SELECT $1, u.id, u.t, u.p, u.f, u.d, ${msTime('u.lp')}, ${msTime('u.lf')},
              substring($9::bytea FROM u.start + 1 FOR u.len)
       FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[],
                   $10::int[], $11::int[]) AS u(id, t, p, f, d, lp, lf, start, len)
       ON CONFLICT (at, check_id) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
         failed = EXCLUDED.failed, duration_sum = EXCLUDED.duration_sum, last_pass = EXCLUDED.last_pass,
         last_fail = EXCLUDED.last_fail, sketch = EXCLUDED.sketch`,
      [
        when,
        arrayParam(batch.ids),
        ...batch.cols.map(arrayParam),
        sketches.bytes(),
        arrayParam(batch.starts),
        arrayParam(batch.lens),
      ],
    );
    written += batch.ids.length;
    batch = newBatch();
    sketches.reset();
  };
  for (const [id, e] of edges) {
    if (e.total === 0) continue;
    if (slices.due()) await slices.pause();
    batch.ids.push(id);
    batch.cols[0]!.push(e.total);
    batch.cols[1]!.push(e.passed);
    batch.cols[2]!.push(e.failed);
    batch.cols[3]!.push(e.durationSum);
    batch.cols[4]!.push(e.lastPass);
    batch.cols[5]!.push(e.lastFail);
    batch.starts.push(sketches.p);
    batch.lens.push(sketches.write(e.sketch));
    if (batch.ids.length === WRITE_BATCH) await flush();
  }
  await flush();
  lastSketchBytes = sketches.buf.length;
  // The instant's pack (migration 0036), what a summary range reads: rebuilt with its rows.
  await tx.query(
    `INSERT INTO check_sketch_edge_packs (at, heads, sketches) SELECT $1, heads, sketches FROM check_sketch_edge_pack($1)
     ON CONFLICT (at) DO UPDATE SET heads = EXCLUDED.heads, sketches = EXCLUDED.sketches`,
    [when],
  );
  return written;
}

/** The size the last batch's sketches grew their buffer to: the next starts there (one allocation). */
let lastSketchBytes = 64 * 1024;

interface Batch {
  ids: string[];
  /** total, passed, failed, duration_sum, last_pass and last_fail (ms, or null). */
  cols: Array<Array<number | null>>;
  /** Where each sketch starts in the batch's bytes, and its length. */
  starts: number[];
  lens: number[];
}
const newBatch = (): Batch => ({ ids: [], cols: [[], [], [], [], [], []], starts: [], lens: [] });

/** A time from milliseconds since the epoch (null stays null), exactly. */
const msTime = (col: string) => `timestamptz 'epoch' + ${col} * interval '1 millisecond'`;
