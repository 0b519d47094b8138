// Topology data in the database: applying topologies, the table the scheduler leases, writing a run's component
// tree (stable ids, soft deletes) and its links to checks, configs, teams and other components,
// the canaries of inline checks, and the health roll-up pass.
import crypto from 'node:crypto';
import { CANARY_API_VERSION, parseCanary } from '../health/canary.js';
import type { Checker } from '../health/checker.js';
import { applyCanary, deleteCanary } from '../health/store.js';
import { NO_AGENT } from '../db/agents.js';
import type { Database, Queryable } from '../db/database.js';
import { recordJob as recordJobHistory } from '../jobs/history.js';
import type { LeasedTable } from '../jobs/leases.js';
import { applyResourceRow, softDeleteResourceRow, type AppliedResource } from '../resources/apply.js';
import { ResourceErrors } from '../resources/yaml.js';
import type { BuildResult, BuiltComponent } from './builder.js';
import { planComponents, type ExistingComponent, type PlannedComponent } from './identity.js';
import { componentHealthEvents, HEALTHS, rollupTree, type ComponentSummary, type Health } from './rollup.js';
import {
  canonicalJson,
  globToLike,
  matchesLabels,
  parseLabelSelector,
  requiredLabels,
  stringList,
  type LabelRequirement,
} from './selectors.js';
import type { ResourceSelectorSpec, TopologyDefinition } from './topology.js';

/** Components, links and the roll-up are written by one transaction at a time (all replicas). */
const COMPONENTS_LOCK = 7253007;
/** A selector links at most this many checks or components. */
export const MAX_SELECTED = 1000;

/** What a topology creates is marked with this: its inline checks' canaries (`source`), its team links (`selector_id`). */
export const topologySource = (topologyId: string) => `topology:${topologyId}`;

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

