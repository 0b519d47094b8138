// opsdeck_job_duration_seconds: the job_history rows this host recorded (canary runs, scrapes,
// topology builds, roll-ups, ...), observed at scrape time. Every engine already writes its runs
// there; reading them back (by created_at, indexed) keeps the engines free of metrics code. Rows
// are read from a watermark with an overlap, so a row committed a little after a later one is not
// missed, and ids already counted are skipped.
import os from 'node:os';
import { Histogram, type Registry } from 'prom-client';
import type { Database } from '../db/database.js';

/** A row may commit this long after a row created after it (a transaction's now() is its start). */
const OVERLAP_MS = 60_000;
/** The most rows one scrape reads; the rest wait for the next scrape. */
const BATCH = 5_000;
/** Seconds; a job is a canary run, a scrape, a topology build, a roll-up. */
const JOB_BUCKETS = [0.05, 0.25, 1, 5, 15, 60, 300, 900];

export class JobObserver {
  private readonly histogram: Histogram<'job' | 'status'>;
  /** Rows counted, with their created_at (ms), kept while inside the overlap. */
  private readonly seen = new Map<string, number>();
  private readonly since = Date.now();
  private watermark = this.since;
  private readonly hostname = os.hostname();
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: Database,
    prefix: string,
    registers: Registry[],
  ) {
    this.histogram = new Histogram({
      name: `${prefix}job_duration_seconds`,
      help: 'Duration of the jobs this host ran and recorded in job_history, by job kind (resource type) and status.',
      labelNames: ['job', 'status'],
      buckets: JOB_BUCKETS,
      registers,
    });
  }

  /** Observes the rows recorded since the last call (one at a time: concurrent scrapes share it). */
  catchUp(): Promise<void> {
    this.running ??= this.read().finally(() => (this.running = undefined));
    return this.running;
  }

  private async read(): Promise<void> {
    const { rows } = await this.db.query<{ id: string; job: string; status: string; ms: number; at: number }>(
      `SELECT id::text, coalesce(resource_type, name) AS job, coalesce(status, 'SUCCESS') AS status,
              coalesce(duration_millis, 0) AS ms, (extract(epoch FROM created_at) * 1000)::float8 AS at
       FROM job_history WHERE created_at > $1 AND hostname = $2 ORDER BY created_at LIMIT ${BATCH}`,
      [new Date(this.watermark - OVERLAP_MS), this.hostname],
    );
    for (const r of rows) {
      const at = Number(r.at);
      if (this.seen.has(r.id) || at < this.since) continue;
      this.seen.set(r.id, at);
      this.histogram.observe({ job: r.job, status: r.status }, Number(r.ms) / 1000);
      if (at > this.watermark) this.watermark = at;
    }
    for (const [id, at] of this.seen) if (at < this.watermark - OVERLAP_MS) this.seen.delete(id);
  }
}
