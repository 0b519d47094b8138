// A run's component links, brought in line with the spec: to checks (selected and inline), configs,
// teams and other components (component selectors and parent lookups); and unlinking removed components.
import type { Queryable } from '../db/database.js';
import type { PlannedComponent } from './identity.js';
import { topologySource, type InlineLinks } from './inlineChecks.js';
import {
  globToLike,
  matchesLabels,
  parseLabelSelector,
  requiredLabels,
  stringList,
  type LabelRequirement,
} from './selectors.js';
import type { ResourceSelectorSpec } from './topology.js';

/** A selector links at most this many checks or components. */
export const MAX_SELECTED = 1000;

/** Every link of components that are gone (soft-deleted, or removed for team links). */
export async function unlinkComponents(tx: Queryable, ids: string[]): Promise<void> {
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

export async function syncCheckLinks(
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
export async function syncConfigLinks(tx: Queryable, rows: PlannedComponent[], scope: string[]): Promise<void> {
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

export async function syncTeams(
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
export async function syncComponentLinks(
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
