// /api/playbook: apply Playbook resources (YAML or JSON), read them back, delete them; list the
// playbooks runnable on a resource, render a playbook's parameters for one, request a run, read a
// run with its actions (and its approval state), cancel one; approvals (approvalsApi.ts), the
// webhook trigger (webhook.ts), artifacts and connection names (actionsApi.ts) are added here too
// (docs/api.md, "Playbooks"). `filters` hide a playbook from a resource's list and refuse its runs.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { addResourceRoutes, inResourceOrder, UUID } from '../resources/routes.js';
import type { SecretBox } from '../secrets.js';
import { RESOURCE_KINDS, type ResourceKind } from '../selectors/resourceSelector.js';
import { addActionRoutes, prepareRunParams, requireFilters, storeSealedParams, unmaskRunParams } from './actionsApi.js';
import { addApprovalRoutes, runApprovalInfo } from './approvalsApi.js';
import { evaluateFilters } from './filters.js';
import { ParameterError, renderDefaults, resolveParams } from './parameters.js';
import { checkReferences } from './references.js';
import { addWebhookRoute } from './webhook.js';
import { parsePlaybook, parseStoredPlaybook, type PlaybookDefinition } from './playbook.js';
import { acceptedKinds, KIND_NOUN, kindsPhrase, playbookMatches, SELECTOR_FIELD } from './selectors.js';
import {
  applyPlaybook,
  deletePlaybook,
  livePlaybooks,
  loadPlaybook,
  loadResource,
  queueRun,
  type TargetResource,
} from './store.js';

interface Deps {
  db: Database;
  identity: Identity;
  /** Seals `secret` parameters (secretParams.ts). */
  secrets?: SecretBox;
}

type ResourceIds = Partial<Record<'config_id' | 'component_id' | 'check_id', unknown>>;

const bad = (message: string, field?: string) => new HttpError(400, 'INVALID_REQUEST', message, field);

/** The one resource id given (config_id, component_id or check_id), checked for form; null when none. */
function givenResource(ids: ResourceIds): { kind: ResourceKind; id: string } | null {
  const given = RESOURCE_KINDS.filter(
    (k) => ids[`${k}_id`] !== undefined && ids[`${k}_id`] !== null && ids[`${k}_id`] !== '',
  );
  if (given.length > 1) throw bad('Give at most one of config_id, component_id and check_id.');
  const kind = given[0];
  if (!kind) return null;
  const id = ids[`${kind}_id`];
  if (typeof id !== 'string' || !UUID.test(id)) throw bad(`${kind}_id must be an id (uuid).`, `${kind}_id`);
  return { kind, id };
}

async function loadTarget(db: Database, given: { kind: ResourceKind; id: string }): Promise<TargetResource> {
  const target = await loadResource(db, given.kind, given.id);
  if (!target) throw new HttpError(404, 'NOT_FOUND', `No such ${KIND_NOUN[given.kind]}.`);
  return target;
}

/** The resource a run of this playbook targets, per its selectors; 400 with what to choose otherwise. */
async function runTarget(
  db: Database,
  def: PlaybookDefinition,
  ids: ResourceIds,
): Promise<{ kind: ResourceKind; target: TargetResource } | null> {
  const given = givenResource(ids);
  const kinds = acceptedKinds(def.spec);
  if (kinds.length === 0) {
    if (given) throw bad(`This playbook does not run on a resource: leave out ${given.kind}_id.`, `${given.kind}_id`);
    return null;
  }
  if (!given) throw bad(`This playbook runs on ${kindsPhrase(kinds)}: choose one.`);
  if (!kinds.includes(given.kind))
    throw bad(`This playbook runs on ${kindsPhrase(kinds)}, not on a ${KIND_NOUN[given.kind]}.`, `${given.kind}_id`);
  const target = await loadTarget(db, given);
  if (!playbookMatches(def.spec, target.match))
    throw bad(
      `The ${KIND_NOUN[given.kind]} "${target.match.name}" does not match this playbook's ${SELECTOR_FIELD[given.kind]} selectors.`,
      `${given.kind}_id`,
    );
  return { kind: given.kind, target };
}

