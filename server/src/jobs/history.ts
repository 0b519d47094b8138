// One job_history row per run of a scheduled job (a topology build, a scrape): counts, the first
// errors, duration and status.
import type { Queryable } from '../db/database.js';

export type RunStatus = 'SUCCESS' | 'WARNING' | 'FAILED';

/** FAILED when the run failed as a whole, WARNING when it ended with errors, else SUCCESS. */
export const runStatus = (run: { failed: boolean; errors: string[] }): RunStatus =>
  run.failed ? 'FAILED' : run.errors.length ? 'WARNING' : 'SUCCESS';

export interface JobRun {
  startedAt: Date;
  finishedAt: Date;
  failed: boolean;
  errors: string[];
}

export interface JobRecord {
  /** job_history.name, e.g. Topology. */
  name: string;
  resourceType: string;
  resourceId: string;
  successCount: number;
  /** Written as details, followed by the first 50 errors. */
  details: Record<string, unknown>;
}

export async function recordJob(db: Queryable, job: JobRecord, run: JobRun, hostname: string): Promise<void> {
  await db.query(
    `INSERT INTO job_history (name, success_count, error_count, details, hostname, duration_millis, resource_type, resource_id, status, time_start, time_end)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      job.name,
      job.successCount,
      run.errors.length,
      JSON.stringify({ ...job.details, errors: run.errors.slice(0, 50) }),
      hostname,
      run.finishedAt.getTime() - run.startedAt.getTime(),
      job.resourceType,
      job.resourceId,
      runStatus(run),
      run.startedAt,
      run.finishedAt,
    ],
  );
}
