// `on.schedule` (cron, @every, @hourly...): every poll, due playbook_schedules rows are locked with FOR
// UPDATE SKIP LOCKED, a run is queued for each (trigger {type: schedule, schedule}) and the row's
// next_runtime moved along its schedule — all in one transaction, so with several replicas exactly one
// of them starts each scheduled run, and a crash in between starts none twice. A missed time (the
// server was down) starts one run, then the schedule continues from now. A playbook whose `filters`
// are not all true (over no resource: config, component and check null) starts no run at that time
// (counted in stats.filteredOut); its schedule moves on all the same.
import type { Database } from '../db/database.js';
import { parseSchedule } from '../jobs/schedule.js';
import { parseStoredPlaybook } from './playbook.js';
import { queueTriggeredRun, triggeredFilters, triggeredParams } from './triggeredRun.js';
import { logger } from '../log.js';

const log = logger('playbooks');

export interface ScheduleTriggerOptions {
  /** How often due schedules are looked for (default 1 s). */
  pollMs?: number;
  /** Schedules handled per pass. */
  batchSize?: number;
}

interface DueRow {
  id: string;
  playbook_id: string;
  schedule: string;
  next_runtime: string | Date;
  name: string;
  spec: Record<string, unknown>;
}

export class PlaybookScheduleTrigger {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  private readonly pollMs: number;
  private readonly batchSize: number;
  /** Counters for tests and logs. */
  readonly stats = { started: 0, filteredOut: 0 };

  constructor(
    private readonly db: Database,
    options: ScheduleTriggerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1_000;
    this.batchSize = options.batchSize ?? 20;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      if (this.stopped) return;
      this.running = this.tick()
        .catch((e: unknown) => log.error(`playbook schedules: ${(e as Error).message}`))
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(loop, this.pollMs);
        });
    };
    this.timer = setTimeout(loop, 0);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass: queues the runs of the schedules due now; returns how many were started. */
  async tick(): Promise<number> {
    return this.db.transaction(async (tx) => {
      const { rows } = await tx.query<DueRow>(
        `SELECT s.id, s.playbook_id, s.schedule, s.next_runtime, p.name, p.spec
         FROM playbook_schedules s JOIN playbooks p ON p.id = s.playbook_id AND p.deleted_at IS NULL
         WHERE s.next_runtime <= now()
         ORDER BY s.next_runtime LIMIT $1 FOR UPDATE OF s SKIP LOCKED`,
        [this.batchSize],
      );
      let started = 0;
      for (const row of rows) {
        let next: Date;
        try {
          const schedule = parseSchedule(row.schedule, undefined);
          const after = schedule.next(new Date(row.next_runtime));
          next = after.getTime() <= Date.now() ? schedule.next(new Date()) : after;
        } catch {
          next = new Date(Date.now() + 60_000);
        }
        await tx.query('UPDATE playbook_schedules SET next_runtime = $2, last_runtime = now() WHERE id = $1', [
          row.id,
          next,
        ]);
        try {
          const playbook = {
            id: row.playbook_id,
            name: row.name,
            resource: row.spec,
            def: parseStoredPlaybook(row.spec),
          };
          const verdict = triggeredFilters(playbook, null);
          if (!verdict.ok) {
            this.stats.filteredOut++;
            if (verdict.failed) log.error(`playbook ${row.name}: no scheduled run: ${verdict.reason}`);
            continue;
          }
          const params = triggeredParams(playbook, null);
          await queueTriggeredRun(tx, playbook, null, { type: 'schedule', schedule: row.schedule }, params);
          started++;
          this.stats.started++;
        } catch (e) {
          log.error(`playbook ${row.name}: the scheduled run could not start: ${(e as Error).message}`);
        }
      }
      return started;
    });
  }
}
