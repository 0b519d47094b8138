// ScrapeConfig rows in the database: applying and deleting them, claiming due runs with a lease (so
// replicas share the work and none runs twice), ending a run and recording it in job_history.
import { NO_AGENT } from '../health/store.js';
import { parseSchedule } from '../health/schedule.js';
import type { Database, Queryable } from '../db/database.js';
import type { ScrapeConfigDefinition } from './scrapeConfig.js';

export interface AppliedScrapeConfig {
  id: string;
  created: boolean;
}

export async function applyScrapeConfig(
  db: Database,
  def: ScrapeConfigDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedScrapeConfig> {
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>(
      `SELECT id FROM config_scrapers WHERE agent_id = $1 AND namespace = $2 AND name = $3 AND deleted_at IS NULL FOR UPDATE`,
      [NO_AGENT, def.namespace, def.name],
    );
    if (!existing.rows[0]) {
      // A new scraper runs at the next scheduler pass.
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO config_scrapers (name, namespace, labels, spec, source, schedule, created_by, next_runtime)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING id`,
        [
          def.name,
          def.namespace,
          JSON.stringify(def.labels),
          JSON.stringify(def.resource),
          opts.source ?? 'UI',
          def.schedule,
          opts.createdBy ?? null,
        ],
      );
      return { id: rows[0]!.id, created: true };
    }
    const id = existing.rows[0].id;
    // A changed spec or schedule runs at the next pass; an identical one keeps its schedule.
    await tx.query(
      `UPDATE config_scrapers SET labels = $2, spec = $3, schedule = $4, updated_at = now(),
         next_runtime = CASE WHEN spec IS DISTINCT FROM $3::jsonb OR schedule IS DISTINCT FROM $4 THEN now() ELSE next_runtime END
       WHERE id = $1`,
      [id, JSON.stringify(def.labels), JSON.stringify(def.resource), def.schedule],
    );
    return { id, created: false };
  });
}

/** Soft-deletes a scraper; its items stay (with their history) and are no longer scraped. */
export async function deleteScrapeConfig(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE config_scrapers SET deleted_at = now(), lease_until = NULL, lease_owner = NULL
     WHERE id::text = $1 AND deleted_at IS NULL RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

export interface ScraperRow {
  id: string;
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
  schedule: string | null;
  next_runtime: Date;
}

type RawRow = Omit<ScraperRow, 'next_runtime'> & { next_runtime: string | Date | null };
const COLUMNS = 'id, name, namespace, spec, schedule, next_runtime';
const toRow = (r: RawRow): ScraperRow => ({
  ...r,
  next_runtime: r.next_runtime ? new Date(r.next_runtime) : new Date(),
});

/** Claims up to `limit` due scrapers for this replica; a claimed scraper is held by its lease. */
export async function claimDue(db: Queryable, owner: string, limit: number, leaseMs: number): Promise<ScraperRow[]> {
  const { rows } = await db.query<RawRow>(
    `UPDATE config_scrapers SET lease_until = now() + make_interval(secs => $3::double precision / 1000), lease_owner = $1
     WHERE id IN (
       SELECT id FROM config_scrapers
       WHERE deleted_at IS NULL AND next_runtime <= now() AND (lease_until IS NULL OR lease_until < now())
       ORDER BY next_runtime LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${COLUMNS}`,
    [owner, limit, leaseMs],
  );
  return rows.map(toRow);
}

/** Takes a scraper's lease for a run outside the schedule; 'busy' while another run holds it. */
export async function tryLease(
  db: Queryable,
  id: string,
  owner: string,
  leaseMs: number,
): Promise<ScraperRow | 'busy' | 'not-found'> {
  const { rows } = await db.query<RawRow>(
    `UPDATE config_scrapers SET lease_until = now() + make_interval(secs => $3::double precision / 1000), lease_owner = $2
     WHERE id::text = $1 AND deleted_at IS NULL AND (lease_until IS NULL OR lease_until < now())
     RETURNING ${COLUMNS}`,
    [id, owner, leaseMs],
  );
  if (rows[0]) return toRow(rows[0]);
  const found = await db.query(`SELECT 1 FROM config_scrapers WHERE id::text = $1 AND deleted_at IS NULL`, [id]);
  return found.rows.length ? 'busy' : 'not-found';
}

/** Ends a run: releases the lease; a scheduled run also moves next_runtime along the schedule. */
export async function finishRun(
  db: Queryable,
  s: ScraperRow,
  owner: string,
  startedAt: Date,
  scheduled: boolean,
): Promise<void> {
  let next: Date | null = null;
  if (scheduled) {
    try {
      const schedule = parseSchedule(s.schedule ?? undefined, undefined);
      next = schedule.next(s.next_runtime);
      if (next.getTime() <= Date.now()) next = schedule.next(new Date());
    } catch {
      next = new Date(Date.now() + 60 * 60_000);
    }
  }
  await db.query(
    `UPDATE config_scrapers SET last_runtime = $3, next_runtime = coalesce($4::timestamptz, next_runtime),
       lease_until = NULL, lease_owner = NULL
     WHERE id = $1 AND lease_owner = $2`,
    [s.id, owner, startedAt, next],
  );
}

export interface ScrapeRunSummary {
  scraperId: string;
  name: string;
  startedAt: Date;
  finishedAt: Date;
  failed: boolean;
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  insights: number;
  errors: string[];
}

export function runStatus(run: ScrapeRunSummary): 'SUCCESS' | 'WARNING' | 'FAILED' {
  if (run.failed) return 'FAILED';
  return run.errors.length ? 'WARNING' : 'SUCCESS';
}

/** One job_history row per run: success_count = items scraped, error_count = errors. */
export async function recordJob(db: Queryable, run: ScrapeRunSummary, hostname: string): Promise<void> {
  await db.query(
    `INSERT INTO job_history (name, success_count, error_count, details, hostname, duration_millis, resource_type, resource_id, status, time_start, time_end)
     VALUES ('ConfigScraper', $1, $2, $3, $4, $5, 'config_scraper', $6, $7, $8, $9)`,
    [
      run.items,
      run.errors.length,
      JSON.stringify({
        scraper: run.name,
        created: run.created,
        updated: run.updated,
        unchanged: run.unchanged,
        deleted: run.deleted,
        changes: run.changes,
        insights: run.insights,
        errors: run.errors.slice(0, 50),
      }),
      hostname,
      run.finishedAt.getTime() - run.startedAt.getTime(),
      run.scraperId,
      runStatus(run),
      run.startedAt,
      run.finishedAt,
    ],
  );
}
