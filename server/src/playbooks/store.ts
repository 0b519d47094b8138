// Playbook rows: applying a resource (one live row per namespace and name; title, icon, description
// and category kept in step with the spec), soft deletes, reading live playbooks, the resources a
// run targets (as selectors and templates see them), and queueing a run.
import type { Database, Queryable } from '../db/database.js';
import type { AppliedResource } from '../resources/apply.js';
import { parseStoredPlaybook, type PlaybookDefinition } from './playbook.js';
import type { MatchableResource, ResourceKind } from './selectors.js';

export interface PlaybookRow {
  id: string;
  name: string;
  namespace: string;
  title: string | null;
  icon: string | null;
  description: string | null;
  category: string | null;
  spec: Record<string, unknown>;
}

export async function applyPlaybook(
  db: Database,
  def: PlaybookDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedResource> {
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>(
      'SELECT id FROM playbooks WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL FOR UPDATE',
      [def.namespace, def.name],
    );
    const values = [
      JSON.stringify(def.labels),
      JSON.stringify(def.resource),
      def.title,
      def.icon,
      def.description,
      def.category,
    ];
    if (existing.rows[0]) {
      await tx.query(
        `UPDATE playbooks SET labels = $2, spec = $3, title = $4, icon = $5, description = $6, category = $7,
           updated_at = now() WHERE id = $1`,
        [existing.rows[0].id, ...values],
      );
      return { id: existing.rows[0].id, created: false };
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO playbooks (name, namespace, labels, spec, title, icon, description, category, source, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
      [def.name, def.namespace, ...values, opts.source ?? 'UI', opts.createdBy ?? null],
    );
    return { id: rows[0]!.id, created: true };
  });
}

export async function deletePlaybook(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query(
    'UPDATE playbooks SET deleted_at = now() WHERE id::text = $1 AND deleted_at IS NULL RETURNING id',
    [id],
  );
  return rows.length > 0;
}

const PLAYBOOK_COLUMNS = 'id, name, namespace, title, icon, description, category, spec';

export async function loadPlaybook(db: Queryable, id: string): Promise<PlaybookRow | undefined> {
  const { rows } = await db.query<PlaybookRow>(
    `SELECT ${PLAYBOOK_COLUMNS} FROM playbooks WHERE id::text = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0];
}

/** Live playbooks, with their parsed definitions (a stored spec that no longer parses is left out). */
export async function livePlaybooks(
  db: Queryable,
  limit = 1000,
): Promise<(PlaybookRow & { def: PlaybookDefinition })[]> {
  const { rows } = await db.query<PlaybookRow>(
    `SELECT ${PLAYBOOK_COLUMNS} FROM playbooks WHERE deleted_at IS NULL ORDER BY category NULLS LAST, title, name LIMIT $1`,
    [limit],
  );
  const out: (PlaybookRow & { def: PlaybookDefinition })[] = [];
  for (const row of rows) {
    try {
      out.push({ ...row, def: parseStoredPlaybook(row.spec) });
    } catch (e) {
      console.error(`playbook ${row.namespace}/${row.name}: the stored spec no longer parses: ${(e as Error).message}`);
    }
  }
  return out;
}

/** A resource a playbook runs on: what selectors read, and the row templates see as .config/.component/.check. */
export interface TargetResource {
  match: MatchableResource;
  row: Record<string, unknown>;
}

const RESOURCE_QUERIES: Record<ResourceKind, string> = {
  config: `SELECT ci.*, ci.tags->>'namespace' AS namespace FROM config_items ci WHERE ci.id::text = $1`,
  component: `SELECT c.*, t.namespace FROM components c LEFT JOIN topologies t ON t.id = c.topology_id WHERE c.id::text = $1`,
  check: `SELECT ch.*, ca.name AS canary_name FROM checks ch JOIN canaries ca ON ca.id = ch.canary_id WHERE ch.id::text = $1`,
};

/** Reads a resource by id (deleted ones only when `includeDeleted`, for runs already queued). */
export async function loadResource(
  db: Queryable,
  kind: ResourceKind,
  id: string,
  includeDeleted = false,
): Promise<TargetResource | undefined> {
  const { rows } = await db.query<Record<string, unknown>>(RESOURCE_QUERIES[kind], [id]);
  const row = rows[0];
  if (!row || (!includeDeleted && row.deleted_at)) return undefined;
  const strings = (v: unknown) =>
    Object.fromEntries(Object.entries((v as Record<string, unknown> | null) ?? {}).map(([k, x]) => [k, String(x)]));
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    row: JSON.parse(JSON.stringify(row)) as Record<string, unknown>,
    match: {
      kind,
      id: String(row.id),
      name: String(row.name ?? ''),
      namespace: text(row.namespace),
      type: text(row.type),
      labels: strings(row.labels),
      tags: strings(row.tags),
      agentId: text(row.agent_id),
      health: text(kind === 'check' ? row.status : row.health),
      status: text(row.status),
    },
  };
}

export interface RunRequest {
  playbookId: string;
  resource: { kind: ResourceKind; id: string } | null;
  params: Record<string, string>;
  spec: Record<string, unknown>;
  parentId: string | null;
  createdBy: string;
}

export async function queueRun(db: Queryable, r: RunRequest): Promise<{ id: string; scheduled_time: Date }> {
  const ids = { config: null as string | null, component: null as string | null, check: null as string | null };
  if (r.resource) ids[r.resource.kind] = r.resource.id;
  const { rows } = await db.query<{ id: string; scheduled_time: Date }>(
    `INSERT INTO playbook_runs (playbook_id, status, spec, parameters, config_id, component_id, check_id, parent_id, created_by)
     VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7, $8) RETURNING id, scheduled_time`,
    [
      r.playbookId,
      JSON.stringify(r.spec),
      JSON.stringify(r.params),
      ids.config,
      ids.component,
      ids.check,
      r.parentId,
      r.createdBy,
    ],
  );
  return rows[0]!;
}
