// Playbook rows: applying a resource (one live row per namespace and name; title, icon, description
// and category kept in step with the spec), soft deletes, reading live playbooks, the resources a
// run targets (as selectors and templates see them), and queueing a run (pending_approval when the
// playbook asks for approval, with playbook.approval.inserted emitted in the same transaction).
// Applying also keeps the playbook's webhook path and its on.schedule rows in step with the spec, and
// emits playbook.spec.approval.updated when an existing playbook's approval changed (specApproval.ts).
import type { Database, Queryable } from '../db/database.js';
import { parseSchedule } from '../jobs/schedule.js';
import type { AppliedResource } from '../resources/apply.js';
import { UUID } from '../resources/routes.js';
import { RESOURCE_KINDS, type MatchableResource, type ResourceKind } from '../selectors/resourceSelector.js';
import { parseStoredPlaybook, type PlaybookDefinition } from './playbook.js';
import { runAgent } from './runsOn.js';
import { emitSpecApprovalUpdated } from './specApproval.js';
import type { PlaybookApproval } from './triggerSpec.js';
import { logger } from '../log.js';

const log = logger('playbooks');

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
    const existing = await tx.query<{ id: string; spec: unknown }>(
      'SELECT id, spec FROM playbooks WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL FOR UPDATE',
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
    let applied: AppliedResource;
    if (existing.rows[0]) {
      await tx.query(
        `UPDATE playbooks SET labels = $2, spec = $3, title = $4, icon = $5, description = $6, category = $7,
           updated_at = now() WHERE id = $1`,
        [existing.rows[0].id, ...values],
      );
      applied = { id: existing.rows[0].id, created: false };
      await emitSpecApprovalUpdated(tx, applied.id, existing.rows[0].spec, def);
    } else {
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO playbooks (name, namespace, labels, spec, title, icon, description, category, source, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
        [def.name, def.namespace, ...values, opts.source ?? 'UI', opts.createdBy ?? null],
      );
      applied = { id: rows[0]!.id, created: true };
    }
    await syncTriggers(tx, applied.id, def);
    return applied;
  });
}

/** The webhook path and the on.schedule rows (a schedule left unchanged keeps its next run). */
async function syncTriggers(tx: Queryable, id: string, def: PlaybookDefinition): Promise<void> {
  await tx.query('UPDATE playbooks SET webhook_path = $2 WHERE id = $1', [id, def.spec.on?.webhook?.path ?? null]);
  const schedules = def.spec.on?.schedule ?? [];
  await tx.query('DELETE FROM playbook_schedules WHERE playbook_id = $1 AND schedule_index >= $2', [
    id,
    schedules.length,
  ]);
  for (const [i, s] of schedules.entries()) {
    const next = parseSchedule(s.schedule, undefined).next(new Date());
    await tx.query(
      `INSERT INTO playbook_schedules (playbook_id, schedule_index, schedule, next_runtime) VALUES ($1, $2, $3, $4)
       ON CONFLICT (playbook_id, schedule_index) DO UPDATE SET schedule = EXCLUDED.schedule,
         next_runtime = CASE WHEN playbook_schedules.schedule = EXCLUDED.schedule
                             THEN playbook_schedules.next_runtime ELSE EXCLUDED.next_runtime END`,
      [id, i, s.schedule.trim(), next],
    );
  }
}

export async function deletePlaybook(db: Database, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      'UPDATE playbooks SET deleted_at = now() WHERE id::text = $1 AND deleted_at IS NULL RETURNING id',
      [id],
    );
    if (rows[0]) await tx.query('DELETE FROM playbook_schedules WHERE playbook_id = $1', [rows[0].id]);
    return rows.length > 0;
  });
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
      log.error(`playbook ${row.namespace}/${row.name}: the stored spec no longer parses: ${(e as Error).message}`);
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
  config: `SELECT ci.*, ci.tags->>'namespace' AS namespace FROM config_items ci WHERE ci.id = $1`,
  component: `SELECT c.*, t.namespace FROM components c LEFT JOIN topologies t ON t.id = c.topology_id WHERE c.id = $1`,
  check: `SELECT ch.*, ca.name AS canary_name FROM checks ch JOIN canaries ca ON ca.id = ch.canary_id WHERE ch.id = $1`,
};

