// Health data in the database: applying canaries, recording results and job history (canaries are
// claimed and leased as the rows of CANARY_TABLE, see jobs/leases.ts).
import type { Database, Queryable } from '../db/database.js';
import type { LeasedRow, LeasedTable } from '../jobs/leases.js';
import type { CanaryDefinition } from './canary.js';
import { parseSchedule } from '../jobs/schedule.js';
import { NO_AGENT } from '../db/agents.js';

let writes = 0;
/**
 * How many times this process has written health data (canaries, checks, statuses, roll-ups): the
 * summary reuses a recent answer only while this has not changed.
 */
export function healthWrites(): number {
  return writes;
}
/** Marks a write of health data (see healthWrites). */
export function noteHealthWrite(): void {
  writes++;
}
/** Notes a write once it has committed (or failed). */
function afterWrite<T>(p: Promise<T>): Promise<T> {
  return p.finally(noteHealthWrite);
}

let edits = 0;
/**
 * How many times someone changed health data through this process (applied or deleted a canary,
 * ran a check now), as opposed to the engine's scheduled runs: a summary kept current in the
 * background is brought up to date before it is served when this has moved (see SummaryViews).
 */
export function healthEdits(): number {
  return edits;
}
/** Notes an edit (and the write) once it has committed (or failed). */
export function afterEdit<T>(p: Promise<T>): Promise<T> {
  return afterWrite(p).finally(() => {
    edits++;
  });
}

export interface AppliedCanary {
  id: string;
  created: boolean;
  checks: { id: string; type: string; name: string }[];
}

/** The first run comes soon but spread out, so a batch of new canaries does not fire at once. */
function firstRun(periodMs: number, now = Date.now()): Date {
  return new Date(now + Math.floor(Math.random() * Math.min(periodMs, 30_000)));
}

