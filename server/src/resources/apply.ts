// Applying a scheduled resource (Topology, ScrapeConfig) into its table: one live row per agent,
// namespace and name — inserted, or updated in place with its spec, labels and schedule — and the
// soft delete that also drops the row's scheduler lease.
import type { Database, Queryable } from '../db/database.js';
import { NO_AGENT } from '../db/agents.js';
import type { StoredResource } from './metadata.js';

/** The tables of resources applied this way (the names go into SQL). */
export type ResourceTable = 'topologies' | 'config_scrapers';

export interface AppliedResource {
  id: string;
  created: boolean;
}

export async function applyResourceRow(
  db: Database,
  table: ResourceTable,
  def: StoredResource,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedResource> {
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>(
      `SELECT id FROM ${table} WHERE agent_id = $1 AND namespace = $2 AND name = $3 AND deleted_at IS NULL FOR UPDATE`,
      [NO_AGENT, def.namespace, def.name],
    );
    if (!existing.rows[0]) {
      // A new resource runs at the next scheduler pass.
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO ${table} (name, namespace, labels, spec, source, schedule, created_by, next_runtime)
         VALUES ($1, $2, $3, $4, $5, $6, $7, now()) RETURNING id`,
        [
          def.name,
          def.namespace,
          JSON.stringify(def.labels),
          JSON.stringify(def.resource),
          opts.source ?? 'UI',
          def.schedule,
          opts.createdBy ?? null,
        ],
      );
      return { id: rows[0]!.id, created: true };
    }
    const id = existing.rows[0].id;
    // A changed spec or schedule runs at the next pass; an identical one keeps its schedule.
    await tx.query(
      `UPDATE ${table} SET labels = $2, spec = $3, schedule = $4, updated_at = now(),
         next_runtime = CASE WHEN spec IS DISTINCT FROM $3::jsonb OR schedule IS DISTINCT FROM $4 THEN now() ELSE next_runtime END
       WHERE id = $1`,
      [id, JSON.stringify(def.labels), JSON.stringify(def.resource), def.schedule],
    );
    return { id, created: false };
  });
}

/** Soft-deletes a live row by id (any text; no match for a malformed one); its id, or null when there was none. */
export async function softDeleteResourceRow(db: Queryable, table: ResourceTable, id: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE ${table} SET deleted_at = now(), lease_until = NULL, lease_owner = NULL
     WHERE id::text = $1 AND deleted_at IS NULL RETURNING id`,
    [id],
  );
  return rows[0]?.id ?? null;
}
