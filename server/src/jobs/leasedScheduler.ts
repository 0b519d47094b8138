// The in-process half of a database-leased scheduler, the base of the health, topology and catalog
// engines: a poll loop that claims due rows (up to the free capacity) and runs them, Run Now under
// the same lease, stop() that waits for the runs under way, and an optional periodic pass. An
// engine supplies run(row, scheduled, signal) and ends it with finish(). Leases are short and
// renewed by the replica's heartbeat (heartbeat.ts) while a run is under way; `signal` aborts when
// the lease is lost, and the run then stops without recording. The SQL half is in leases.ts.
//
// Several replicas share the due rows by claiming them (FOR UPDATE SKIP LOCKED), the first to look
// takes them. With `busyGracePolls` (the health engine: a run's lateness is what it is judged by), a
// replica whose event loop was busy since its last look (a long background job, more runs than its
// CPU keeps up with) leaves the others the first go: it claims only rows due for that many of its
// polls, which an idle replica would have taken by then. Alone on its database (no other replica
// alive in `replicas`, jobs/replicas.ts) or on the embedded database (one process) it takes them at
// once; without a replica presence to ask, it assumes others and takes them after the grace.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import type { Database } from '../db/database.js';
import { claimDue, finishRun, releaseAllLeases, tryLease, type LeasedRow, type LeasedTable } from './leases.js';
import { logger } from '../log.js';
import { LeaseHeartbeat, type HeldLease, ownerId } from './heartbeat.js';
import type { ReplicaPresence } from './replicas.js';

const log = logger('scheduler');

/** The event loop's share of busy time since the last look at which a replica counts as busy. */
export const BUSY_UTILIZATION = 0.8;

/** What callers may set; each engine has its own defaults. */
export interface SchedulingOptions {
  /** How often to look for due rows. */
  pollMs?: number;
  /** Rows run at the same time by this replica. */
  maxConcurrent?: number;
  /**
   * How long a claimed row stays with this replica unless renewed (ignored with `leases`, whose
   * lease it is); default 30 s.
   */
  leaseMs?: number;
  /** The replica's lease heartbeat (one for all engines); without it the scheduler keeps its own. */
  leases?: LeaseHeartbeat;
  /** Whether other replicas run on the database (the busy grace is for them); unknown without it. */
  replicas?: Pick<ReplicaPresence, 'others'>;
}

export interface ScheduledJob {
  /** Log prefix: `${name} scheduler: …`. */
  name: string;
  /** What one row is called in logs: `${rowLabel} namespace/name: …`. */
  rowLabel: string;
  table: LeasedTable;
  /** How many polls a busy replica leaves a due row to the other replicas (0 or none: never). */
  busyGracePolls?: number;
  /** A pass repeated every `everyMs` (0: none) while started; counted as in flight. */
  periodic?: { everyMs: number; pass: () => Promise<unknown>; label: string };
}

export abstract class LeasedScheduler<Row extends LeasedRow, Result> {
  readonly owner = ownerId();
  private timer: NodeJS.Timeout | undefined;
  private periodicTimer: NodeJS.Timeout | undefined;
  private inFlight = new Set<Promise<unknown>>();
  private stopping = false;

  private readonly o: ScheduledJob & Required<Omit<SchedulingOptions, 'leases' | 'leaseMs' | 'replicas'>>;
  private readonly replicas: Pick<ReplicaPresence, 'others'> | undefined;
  /** Renews the leases of the runs under way. */
  protected readonly leases: LeaseHeartbeat;
  /** The leases of the runs under way, by row id. */
  private readonly held = new Map<string, HeldLease>();
  /** The event loop's utilization at the last look (loopBusy). */
  private utilization: EventLoopUtilization = performance.eventLoopUtilization();

  constructor(
    protected readonly db: Database,
    job: ScheduledJob,
    options: SchedulingOptions,
    defaults: Required<Omit<SchedulingOptions, 'leases' | 'leaseMs' | 'replicas'>>,
  ) {
    this.o = {
      ...job,
      pollMs: options.pollMs ?? defaults.pollMs,
      maxConcurrent: options.maxConcurrent ?? defaults.maxConcurrent,
    };
    this.leases = options.leases ?? new LeaseHeartbeat(db, { leaseMs: options.leaseMs });
    this.replicas = options.replicas;
  }

  /** How long a lease taken by this replica lasts unless renewed. */
  protected get leaseMs(): number {
    return this.leases.leaseMs;
  }

  /** One run of a row already leased by this replica; it ends with finish(). `signal`: the lease was lost. */
  abstract run(row: Row, scheduled: boolean, signal: AbortSignal): Promise<Result>;

