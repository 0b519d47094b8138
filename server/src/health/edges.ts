// The edges of the health summary (migration 0031): for each check and each instant on a grid,
// everything about its runs before that instant (counts, duration sum, last pass and failure, the
// cumulative duration sketch). Any range's figures are then two rows per check (edgeFigures.ts).
//
// One replica at a time builds them (a lease on check_sketch_state), every EDGE_JOB_EVERY_MS:
//  1. a clean cut of the change_seq stream (the lock of migration 0031: every seq up to the cut
//     is committed once the job holds it);
//  2. runs recorded since the last job whose time is before the latest edge (recorded late, or
//     backfilled, e.g. an agent's buffered results) are added to every edge after their time;
//  3. each grid point due since the latest edge gets its edges: the latest edge plus the runs
//     between (those up to the cut), for every check that has run;
//  4. edges that fell off the grid (a 5-minute edge older than 3 hours, ...) are deleted.
// The first run builds the history: hourly roll-ups (their sketches) before the oldest raw run,
// then the raw runs. Runs older than both, or from before migration 0029 without a sketch, count
// in uptime but not in the percentiles.
import os from 'node:os';
import type { Database, Queryable } from '../db/database.js';
import { keyOf } from './sketch.js';
import { readEdgesPacked } from './edgeWire.js';
import { addKey, decodeSketch, emptySketch, encodeSketch, type DenseSketch, type PackedSketch } from './sketchDense.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The grid: every EDGE_STEP_MS for FINE_KEEP_MS, hourly for HOURLY_KEEP_MS, daily after that. */
export const EDGE_STEP_MS = 5 * MIN;
export const FINE_KEEP_MS = 3 * HOUR;
export const HOURLY_KEEP_MS = 8 * DAY;
/** How often a replica tries to run the job. */
export const EDGE_JOB_EVERY_MS = MIN;
const LEASE_MS = 10 * MIN;
/** The lock of migration 0031's trigger. */
const CUT_LOCK = 7253004;

