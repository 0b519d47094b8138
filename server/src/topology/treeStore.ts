// Writing a run's component tree: stable ids, rows inserted, updated in place or soft-deleted, in
// one transaction with the run's links (componentLinks.ts).
import crypto from 'node:crypto';
import type { Database } from '../db/database.js';
import type { BuildResult } from './builder.js';
import type { BuiltComponent } from './builtComponent.js';
import { syncCheckLinks, syncComponentLinks, syncConfigLinks, syncTeams, unlinkComponents } from './componentLinks.js';
import { planComponents, type ExistingComponent, type PlannedComponent } from './identity.js';
import type { InlineLinks } from './inlineChecks.js';

/** Components, links and the roll-up are written by one transaction at a time (all replicas). */
export const COMPONENTS_LOCK = 7253007;

export interface SaveResult {
  components: number;
  created: number;
  updated: number;
  deleted: number;
  ids: Map<BuiltComponent, string>;
  errors: string[];
}

const COMPONENT_RECORD = `id uuid, parent_id uuid, external_id text, name text, text text, tooltip text, type text,
  icon text, labels jsonb, properties jsonb, own_health text, status text, status_reason text, path text,
  is_leaf boolean, owner text, hidden boolean, configs jsonb, selectors jsonb, log_selectors jsonb`;

function componentRecord(r: PlannedComponent) {
  const n = r.node;
  return {
    id: r.id,
    parent_id: r.parentId,
    external_id: n.externalId,
    name: n.name,
    text: n.text,
    tooltip: n.tooltip,
    type: n.type,
    icon: n.icon,
    labels: n.labels,
    properties: n.properties,
    own_health: n.ownHealth,
    status: n.status,
    status_reason: n.statusReason,
    path: r.path,
    is_leaf: r.isLeaf,
    owner: n.owner,
    hidden: n.hidden,
    configs: n.configs.length ? n.configs.map((s) => s.selector) : null,
    selectors: n.selectors.length ? n.selectors.map((s) => s.selector) : null,
    log_selectors: n.logs.length ? n.logs : null,
  };
}

/**
 * Writes one run's tree in one transaction: same identity → same id, updated in place; rows no
 * longer produced are soft-deleted (unless the run was incomplete); links are brought in line with
 * the spec, leaving links made by hand ('manual') alone.
 */
export async function saveTree(
  db: Database,
  topology: { id: string; agent_id: string },
  build: BuildResult,
  inline: InlineLinks,
): Promise<SaveResult> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [COMPONENTS_LOCK]);
    const errors: string[] = [];
    const { rows: existing } = await tx.query<ExistingComponent>(
      `SELECT id, path, name, type, deleted_at FROM components WHERE topology_id = $1`,
      [topology.id],
    );
    const plan = planComponents(build.root, existing, () => crypto.randomUUID());
    const stale = build.incomplete ? [] : plan.stale;
    if (build.incomplete && plan.stale.length) {
      // Children kept because a lookup failed still make their parent a non-leaf.
      const keptIds = new Set(plan.stale);
      const parents = new Set(existing.filter((r) => keptIds.has(r.id)).map((r) => r.path.split('.').pop()));
      for (const r of plan.rows) if (parents.has(r.id)) r.isLeaf = false;
    }
    if (stale.length) {
      await tx.query(
        `UPDATE components SET deleted_at = now(), updated_at = now() WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL`,
        [stale],
      );
      await unlinkComponents(tx, stale);
    }
    const fresh = plan.rows.filter((r) => r.state === 'new');
    const kept = plan.rows.filter((r) => r.state === 'existing');
    if (fresh.length) {
      await tx.query(
        `INSERT INTO components (id, topology_id, agent_id, parent_id, external_id, name, text, tooltip, type, icon, labels,
           properties, own_health, health, status, status_reason, path, is_leaf, owner, hidden, configs, selectors,
           log_selectors)
         SELECT r.id, $1, $2, r.parent_id, r.external_id, r.name, r.text, r.tooltip, r.type, r.icon, r.labels,
           r.properties, r.own_health, coalesce(r.own_health, 'unknown'), r.status, r.status_reason, r.path, r.is_leaf,
           r.owner, r.hidden, r.configs, r.selectors, r.log_selectors
         FROM jsonb_to_recordset($3::jsonb) AS r(${COMPONENT_RECORD})`,
        [topology.id, topology.agent_id, JSON.stringify(fresh.map(componentRecord))],
      );
    }
    let updated = 0;
    if (kept.length) {
      const result = await tx.query(
        `UPDATE components c SET parent_id = r.parent_id, external_id = r.external_id, name = r.name, text = r.text,
           tooltip = r.tooltip, type = r.type, icon = r.icon, labels = r.labels, properties = r.properties,
           own_health = r.own_health, status = r.status, status_reason = r.status_reason, path = r.path,
           is_leaf = r.is_leaf, owner = r.owner, hidden = r.hidden, configs = r.configs, selectors = r.selectors,
           log_selectors = r.log_selectors, agent_id = $2, deleted_at = NULL, updated_at = now()
         FROM jsonb_to_recordset($3::jsonb) AS r(${COMPONENT_RECORD})
         WHERE c.id = r.id AND c.topology_id = $1 AND (c.deleted_at IS NOT NULL OR
           (c.parent_id, c.external_id, c.name, c.text, c.tooltip, c.type, c.icon, c.labels, c.properties, c.own_health,
            c.status, c.status_reason, c.path, c.is_leaf, c.owner, c.hidden, c.configs, c.selectors, c.log_selectors,
            c.agent_id)
           IS DISTINCT FROM
           (r.parent_id, r.external_id, r.name, r.text, r.tooltip, r.type, r.icon, r.labels, r.properties, r.own_health,
            r.status, r.status_reason, r.path, r.is_leaf, r.owner, r.hidden, r.configs, r.selectors, r.log_selectors,
            $2::uuid))`,
        [topology.id, topology.agent_id, JSON.stringify(kept.map(componentRecord))],
      );
      updated = result.affectedRows ?? 0;
    }

    const ids = new Map(plan.rows.map((r) => [r.node, r.id]));
    const scope = [...plan.rows.map((r) => r.id)];
    await syncCheckLinks(tx, plan.rows, inline, scope, errors);
    await syncConfigLinks(tx, plan.rows, scope);
    await syncTeams(tx, topology.id, plan.rows, scope, errors);
    await syncComponentLinks(tx, plan.rows, scope, errors);
    return {
      components: plan.rows.length,
      created: fresh.length,
      updated,
      deleted: stale.length,
      ids,
      errors,
    };
  });
}