  /** Registers a lease this replica took on a row (by a statement sent at `since`) with the heartbeat. */
  protected hold(id: string, since: number): HeldLease {
    const lease = this.leases.hold(this.o.table.table, id, this.owner, since);
    this.held.set(id, lease);
    return lease;
  }

  /** Stops renewing a row's lease (just before the statement that gives it back). */
  protected unhold(id: string): void {
    this.held.get(id)?.release();
    this.held.delete(id);
  }

  start(): void {
    this.stopping = false;
    const fail = (e: unknown) => log.error(`${this.o.name} scheduler: ${(e as Error).message}`);
    const loop = async () => {
      if (this.stopping) return;
      try {
        await this.tick();
      } catch (e) {
        fail(e);
      }
      if (!this.stopping) this.timer = setTimeout(loop, this.o.pollMs);
    };
    const begin = async () => {
      // One process owns the embedded database: leases left by a previous run are stale.
      if (this.db.kind === 'pglite') await releaseAllLeases(this.db, this.o.table).catch(fail);
      await loop();
    };
    this.timer = setTimeout(() => void begin(), 0);
    const periodic = this.o.periodic;
    if (periodic && periodic.everyMs > 0) {
      const repeat = () => {
        if (this.stopping) return;
        const pass = periodic
          .pass()
          .catch((e: unknown) => log.error(`${periodic.label}: ${(e as Error).message}`))
          .finally(() => {
            this.inFlight.delete(pass);
            if (!this.stopping) this.periodicTimer = setTimeout(repeat, periodic.everyMs);
          });
        this.inFlight.add(pass);
      };
      this.periodicTimer = setTimeout(repeat, periodic.everyMs);
    }
  }

  /** Stops claiming work and waits for the runs under way to finish and record. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    clearTimeout(this.periodicTimer);
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Whether this process's event loop was busy for BUSY_UTILIZATION of the time since the last
   * look (its utilization: the share of the time it was not waiting for I/O or timers). A look
   * less than a poll after the last one (a tick right after start) says nothing yet: not busy.
   */
  protected loopBusy(): boolean {
    const now = performance.eventLoopUtilization();
    const since = performance.eventLoopUtilization(now, this.utilization);
    if (since.idle + since.active < this.o.pollMs) return false;
    this.utilization = now;
    return since.utilization >= BUSY_UTILIZATION;
  }

  /**
   * Whether a busy look should leave due rows to other replicas: this job has a grace, the database
   * is not the embedded one (one process), and other replicas are alive (or that is unknown).
   */
  private othersMayTake(): boolean {
    return (this.o.busyGracePolls ?? 0) > 0 && this.db.kind !== 'pglite' && (this.replicas?.others ?? true);
  }

  /** Claims what is due (up to the free capacity) and starts it; returns how many were started. */
  async tick(): Promise<number> {
    const free = this.o.maxConcurrent - this.inFlight.size;
    if (free <= 0) return 0;
    const since = Date.now();
    const overdueMs = this.othersMayTake() && this.loopBusy() ? (this.o.busyGracePolls ?? 0) * this.o.pollMs : 0;
    const due = await claimDue<Row>(this.db, this.o.table, this.owner, free, this.leaseMs, overdueMs);
    for (const row of due) {
      const { signal } = this.hold(row.id, since);
      const run = this.run(row, true, signal)
        .catch((e: unknown) => log.error(`${this.o.rowLabel} ${row.namespace}/${row.name}: ${(e as Error).message}`))
        .finally(() => {
          this.unhold(row.id);
          this.inFlight.delete(run);
        });
      this.inFlight.add(run);
    }
    return due.length;
  }

  /** Runs a row now (Run Now); refused while a run of it is under way. */
  async runNow(id: string): Promise<Result | 'busy' | 'not-found'> {
    const since = Date.now();
    const leased = await tryLease<Row>(this.db, this.o.table, id, this.owner, this.leaseMs);
    if (typeof leased === 'string') return leased;
    const { signal } = this.hold(leased.id, since);
    try {
      return await this.run(leased, false, signal);
    } finally {
      this.unhold(leased.id);
    }
  }

  /**
   * Ends a run of this replica: releases the lease; a scheduled run also moves next_runtime along.
   * A run whose lease was lost changes nothing (the statement names this replica as the owner).
   */
  protected finish(row: Row, startedAt: Date, scheduled: boolean): Promise<void> {
    this.unhold(row.id);
    return finishRun(this.db, this.o.table, row, this.owner, startedAt, scheduled);
  }
}