/** What a queued run's templates see of it: its resource (deleted ones too) by kind, and who requested it. */
export async function runSubjects(
  db: Queryable,
  run: Record<`${ResourceKind}_id`, string | null> & { created_by: string | null },
): Promise<{
  resources: Record<ResourceKind, Record<string, unknown> | null>;
  user: { id: string; name: string; email: string | null } | null;
}> {
  const resources = {} as Record<ResourceKind, Record<string, unknown> | null>;
  for (const kind of RESOURCE_KINDS) {
    const id = run[`${kind}_id`];
    resources[kind] = id ? ((await loadResource(db, kind, id, true))?.row ?? null) : null;
  }
  const user = run.created_by
    ? ((
        await db.query<{ id: string; name: string; email: string | null }>(
          'SELECT id, name, email FROM people WHERE id = $1',
          [run.created_by],
        )
      ).rows[0] ?? null)
    : null;
  return { resources, user };
}

/** Reads a resource by id (deleted ones only when `includeDeleted`, for runs already queued). */
export async function loadResource(
  db: Queryable,
  kind: ResourceKind,
  id: string,
  includeDeleted = false,
): Promise<TargetResource | undefined> {
  // Compared as uuid (the primary key's index; this runs for every triggering event): other ids match nothing.
  if (!UUID.test(id)) return undefined;
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

/** What started a run (playbook_runs.trigger). */
export interface RunTrigger {
  type: 'manual' | 'event' | 'schedule' | 'webhook';
  event?: string;
  schedule?: string;
  path?: string;
}

export interface RunRequest {
  playbookId: string;
  playbookName: string;
  resource: { kind: ResourceKind; id: string } | null;
  params: Record<string, string>;
  spec: Record<string, unknown>;
  parentId: string | null;
  /** The requester (null for runs started by a trigger). */
  createdBy: string | null;
  /** The playbook's approval: the run then waits as pending_approval. */
  approval?: PlaybookApproval;
  trigger?: RunTrigger;
  /** A webhook's request, as templates see it (.request). */
  request?: Record<string, unknown>;
}

export const APPROVAL_EVENT = 'playbook.approval.inserted';

/** Inserts the run (and its approval event); give a transaction so both commit together. */
export async function queueRun(
  db: Queryable,
  r: RunRequest,
): Promise<{ id: string; scheduled_time: Date; status: string }> {
  const ids = { config: null as string | null, component: null as string | null, check: null as string | null };
  if (r.resource) ids[r.resource.kind] = r.resource.id;
  // runsOn: the run is assigned to that agent (its agent claims it); a vanished agent fails it at once.
  const agent = await runAgent(db, r.spec);
  const status = agent.error ? 'failed' : r.approval ? 'pending_approval' : 'pending';
  const { rows } = await db.query<{ id: string; scheduled_time: Date; status: string }>(
    `INSERT INTO playbook_runs (playbook_id, status, spec, parameters, config_id, component_id, check_id, parent_id,
       created_by, trigger, request, agent_id, error, end_time)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, CASE WHEN $13::text IS NULL THEN NULL ELSE now() END)
     RETURNING id, scheduled_time, status`,
    [
      r.playbookId,
      status,
      JSON.stringify(r.spec),
      JSON.stringify(r.params),
      ids.config,
      ids.component,
      ids.check,
      r.parentId,
      r.createdBy,
      JSON.stringify(r.trigger ?? { type: 'manual' }),
      r.request ? JSON.stringify(r.request) : null,
      agent.agentId,
      agent.error ?? null,
    ],
  );
  const run = rows[0]!;
  if (r.approval && !agent.error) {
    await db.query('INSERT INTO event_queue (name, properties) VALUES ($1, $2)', [
      APPROVAL_EVENT,
      JSON.stringify({
        id: run.id,
        run_id: run.id,
        playbook_id: r.playbookId,
        playbook_name: r.playbookName,
        approval_type: r.approval.type,
        approvers: r.approval.approvers,
        requester: r.createdBy,
        ...ids,
      }),
    ]);
  }
  return run;
}
