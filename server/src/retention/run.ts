// One retention run of one table: take the table's lease in retention_leases (one replica at a time;
// a replica that dies lets it expire), delete the rows older than the table's days in bounded batches
// (each its own short transaction, rows claimed FOR UPDATE SKIP LOCKED, so a huge table never holds
// one long transaction), the lease renewed by the replica's heartbeat (jobs/heartbeat.ts) and the run
// stopped between batches when it was lost, and record the run in job_history as
// `retention:<table>` with the count deleted.
import os from 'node:os';
import type { Database, Queryable } from '../db/database.js';
import { recordJob } from '../jobs/history.js';
import { LeaseHeartbeat } from '../jobs/heartbeat.js';
import { nextTurn } from '../jobs/slices.js';
import { DEFAULT_BATCH, type RetentionTable } from './tables.js';

export interface RetentionRunOptions {
  /** Who holds the lease (host:pid:random). */
  owner: string;
  days: number;
  /** How long the lease lasts unless renewed (ignored with `leases`; default 30 s). */
  leaseMs?: number;
  /** The replica's lease heartbeat; without it the run keeps one of its own. */
  leases?: LeaseHeartbeat;
  /** Run only when the last run finished at least this long ago (0: whenever the lease is free). */
  minIntervalMs?: number;
  /** Rows per batch (default: the table's). */
  batch?: number;
  /** Asked between batches: true ends the run early (shutdown); the rest waits for the next run. */
  shouldStop?: () => boolean;
}

export interface RetentionRunResult {
  table: string;
  /** false: another replica holds the lease, or the last run is recent. */
  ran: boolean;
  deleted: number;
  batches: number;
}

/** Takes the table's lease when free and the last run is old enough; true when this owner holds it now. */
export async function takeLease(
  db: Queryable,
  name: string,
  owner: string,
  leaseMs: number,
  minIntervalMs: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `INSERT INTO retention_leases (name, owner, lease_until)
     VALUES ($1, $2, now() + make_interval(secs => $3::double precision / 1000))
     ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
     WHERE (retention_leases.lease_until IS NULL OR retention_leases.lease_until < now())
       AND (retention_leases.last_run_at IS NULL
            OR retention_leases.last_run_at <= now() - make_interval(secs => $4::double precision / 1000))
     RETURNING name`,
    [name, owner, leaseMs, minIntervalMs],
  );
  return rows.length > 0;
}

async function releaseLease(db: Queryable, name: string, owner: string, finished: boolean): Promise<void> {
  await db.query(
    `UPDATE retention_leases SET lease_until = NULL, owner = NULL,
       last_run_at = CASE WHEN $3 THEN now() ELSE last_run_at END
     WHERE name = $1 AND owner = $2`,
    [name, owner, finished],
  );
}

/** Deletes one batch of rows past the table's age; returns how many went. */
async function deleteBatch(db: Database, t: RetentionTable, days: number, batch: number): Promise<number> {
  return db.transaction(async (tx) => {
    const hooks = t.beforeDelete ?? [];
    const { rows } = await tx.query<{ ctid: string; id?: string }>(
      `SELECT ctid::text AS ctid${hooks.length ? ', id' : ''} FROM ${t.table}
       WHERE ${t.ageColumn} < now() - make_interval(days => $1)${t.where ? ` AND ${t.where}` : ''}
       ORDER BY ${t.ageColumn} LIMIT $2 FOR UPDATE SKIP LOCKED`,
      [days, batch],
    );
    if (!rows.length) return 0;
    if (hooks.length) {
      const ids = rows.map((r) => r.id!);
      for (const sql of hooks) await tx.query(sql, [ids]);
    }
    const r = await tx.query(`DELETE FROM ${t.table} WHERE ctid = ANY($1::tid[])`, [rows.map((x) => x.ctid)]);
    return r.affectedRows ?? rows.length;
  });
}

/** Runs retention of one table under its lease; see the file's comment. */
export async function runRetention(
  db: Database,
  t: RetentionTable,
  options: RetentionRunOptions,
): Promise<RetentionRunResult> {
  const leases = options.leases ?? new LeaseHeartbeat(db, { leaseMs: options.leaseMs });
  const name = t.table;
  const result: RetentionRunResult = { table: name, ran: false, deleted: 0, batches: 0 };
  if (options.days <= 0) return result;
  const since = Date.now();
  if (!(await takeLease(db, name, options.owner, leases.leaseMs, options.minIntervalMs ?? 0))) return result;
  const lease = leases.hold('retention_leases', name, options.owner, since);
  result.ran = true;
  const startedAt = new Date();
  const batch = options.batch ?? t.batch ?? DEFAULT_BATCH;
  const errors: string[] = [];
  let failed = false;
  let finished = false;
  try {
    for (;;) {
      const n = await deleteBatch(db, t, options.days, batch);
      result.deleted += n;
      if (n > 0) result.batches += 1;
      if (n < batch || options.shouldStop?.()) break;
      if (lease.signal.aborted) {
        errors.push('the lease was lost (this replica stalled past it); another replica continues');
        break;
      }
      // Let other work (and, on the embedded database, other queries) in between batches.
      await nextTurn();
    }
    finished = errors.length === 0;
  } catch (e) {
    failed = true;
    errors.push((e as Error).message);
  } finally {
    lease.release();
    await releaseLease(db, name, options.owner, finished).catch(() => undefined);
  }
  await recordJob(
    db,
    {
      name: `retention:${name}`,
      resourceType: 'retention',
      resourceId: name,
      successCount: result.deleted,
      details: { table: name, days: options.days, deleted: result.deleted, batches: result.batches },
    },
    { startedAt, finishedAt: new Date(), failed, errors },
    os.hostname(),
  );
  if (failed) throw new Error(`retention of ${name}: ${errors[0]}`);
  return result;
}