/** Every link of components that are gone (soft-deleted, or removed for team links). */
async function unlinkComponents(tx: Queryable, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await tx.query(
    `UPDATE check_component_relationships SET deleted_at = now() WHERE component_id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [ids],
  );
  await tx.query(
    `UPDATE config_component_relationships SET deleted_at = now(), updated_at = now()
     WHERE component_id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [ids],
  );
  await tx.query(
    `UPDATE component_relationships SET deleted_at = now()
     WHERE (component_id = ANY($1::uuid[]) OR relationship_id = ANY($1::uuid[])) AND deleted_at IS NULL`,
    [ids],
  );
  await tx.query(`DELETE FROM team_components WHERE component_id = ANY($1::uuid[])`, [ids]);
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
// Inline checks: one canary each, owned by the topology (canaries.source).

export interface InlineLinks {
  /** By the inline check's selector id: its canary and that canary's checks. */
  links: Map<string, { canaryId: string; checkIds: string[] }>;
  names: Set<string>;
  errors: string[];
}

function walk(root: BuiltComponent, fn: (c: BuiltComponent) => void) {
  const stack = [root];
  while (stack.length) {
    const c = stack.pop()!;
    fn(c);
    stack.push(...c.children);
  }
}

/** Creates or updates the canary of every inline check, so the health engine runs them. */
export async function applyInlineChecks(
  db: Database,
  checkers: ReadonlyMap<string, Checker>,
  topology: { id: string; namespace: string },
  root: BuiltComponent,
): Promise<InlineLinks> {
  const out: InlineLinks = { links: new Map(), names: new Set(), errors: [] };
  const source = topologySource(topology.id);
  const inline: BuiltComponent['inlineChecks'] = [];
  walk(root, (c) => inline.push(...c.inlineChecks));
  for (const check of inline) {
    out.names.add(check.canaryName);
    try {
      const def = parseCanary(
        {
          data: {
            apiVersion: CANARY_API_VERSION,
            kind: 'Canary',
            metadata: { name: check.canaryName, namespace: topology.namespace },
            spec: check.spec,
          },
          locate: () => undefined,
        },
        checkers,
      );
      const { rows } = await db.query<{ id: string; source: string; spec: unknown }>(
        `SELECT id, source, spec FROM canaries WHERE agent_id = $1 AND namespace = $2 AND name = $3 AND deleted_at IS NULL`,
        [NO_AGENT, topology.namespace, check.canaryName],
      );
      const existing = rows[0];
      if (existing && existing.source !== source) {
        out.errors.push(
          `inline check "${check.canaryName}": a canary ${topology.namespace}/${check.canaryName} already exists and was not created by this topology`,
        );
        continue;
      }
      const canaryId =
        existing && canonicalJson(existing.spec) === canonicalJson(def.resource)
          ? existing.id
          : (await applyCanary(db, def, { source })).id;
      const checks = await db.query<{ id: string }>(
        `SELECT id FROM checks WHERE canary_id = $1 AND deleted_at IS NULL ORDER BY type, name`,
        [canaryId],
      );
      out.links.set(check.selectorId, { canaryId, checkIds: checks.rows.map((r) => r.id) });
    } catch (e) {
      const message = e instanceof ResourceErrors ? e.errors.map((x) => x.message).join('; ') : (e as Error).message;
      out.errors.push(`inline check "${check.canaryName}": ${message}`);
    }
  }
  return out;
}

/** Deletes the topology's inline-check canaries not in `keep` (their history stays). */
export async function removeInlineCanaries(db: Database, topologyId: string, keep: Set<string>): Promise<number> {
  const { rows } = await db.query<{ id: string; name: string }>(
    `SELECT id, name FROM canaries WHERE source = $1 AND deleted_at IS NULL`,
    [topologySource(topologyId)],
  );
  let removed = 0;
  for (const r of rows) {
    if (keep.has(r.name)) continue;
    if (await deleteCanary(db, r.id)) removed++;
  }
  return removed;
}

// ---------------------------------------------------------------------------------------------
// Writing a run's tree.

export interface SaveResult {
  components: number;
  created: number;
  updated: number;
  deleted: number;
  ids: Map<BuiltComponent, string>;
  errors: string[];
}

interface SelectedRow {
  id: string;
  labels: Record<string, string>;
}

function requirementsOf(selector: ResourceSelectorSpec): LabelRequirement[] {
  return typeof selector.labelSelector === 'string' && selector.labelSelector.trim()
    ? parseLabelSelector(selector.labelSelector)
    : [];
}

async function selectChecks(
  tx: Queryable,
  selector: ResourceSelectorSpec,
): Promise<{ id: string; canary_id: string }[]> {
  const requirements = requirementsOf(selector);
  const types = stringList(selector.types ?? selector.type);
  const { rows } = await tx.query<SelectedRow & { canary_id: string }>(
    `SELECT c.id, c.canary_id, ca.labels || c.labels AS labels
     FROM checks c JOIN canaries ca ON ca.id = c.canary_id
     WHERE c.deleted_at IS NULL AND ca.deleted_at IS NULL
       AND ($1::text IS NULL OR c.id::text = $1)
       AND ($2::text IS NULL OR c.name LIKE $2 ESCAPE '\\')
       AND ($3::text IS NULL OR c.namespace = $3)
       AND (cardinality($4::text[]) = 0 OR c.type = ANY($4::text[]))
       AND ($5::jsonb IS NULL OR (ca.labels || c.labels) @> $5::jsonb)
     ORDER BY c.id`,
    [
      selector.id ?? null,
      selector.name ? globToLike(selector.name) : null,
      selector.namespace ?? null,
      types,
      requiredLabels(requirements) && JSON.stringify(requiredLabels(requirements)),
    ],
  );
  return rows.filter((r) => matchesLabels(r.labels, requirements)).slice(0, MAX_SELECTED);
}

async function selectComponents(tx: Queryable, selector: ResourceSelectorSpec): Promise<string[]> {
  const requirements = requirementsOf(selector);
  const types = stringList(selector.types ?? selector.type);
  const { rows } = await tx.query<SelectedRow>(
    `SELECT id, labels FROM components
     WHERE deleted_at IS NULL
       AND ($1::text IS NULL OR id::text = $1)
       AND ($2::text IS NULL OR name LIKE $2 ESCAPE '\\')
       AND ($3::text IS NULL OR labels->>'namespace' = $3)
       AND (cardinality($4::text[]) = 0 OR type = ANY($4::text[]))
       AND ($5::jsonb IS NULL OR labels @> $5::jsonb)
     ORDER BY id`,
    [
      selector.id ?? null,
      selector.name ? globToLike(selector.name) : null,
      selector.namespace ?? null,
      types,
      requiredLabels(requirements) && JSON.stringify(requiredLabels(requirements)),
    ],
  );
  return rows
    .filter((r) => matchesLabels(r.labels, requirements))
    .slice(0, MAX_SELECTED)
    .map((r) => r.id);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

async function syncCheckLinks(
  tx: Queryable,
  rows: PlannedComponent[],
  inline: InlineLinks,
  scope: string[],
  errors: string[],
): Promise<void> {
  const desired: { component_id: string; check_id: string; canary_id: string; selector_id: string }[] = [];
  const cache = new Map<string, { id: string; canary_id: string }[]>();
  for (const r of rows) {
    for (const s of r.node.checkSelectors) {
      let found = cache.get(s.id);
      if (!found) {
        try {
          found = await selectChecks(tx, s.selector);
        } catch (e) {
          errors.push(`${r.node.name}: check selector ${JSON.stringify(s.selector)}: ${(e as Error).message}`);
          found = [];
        }
        cache.set(s.id, found);
      }
      for (const c of found)
        desired.push({ component_id: r.id, check_id: c.id, canary_id: c.canary_id, selector_id: s.id });
    }
    for (const check of r.node.inlineChecks) {
      const link = inline.links.get(check.selectorId);
      if (!link) continue;
      for (const checkId of link.checkIds)
        desired.push({
          component_id: r.id,
          check_id: checkId,
          canary_id: link.canaryId,
          selector_id: check.selectorId,
        });
    }
  }
  await tx.query(
    `UPDATE check_component_relationships SET deleted_at = now()
     WHERE deleted_at IS NULL AND selector_id <> 'manual' AND component_id = ANY($1::uuid[])
       AND NOT (component_id::text || '/' || check_id::text || '/' || selector_id = ANY($2::text[]))`,
    [scope, desired.map((d) => `${d.component_id}/${d.check_id}/${d.selector_id}`)],
  );
  if (desired.length) {
    await tx.query(
      `INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id)
       SELECT r.check_id, r.component_id, r.canary_id, r.selector_id
       FROM jsonb_to_recordset($1::jsonb) AS r(check_id uuid, component_id uuid, canary_id uuid, selector_id text)
       ON CONFLICT (component_id, check_id, selector_id) WHERE deleted_at IS NULL DO NOTHING`,
      [JSON.stringify(desired)],
    );
  }
}

/**
 * Config selectors are kept for the catalog: one row per selector, with config_id set only when
 * the selector names a config id. Rows the catalog adds for a selector stay while the selector does.
 */
async function syncConfigLinks(tx: Queryable, rows: PlannedComponent[], scope: string[]): Promise<void> {
  const desired: { component_id: string; config_id: string | null; selector_id: string; selector: unknown }[] = [];
  const named = rows.flatMap((r) =>
    r.node.configs.flatMap((s) =>
      typeof s.selector.id === 'string' && UUID.test(s.selector.id) ? [s.selector.id] : [],
    ),
  );
  // An id naming no catalog item (yet) stays a selector for the catalog to resolve.
  const known = new Set(
    named.length
      ? (await tx.query<{ id: string }>(`SELECT id FROM config_items WHERE id = ANY($1::uuid[])`, [named])).rows.map(
          (r) => r.id,
        )
      : [],
  );
  for (const r of rows) {
    for (const s of r.node.configs) {
      const id = typeof s.selector.id === 'string' && known.has(s.selector.id.toLowerCase()) ? s.selector.id : null;
      desired.push({ component_id: r.id, config_id: id, selector_id: s.id, selector: s.selector });
    }
  }
  await tx.query(
    `UPDATE config_component_relationships SET deleted_at = now(), updated_at = now()
     WHERE deleted_at IS NULL AND selector_id <> 'manual' AND component_id = ANY($1::uuid[])
       AND NOT (component_id::text || '/' || selector_id = ANY($2::text[]))`,
    [scope, desired.map((d) => `${d.component_id}/${d.selector_id}`)],
  );
  if (desired.length) {
    await tx.query(
      `INSERT INTO config_component_relationships (component_id, config_id, selector_id, selector)
       SELECT r.component_id, r.config_id, r.selector_id, r.selector
       FROM jsonb_to_recordset($1::jsonb) AS r(component_id uuid, config_id uuid, selector_id text, selector jsonb)
       WHERE NOT EXISTS (
         SELECT 1 FROM config_component_relationships x
         WHERE x.deleted_at IS NULL AND x.component_id = r.component_id AND x.selector_id = r.selector_id
           AND (r.config_id IS NULL OR x.config_id = r.config_id))`,
      [JSON.stringify(desired)],
    );
  }
}

async function syncTeams(
  tx: Queryable,
  topologyId: string,
  rows: PlannedComponent[],
  scope: string[],
  errors: string[],
): Promise<void> {
  const source = topologySource(topologyId);
  const names = [...new Set(rows.flatMap((r) => r.node.teams))];
  const teams = new Map<string, string>();
  if (names.length) {
    const { rows: found } = await tx.query<{ id: string; name: string }>(
      `SELECT id, name FROM teams WHERE name = ANY($1::text[]) AND deleted_at IS NULL`,
      [names],
    );
    for (const t of found) teams.set(t.name, t.id);
    for (const n of names) if (!teams.has(n)) errors.push(`team "${n}" does not exist`);
  }
  const desired = rows.flatMap((r) =>
    r.node.teams.filter((n) => teams.has(n)).map((n) => ({ team_id: teams.get(n)!, component_id: r.id })),
  );
  await tx.query(
    `DELETE FROM team_components WHERE selector_id = $1 AND component_id = ANY($2::uuid[])
       AND NOT (team_id::text || '/' || component_id::text = ANY($3::text[]))`,
    [source, scope, desired.map((d) => `${d.team_id}/${d.component_id}`)],
  );
  if (desired.length) {
    await tx.query(
      `INSERT INTO team_components (team_id, component_id, selector_id)
       SELECT r.team_id, r.component_id, $1 FROM jsonb_to_recordset($2::jsonb) AS r(team_id uuid, component_id uuid)
       ON CONFLICT (team_id, component_id) DO NOTHING`,
      [source, JSON.stringify(desired)],
    );
  }
}

/** Component selectors (selected components shown under this one) and parent lookups. */
async function syncComponentLinks(
  tx: Queryable,
  rows: PlannedComponent[],
  scope: string[],
  errors: string[],
): Promise<void> {
  const desired: { component_id: string; relationship_id: string; selector_id: string }[] = [];
  for (const r of rows) {
    for (const s of r.node.selectors) {
      try {
        for (const id of await selectComponents(tx, s.selector)) {
          if (id !== r.id) desired.push({ component_id: id, relationship_id: r.id, selector_id: s.id });
        }
      } catch (e) {
        errors.push(`${r.node.name}: component selector ${JSON.stringify(s.selector)}: ${(e as Error).message}`);
      }
    }
    const lookup = r.node.parentLookup;
    if (lookup) {
      const { rows: parents } = await tx.query<{ id: string }>(
        `SELECT id FROM components
         WHERE deleted_at IS NULL AND id <> $1
           AND ($2::text IS NULL OR name = $2) AND ($3::text IS NULL OR type = $3)
           AND ($4::text IS NULL OR labels->>'namespace' = $4) AND ($5::text IS NULL OR external_id = $5)
         ORDER BY created_at LIMIT 1`,
        [r.id, lookup.name ?? null, lookup.type ?? null, lookup.namespace ?? null, lookup.externalID ?? null],
      );
      if (parents[0]) desired.push({ component_id: r.id, relationship_id: parents[0].id, selector_id: 'parent' });
      else errors.push(`${r.node.name}: parentLookup ${JSON.stringify(lookup)} matches no component`);
    }
  }
  await tx.query(
    `UPDATE component_relationships SET deleted_at = now()
     WHERE deleted_at IS NULL
       AND ((selector_id LIKE 'component:%' AND relationship_id = ANY($1::uuid[]))
         OR (selector_id = 'parent' AND component_id = ANY($1::uuid[])))
       AND NOT (component_id::text || '/' || relationship_id::text || '/' || selector_id = ANY($2::text[]))`,
    [scope, desired.map((d) => `${d.component_id}/${d.relationship_id}/${d.selector_id}`)],
  );
  if (desired.length) {
    await tx.query(
      `INSERT INTO component_relationships (component_id, relationship_id, selector_id)
       SELECT r.component_id, r.relationship_id, r.selector_id
       FROM jsonb_to_recordset($1::jsonb) AS r(component_id uuid, relationship_id uuid, selector_id text)
       ON CONFLICT (component_id, relationship_id, selector_id) WHERE deleted_at IS NULL DO NOTHING`,
      [JSON.stringify(desired)],
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Health roll-up and job history.

export interface RecomputeResult {
  ran: boolean;
  components: number;
  updated: number;
}

/**
 * Recomputes every live component's health and summary from its own health, linked checks and
 * configs, children and related components, and the open incidents and insights touching them,
 * writing only what changed and queueing a `component.<health>` event for each health change.
 * `wait` queues behind another replica's pass (after a run); otherwise a pass under way elsewhere
 * means this one is skipped.
 */
export async function recomputeHealth(db: Database, opts: { wait?: boolean } = {}): Promise<RecomputeResult> {
  return db.transaction(async (tx) => {
    if (opts.wait) await tx.query('SELECT pg_advisory_xact_lock($1)', [COMPONENTS_LOCK]);
    else {
      const { rows } = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [
        COMPONENTS_LOCK,
      ]);
      if (!rows[0]!.locked) return { ran: false, components: 0, updated: 0 };
    }
    const { rows: nodes } = await tx.query<{
      id: string;
      parent_id: string | null;
      topology_id: string | null;
      name: string;
      type: string | null;
      own_health: Health | null;
      health: Health;
      summary: ComponentSummary;
    }>(
      `SELECT id, parent_id, topology_id, name, type, own_health, health, summary FROM components WHERE deleted_at IS NULL`,
    );
    const { rows: checks } = await tx.query<{ component_id: string; check_id: string; status: string | null }>(
      `SELECT r.component_id, r.check_id, c.status
       FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
       WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL`,
    );
    const { rows: related } = await tx.query<{ component_id: string; relationship_id: string }>(
      `SELECT component_id, relationship_id FROM component_relationships WHERE deleted_at IS NULL`,
    );
    const { rows: configs } = await tx.query<{ component_id: string; config_id: string; health: string | null }>(
      `SELECT r.component_id, r.config_id, ci.health
       FROM config_component_relationships r JOIN config_items ci ON ci.id = r.config_id
       WHERE r.deleted_at IS NULL AND ci.deleted_at IS NULL`,
    );
    // Open insights of linked configs; open incidents with evidence on the component or opened for it.
    const { rows: insights } = await tx.query<{ component_id: string; id: string }>(
      `SELECT DISTINCT r.component_id, a.id
       FROM config_component_relationships r JOIN config_analysis a ON a.config_id = r.config_id
       WHERE r.deleted_at IS NULL AND a.status = 'open'`,
    );
    const { rows: incidents } = await tx.query<{ component_id: string; id: string }>(
      `SELECT e.component_id, i.id
       FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id JOIN incidents i ON i.id = h.incident_id
       WHERE e.component_id IS NOT NULL AND i.status NOT IN ('resolved', 'closed')
       UNION
       SELECT component_id, id FROM incidents WHERE component_id IS NOT NULL AND status NOT IN ('resolved', 'closed')`,
    );
    const rolled = rollupTree(
      nodes.map((n) => ({
        id: n.id,
        parentId: n.parent_id,
        ownHealth: (HEALTHS as readonly string[]).includes(n.own_health ?? '') ? n.own_health : null,
      })),
      checks.map((c) => ({ componentId: c.component_id, checkId: c.check_id, status: c.status })),
      related.map((r) => ({ parentId: r.relationship_id, childId: r.component_id })),
      {
        configs: configs.map((c) => ({ componentId: c.component_id, configId: c.config_id, health: c.health })),
        insights: insights.map((i) => ({ componentId: i.component_id, id: i.id })),
        incidents: incidents.map((i) => ({ componentId: i.component_id, id: i.id })),
      },
    );
    const changed = nodes.flatMap((n) => {
      const r = rolled.get(n.id);
      if (!r || (r.health === n.health && canonicalJson(r.summary) === canonicalJson(n.summary))) return [];
      return [{ id: n.id, health: r.health, summary: r.summary }];
    });
    if (changed.length) {
      await tx.query(
        `UPDATE components c SET health = r.health, summary = r.summary,
           updated_at = CASE WHEN c.health IS DISTINCT FROM r.health THEN now() ELSE c.updated_at END
         FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, health text, summary jsonb)
         WHERE c.id = r.id`,
        [JSON.stringify(changed)],
      );
    }
    const events = componentHealthEvents(
      nodes.flatMap((n) => {
        const r = rolled.get(n.id);
        return r && r.health !== n.health
          ? [{ id: n.id, name: n.name, type: n.type, topologyId: n.topology_id, previous: n.health, health: r.health }]
          : [];
      }),
    );
    if (events.length) {
      await tx.query(
        `INSERT INTO event_queue (name, properties)
         SELECT e.name, e.properties FROM jsonb_to_recordset($1::jsonb) AS e(name text, properties jsonb)`,
        [JSON.stringify(events)],
      );
    }
    return { ran: true, components: nodes.length, updated: changed.length };
  });
}

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
