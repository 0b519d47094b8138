// The endpoints every scheduled resource has (/api/topology, /api/catalog): apply YAML or JSON (one
// or more documents, all validated before any is stored) → 201 {applied}, read one back as YAML,
// delete one, run one now (409 while a run is under way); invalid resources answer 400 with
// positions. Added to the resource's own router.
import type { Resource } from '@opsdeck/common';
import type { Hono } from 'hono';
import { stringify } from 'yaml';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import type { AppliedResource, ResourceTable } from './apply.js';
import type { StoredResource } from './metadata.js';
import { parseDocuments, ResourceError, ResourceErrors, resourceErrorBody, type ResourceDocument } from './yaml.js';

export interface ResourceRoutes<Def extends StoredResource> {
  db: Database;
  identity: Identity;
  /** The table of the rows, and the RBAC resource checked (read for the spec, write otherwise). */
  table:
    | ResourceTable
    | 'playbooks'
    | 'notifications'
    | 'notification_silences'
    | 'logging_backends'
    | 'status_pages'
    | 'maintenance_windows';
  permission: Resource;
  /** The resource's kind, for "paste a … resource". */
  kind: string;
  /** What one is called in answers: "No such …", "This … is running right now". */
  noun: string;
  /** Validates one document; may look things up (a person, a connection) before anything is stored. */
  parse: (doc: ResourceDocument) => Def | Promise<Def>;
  apply: (def: Def, opts: { source: string; createdBy: string }) => Promise<AppliedResource>;
  /** Fields added to each entry of `applied`, after id, name, namespace and created. */
  summary?: (def: Def) => Record<string, unknown>;
  /** What the stored resource is written back as (default: as stored). */
  readBack?: (spec: unknown) => unknown;
  remove: (id: string) => Promise<boolean>;
  /** Run Now, and its path (e.g. /:id/run); left out by resources without a schedule (playbooks). */
  runNow?: (id: string) => Promise<unknown>;
  runPath?: string;
  /**
   * Rows applied keep the `X-Opsdeck-Source` header as their source (`opsdeck apply` sends
   * `ConfigFile`); without it, or when this is off, the source is `UI`.
   */
  sourceHeader?: boolean;
}

/** A source name as the header may give it: a word such as ConfigFile or KubernetesCRD. */
const SOURCE_NAME = /^[A-Za-z][\w.:/-]{0,63}$/;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A stored resource with apiVersion, kind, metadata and spec first (jsonb keeps keys in its own order). */
export function inResourceOrder(resource: unknown): Record<string, unknown> {
  const { apiVersion, kind, metadata, spec, ...rest } = resource as Record<string, unknown>;
  return { apiVersion, kind, metadata, spec, ...rest };
}

export function addResourceRoutes<Def extends StoredResource>(app: Hono<AuthEnv>, r: ResourceRoutes<Def>): void {
  const { db, identity, table, permission } = r;
  const notFound = () => new HttpError(404, 'NOT_FOUND', `No such ${r.noun}.`);
  const idOf = (id: string) => {
    if (!UUID.test(id)) throw notFound();
    return id;
  };

  app.onError((err, c) => {
    const body = resourceErrorBody(err);
    if (body) return c.json(body, 400);
    throw err;
  });

  // Apply: YAML or JSON text (one or more documents).
  app.post('/', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, permission, 'write');
    const docs = parseDocuments(await c.req.text());
    if (docs.length === 0)
      throw new ResourceErrors([new ResourceError(`the document is empty: paste a ${r.kind} resource`)]);
    const defs: Def[] = [];
    for (const doc of docs) defs.push(await r.parse(doc));
    const header = r.sourceHeader ? c.req.header('x-opsdeck-source')?.trim() : undefined;
    if (header && !SOURCE_NAME.test(header))
      throw new HttpError(400, 'INVALID_REQUEST', 'X-Opsdeck-Source: a name such as ConfigFile or KubernetesCRD');
    const source = header || 'UI';
    const applied = [];
    for (const def of defs) {
      const { id, created } = await r.apply(def, { source, createdBy: principal.id });
      applied.push({ id, name: def.name, namespace: def.namespace, created, ...r.summary?.(def) });
    }
    return c.json({ applied }, 201);
  });

  app.get('/:id/spec', async (c) => {
    await requirePermission(identity, c.get('principal'), permission, 'read');
    const { rows } = await db.query<{ spec: unknown }>(
      `SELECT spec FROM ${table} WHERE id = $1 AND deleted_at IS NULL`,
      [idOf(c.req.param('id'))],
    );
    if (!rows[0]) throw notFound();
    const resource = r.readBack ? r.readBack(rows[0].spec) : rows[0].spec;
    return c.body(stringify(resource), 200, { 'content-type': 'application/yaml; charset=utf-8' });
  });

  app.delete('/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), permission, 'write');
    if (!(await r.remove(idOf(c.req.param('id'))))) throw notFound();
    return c.body(null, 204);
  });

  // Run now: answers with what the run did.
  const { runNow, runPath } = r;
  if (!runNow || !runPath) return;
  app.post(runPath, async (c) => {
    await requirePermission(identity, c.get('principal'), permission, 'write');
    const result = await runNow(idOf(c.req.param('id')!));
    if (result === 'not-found') throw notFound();
    if (result === 'busy')
      throw new HttpError(409, 'BUSY', `This ${r.noun} is running right now; try again in a moment.`);
    return c.json(result);
  });
}
