// The job that writes the summary's edges (edges.ts, migration 0031). One replica at a time runs
// it (a lease on check_sketch_state), every EDGE_JOB_EVERY_MS:
//  1. a clean cut of the change_seq stream (the lock of migration 0031: every seq up to the cut
//     is committed once the job holds it);
//  2. runs recorded since the last job whose time is before the latest edge (recorded late, or
//     backfilled, e.g. an agent's buffered results) are added to every edge after their time;
//  3. each grid point due since the latest edge gets its edges: the latest edge plus the runs
//     between (those up to the cut), for every check that has run;
//  4. edges that fell off the grid (a 5-minute edge older than 3 hours, ...) are deleted.
// The first run builds the history from the roll-ups of the hours the roll-up job has finished
// (daily rows for days older than the hourly grid, hourly ones after; their sketches), then the raw
// runs after them, in slices. Roll-ups from before migration 0029 (no sketch) count in uptime but
// not in the percentiles; runs recorded late into hours already rolled up before the first run are
// not in the edges.
import os from 'node:os';
import type { Database, Queryable } from '../db/database.js';
import { addKey } from './sketchDense.js';
import { Slices } from '../jobs/slices.js';
import {
  addRun,
  EDGE_COLUMNS,
  EDGE_STEP_MS,
  edgeKept,
  FINE_KEEP_MS,
  edgeOf,
  emptyEdge,
  gridPoints,
  HOURLY_KEEP_MS,
  ms,
  readEdges,
  writeEdges,
  type EdgeRow,
  type EdgeState,
  type Run,
} from './edges.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** How often a replica tries to run the job. */
export const EDGE_JOB_EVERY_MS = MIN;
const LEASE_MS = 10 * MIN;
/** The lock of migration 0031's trigger. */
const CUT_LOCK = 7253004;
/** How much of the raw runs one query reads (10,000 checks at one run a minute: 100,000 rows). */
const RAW_SLICE_MS = 10 * MIN;

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

const NOT_RUN: EdgeJobResult = { ran: false, points: 0, late: 0, rows: 0, pruned: 0 };

/**
 * Runs the job once if no other replica holds its lease or runs it. `retentionDays`: daily edges
 * older than this are deleted (the daily roll-ups' retention). The run's transaction holds the state
 * row locked, and a claim skips a locked row: a run that outlasts its lease (a long first run) is
 * not joined by another replica, which would fold the same late runs in a second time.
 */