export async function applyCanary(
  db: Database,
  def: CanaryDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedCanary> {
  const schedule = parseSchedule(def.schedule, undefined);
  return afterEdit(
    db.transaction(async (tx) => {
      const existing = await tx.query<{ id: string; schedule: string | null }>(
        `SELECT id, schedule FROM canaries WHERE agent_id = $1 AND namespace = $2 AND name = $3 AND deleted_at IS NULL FOR UPDATE`,
        [NO_AGENT, def.namespace, def.name],
      );
      let id: string;
      const created = existing.rows.length === 0;
      if (created) {
        const { rows } = await tx.query<{ id: string }>(
          `INSERT INTO canaries (name, namespace, labels, spec, source, schedule, created_by, next_runtime)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
          [
            def.name,
            def.namespace,
            JSON.stringify(def.labels),
            JSON.stringify(def.resource),
            opts.source ?? 'UI',
            def.schedule,
            opts.createdBy ?? null,
            firstRun(schedule.periodMs),
          ],
        );
        id = rows[0]!.id;
      } else {
        id = existing.rows[0]!.id;
        const rescheduled = existing.rows[0]!.schedule !== def.schedule;
        await tx.query(
          `UPDATE canaries SET labels = $2, spec = $3, schedule = $4, updated_at = now(),
           next_runtime = CASE WHEN $5 THEN $6::timestamptz ELSE next_runtime END
         WHERE id = $1`,
          [
            id,
            JSON.stringify(def.labels),
            JSON.stringify(def.resource),
            def.schedule,
            rescheduled,
            firstRun(schedule.periodMs),
          ],
        );
      }
      const checks: AppliedCanary['checks'] = [];
      for (const c of def.checks) {
        const { rows } = await tx.query<{ id: string }>(
          `INSERT INTO checks (canary_id, type, name, namespace, description, icon, labels, owner, severity, endpoint, spec)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
         ON CONFLICT (canary_id, type, name) WHERE deleted_at IS NULL DO UPDATE SET
           namespace = EXCLUDED.namespace, description = EXCLUDED.description, icon = EXCLUDED.icon,
           labels = EXCLUDED.labels, owner = EXCLUDED.owner, severity = EXCLUDED.severity,
           endpoint = EXCLUDED.endpoint, spec = EXCLUDED.spec, updated_at = now()
         RETURNING id`,
          [
            id,
            c.type,
            c.name,
            def.namespace,
            c.description,
            c.icon,
            JSON.stringify(c.labels),
            c.owner,
            c.severity,
            c.endpoint,
            JSON.stringify(c.spec),
          ],
        );
        checks.push({ id: rows[0]!.id, type: c.type, name: c.name });
      }
      // New checks show when they will first run.
      await tx.query(
        `UPDATE checks SET next_runtime = (SELECT next_runtime FROM canaries WHERE id = $1) WHERE canary_id = $1 AND deleted_at IS NULL`,
        [id],
      );
      // Checks no longer in the spec go away (their history stays).
      await tx.query(
        `UPDATE checks SET deleted_at = now() WHERE canary_id = $1 AND deleted_at IS NULL AND transformed_by IS NULL AND NOT (id = ANY($2::uuid[]))`,
        [id, checks.map((c) => c.id)],
      );
      return { id, created, checks };
    }),
  );
}

export async function deleteCanary(db: Database, id: string): Promise<boolean> {
  return afterEdit(
    db.transaction(async (tx) => {
      const { rows } = await tx.query(
        `UPDATE canaries SET deleted_at = now() WHERE id::text = $1 AND deleted_at IS NULL RETURNING id`,
        [id],
      );
      if (!rows[0]) return false;
      await tx.query(`UPDATE checks SET deleted_at = now() WHERE canary_id::text = $1 AND deleted_at IS NULL`, [id]);
      return true;
    }),
  );
}

/** A canary as the engine runs it (claimed with its lease, see jobs/leases.ts). */
export interface DueCanary extends LeasedRow {
  labels: Record<string, string>;
  spec: Record<string, unknown>;
}

/** Canaries are leased rows: claimed when due, one replica at a time (jobs/leases.ts). */
export const CANARY_TABLE: LeasedTable = {
  table: 'canaries',
  columns: 'id, name, namespace, labels, spec, schedule, next_runtime',
  retryMs: 5 * 60_000,
};

/** After a canary's run: its checks show when they run next (the canary's next_runtime). */
export async function planChecks(db: Queryable, canaryId: string): Promise<void> {
  await afterWrite(
    db.query(
      `UPDATE checks SET next_runtime = (SELECT next_runtime FROM canaries WHERE id = $1) WHERE canary_id = $1 AND deleted_at IS NULL`,
      [canaryId],
    ),
  );
}

/** The outcome of one check run, as stored. */
export interface StoredResult {
  pass: boolean;
  invalid: boolean;
  durationMs: number;
  message: string | null;
  error: string | null;
  details: unknown;
}

/** One check's result to record, at the time the run started. */
export interface ResultToRecord {
  checkId: string;
  result: StoredResult;
  time: Date;
}

/**
 * Writes one check_statuses row per result and updates each check, in one transaction of three
 * statements whatever their number: the status flips (and the transition time and a check.passed /
 * check.failed event) only when it changed. A first result emits check.failed when it fails and
 * nothing when it passes. A check appears at most once in `results` (resultBatcher.ts sees to it).
 * Answers, per result in order, whether the check's status changed.
 */
export async function recordResults(db: Database, results: readonly ResultToRecord[]): Promise<boolean[]> {
  if (!results.length) return [];
  const ids = results.map((x) => x.checkId);
  const times = results.map((x) => x.time.toISOString());
  const statuses = results.map((x) => (x.result.pass ? 'healthy' : 'unhealthy'));
  return afterWrite(
    db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO check_statuses (check_id, time, status, invalid, duration, message, error, details)
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::boolean[], $4::boolean[], $5::int[], $6::text[], $7::text[], $8::jsonb[])
         ON CONFLICT (check_id, time) DO NOTHING`,
        [
          ids,
          times,
          results.map((x) => x.result.pass),
          results.map((x) => x.result.invalid),
          results.map((x) => Math.round(x.result.durationMs)),
          results.map((x) => x.result.message),
          results.map((x) => x.result.error),
          results.map((x) => (x.result.details === undefined ? null : JSON.stringify(x.result.details))),
        ],
      );
      // The previous statuses are read under lock, in id order (two writers never wait on each other in turn).
      const { rows } = await tx.query<{
        id: string;
        previous: string | null;
        canary_id: string;
        name: string;
        type: string;
      }>(
        `WITH input AS (SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS i(id, status, time)),
         prev AS (SELECT c.id, c.status FROM checks c WHERE c.id IN (SELECT id FROM input) ORDER BY c.id FOR UPDATE)
         UPDATE checks c SET status = i.status, last_runtime = i.time, updated_at = now(),
           last_transition_time = CASE WHEN prev.status IS DISTINCT FROM i.status THEN i.time ELSE c.last_transition_time END
         FROM input i JOIN prev ON prev.id = i.id WHERE c.id = i.id
         RETURNING c.id, prev.status AS previous, c.canary_id, c.name, c.type`,
        [ids, statuses, times],
      );
      const updated = new Map(rows.map((r) => [r.id, r]));
      const transitioned: boolean[] = [];
      const events: Array<{ name: string; properties: string }> = [];
      results.forEach(({ checkId, result }, i) => {
        const row = updated.get(checkId);
        const status = statuses[i]!;
        const changed = !!row && row.previous !== status;
        transitioned.push(changed);
        // A new check's first result is news only when it fails: people add a check for a service that
        // is already down and expect to hear about it, while a first pass is not a change worth a message.
        const firstPass = !!row && row.previous === null && result.pass;
        if (!row || !changed || firstPass) return;
        events.push({
          name: result.pass ? 'check.passed' : 'check.failed',
          properties: JSON.stringify({
            id: checkId,
            canary_id: row.canary_id,
            name: row.name,
            type: row.type,
            status,
            previous: row.previous,
            message: result.message,
            error: result.error,
          }),
        });
      });
      if (events.length) {
        await tx.query(`INSERT INTO event_queue (name, properties) SELECT * FROM unnest($1::text[], $2::jsonb[])`, [
          events.map((e) => e.name),
          events.map((e) => e.properties),
        ]);
      }
      return transitioned;
    }),
  );
}

/** recordResults for one result. */
export async function recordResult(
  db: Database,
  checkId: string,
  r: StoredResult,
  time: Date,
): Promise<{ transitioned: boolean }> {
  const [transitioned] = await recordResults(db, [{ checkId, result: r, time }]);
  return { transitioned: transitioned! };
}

export interface RunSummary {
  canaryId: string;
  name: string;
  startedAt: Date;
  finishedAt: Date;
  passed: number;
  failed: number;
  errors: string[];
}

/** One job-history row per canary run. */
export async function recordJob(db: Queryable, run: RunSummary, hostname: string): Promise<void> {
  const status = run.failed === 0 ? 'SUCCESS' : run.passed === 0 ? 'FAILED' : 'WARNING';
  await db.query(
    `INSERT INTO job_history (name, success_count, error_count, details, hostname, duration_millis, resource_type, resource_id, status, time_start, time_end)
     VALUES ('Canary', $1, $2, $3, $4, $5, 'canary', $6, $7, $8, $9)`,
    [
      run.passed,
      run.failed,
      JSON.stringify({ canary: run.name, errors: run.errors.slice(0, 50) }),
      hostname,
      run.finishedAt.getTime() - run.startedAt.getTime(),
      run.canaryId,
      status,
      run.startedAt,
      run.finishedAt,
    ],
  );
}
