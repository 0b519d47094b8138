// The health engine: claims due canaries from the database (so replicas share the work and none runs
// twice), runs their checks, records the results and schedules the next run.
import os from 'node:os';
import type { Database } from '../db/database.js';
import { LeasedScheduler } from '../jobs/leasedScheduler.js';
import type { LeaseHeartbeat } from '../jobs/heartbeat.js';
import { releaseLease, tryLease } from '../jobs/leases.js';
import type { Checker } from './checker.js';
import { DependencyGate, dependsOnOf } from './dependsOn.js';
import { runCheck, type CanaryRow, type CheckRow, type RunOutcome } from './runner.js';
import { SummaryRefresher } from './summary.js';
import { SummaryViews } from './summaryViews.js';
import { afterEdit, CANARY_TABLE, healthEdits, planChecks, recordJob, type DueCanary } from './store.js';
import { ResultBatcher } from './resultBatcher.js';
import { beginForeground } from '../jobs/slices.js';
import type { ReplicaPresence } from '../jobs/replicas.js';

export interface HealthEngineOptions {
  /**
   * How often to look for due canaries (250 ms: a due run waits at most that long for the next look,
   * a quarter of a second out of the 2 s lateness budget, for one indexed claim query per look).
   */
  pollMs?: number;
  /** Canaries run at the same time by this replica. */
  maxConcurrentCanaries?: number;
  /** Checks of one canary run at the same time. */
  maxConcurrentChecks?: number;
  /** How long a claimed canary stays with this replica unless renewed (ignored with `leases`). */
  leaseMs?: number;
  /** The replica's lease heartbeat (one for all engines); without it the engine keeps its own. */
  leases?: LeaseHeartbeat;
  /** The replica's presence: a busy replica leaves due canaries to the others only when there are others. */
  replicas?: Pick<ReplicaPresence, 'others'>;
}

export interface CheckRunResult {
  checkId: string;
  pass: boolean;
  invalid: boolean;
  durationMs: number;
  message: string | null;
  error: string | null;
}

