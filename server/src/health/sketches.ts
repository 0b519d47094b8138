// The hourly (and daily) roll-up rows as running tallies (migration 0029): each hour row holds the
// runs of its hour, their sketch and `cum`, the check's tally before the hour. An insert into
// check_statuses marks its hour dirty (a trigger); rebuildHour folds the hour's raw statuses into its
// row, carries the change into the running tallies of the later hours and re-rolls the day. The
// store does it for its own runs in the run's transaction; statuses written any other way (imports,
// backfilled history) are built by buildDirty, which the summary and the engines call.
import type { Database, Queryable } from '../db/database.js';
import { decodeRuns, encodeRuns, rangeOf, readTally, Tally, type RangeFigures, type Run } from './sketch.js';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const hourOf = (t: number) => Math.floor(t / HOUR_MS) * HOUR_MS;

export const tallyOfRuns = (runs: readonly Run[], into = new Tally()) =>
  runs.reduce((t, r) => t.addRun(r.time, r.pass, r.duration), into);

const ts = (ms: number) => (ms > 0 ? new Date(ms) : null);
const time = (v: Date | string) => new Date(v).getTime();

/** Serializes the work on one check's rows across transactions and replicas. */
async function lockCheck(tx: Queryable, checkId: string): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock(7253029, hashtext($1::text))', [checkId]);
}

/**
 * Rebuilds one check's hour row from its raw statuses (kept runs stay: retention may have pruned
 * their raw rows), moves the running tallies of the later hours by the change, and re-rolls the day
 * (and, for an earlier day, the days after it). Returns whether anything changed.
 */
export async function rebuildHour(tx: Queryable, checkId: string, hour: number): Promise<boolean> {
  await lockCheck(tx, checkId);
  const at = new Date(hour);
  const { rows } = await tx.query<{ at: Date; cum: Uint8Array | null; runs: Uint8Array | null }>(
    `SELECT created_at AS at, cum, runs FROM check_statuses_1h
     WHERE check_id = $1 AND created_at <= $2 AND cum IS NOT NULL ORDER BY created_at DESC LIMIT 1`,
    [checkId, at],
  );
  const found = rows[0];
  const built = !!found && time(found.at) === hour;
  const oldRuns = built ? decodeRuns(found.runs, hour) : [];
  let cum: Tally;
  if (built) cum = Tally.decode(found.cum);
  else if (found) cum = tallyOfRuns(decodeRuns(found.runs, time(found.at)), Tally.decode(found.cum));
  else cum = new Tally();
  const raw = await tx.query<{ t: number; status: boolean; duration: number }>(
    `SELECT floor(extract(epoch FROM time) * 1000)::float8 AS t, status, duration FROM check_statuses
     WHERE check_id = $1 AND time >= $2 AND time < $3 ORDER BY time`,
    [checkId, at, new Date(hour + HOUR_MS)],
  );
  const byTime = new Map<number, Run>(oldRuns.map((r) => [r.time, r]));
  for (const r of raw.rows) byTime.set(Number(r.t), { time: Number(r.t), pass: r.status, duration: r.duration });
  const runs = [...byTime.values()].sort((a, b) => a.time - b.time);
  if (runs.length === 0 || (built && runs.length === oldRuns.length)) return false;
  const next = tallyOfRuns(runs);
  const [p95, p97, p99] = next.sketch.quantiles([0.95, 0.97, 0.99]);
  const durations = runs.map((r) => r.duration);
  await tx.query(
    `INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration_avg, duration_max,
       duration_min, duration_sum, last_pass, last_fail, duration_p95, duration_p97, duration_p99, sketch, runs, cum)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
     ON CONFLICT (check_id, created_at) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
       failed = EXCLUDED.failed, duration_avg = EXCLUDED.duration_avg, duration_max = EXCLUDED.duration_max,
       duration_min = EXCLUDED.duration_min, duration_sum = EXCLUDED.duration_sum, last_pass = EXCLUDED.last_pass,
       last_fail = EXCLUDED.last_fail, duration_p95 = EXCLUDED.duration_p95, duration_p97 = EXCLUDED.duration_p97,
       duration_p99 = EXCLUDED.duration_p99, sketch = EXCLUDED.sketch, runs = EXCLUDED.runs, cum = EXCLUDED.cum`,
    [
      checkId,
      at,
      next.total,
      next.passed,
      next.failed,
      Math.round(next.sum / next.total),
      Math.max(...durations),
      Math.min(...durations),
      next.sum,
      ts(next.lastPass),
      ts(next.lastFail),
      p95,
      p97,
      p99,
      next.sketch.encode(),
      encodeRuns(runs, hour),
      cum.encode(),
    ],
  );
  // The hours after this one counted the runs before them: add what changed.
  const delta = next.clone().merge(tallyOfRuns(oldRuns), -1);
  const later = await tx.query<{ at: Date; cum: Uint8Array }>(
    `SELECT created_at AS at, cum FROM check_statuses_1h WHERE check_id = $1 AND created_at > $2 AND cum IS NOT NULL`,
    [checkId, at],
  );
  for (const row of later.rows) {
    await tx.query(`UPDATE check_statuses_1h SET cum = $3 WHERE check_id = $1 AND created_at = $2`, [
      checkId,
      row.at,
      Tally.decode(row.cum).merge(delta).encode(),
    ]);
  }
  await rollDays(tx, checkId, later.rows.length ? undefined : at, at);
  return true;
}

/**
 * Re-rolls one check's daily rows from its hour rows: the day of `only`, or every day from the
 * day of `from` on. A day's tally is the sum of its hours and its running tally the first hour's.
 */
