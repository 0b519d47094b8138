// The retention jobs of a replica: every `pollMs` it offers each table's run (runRetention), which
// takes place only on the replica that gets the table's lease and only when the table's last run is
// at least `everyMs` old, so N replicas prune each table once per interval between them.
import type { Database } from '../db/database.js';
import { runRetention, type RetentionRunResult } from './run.js';
import { RETENTION_TABLES, type RetentionDays } from './tables.js';
import { logger } from '../log.js';
import { ownerId, type LeaseHeartbeat } from '../jobs/heartbeat.js';

const log = logger('retention');

export interface RetentionRunnerOptions {
  /** Days kept per table (config.retentionDays); a table missing or at 0 is kept forever. */
  days: RetentionDays;
  /** How often each table is pruned (default hourly). */
  everyMs?: number;
  /** How often this replica looks for a table due (default 5 minutes). */
  pollMs?: number;
  leaseMs?: number;
  /** The replica's lease heartbeat (one for all engines). */
  leases?: LeaseHeartbeat;
}

export class RetentionRunner {
  readonly owner = ownerId();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private started = false;
  private stopping = false;

  constructor(
    private readonly db: Database,
    private readonly options: RetentionRunnerOptions,
  ) {}

  start(): void {
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    const loop = () => {
      if (this.stopping) return;
      this.running = this.pass()
        .catch((e: unknown) => log.error(`retention: ${(e as Error).message}`))
        .finally(() => {
          if (!this.stopping) {
            this.timer = setTimeout(loop, this.options.pollMs ?? 5 * 60_000);
            this.timer.unref();
          }
        });
    };
    // The first pass a little after start, out of the way of start-up work.
    this.timer = setTimeout(loop, Math.min(this.options.pollMs ?? 60_000, 60_000));
    this.timer.unref();
  }

  /** Stops; a pass under way ends after the batch it is in (its lease is released). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.started = false;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over every table (those due and not leased elsewhere run); the results of those that ran. */
  async pass(force = false): Promise<RetentionRunResult[]> {
    const results: RetentionRunResult[] = [];
    for (const t of RETENTION_TABLES) {
      if (this.stopping && !force) break;
      const days = this.options.days[t.table] ?? 0;
      try {
        const r = await runRetention(this.db, t, {
          owner: this.owner,
          days,
          leaseMs: this.options.leaseMs,
          leases: this.options.leases,
          minIntervalMs: force ? 0 : (this.options.everyMs ?? 3_600_000),
          shouldStop: () => this.stopping && !force,
        });
        if (r.ran) results.push(r);
      } catch (e) {
        // Recorded in job history by runRetention; the other tables still run.
        log.error(`retention: ${(e as Error).message}`);
      }
    }
    return results;
  }
}