/** Runs tasks with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!);
  });
  await Promise.all(workers);
}

export class HealthEngine extends LeasedScheduler<DueCanary, void> {
  private readonly maxChecks: number;
  /** Results finishing together are recorded in one transaction (resultBatcher.ts). */
  private readonly results: ResultBatcher;
  /** Keeps the summary's precomputed ranges fresh while the engine runs. */
  private readonly summaries: SummaryRefresher;
  /**
   * The summary answers this replica serves, kept up to date while someone asks for them (on every
   * replica, engines or not: close them with closeSummaryViews).
   */
  readonly summaryViews: SummaryViews;
  /** Told of every result this replica records (the /metrics histograms), after it is stored. */
  onResult: ((check: CheckRow, canary: CanaryRow, result: RunOutcome['result']) => void) | undefined;

  constructor(
    db: Database,
    readonly checkers: ReadonlyMap<string, Checker>,
    options: HealthEngineOptions = {},
  ) {
    super(
      db,
      // A replica that is busy leaves due canaries to idle ones for two polls (leasedScheduler.ts).
      { name: 'health', rowLabel: 'canary', table: CANARY_TABLE, busyGracePolls: 2 },
      {
        pollMs: options.pollMs,
        maxConcurrent: options.maxConcurrentCanaries,
        leaseMs: options.leaseMs,
        leases: options.leases,
        replicas: options.replicas,
      },
      { pollMs: 250, maxConcurrent: 32 },
    );
    this.maxChecks = options.maxConcurrentChecks ?? 8;
    this.results = new ResultBatcher(db);
    this.summaryViews = new SummaryViews(db, healthEdits);
    // After a refresh here, the views of that range are rebuilt ahead of the next request.
    this.summaries = new SummaryRefresher(db, (range) => this.summaryViews.refreshed(range));
  }

  override start(): void {
    super.start();
    this.summaries.start();
  }

  /** Stops claiming work and waits for the runs under way to finish and record. */
  override async stop(): Promise<void> {
    await Promise.allSettled([super.stop(), this.summaries.stop()]);
  }

  /** Stops keeping the summary views up to date (when the server closes). */
  async closeSummaryViews(): Promise<void> {
    await this.summaryViews.close();
  }

  /**
   * One run of a canary leased by this replica: every check, then the next run planned. Foreground
   * work: background loops (the edge job, summary refreshes) give way to it (jobs/slices.ts).
   */
  run(canary: DueCanary, scheduled: boolean, signal: AbortSignal): Promise<void> {
    const end = beginForeground();
    return this.runCanary(canary, scheduled, signal).finally(end);
  }

  private async checksOf(canaryId: string): Promise<CheckRow[]> {
    const { rows } = await this.db.query<CheckRow>(
      `SELECT id, canary_id, type, name, spec FROM checks WHERE canary_id = $1 AND deleted_at IS NULL AND transformed_by IS NULL ORDER BY type, name`,
      [canaryId],
    );
    return rows;
  }

  /**
   * Runs one check and hands its result to the batcher: `recorded` settles once it is committed.
   * Undefined (nothing recorded) when the lease was lost meanwhile.
   */
  private async runOne(
    check: CheckRow,
    canary: CanaryRow,
    at: Date,
    signal?: AbortSignal,
  ): Promise<{ outcome: RunOutcome; recorded: Promise<void> } | undefined> {
    const checker = this.checkers.get(check.type);
    const outcome: RunOutcome = checker
      ? await runCheck(checker, check, canary, this.db)
      : {
          result: {
            pass: false,
            invalid: true,
            durationMs: 0,
            message: null,
            error: `check type "${check.type}" is not supported by this server`,
            details: null,
          },
          transformed: [],
        };
    if (signal?.aborted) return undefined;
    const recorded = this.store(check, canary, outcome, at);
    // Handled here, awaited later (a refusal before then must not be an unhandled rejection).
    recorded.catch(() => undefined);
    return { outcome, recorded };
  }

  /** Records a check's result, and those of the checks its transform made. */
  private async store(check: CheckRow, canary: CanaryRow, outcome: RunOutcome, at: Date): Promise<void> {
    await this.results.record(check.id, outcome.result, at);
    this.onResult?.(check, canary, outcome.result);
    for (const t of outcome.transformed) {
      const { rows } = await this.db.query<{ id: string }>(
        `INSERT INTO checks (canary_id, type, name, namespace, description, labels, transformed_by, spec)
         VALUES ($1, $2, $3, $4, $5, $6, $7, '{}')
         ON CONFLICT (canary_id, type, name) WHERE deleted_at IS NULL DO UPDATE SET
           description = coalesce(EXCLUDED.description, checks.description), labels = EXCLUDED.labels, updated_at = now()
         RETURNING id`,
        [
          check.canary_id,
          check.type,
          t.name,
          canary.namespace,
          t.description ?? null,
          JSON.stringify(t.labels ?? {}),
          check.id,
        ],
      );
      await this.results.record(rows[0]!.id, t, at);
    }
  }

  private async runCanary(canary: DueCanary, scheduled: boolean, signal: AbortSignal): Promise<void> {
    const startedAt = new Date();
    let passed = 0;
    let failed = 0;
    const errors: string[] = [];
    // A check's next one starts while its result is being committed; the run ends once all are.
    const recorded: Promise<void>[] = [];
    try {
      // dependsOn: a check runs after the checks it names (dependsOn.ts), which read their
      // results from the database: a check others depend on finishes once its result is committed.
      const checks = await this.checksOf(canary.id);
      const gate = new DependencyGate(checks);
      const dependedOn = new Set(checks.flatMap((c) => dependsOnOf(c.spec)));
      let poolError: unknown;
      await pool(gate.ordered, this.maxChecks, async (check) => {
        // Lease lost (this replica stalled past it, another took the canary over): stop here.
        if (signal.aborted) return gate.run(check, async () => undefined);
        const ran = await gate.run(check, async () => {
          const r = await this.runOne(check, canary, new Date(), signal);
          if (r && dependedOn.has(check.name)) await r.recorded;
          return r;
        });
        if (!ran) return;
        recorded.push(ran.recorded);
        const { result } = ran.outcome;
        if (result.pass) passed++;
        else {
          failed++;
          errors.push(`${check.type}/${check.name}: ${result.error ?? 'failed'}`);
        }
      }).catch((e: unknown) => {
        poolError = e;
      });
      const refused = (await Promise.allSettled(recorded)).find((r) => r.status === 'rejected');
      if (poolError) throw poolError;
      if (refused) {
        errors.push(`results not recorded: ${(refused.reason as Error).message}`);
        throw refused.reason;
      }
    } finally {
      if (signal.aborted) errors.push(`stopped: ${(signal.reason as Error).message}`);
      await this.finish(canary, startedAt, scheduled);
      if (!signal.aborted) await planChecks(this.db, canary.id);
      await recordJob(
        this.db,
        {
          canaryId: canary.id,
          name: `${canary.namespace}/${canary.name}`,
          startedAt,
          finishedAt: new Date(),
          passed,
          failed,
          errors,
        },
        os.hostname(),
      );
    }
  }

  /**
   * Runs one check now, outside its schedule. Refused ('busy') while its canary is being run, so
   * the same check never runs twice at once. An edit: the summary served next includes it.
   */
  runCheckNow(checkId: string): Promise<CheckRunResult | 'busy' | 'not-found'> {
    return afterEdit(this.runCheckNowUnnoted(checkId));
  }

  private async runCheckNowUnnoted(checkId: string): Promise<CheckRunResult | 'busy' | 'not-found'> {
    const { rows } = await this.db.query<
      CheckRow & { canary_name: string; namespace: string; labels: Record<string, string> }
    >(
      `SELECT c.id, c.canary_id, c.type, c.name, c.spec, ca.name AS canary_name, ca.namespace, ca.labels
       FROM checks c JOIN canaries ca ON ca.id = c.canary_id
       WHERE c.id::text = $1 AND c.deleted_at IS NULL AND ca.deleted_at IS NULL AND c.transformed_by IS NULL`,
      [checkId],
    );
    const row = rows[0];
    if (!row) return 'not-found';
    const since = Date.now();
    const leased = await tryLease<DueCanary>(this.db, CANARY_TABLE, row.canary_id, this.owner, this.leaseMs);
    if (typeof leased === 'string') return leased;
    const { signal } = this.hold(row.canary_id, since);
    try {
      const ran = await this.runOne(
        row,
        { id: row.canary_id, name: row.canary_name, namespace: row.namespace, labels: row.labels },
        new Date(),
        signal,
      );
      if (!ran) return 'busy'; // the lease was lost: another replica runs the canary now
      await ran.recorded;
      const { result } = ran.outcome;
      return {
        checkId: row.id,
        pass: result.pass,
        invalid: result.invalid,
        durationMs: Math.round(result.durationMs),
        message: result.message,
        error: result.error,
      };
    } finally {
      this.unhold(row.canary_id);
      await releaseLease(this.db, CANARY_TABLE, row.canary_id, this.owner);
    }
  }
}
