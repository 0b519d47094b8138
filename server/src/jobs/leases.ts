// Scheduled rows held by a lease (canaries, topologies, config_scrapers): claiming the due ones
// (FOR UPDATE SKIP LOCKED, so replicas share the work and none runs a row twice), leasing one for a
// run outside the schedule, and ending a run (lease released, next_runtime moved along the schedule).
import type { Queryable } from '../db/database.js';
import { parseSchedule } from './schedule.js';

/** A table of leased rows: its name and the columns read back for a run (with id, schedule, next_runtime). */
export interface LeasedTable {
  table: 'canaries' | 'topologies' | 'config_scrapers';
  columns: string;
  /** When a scheduled run's schedule no longer parses, the next run is this far away. */
  retryMs: number;
}

export interface LeasedRow {
  id: string;
  name: string;
  namespace: string;
  schedule: string | null;
  next_runtime: Date;
}

type RawRow<Row> = Omit<Row, 'next_runtime'> & { next_runtime: string | Date | null };

const toRow = <Row>(r: RawRow<Row>): Row =>
  ({ ...r, next_runtime: r.next_runtime ? new Date(r.next_runtime) : new Date() }) as Row;

/**
 * Claims up to `limit` due rows for this replica; a claimed row is held by its lease. With
 * `overdueMs`, only rows due at least that long ago (a busy replica leaves the others the first go).
 */
export async function claimDue<Row extends LeasedRow>(
  db: Queryable,
  t: LeasedTable,
  owner: string,
  limit: number,
  leaseMs: number,
  overdueMs = 0,
): Promise<Row[]> {
  const { rows } = await db.query<RawRow<Row>>(
    `UPDATE ${t.table} SET lease_until = now() + make_interval(secs => $3::double precision / 1000), lease_owner = $1
     WHERE id IN (
       SELECT id FROM ${t.table}
       WHERE deleted_at IS NULL AND next_runtime <= now() - make_interval(secs => $4::double precision / 1000)
         AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_runtime LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${t.columns}`,
    [owner, limit, leaseMs, overdueMs],
  );
  return rows.map((r) => toRow<Row>(r));
}

/** Takes a row's lease for a run outside the schedule; 'busy' while another run holds it. */
export async function tryLease<Row extends LeasedRow>(
  db: Queryable,
  t: LeasedTable,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<Row | 'busy' | 'not-found'> {
  const { rows } = await db.query<RawRow<Row>>(
    `UPDATE ${t.table} SET lease_until = now() + make_interval(secs => $3::double precision / 1000), lease_owner = $2
     WHERE id::text = $1 AND deleted_at IS NULL AND (lease_until IS NULL OR lease_until < now())
     RETURNING ${t.columns}`,
    [id, owner, leaseMs],
  );
  if (rows[0]) return toRow<Row>(rows[0]);
  const found = await db.query(`SELECT 1 FROM ${t.table} WHERE id::text = $1 AND deleted_at IS NULL`, [id]);
  return found.rows.length ? 'busy' : 'not-found';
}

/** When a scheduled run is next due: the schedule's next time after the last (or now, if that has passed). */
export function nextRuntime(row: Pick<LeasedRow, 'schedule' | 'next_runtime'>, retryMs: number): Date {
  try {
    const schedule = parseSchedule(row.schedule ?? undefined, undefined);
    const next = schedule.next(row.next_runtime);
    return next.getTime() <= Date.now() ? schedule.next(new Date()) : next;
  } catch {
    return new Date(Date.now() + retryMs);
  }
}

/** Ends a run: releases the lease; a scheduled run also moves next_runtime along the schedule. */
export async function finishRun(
  db: Queryable,
  t: LeasedTable,
  row: LeasedRow,
  owner: string,
  startedAt: Date,
  scheduled: boolean,
): Promise<void> {
  const next = scheduled ? nextRuntime(row, t.retryMs) : null;
  await db.query(
    `UPDATE ${t.table} SET last_runtime = $3, next_runtime = coalesce($4::timestamptz, next_runtime),
       lease_until = NULL, lease_owner = NULL
     WHERE id = $1 AND lease_owner = $2`,
    [row.id, owner, startedAt, next],
  );
}

/** Gives a lease back without counting a run (a run of part of the row, e.g. one check of a canary). */
export async function releaseLease(db: Queryable, t: LeasedTable, id: string, owner: string): Promise<void> {
  await db.query(`UPDATE ${t.table} SET lease_until = NULL, lease_owner = NULL WHERE id = $1 AND lease_owner = $2`, [
    id,
    owner,
  ]);
}

/** Drops every lease of the table (the embedded database has one process: leases left are stale). */
export async function releaseAllLeases(db: Queryable, t: LeasedTable): Promise<void> {
  await db.query(`UPDATE ${t.table} SET lease_until = NULL, lease_owner = NULL WHERE lease_until IS NOT NULL`);
}