export async function buildSketchEdges(db: Database, retentionDays = 730, leaseMs = LEASE_MS): Promise<EdgeJobResult> {
  const started = new Date();
  const owner = `${os.hostname()}:${process.pid}`;
  const claimed = await db.query<State>(
    `WITH free AS (
       SELECT id FROM check_sketch_state WHERE lease_until IS NULL OR lease_until < now() FOR UPDATE SKIP LOCKED
     )
     UPDATE check_sketch_state s SET lease_until = now() + make_interval(secs => $1::float8 / 1000), lease_owner = $2
     FROM free WHERE s.id = free.id RETURNING s.seq::text, s.built_to, s.origin`,
    [leaseMs, owner],
  );
  const state = claimed.rows[0];
  if (!state) return NOT_RUN;
  const record = (status: 'SUCCESS' | 'FAILED', count: number, details: object) =>
    db.query(
      `INSERT INTO job_history (name, success_count, error_count, details, hostname, duration_millis, resource_type, status, time_start, time_end)
       VALUES ('CheckSketchEdges', $1, $2, $3, $4, $5, 'check_statuses', $6, $7, now())`,
      [
        count,
        status === 'FAILED' ? 1 : 0,
        JSON.stringify(details),
        os.hostname(),
        Date.now() - started.getTime(),
        status,
        started,
      ],
    );
  try {
    const cut = await takeCut(db);
    // No deadline: its loops give way to the checks under way (jobs/slices.ts), except on the first
    // run, a build of the whole history that would take many times as long waiting for them (its
    // slices still let them in).
    const slices = new Slices({ background: state.built_to !== null });
    const result = await db.transaction(async (tx) => {
      // Locked until the run commits; unchanged since the claim unless another replica ran the job
      // in between (then this run's cut may be older than that one's: it stops).
      const { rows } = await tx.query<State>(`SELECT seq::text, built_to, origin FROM check_sketch_state FOR UPDATE`);
      const now = rows[0]!;
      const at = (t: string | null) => (t === null ? null : new Date(t).getTime());
      if (now.seq !== state.seq || at(now.built_to) !== at(state.built_to)) return NOT_RUN;
      return buildOnce(tx, state, cut, retentionDays, slices);
    });
    // In job history when it wrote something: not every minute of a database without checks.
    if (result.rows > 0 || result.late > 0) await record('SUCCESS', result.rows, result);
    return result;
  } catch (e) {
    await record('FAILED', 0, { error: (e as Error).message }).catch(() => undefined);
    throw e;
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
  slices: Slices,
): Promise<EdgeJobResult> {
  const result: EdgeJobResult = { ran: true, points: 0, late: 0, rows: 0, pruned: 0 };
  let builtTo = state.built_to ? new Date(state.built_to).getTime() : null;
  let origin = state.origin ? new Date(state.origin).getTime() : null;
  let current: Map<string, EdgeState>;
  let from: number;
  if (builtTo === null) {
    ({ current, from, origin } = await history(tx, cut, result, slices));
  } else {
    result.late = await foldLate(tx, state.seq, cut.seq, builtTo, result, slices);
    from = builtTo;
    current = await readEdges(tx, new Date(builtTo), slices);
  }
  // Each due grid point: the edges before it plus the runs in between (up to the cut).
  const due = gridPoints(from, cut.now, cut.now);
  if (builtTo === null && !due.length) due.push(Math.floor(cut.now / EDGE_STEP_MS) * EDGE_STEP_MS);
  let prev = from;
  for (const point of due) {
    // In slices of at most RAW_SLICE_MS, so a first run over days of raw runs holds one slice at a time.
    for (let a = prev; a < point; a += RAW_SLICE_MS) {
      const { rows } = await tx.query<Run>(
        `SELECT check_id, time, status, duration FROM check_statuses
         WHERE time >= $1 AND time < $2 AND change_seq <= $3::bigint`,
        [new Date(a), new Date(Math.min(a + RAW_SLICE_MS, point)), cut.seq],
      );
      for (const r of rows) {
        if (slices.due()) await slices.pause();
        let e = current.get(r.check_id);
        if (!e) current.set(r.check_id, (e = emptyEdge()));
        addRun(e, r.status, r.duration, new Date(r.time).getTime());
      }
    }
    result.rows += await writeEdges(tx, point, current, slices);
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
 * The first run: the roll-ups of the hours the roll-up job finished (up to 3 hours ago at most),
 * day by day before the hourly grid and hour by hour after, an edge at every kept instant; returns
 * the figures at the end of them (or of nothing), where the raw runs take over.
 */
async function history(
  tx: Queryable,
  cut: { seq: string; now: number },
  result: EdgeJobResult,
  slices: Slices,
): Promise<{ current: Map<string, EdgeState>; from: number; origin: number | null }> {
  const { rows } = await tx.query<{ raw: string | null; hourly: string | null; mark: string | null }>(
    `SELECT (SELECT min(time) FROM check_statuses WHERE change_seq <= $1::bigint) AS raw,
            (SELECT min(created_at) FROM check_statuses_1h) AS hourly,
            (SELECT rolled_at FROM check_statuses_rollup_mark) AS mark`,
    [cut.seq],
  );
  const at = (v: string | null) => (v ? new Date(v).getTime() : null);
  const raw = at(rows[0]!.raw);
  const hourly = at(rows[0]!.hourly);
  const mark = at(rows[0]!.mark);
  const current = new Map<string, EdgeState>();
  // The hours the roll-up job has finished (before the hour of its last run) come from their
  // roll-ups (one row per check and hour, or day), not from their raw runs (up to 30 days of them,
  // hundreds of millions of rows at 10,000 checks); the raw runs after that.
  // The last hours (where the grid is finer than an hour) always come from the raw runs.
  const until = mark === null ? null : Math.floor(Math.min(mark, cut.now - FINE_KEEP_MS) / HOUR) * HOUR;
  if (hourly === null || until === null || hourly >= until) {
    // Only raw runs: start at the grid point at or before the first.
    const first = raw ?? cut.now;
    return { current, from: Math.floor(first / EDGE_STEP_MS) * EDGE_STEP_MS - 1, origin: raw };
  }
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
  const fold = async (rows: Rolled[]) => {
    for (const r of rows) {
      if (slices.due()) await slices.pause();
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
        await fold(days);
        h = dayEnd;
        if (edgeKept(h, cut.now)) {
          result.rows += await writeEdges(tx, h, current, slices);
          result.points++;
        }
        continue;
      }
    }
    await fold(await read('check_statuses_1h', h));
    h += HOUR;
    if (h <= until && edgeKept(h, cut.now)) {
      result.rows += await writeEdges(tx, h, current, slices);
      result.points++;
    }
  }
  return { current, from: until, origin: Math.min(hourly, raw ?? hourly) };
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
  slices: Slices,
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
    result.rows += await writeEdges(tx, at, touched, slices);
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
