// The topology engine: claims due topologies from the database (so replicas share the work and none
// runs twice), builds each one's component tree (lookups run by the health engine's checkers),
// writes it, and keeps component health rolled up — after every run and on a periodic pass, so
// check results that change between runs show on the components.
import os from 'node:os';
import type { Database } from '../db/database.js';
import type { Checker } from '../health/checker.js';
import { ResourceErrors } from '../resources/yaml.js';
import { buildTopology } from './builder.js';
import { lookupRunner } from './lookup.js';
import {
  applyInlineChecks,
  claimDue,
  finishRun,
  recomputeHealth,
  recordJob,
  removeInlineCanaries,
  runStatus,
  saveTree,
  tryLease,
  type TopologyRow,
  type TopologyRunSummary,
} from './store.js';
import { parseStoredTopology } from './topology.js';

export interface TopologyEngineOptions {
  /** How often to look for due topologies. */
  pollMs?: number;
  /** Topologies run at the same time by this replica. */
  maxConcurrent?: number;
  /** How long a claimed topology stays with this replica before another may take it. */
  leaseMs?: number;
  /** How often health is rolled up from the checks (0: only after runs). */
  recomputeMs?: number;
}

export interface TopologyRunResult {
  topologyId: string;
  status: 'SUCCESS' | 'WARNING' | 'FAILED';
  components: number;
  created: number;
  updated: number;
  deleted: number;
  errors: string[];
  durationMs: number;
}

export class TopologyEngine {
  readonly owner = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private timer: NodeJS.Timeout | undefined;
  private recomputeTimer: NodeJS.Timeout | undefined;
  private inFlight = new Set<Promise<unknown>>();
  private stopping = false;
  private readonly pollMs: number;
  private readonly maxConcurrent: number;
  private readonly leaseMs: number;
  private readonly recomputeMs: number;

  constructor(
    private readonly db: Database,
    readonly checkers: ReadonlyMap<string, Checker>,
    options: TopologyEngineOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 5_000;
    this.maxConcurrent = options.maxConcurrent ?? 4;
    this.leaseMs = options.leaseMs ?? 10 * 60_000;
    this.recomputeMs = options.recomputeMs ?? 30_000;
  }

  start(): void {
    this.stopping = false;
    const loop = async () => {
      if (this.stopping) return;
      try {
        await this.tick();
      } catch (e) {
        console.error('topology scheduler:', (e as Error).message);
      }
      if (!this.stopping) this.timer = setTimeout(loop, this.pollMs);
    };
    const begin = async () => {
      // One process owns the embedded database: leases left by a previous run are stale.
      if (this.db.kind === 'pglite') {
        await this.db
          .query('UPDATE topologies SET lease_until = NULL, lease_owner = NULL WHERE lease_until IS NOT NULL')
          .catch((e: unknown) => console.error('topology scheduler:', (e as Error).message));
      }
      await loop();
    };
    this.timer = setTimeout(() => void begin(), 0);
    if (this.recomputeMs > 0) {
      const recompute = () => {
        if (this.stopping) return;
        const pass = recomputeHealth(this.db)
          .catch((e: unknown) => console.error('topology health roll-up:', (e as Error).message))
          .finally(() => {
            this.inFlight.delete(pass);
            if (!this.stopping) this.recomputeTimer = setTimeout(recompute, this.recomputeMs);
          });
        this.inFlight.add(pass);
      };
      this.recomputeTimer = setTimeout(recompute, this.recomputeMs);
    }
  }

  /** Stops claiming work and waits for the runs under way to finish and record. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    clearTimeout(this.recomputeTimer);
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims what is due (up to the free capacity) and starts it; returns how many were started. */
  async tick(): Promise<number> {
    const free = this.maxConcurrent - this.inFlight.size;
    if (free <= 0) return 0;
    const due = await claimDue(this.db, this.owner, free, this.leaseMs);
    for (const t of due) {
      const run = this.run(t, true)
        .catch((e: unknown) => console.error(`topology ${t.namespace}/${t.name}:`, (e as Error).message))
        .finally(() => this.inFlight.delete(run));
      this.inFlight.add(run);
    }
    return due.length;
  }

  /** Runs a topology now (Run Now); refused while a run of it is under way. */
  async runNow(id: string): Promise<TopologyRunResult | 'busy' | 'not-found'> {
    const leased = await tryLease(this.db, id, this.owner, this.leaseMs);
    if (typeof leased === 'string') return leased;
    return this.run(leased, false);
  }

  /** Rolls health up now (waiting for a pass under way elsewhere). */
  recompute() {
    return recomputeHealth(this.db, { wait: true });
  }

  /** One run of a topology already leased by this replica: build, write, roll up, record. */
  async run(t: TopologyRow, scheduled: boolean): Promise<TopologyRunResult> {
    const startedAt = new Date();
    const summary: TopologyRunSummary = {
      topologyId: t.id,
      name: `${t.namespace}/${t.name}`,
      startedAt,
      finishedAt: startedAt,
      failed: false,
      components: 0,
      created: 0,
      updated: 0,
      deleted: 0,
      errors: [],
    };
    try {
      const def = parseStoredTopology(t.spec, this.checkers);
      const topology = { id: t.id, name: t.name, namespace: t.namespace, labels: t.labels };
      const built = await buildTopology(def, {
        topology,
        lookup: lookupRunner(this.db, this.checkers, topology),
      });
      summary.errors.push(...built.errors);
      const inline = await applyInlineChecks(this.db, this.checkers, topology, built.root);
      summary.errors.push(...inline.errors);
      const saved = await saveTree(this.db, t, built, inline);
      summary.errors.push(...saved.errors);
      Object.assign(summary, {
        components: saved.components,
        created: saved.created,
        updated: saved.updated,
        deleted: saved.deleted,
      });
      if (!built.incomplete) await removeInlineCanaries(this.db, t.id, inline.names);
      await recomputeHealth(this.db, { wait: true });
    } catch (e) {
      summary.failed = true;
      summary.errors.push(
        e instanceof ResourceErrors ? `the stored spec is not valid: ${e.message}` : (e as Error).message,
      );
    } finally {
      summary.finishedAt = new Date();
      await finishRun(this.db, t, this.owner, startedAt, scheduled);
      await recordJob(this.db, summary, os.hostname());
    }
    return {
      topologyId: t.id,
      status: runStatus(summary),
      components: summary.components,
      created: summary.created,
      updated: summary.updated,
      deleted: summary.deleted,
      errors: summary.errors,
      durationMs: summary.finishedAt.getTime() - startedAt.getTime(),
    };
  }
}
