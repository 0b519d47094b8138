// The playbook runner: claims due runs (pending/scheduled, scheduled_time passed) with a lease
// taken FOR UPDATE SKIP LOCKED, so two replicas never run the same run, and runs their actions in
// order (actionSequence.ts) — one playbook_run_actions row per action as it is reached (running; sleeping while a delay
// waits or between retries; skipped when `if` is false; a failed action tried again per its `retry`,
// retry.ts; one attempt: runAction.ts), then the run ends completed or failed and emits
// playbook.run.completed / playbook.run.failed. While a run is under way its lease is renewed by the
// replica's lease heartbeat (jobs/heartbeat.ts, one statement for all its leases); one query per
// `heartbeatMs` for all the runs under way here notices a cancel (status no longer running) or a
// lost lease and stops the current action (process group killed, request aborted). A run whose
// lease expired while running (the
// server stopped) is marked failed instead of repeating side effects. A graceful stop (SIGTERM,
// stop({ release: true })) instead hands the run back: its current action is marked for retry
// (status scheduled) and the run goes back to the queue, where any replica resumes it at that action,
// the actions already ended kept with their results.
import { createMailer, type Mailer } from '../auth/mailer.js';
import { NO_AGENT } from '../db/agents.js';
import type { Database, Queryable } from '../db/database.js';
import { CANCELLED_ERROR } from './runAction.js';
import { RELEASED_NOTE, releaseRuns } from './handBack.js';
import { logger } from '../log.js';
import { LeaseHeartbeat, ownerId } from '../jobs/heartbeat.js';
import { clip, RELEASED, RunReleased, runActions, RunStopped } from './actionSequence.js';

const log = logger('playbooks');

export const INTERRUPTED_ERROR = 'the server stopped while this run was under way';
export { RELEASED_NOTE };
export { CANCELLED_ERROR };

export interface RunnerOptions {
  /** How often due runs are looked for (default 500 ms). */
  pollMs?: number;
  /** How long a claimed run is held without a heartbeat (default 30 s; ignored with `leases`). */
  leaseMs?: number;
  /** The replica's lease heartbeat (one for all engines); without it the runner keeps its own. */
  leases?: LeaseHeartbeat;
  /** How often the runs under way look for a cancel (one query for all of them; default 500 ms). */
  heartbeatMs?: number;
  maxConcurrent?: number;
  mailer?: Mailer;
  smtpFrom?: string;
}

export class PlaybookRunner {
  readonly owner = ownerId();
  private readonly pollMs: number;
  private readonly leases: LeaseHeartbeat;
  private readonly heartbeatMs: number;
  /** The runs under way here, by id: what a cancel or a lost lease stops. */
  private readonly watched = new Map<string, AbortController>();
  private watchTimer: NodeJS.Timeout | undefined;
  private readonly maxConcurrent: number;
  private readonly mail: { mailer: Mailer; from: string };
  private timer: NodeJS.Timeout | undefined;
  private stopping = false;
  /** Between start() and stop(): a run ending wakes the claim loop. */
  private polling = false;
  private ticking = false;
  private again = false;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly controllers = new Set<AbortController>();

  constructor(
    private readonly db: Database,
    options: RunnerOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 500;
    this.leases = options.leases ?? new LeaseHeartbeat(db, { leaseMs: options.leaseMs });
    this.heartbeatMs = options.heartbeatMs ?? 500;
    this.maxConcurrent = options.maxConcurrent ?? 4;
    const from = options.smtpFrom ?? 'opsdeck@localhost';
    this.mail = { mailer: options.mailer ?? createMailer(undefined, from), from };
  }

  start(): void {
    this.stopping = false;
    // One process owns the embedded database: a run still marked running was cut off by a restart.
    const stale =
      this.db.kind === 'pglite'
        ? this.db.query(`UPDATE playbook_runs SET lease_until = NULL WHERE status = 'running'`)
        : Promise.resolve();
    this.polling = true;
    const loop = async () => {
      if (this.stopping) return;
      await this.pass();
      if (!this.stopping) this.timer = setTimeout(loop, this.pollMs);
    };
    void stale
      .catch(() => undefined)
      .then(() => {
        if (!this.stopping) this.timer = setTimeout(loop, 0);
      });
  }