async function rollDays(tx: Queryable, checkId: string, only: Date | undefined, from: Date): Promise<void> {
  const { rows } = await tx.query<{
    day: Date;
    at: Date;
    cum: Uint8Array;
    runs: Uint8Array;
  }>(
    `SELECT date_trunc('day', created_at) AS day, created_at AS at, cum, runs FROM check_statuses_1h
     WHERE check_id = $1 AND created_at >= date_trunc('day', $2::timestamptz)
       AND ($3::timestamptz IS NULL OR created_at < date_trunc('day', $3::timestamptz) + interval '1 day')
       AND cum IS NOT NULL
     ORDER BY created_at`,
    [checkId, from, only ?? null],
  );
  const days = new Map<number, { cum: Uint8Array; tally: Tally; min: number; max: number }>();
  for (const r of rows) {
    const key = time(r.day);
    let d = days.get(key);
    if (!d) days.set(key, (d = { cum: r.cum, tally: new Tally(), min: Infinity, max: -Infinity }));
    for (const run of decodeRuns(r.runs, time(r.at))) {
      d.tally.addRun(run.time, run.pass, run.duration);
      d.min = Math.min(d.min, run.duration);
      d.max = Math.max(d.max, run.duration);
    }
  }
  for (const [day, d] of days) {
    const t = d.tally;
    if (t.total === 0) continue;
    const [p95, p97, p99] = t.sketch.quantiles([0.95, 0.97, 0.99]);
    await tx.query(
      `INSERT INTO check_statuses_1d (check_id, created_at, total, passed, failed, duration_avg, duration_max,
         duration_min, duration_sum, last_pass, last_fail, duration_p95, duration_p97, duration_p99, sketch, cum)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
       ON CONFLICT (check_id, created_at) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
         failed = EXCLUDED.failed, duration_avg = EXCLUDED.duration_avg, duration_max = EXCLUDED.duration_max,
         duration_min = EXCLUDED.duration_min, duration_sum = EXCLUDED.duration_sum, last_pass = EXCLUDED.last_pass,
         last_fail = EXCLUDED.last_fail, duration_p95 = EXCLUDED.duration_p95, duration_p97 = EXCLUDED.duration_p97,
         duration_p99 = EXCLUDED.duration_p99, sketch = EXCLUDED.sketch, cum = EXCLUDED.cum`,
      [
        checkId,
        new Date(day),
        t.total,
        t.passed,
        t.failed,
        Math.round(t.sum / t.total),
        d.max,
        d.min,
        t.sum,
        ts(t.lastPass),
        ts(t.lastFail),
        p95,
        p97,
        p99,
        t.sketch.encode(),
        d.cum,
      ],
    );
  }
}

/** Builds the hours of one check marked dirty in this transaction (the store, after its insert). */
export async function buildCheck(tx: Queryable, checkId: string): Promise<void> {
  const { rows } = await tx.query<{ hour: Date }>(`DELETE FROM check_sketch_dirty WHERE check_id = $1 RETURNING hour`, [
    checkId,
  ]);
  for (const h of rows.map((r) => time(r.hour)).sort((a, b) => a - b)) await rebuildHour(tx, checkId, h);
}

/**
 * Builds hours marked dirty by statuses written outside the store, oldest first, a batch per
 * transaction (marks another replica holds are skipped), until none are left or `budgetMs` is
 * spent. Returns how many hours it built and whether any are left.
 */
export async function buildDirty(
  db: Database,
  budgetMs = 5_000,
  batch = 200,
): Promise<{ built: number; pending: boolean }> {
  const started = performance.now();
  let built = 0;
  for (;;) {
    const n = await db.transaction(async (tx) => {
      const { rows } = await tx.query<{ check_id: string; hour: Date }>(
        `SELECT check_id, hour FROM check_sketch_dirty ORDER BY check_id, hour LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [batch],
      );
      for (const r of rows) {
        await rebuildHour(tx, r.check_id, time(r.hour));
        await tx.query(`DELETE FROM check_sketch_dirty WHERE check_id = $1 AND hour = $2`, [r.check_id, r.hour]);
      }
      return rows.length;
    });
    built += n;
    if (n < batch) return { built, pending: false };
    if (performance.now() - started >= budgetMs) return { built, pending: true };
  }
}

/** Whether statuses wait to be built (one cheap look, before answering a summary). */
export async function hasDirty(db: Queryable): Promise<boolean> {
  const { rows } = await db.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM check_sketch_dirty) AS any`);
  return rows[0]!.any;
}

/** An hour row as the summary reads it at a boundary: the tally before the hour and its runs. */
export interface Boundary {
  at: Date | null;
  cum: Uint8Array | null;
  runs: Uint8Array | null;
}

/** The runs of a boundary row's hour before `t` (or up to it, `inclusive`). */
function runsBefore(b: Boundary, t: number, inclusive: boolean): Run[] {
  if (!b.at) return [];
  return decodeRuns(b.runs, time(b.at)).filter((r) => (inclusive ? r.time <= t : r.time < t));
}

/**
 * The figures of the runs with s <= time <= e from the rows at or before their hours (`counts`:
 * counts and sum only, no quantiles, e.g. for rolling1h).
 */
export function rangeFigures(
  endRow: Boundary,
  e: number,
  startRow: Boundary,
  s: number,
  qs: readonly number[],
  counts = false,
): RangeFigures {
  return rangeOf(
    readTally(endRow.cum, counts),
    runsBefore(endRow, e, true),
    readTally(startRow.cum, counts),
    runsBefore(startRow, s, false),
    counts ? [] : qs,
  );
}