/** Whether the grid keeps an edge at `at` when it is `now` (ms since the epoch, UTC). */
export function edgeKept(at: number, now: number): boolean {
  if (at % EDGE_STEP_MS !== 0) return false;
  const age = now - at;
  if (age <= FINE_KEEP_MS) return true;
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
    const unit = age > HOURLY_KEEP_MS + DAY ? DAY : age > FINE_KEEP_MS + HOUR ? HOUR : EDGE_STEP_MS;
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
  /** Where the sketch is as stored, when read to be walked rather than changed (edgeWire.ts). */
  packed?: PackedSketch;
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

const ms = (v: string | Date | null): number | null => (v === null ? null : new Date(v).getTime());

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

/** Reads the edges at one instant (edgeWire.ts; `packed`: the sketches left as stored bytes). */
export const readEdges = (
  db: Queryable,
  at: Date,
  mode: 'sketch' | 'packed' | 'scalars' = 'sketch',
): Promise<Map<string, EdgeState>> => readEdgesPacked(db, at, mode);

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

/** Writes (or replaces) the edges of some checks at one instant. */
async function writeEdges(tx: Queryable, at: number, edges: Map<string, EdgeState>): Promise<number> {
  const ids: string[] = [];
  const cols: Array<Array<number | string | null>> = [[], [], [], [], [], [], []];
  for (const [id, e] of edges) {
    if (e.total === 0) continue;
    ids.push(id);
    cols[0]!.push(e.total);
    cols[1]!.push(e.passed);
    cols[2]!.push(e.failed);
    cols[3]!.push(e.durationSum);
    cols[4]!.push(iso(e.lastPass));
    cols[5]!.push(iso(e.lastFail));
    cols[6]!.push(encodeSketch(e.sketch).toString('hex'));
  }
  const when = new Date(at);
  await tx.query(`INSERT INTO check_sketch_edge_times (at) VALUES ($1) ON CONFLICT DO NOTHING`, [when]);
  for (let i = 0; i < ids.length; i += 5_000) {
    const part = (a: unknown[]) => a.slice(i, i + 5_000);
    await tx.query(
      `INSERT INTO check_sketch_edges (at, check_id, total, passed, failed, duration_sum, last_pass, last_fail, sketch)
       SELECT $1, u.id, u.t, u.p, u.f, u.d, u.lp, u.lf, decode(u.s, 'hex')
       FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::timestamptz[], $8::timestamptz[], $9::text[])
         AS u(id, t, p, f, d, lp, lf, s)
       ON CONFLICT (at, check_id) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
         failed = EXCLUDED.failed, duration_sum = EXCLUDED.duration_sum, last_pass = EXCLUDED.last_pass,
         last_fail = EXCLUDED.last_fail, sketch = EXCLUDED.sketch`,
      [when, part(ids), ...cols.map(part)],
    );
  }
  return ids.length;
}

export interface EdgeJobResult {
  ran: boolean;
  /** Edge instants written, runs folded in late, edge rows written, instants deleted. */
  points: number;
  late: number;
  rows: number;
  pruned: number;
  builtTo?: Date;
}

interface State {
  seq: string;
  built_to: string | null;
  origin: string | null;
}

/**
 * Runs the job once if no other replica holds its lease. `retentionDays`: daily edges older than
 * this are deleted (the daily roll-ups' retention).
 */
export async function buildSketchEdges(db: Database, retentionDays = 730): Promise<EdgeJobResult> {
  const started = new Date();
  const owner = `${os.hostname()}:${process.pid}`;
  const claimed = await db.query<State>(
    `UPDATE check_sketch_state SET lease_until = now() + make_interval(secs => $1::float8 / 1000), lease_owner = $2
     WHERE lease_until IS NULL OR lease_until < now() RETURNING seq::text, built_to, origin`,
    [LEASE_MS, owner],
  );
  const state = claimed.rows[0];
  if (!state) return { ran: false, points: 0, late: 0, rows: 0, pruned: 0 };
  try {
    const cut = await takeCut(db);
    const result = await db.transaction((tx) => buildOnce(tx, state, cut, retentionDays));
    await db.query(
      `INSERT INTO job_history (name, success_count, details, hostname, duration_millis, resource_type, status, time_start, time_end)
       VALUES ('CheckSketchEdges', $1, $2, $3, $4, 'check_statuses', 'SUCCESS', $5, now())`,
      [result.rows, JSON.stringify(result), os.hostname(), Date.now() - started.getTime(), started],
    );
    return result;
  } finally {
    await db
      .query(`UPDATE check_sketch_state SET lease_until = NULL, lease_owner = NULL WHERE lease_owner = $1`, [owner])
      .catch(() => undefined);
  }
}

/**
 * A clean cut of the change_seq stream: the highest seq of check_statuses while holding the lock
 * every insert holds shared (so all seqs up to it have committed). Tried without queueing first: a
 * waiting exclusive request would make new inserts queue behind it, and an insert transaction that
 * then waits on one of those could close a deadlock cycle. After that, one short blocking try.
 */
async function takeCut(db: Database): Promise<{ seq: string; now: number }> {
  const read = async (tx: Queryable, blocking: boolean) => {
    if (blocking) {
      await tx.query(`SET LOCAL lock_timeout = '500ms'`);
      await tx.query(`SELECT pg_advisory_xact_lock(${CUT_LOCK})`);
    } else {
      const { rows } = await tx.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${CUT_LOCK}) AS ok`);
      if (!rows[0]!.ok) return undefined;
    }
    const { rows } = await tx.query<{ seq: string; now: string }>(
      `SELECT coalesce(max(change_seq), 0)::text AS seq, now() AS now FROM check_statuses`,
    );
    return { seq: rows[0]!.seq, now: new Date(rows[0]!.now).getTime() };
  };
  for (let i = 0; i < 100; i++) {
    const cut = await db.transaction((tx) => read(tx, false));
    if (cut) return cut;
    await new Promise((r) => setTimeout(r, 20));
  }
  return (await db.transaction((tx) => read(tx, true)))!;
}

async function buildOnce(
  tx: Queryable,
  state: State,
  cut: { seq: string; now: number },
  retentionDays: number,
): Promise<EdgeJobResult> {
  const result: EdgeJobResult = { ran: true, points: 0, late: 0, rows: 0, pruned: 0 };
  let builtTo = state.built_to ? new Date(state.built_to).getTime() : null;
  let origin = state.origin ? new Date(state.origin).getTime() : null;
  let current: Map<string, EdgeState>;
  let from: number;
  if (builtTo === null) {
    ({ current, from, origin } = await history(tx, cut, result));
  } else {
    result.late = await foldLate(tx, state.seq, cut.seq, builtTo, result);
    from = builtTo;
    current = await readEdges(tx, new Date(builtTo));
  }
  // Each due grid point: the edges before it plus the runs in between (up to the cut).
  const due = gridPoints(from, cut.now, cut.now);
  if (builtTo === null && !due.length) due.push(Math.floor(cut.now / EDGE_STEP_MS) * EDGE_STEP_MS);
  let prev = from;
  for (const point of due) {
    if (point > prev) {
      const { rows } = await tx.query<Run>(
        `SELECT check_id, time, status, duration FROM check_statuses
         WHERE time >= $1 AND time < $2 AND change_seq <= $3::bigint`,
        [new Date(prev), new Date(point), cut.seq],
      );
      for (const r of rows) {
        let e = current.get(r.check_id);
        if (!e) current.set(r.check_id, (e = emptyEdge()));
        addRun(e, r.status, r.duration, new Date(r.time).getTime());
      }
    }
    result.rows += await writeEdges(tx, point, current);
    result.points++;
    prev = point;
    builtTo = point;
  }
  result.pruned = await prune(tx, cut.now, builtTo!, retentionDays);
  await tx.query(`UPDATE check_sketch_state SET seq = $1::bigint, built_to = $2, origin = $3`, [
    cut.seq,
    new Date(builtTo!),
    new Date(origin ?? builtTo!),
  ]);
  result.builtTo = new Date(builtTo!);
  return result;
}

/**
 * The first run: the hourly roll-ups (with their sketches) before the oldest raw run, hour by
 * hour, an edge at every kept hour; returns the figures at the first whole hour of raw runs (or
 * of nothing), where the raw runs take over.
 */
async function history(
  tx: Queryable,
  cut: { seq: string; now: number },
  result: EdgeJobResult,
): Promise<{ current: Map<string, EdgeState>; from: number; origin: number | null }> {
  const { rows } = await tx.query<{ raw: string | null; hourly: string | null }>(
    `SELECT (SELECT min(time) FROM check_statuses WHERE change_seq <= $1::bigint) AS raw,
            (SELECT min(created_at) FROM check_statuses_1h) AS hourly`,
    [cut.seq],
  );
  const raw = rows[0]!.raw ? new Date(rows[0]!.raw).getTime() : null;
  const hourly = rows[0]!.hourly ? new Date(rows[0]!.hourly).getTime() : null;
  const current = new Map<string, EdgeState>();
  const rawStart = raw === null ? null : Math.floor(raw / HOUR) * HOUR;
  if (hourly === null || (rawStart !== null && hourly >= rawStart)) {
    // Only raw runs: start at the grid point at or before the first.
    const first = raw ?? cut.now;
    return { current, from: Math.floor(first / EDGE_STEP_MS) * EDGE_STEP_MS - 1, origin: raw };
  }
  const until = rawStart ?? Math.floor(cut.now / HOUR) * HOUR;
  type Rolled = {
    check_id: string;
    total: number;
    passed: number;
    failed: number;
    duration_avg: number;
    last_pass: string | null;
    last_fail: string | null;
    sketch_keys: number[] | null;
    sketch_counts: number[] | null;
  };
  const read = (table: string, at: number) =>
    tx
      .query<Rolled>(
        `SELECT check_id, total, passed, failed, duration_avg, last_pass, last_fail, sketch_keys, sketch_counts
         FROM ${table} WHERE created_at = $1`,
        [new Date(at)],
      )
      .then((r) => r.rows);
  const fold = (rows: Rolled[]) => {
    for (const r of rows) {
      let e = current.get(r.check_id);
      if (!e) current.set(r.check_id, (e = emptyEdge()));
      e.total += r.total;
      e.passed += r.passed;
      e.failed += r.failed;
      e.durationSum += r.duration_avg * r.total;
      const lp = ms(r.last_pass);
      const lf = ms(r.last_fail);
      if (lp !== null && (e.lastPass === null || lp > e.lastPass)) e.lastPass = lp;
      if (lf !== null && (e.lastFail === null || lf > e.lastFail)) e.lastFail = lf;
      const keys = r.sketch_keys;
      const counts = r.sketch_counts;
      if (keys && counts) for (let k = 0; k < keys.length; k++) addKey(e.sketch, Number(keys[k]), Number(counts[k]));
    }
  };
  let h = hourly;
  while (h < until) {
    // A whole day with no hourly edge inside it (older than the hourly grid): its daily roll-up
    // (one row per check instead of 24), when the roll-up job wrote one.
    const dayEnd = h + DAY;
    if (h % DAY === 0 && dayEnd <= until && cut.now - (dayEnd - HOUR) > HOURLY_KEEP_MS) {
      const days = await read('check_statuses_1d', h);
      if (days.length) {
        fold(days);
        h = dayEnd;
        if (edgeKept(h, cut.now)) {
          result.rows += await writeEdges(tx, h, current);
          result.points++;
        }
        continue;
      }
    }
    fold(await read('check_statuses_1h', h));
    h += HOUR;
    if (h <= until && edgeKept(h, cut.now)) {
      result.rows += await writeEdges(tx, h, current);
      result.points++;
    }
  }
  return { current, from: until, origin: hourly };
}

/**
 * Runs recorded since the last job (change_seq in (seq, cut]) but timed before the latest edge:
 * each is added to every edge instant after its time (creating the check's row there if it had
 * none). Returns how many runs.
 */
async function foldLate(
  tx: Queryable,
  seq: string,
  cutSeq: string,
  builtTo: number,
  result: EdgeJobResult,
): Promise<number> {
  const { rows } = await tx.query<Run>(
    `SELECT check_id, time, status, duration FROM check_statuses
     WHERE change_seq > $1::bigint AND change_seq <= $2::bigint AND time < $3`,
    [seq, cutSeq, new Date(builtTo)],
  );
  if (!rows.length) return 0;
  const earliest = Math.min(...rows.map((r) => new Date(r.time).getTime()));
  const { rows: times } = await tx.query<{ at: string }>(
    `SELECT at FROM check_sketch_edge_times WHERE at > $1 ORDER BY at`,
    [new Date(earliest)],
  );
  const ids = [...new Set(rows.map((r) => r.check_id))];
  const { rows: existing } = await tx.query<EdgeRow & { at: string }>(
    `SELECT at, ${EDGE_COLUMNS}, sketch FROM check_sketch_edges WHERE check_id = ANY($1::uuid[]) AND at > $2`,
    [ids, new Date(earliest)],
  );
  const byAt = new Map<number, Map<string, EdgeState>>();
  for (const t of times) byAt.set(new Date(t.at).getTime(), new Map());
  for (const r of existing) byAt.get(new Date(r.at).getTime())?.set(r.check_id, edgeOf(r));
  for (const [at, edges] of byAt) {
    const before = rows.filter((r) => new Date(r.time).getTime() < at);
    if (!before.length) continue;
    for (const r of before) {
      let e = edges.get(r.check_id);
      if (!e) edges.set(r.check_id, (e = emptyEdge()));
      addRun(e, r.status, r.duration, new Date(r.time).getTime());
    }
    const ran = new Set(before.map((r) => r.check_id));
    const touched = new Map([...edges].filter(([id]) => ran.has(id)));
    result.rows += await writeEdges(tx, at, touched);
  }
  return rows.length;
}

/** Deletes the edge instants the grid no longer keeps (never the latest). */
async function prune(tx: Queryable, now: number, latest: number, retentionDays: number): Promise<number> {
  const { rows } = await tx.query<{ at: string }>(`SELECT at FROM check_sketch_edge_times`);
  const oldest = now - retentionDays * DAY;
  const gone = rows
    .map((r) => new Date(r.at).getTime())
    .filter((at) => at !== latest && (at < oldest || !edgeKept(at, now)))
    .map((at) => new Date(at));
  if (!gone.length) return 0;
  await tx.query(`DELETE FROM check_sketch_edges WHERE at = ANY($1::timestamptz[])`, [gone]);
  await tx.query(`DELETE FROM check_sketch_edge_times WHERE at = ANY($1::timestamptz[])`, [gone]);
  return gone.length;
}


/** Runs the job every EDGE_JOB_EVERY_MS on this replica (the lease keeps it to one at a time). */
export class SketchEdgeJob {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly db: Database,
    private readonly retentionDays = 730,
    private readonly onError: (e: Error) => void = () => undefined,
  ) {}

  start(firstInMs = 2_000): void {
    const tick = () => {
      this.running = buildSketchEdges(this.db, this.retentionDays)
        .catch((e: unknown) => this.onError(e as Error))
        .finally(() => {
          this.running = undefined;
          if (this.timer) this.timer = setTimeout(tick, EDGE_JOB_EVERY_MS).unref();
        });
    };
    this.timer = setTimeout(tick, firstInMs).unref();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