/** What parameter defaults are rendered with: the resource (as .config/.component/.check) and the caller. */
function defaultVars(c: Context<AuthEnv>, resource: { kind: ResourceKind; target: TargetResource } | null) {
  const principal = c.get('principal');
  return {
    config: null,
    component: null,
    check: null,
    ...(resource ? { [resource.kind]: resource.target.row } : {}),
    user: { id: principal.id, name: principal.name, email: principal.email },
    params: {},
  };
}

async function jsonBody(c: Context<AuthEnv>): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch (e) {
    throw bad(`The body is not valid JSON: ${(e as Error).message}`);
  }
}

function parseBody<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.join('.');
  throw bad(field ? `${field}: ${issue.message}` : issue.message, field || undefined);
}

const idField = z.string().optional().nullable();
const resourceIdsSchema = z.looseObject({ config_id: idField, component_id: idField, check_id: idField });
const runSchema = resourceIdsSchema.extend({
  id: z.string({ error: 'id (the playbook id) is required' }),
  params: z.record(z.string(), z.unknown(), { error: 'params must be an object of parameter values' }).optional(),
  parent_id: z.string().regex(UUID, 'parent_id must be a run id (uuid)').optional().nullable(),
});

async function playbookOr404(db: Database, id: string) {
  const row = UUID.test(id) ? await loadPlaybook(db, id) : undefined;
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such playbook.');
  return { row, def: parseStoredPlaybook(row.spec) };
}

/** Parameter problems are the caller's: 400 naming the parameter. */
function asHttp<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ParameterError) throw bad(e.message, `params.${e.parameter}`);
    throw e;
  }
}

