// Topology rows in the database: applying and deleting topologies, the table the scheduler leases,
// and the job-history row of each run. A run's components and links are written by treeStore.ts
// and componentLinks.ts, its inline checks' canaries by inlineChecks.ts, the health roll-up pass by
// healthRecompute.ts.
import type { Database, Queryable } from '../db/database.js';
import { recordJob as recordJobHistory } from '../jobs/history.js';
import type { LeasedTable } from '../jobs/leases.js';
import { applyResourceRow, softDeleteResourceRow, type AppliedResource } from '../resources/apply.js';
import { unlinkComponents } from './componentLinks.js';
import { recomputeHealth } from './healthRecompute.js';
import { removeInlineCanaries } from './inlineChecks.js';
import type { TopologyDefinition } from './topology.js';
import { COMPONENTS_LOCK } from './treeStore.js';

export type AppliedTopology = AppliedResource;

export const applyTopology = (
  db: Database,
  def: TopologyDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedTopology> => applyResourceRow(db, 'topologies', def, opts);

/** Soft-deletes a topology, its components and their links, and deletes its inline checks' canaries. */
export async function deleteTopology(db: Database, id: string): Promise<boolean> {
  const deleted = await db.transaction(async (tx) => {
    const topologyId = await softDeleteResourceRow(tx, 'topologies', id);
    if (!topologyId) return null;
    await tx.query('SELECT pg_advisory_xact_lock($1)', [COMPONENTS_LOCK]);
    const { rows: gone } = await tx.query<{ id: string }>(
      `UPDATE components SET deleted_at = now() WHERE topology_id = $1 AND deleted_at IS NULL RETURNING id`,
      [topologyId],
    );
    await unlinkComponents(
      tx,
      gone.map((g) => g.id),
    );
    return topologyId;
  });
  if (!deleted) return false;
  await removeInlineCanaries(db, deleted, new Set());
  await recomputeHealth(db, { wait: true });
  return true;
}

export interface TopologyRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
  agent_id: string;
  spec: Record<string, unknown>;
  schedule: string;
  next_runtime: Date;
}

/** The scheduler's table: a topology whose schedule no longer parses is tried again in 5 minutes. */
export const TOPOLOGY_TABLE: LeasedTable = {
  table: 'topologies',
  columns: 'id, name, namespace, labels, agent_id, spec, schedule, next_runtime',
  retryMs: 5 * 60_000,
};

// ---------------------------------------------------------------------------------------------
// Job history.

export interface TopologyRunSummary {
  topologyId: string;
  name: string;
  startedAt: Date;
  finishedAt: Date;
  /** FAILED: nothing was built (e.g. the stored spec no longer parses). */
  failed: boolean;
  components: number;
  created: number;
  updated: number;
  deleted: number;
  errors: string[];
}

/** One job-history row per topology run. */
export async function recordJob(db: Queryable, run: TopologyRunSummary, hostname: string): Promise<void> {
  await recordJobHistory(
    db,
    {
      name: 'Topology',
      resourceType: 'topology',
      resourceId: run.topologyId,
      successCount: run.components,
      details: { topology: run.name, created: run.created, updated: run.updated, deleted: run.deleted },
    },
    run,
    hostname,
  );
}
