// The topology engine: claims due topologies from the database (so replicas share the work and none
// runs twice), builds each one's component tree (lookups run by the health engine's checkers),
// writes it, and keeps component health rolled up — after every run and on a periodic pass, so
// check results that change between runs show on the components.
import os from 'node:os';
import type { Database } from '../db/database.js';
import type { Checker } from '../health/checker.js';
import { runStatus } from '../jobs/history.js';
import { LeasedScheduler, type SchedulingOptions } from '../jobs/leasedScheduler.js';
import { ResourceErrors } from '../resources/yaml.js';
import { buildTopology } from './builder.js';
import { recomputeHealth } from './healthRecompute.js';
import { applyInlineChecks, removeInlineCanaries } from './inlineChecks.js';
import { lookupRunner } from './lookup.js';
import { recordJob, TOPOLOGY_TABLE, type TopologyRow, type TopologyRunSummary } from './store.js';
import { parseStoredTopology } from './topology.js';
import { saveTree } from './treeStore.js';

export interface TopologyEngineOptions extends SchedulingOptions {
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

export class TopologyEngine extends LeasedScheduler<TopologyRow, TopologyRunResult> {
  constructor(
    db: Database,
    readonly checkers: ReadonlyMap<string, Checker>,
    options: TopologyEngineOptions = {},
  ) {
    super(
      db,
      {
        name: 'topology',
        rowLabel: 'topology',
        table: TOPOLOGY_TABLE,
        periodic: {
          everyMs: options.recomputeMs ?? 30_000,
          pass: () => recomputeHealth(db),
          label: 'topology health roll-up',
        },
      },
      options,
      { pollMs: 5_000, maxConcurrent: 4 },
    );
  }

  /** Rolls health up now (waiting for a pass under way elsewhere). */
  recompute() {
    return recomputeHealth(this.db, { wait: true });
  }

  /**
   * One run of a topology already leased by this replica: build, write, roll up, record. A lease
   * lost during the build (`signal`) writes nothing: the replica that took it over builds again.
   */
  async run(t: TopologyRow, scheduled: boolean, signal?: AbortSignal): Promise<TopologyRunResult> {
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
      signal?.throwIfAborted();
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
      await this.finish(t, startedAt, scheduled);
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