export function playbookRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity } = deps;

  // The playbooks runnable on a resource (or all live ones).
  app.get('/list', async (c) => {
    await requirePermission(identity, c.get('principal'), 'playbooks', 'read');
    const given = givenResource(c.req.query());
    const target = given ? await loadTarget(db, given) : undefined;
    const playbooks = await livePlaybooks(db);
    return c.json(
      playbooks
        .filter(
          (p) =>
            !given ||
            !target ||
            (playbookMatches(p.def.spec, target.match) &&
              evaluateFilters(p.def.spec.filters, defaultVars(c, { kind: given.kind, target })).ok),
        )
        .map((p) => ({
          id: p.id,
          name: p.name,
          namespace: p.namespace,
          title: p.title ?? p.name,
          icon: p.icon,
          category: p.category,
          description: p.description,
          parameters: p.def.spec.parameters,
          ...(p.def.spec.configs ? { configs: p.def.spec.configs } : {}),
          ...(p.def.spec.components ? { components: p.def.spec.components } : {}),
          ...(p.def.spec.checks ? { checks: p.def.spec.checks } : {}),
        })),
    );
  });

  app.post('/run', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'playbooks', 'write');
    const body = parseBody(runSchema, await jsonBody(c));
    const { row, def } = await playbookOr404(db, body.id);
    const resource = await runTarget(db, def, body);
    requireFilters(def, defaultVars(c, resource));
    const given = await unmaskRunParams(db, def, body.params ?? {}, body.parent_id ?? null);
    const resolved = asHttp(() => resolveParams(renderDefaults(def.spec.parameters, defaultVars(c, resource)), given));
    if (body.parent_id) {
      const parent = await db.query('SELECT 1 FROM playbook_runs WHERE id = $1', [body.parent_id]);
      if (!parent.rows.length) throw bad('parent_id: no such run.', 'parent_id');
    }
    const { params, sealed } = await prepareRunParams(db, def, resolved, deps.secrets);
    const run = await db.transaction(async (tx) => {
      const queued = await queueRun(tx, {
        playbookId: row.id,
        playbookName: row.name,
        resource: resource && { kind: resource.kind, id: resource.target.match.id },
        params,
        spec: row.spec,
        parentId: body.parent_id ?? null,
        createdBy: principal.id,
        approval: def.spec.approval,
        trigger: { type: 'manual' },
      });
      await storeSealedParams(tx, queued.id, sealed);
      return queued;
    });
    return c.json({ run_id: run.id, status: run.status, starts_at: new Date(run.scheduled_time).toISOString() }, 201);
  });

  addApprovalRoutes(app, deps);
  addActionRoutes(app, deps);
  addWebhookRoute(app, db);

  app.get('/run/:id', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'playbook_runs', 'read');
    const id = c.req.param('id');
    const notFound = new HttpError(404, 'NOT_FOUND', 'No such playbook run.');
    if (!UUID.test(id)) throw notFound;
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT r.id, r.playbook_id, r.status, r.spec, r.parameters, r.config_id, r.component_id, r.check_id, r.parent_id,
              r.error, r.scheduled_time, r.start_time, r.end_time, r.created_at, r.created_by, r.agent_id, r.trigger,
              json_build_object('id', p.id, 'name', p.name, 'title', coalesce(p.title, p.name), 'icon', p.icon) AS playbooks,
              (SELECT json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type) FROM config_items ci WHERE ci.id = r.config_id) AS config,
              (SELECT json_build_object('id', co.id, 'name', co.name, 'type', co.type) FROM components co WHERE co.id = r.component_id) AS component,
              (SELECT json_build_object('id', ch.id, 'name', ch.name, 'type', ch.type) FROM checks ch WHERE ch.id = r.check_id) AS "check",
              coalesce((SELECT json_agg(a ORDER BY a.action_index, a.start_time NULLS LAST, a.scheduled_time)
                        FROM playbook_run_actions a WHERE a.playbook_run_id = r.id), '[]'::json) AS actions
       FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
      [id],
    );
    const run = rows[0];
    if (!run) throw notFound;
    const approval = await runApprovalInfo(
      db,
      { id, spec: run.spec, status: String(run.status), created_by: (run.created_by as string | null) ?? null },
      principal,
    );
    return c.json({ ...run, approval });
  });

  app.post('/run/:id/cancel', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'playbooks', 'write');
    const id = c.req.param('id');
    const notFound = new HttpError(404, 'NOT_FOUND', 'No such playbook run.');
    if (!UUID.test(id)) throw notFound;
    const { rows } = await db.query<{ was: string }>(
      `UPDATE playbook_runs r SET status = 'cancelled', end_time = now(), error = $2
       FROM (SELECT id, status AS was FROM playbook_runs WHERE id = $1 FOR UPDATE) o
       WHERE r.id = o.id AND o.was IN ('pending_approval', 'pending', 'scheduled', 'running') RETURNING o.was`,
      [id, `cancelled by ${principal.name}`],
    );
    if (!rows[0]) {
      const found = await db.query<{ status: string }>('SELECT status FROM playbook_runs WHERE id = $1', [id]);
      if (!found.rows[0]) throw notFound;
      throw new HttpError(409, 'FINISHED', `This run has already finished (${found.rows[0].status}).`);
    }
    if (rows[0].was === 'running') {
      // The runner notices within a heartbeat and stops the current action; answer once it has.
      for (let waited = 0; waited < 5_000; waited += 100) {
        const busy = await db.query(
          `SELECT 1 FROM playbook_run_actions WHERE playbook_run_id = $1 AND status IN ('running', 'sleeping')`,
          [id],
        );
        if (!busy.rows.length) break;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    return c.json({ id, status: 'cancelled' });
  });

  // Parameters with defaults rendered for the chosen resource.
  app.post('/:id/params', async (c) => {
    await requirePermission(identity, c.get('principal'), 'playbooks', 'read');
    const body = parseBody(resourceIdsSchema, await jsonBody(c));
    const { def } = await playbookOr404(db, c.req.param('id'));
    const resource = await runTarget(db, def, body);
    requireFilters(def, defaultVars(c, resource));
    const params = asHttp(() => renderDefaults(def.spec.parameters, defaultVars(c, resource)));
    return c.json({
      params,
      resource: resource && { type: resource.kind, id: resource.target.match.id, name: resource.target.match.name },
    });
  });

  addResourceRoutes(app, {
    db,
    identity,
    table: 'playbooks',
    permission: 'playbooks',
    kind: 'Playbook',
    noun: 'playbook',
    parse: (doc) => checkReferences(db, doc, parsePlaybook(doc)),
    apply: (def, opts) => applyPlaybook(db, def, opts),
    readBack: inResourceOrder,
    remove: (id) => deletePlaybook(db, id),
  });
  return app;
}
