// What PostgreSQL's autovacuum does, for the embedded database. PGlite runs no autovacuum worker, so
// its tables were never analyzed (the planner guessed: the summary's edges at 10,000 checks were
// read through 10,000 index probes, 75 ms, instead of merge joins, 47 ms) and the space of deleted
// and updated rows (retention, every check run's update of its check) was never made reusable.
// Every `everyMs` this looks at the tables and runs VACUUM (ANALYZE) or ANALYZE on the one most
// overdue, with autovacuum's default thresholds (50 rows + 20 % dead, 50 rows + 10 % changed).
// PGlite keeps the change counters only while its process runs, so a table whose size moved since
// its statistics were taken (a restart in between) is analyzed too. One table per pass: PGlite has
// one connection, and the statement holds it. Each run is recorded in job_history as
// `db-maintenance:<table>`.
import os from 'node:os';
import type { Database } from './database.js';
import { recordJob } from '../jobs/history.js';
import { logger } from '../log.js';

const log = logger('db');

/** A table as the planner's statistics and the change counters see it. */
export interface TableState {
  name: string;
  /** pg_class.reltuples: rows at the last VACUUM or ANALYZE (-1: never). */
  reltuples: number;
  /** pg_class.relpages at that time, and the pages the table has now. */
  relpages: number;
  pages: number;
  /** Rows changed since the last ANALYZE, and dead rows, in this process. */
  modified: number;
  dead: number;
}

export type MaintenanceAction = 'VACUUM (ANALYZE)' | 'ANALYZE';

/** autovacuum_vacuum_threshold / _scale_factor and autovacuum_analyze_threshold / _scale_factor. */
const VACUUM_BASE = 50;
const VACUUM_SCALE = 0.2;
const ANALYZE_BASE = 50;
const ANALYZE_SCALE = 0.1;
/** Pages a table may grow or shrink by (besides 10 %) before its statistics count as stale. */
const PAGES_SLACK = 8;

/**
 * The table most overdue and what to run on it, or undefined when none is: the action's count over
 * its threshold, highest first.
 */
export function dueTable(tables: readonly TableState[]): { name: string; action: MaintenanceAction } | undefined {
  let best: { name: string; action: MaintenanceAction; score: number } | undefined;
  for (const t of tables) {
    const rows = Math.max(t.reltuples, 0);
    const vacuum = t.dead / (VACUUM_BASE + VACUUM_SCALE * rows);
    const changed = t.modified / (ANALYZE_BASE + ANALYZE_SCALE * rows);
    // Statistics from before this process: never taken, or the table's size has moved since.
    const moved = Math.abs(t.pages - t.relpages) / (PAGES_SLACK + ANALYZE_SCALE * t.relpages);
    const stale = t.pages > 0 && (t.reltuples < 0 || moved > 1);
    if (vacuum <= 1 && changed <= 1 && !stale) continue;
    const score = Math.max(vacuum, changed, moved);
    if (best && best.score >= score) continue;
    best = { name: t.name, action: vacuum > 1 ? 'VACUUM (ANALYZE)' : 'ANALYZE', score };
  }
  return best && { name: best.name, action: best.action };
}

const STATE_SQL = `
SELECT c.relname AS name, c.reltuples::float8 AS reltuples, c.relpages::int AS relpages,
       (pg_relation_size(c.oid) / current_setting('block_size')::int)::int AS pages,
       coalesce(s.n_mod_since_analyze, 0)::float8 AS modified, coalesce(s.n_dead_tup, 0)::float8 AS dead
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
WHERE c.relkind = 'r' AND n.nspname = 'public'`;

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export class EmbeddedMaintenance {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopping = false;
  /** Tables whose statement failed: left alone until restart, so one cannot hold up the others. */
  private readonly failed = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly everyMs = 60_000,
  ) {}

  start(): void {
    if (this.db.kind !== 'pglite' || this.timer) return;
    this.stopping = false;
    const loop = () => {
      if (this.stopping) return;
      this.running = this.pass()
        .catch((e: unknown) => log.error(`database maintenance: ${(e as Error).message}`))
        .finally(() => {
          if (this.stopping) return;
          this.timer = setTimeout(loop, this.everyMs);
          this.timer.unref();
        });
    };
    this.timer = setTimeout(loop, this.everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One look at the tables; the table maintained and how, or undefined when none was due. */
  async pass(): Promise<{ name: string; action: MaintenanceAction; ms: number } | undefined> {
    const { rows } = await this.db.query<TableState>(STATE_SQL);
    const due = dueTable(rows.filter((r) => !this.failed.has(r.name)));
    if (!due) return undefined;
    const startedAt = new Date();
    const errors: string[] = [];
    try {
      await this.db.exec(`${due.action} ${quoteIdent(due.name)}`);
    } catch (e) {
      errors.push((e as Error).message);
    }
    const finishedAt = new Date();
    const ms = finishedAt.getTime() - startedAt.getTime();
    await recordJob(
      this.db,
      {
        name: `db-maintenance:${due.name}`,
        resourceType: 'table',
        resourceId: due.name,
        successCount: errors.length ? 0 : 1,
        details: { action: due.action },
      },
      { startedAt, finishedAt, failed: errors.length > 0, errors },
      os.hostname(),
    );
    if (errors.length) {
      this.failed.add(due.name);
      throw new Error(`${due.action} ${due.name}: ${errors[0]}`);
    }
    log.info({ table: due.name, action: due.action, ms }, 'database maintenance');
    return { ...due, ms };
  }
}