  /**
   * Stops claiming; runs under way are stopped and marked failed (interrupted) or, with `release`
   * (a graceful shutdown), handed back to the queue with their current action marked for retry.
   */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    this.stopping = true;
    this.polling = false;
    clearTimeout(this.timer);
    for (const c of this.controllers)
      c.abort(options.release ? new RunReleased(RELEASED_NOTE) : new RunStopped(INTERRUPTED_ERROR));
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims no more and hands back every run this runner still holds (stop() did not end in time); how many. */
  releaseAll(): Promise<number> {
    this.stopping = true;
    this.polling = false;
    clearTimeout(this.timer);
    return releaseRuns(this.db, this.owner);
  }

  /** Claims what is due now and waits until those runs end (tests, tools). */
  async drain(): Promise<void> {
    await this.tick();
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Ticks one at a time (the poll and the wake-ups when a run ends), so `room` is never counted
   * twice; a wake-up during a tick makes that tick go round once more.
   */
  private async pass(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    try {
      do {
        this.again = false;
        await this.tick().catch((e: unknown) => log.error(`playbook runner: ${(e as Error).message}`));
      } while (this.again && !this.stopping);
    } finally {
      this.ticking = false;
    }
  }

  /** One pass: claims as many due runs as there is room for and starts them. */
  async tick(): Promise<void> {
    const room = this.maxConcurrent - this.inFlight.size;
    if (room <= 0) return;
    const since = Date.now();
    const { rows } = await this.db.query<{ id: string; was: string }>(
      `UPDATE playbook_runs r SET lease_owner = $1,
         lease_until = now() + make_interval(secs => $3::double precision / 1000),
         status = 'running', start_time = CASE WHEN due.was = 'running' THEN r.start_time ELSE now() END
       FROM (SELECT id, status AS was FROM playbook_runs
             WHERE agent_id = '${NO_AGENT}' -- runs assigned to an agent (runsOn) are that agent's
               AND ((status IN ('pending', 'scheduled') AND scheduled_time <= now())
                OR (status = 'running' AND (lease_until IS NULL OR lease_until < now())))
             ORDER BY scheduled_time LIMIT $2 FOR UPDATE SKIP LOCKED) due
       WHERE r.id = due.id RETURNING r.id, due.was`,
      [this.owner, room, this.leases.leaseMs],
    );
    for (const claimed of rows) {
      const work = (claimed.was === 'running' ? this.interrupted(claimed.id) : this.execute(claimed.id, since)).catch(
        (e: unknown) => log.error(`playbook run ${claimed.id}: ${(e as Error).message}`),
      );
      const tracked = work.finally(() => {
        this.inFlight.delete(tracked);
        // A slot is free: look for due runs now rather than at the next poll, so that a queue of
        // triggered runs drains at the pace runs end, not maxConcurrent per poll interval.
        if (this.polling && !this.stopping) void this.pass();
      });
      this.inFlight.add(tracked);
    }
  }

  /** A run left running by a replica that stopped: failed, without repeating what it did. */
  private async interrupted(runId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.query(
        `UPDATE playbook_run_actions SET status = 'failed', error = $2, end_time = now()
         WHERE playbook_run_id = $1 AND status IN ('running', 'sleeping', 'scheduled')`,
        [runId, INTERRUPTED_ERROR],
      );
      await this.finish(tx, runId, 'failed', INTERRUPTED_ERROR);
    });
  }

  /** Ends a run held by this replica and emits its event; nothing when it was cancelled meanwhile. */
  private async finish(tx: Queryable, runId: string, status: 'completed' | 'failed', error: string | null) {
    const { rows } = await tx.query<Record<string, unknown>>(
      `UPDATE playbook_runs SET status = $2, error = $3, end_time = now(), lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND status = 'running' AND lease_owner = $4
       RETURNING id, playbook_id, status, error, config_id, component_id, check_id, created_by`,
      [runId, status, error === null ? null : clip(error), this.owner],
    );
    if (rows[0]) {
      await tx.query('INSERT INTO event_queue (name, properties) VALUES ($1, $2)', [
        `playbook.run.${status}`,
        JSON.stringify(rows[0]),
      ]);
      return;
    }
    // Cancelled while the last action ran: the end is now; the lease is released.
    await tx.query(
      `UPDATE playbook_runs SET end_time = now(), lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND status = 'cancelled' AND lease_owner = $2`,
      [runId, this.owner],
    );
  }

  /** A run stopped by a graceful shutdown: back to the queue (a cancel meanwhile still ends it). */
  private async release(tx: Queryable, runId: string): Promise<void> {
    const { rows } = await tx.query(
      `UPDATE playbook_runs SET status = 'scheduled', scheduled_time = now(), lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
      [runId, this.owner],
    );
    if (!rows[0]) await this.finish(tx, runId, 'failed', INTERRUPTED_ERROR);
  }

  /**
   * One query for every run under way here: a run no longer running (cancelled) or no longer ours
   * (handed back by releaseAll, or taken over after its lease expired) stops at once, without
   * writing over what the run's new holder does (the release path only touches rows still ours).
   */
  private async watch(): Promise<void> {
    const ids = [...this.watched.keys()];
    if (!ids.length) return;
    const { rows } = await this.db.query<{ id: string; status: string; lease_owner: string | null }>(
      `SELECT id, status, lease_owner FROM playbook_runs WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const found = new Map(rows.map((r) => [r.id, r]));
    for (const id of ids) {
      const row = found.get(id);
      const controller = this.watched.get(id);
      if (!controller) continue;
      if (!row || row.lease_owner !== this.owner)
        controller.abort(new RunReleased('this server lost the lease on the run'));
      else if (row.status !== 'running') controller.abort(new RunStopped(CANCELLED_ERROR));
    }
  }

  private startWatching(runId: string, controller: AbortController): void {
    this.watched.set(runId, controller);
    if (this.watchTimer) return;
    this.watchTimer = setInterval(() => {
      this.watch().catch((e: unknown) => log.error(`playbook runs: looking for cancels: ${(e as Error).message}`));
    }, this.heartbeatMs);
    this.watchTimer.unref();
  }

  private stopWatching(runId: string): void {
    this.watched.delete(runId);
    if (this.watched.size === 0) {
      clearInterval(this.watchTimer);
      this.watchTimer = undefined;
    }
  }

  private async execute(runId: string, since: number): Promise<void> {
    const controller = new AbortController();
    this.controllers.add(controller);
    const lease = this.leases.hold('playbook_runs', runId, this.owner, since);
    const onLost = () => controller.abort(new RunReleased('this server lost the lease on the run'));
    lease.signal.addEventListener('abort', onLost, { once: true });
    this.startWatching(runId, controller);
    try {
      let outcome: { status: 'completed' | 'failed'; error: string | null } | typeof RELEASED;
      try {
        outcome = await runActions({ db: this.db, mail: this.mail }, runId, controller.signal);
      } catch (e) {
        // The database failed under the run: end it as failed rather than leave it to the lease.
        outcome = { status: 'failed', error: `the run stopped on an internal error: ${(e as Error).message}` };
      }
      const ended = outcome;
      lease.release();
      await this.db.transaction((tx) =>
        ended === RELEASED ? this.release(tx, runId) : this.finish(tx, runId, ended.status, ended.error),
      );
    } finally {
      lease.release();
      lease.signal.removeEventListener('abort', onLost);
      this.stopWatching(runId);
      this.controllers.delete(controller);
    }
  }
}
