// /api/logs (POST /: one page of log lines, docs/api.md "Logs") and /api/logging_backends (apply
// LoggingBackend resources, read one back as YAML, delete one). Reading logs needs read on
// logging_backends and, for a component's logs, read on the component (topologies; a catalog
// item's: config_scrapers); the logs feature off refuses both (requirePermission). Roles that
// cannot write log backends (viewers, responders) read only through a component's or item's selector.
import { can, logsRequestSchema } from '@opsdeck/common';
import { Hono } from 'hono';
import { stringify } from 'yaml';
import type { Identity } from '../auth/identity.js';
import { errorBody, HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { addResourceRoutes, UUID } from '../resources/routes.js';
import { applyLoggingBackend, backendResource, deleteLoggingBackend, parseLoggingBackend } from './resource.js';
import { findLogOwner, LogsError, logOwnerKind, searchLogs } from './search.js';

interface Deps {
  db: Database;
  identity: Identity;
  /** How long a backend may take (default 10 s). */
  timeoutMs?: number;
}

export function logsRoutes({ db, identity, timeoutMs }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.onError((err, c) => {
    if (err instanceof LogsError) {
      const body = { error: err.message, message: err.message, code: err.code };
      return c.json(body, err.status);
    }
    throw err;
  });

  app.post('/', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'logging_backends', 'read');
    // No body is the empty request; a body that is not JSON is refused (not read as empty).
    const text = await c.req.text();
    let body: unknown = {};
    try {
      if (text.trim()) body = JSON.parse(text) ?? {};
    } catch {
      throw new HttpError(400, 'INVALID_REQUEST', 'The request body must be JSON.');
    }
    const parsed = logsRequestSchema.safeParse(body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const where = issue.path.join('.');
      throw new HttpError(
        400,
        'INVALID_REQUEST',
        where ? `${where}: ${issue.message}` : issue.message,
        where || undefined,
      );
    }
    const req = parsed.data;
    if (req.id && req.config_id) throw new HttpError(400, 'INVALID_REQUEST', 'Give id or config_id, not both.');
    // Someone who cannot change log backends reads logs only where a component's or catalog
    // item's selector says they are, as it says: never a backend, entries or labels of their choosing.
    if (!can(principal.roles, 'logging_backends', 'write')) {
      if (!req.id && !req.config_id)
        throw new HttpError(403, 'FORBIDDEN', 'Your role reads logs through a component or catalog item: give its id.');
      const own = (['backend', 'type', 'labels'] as const).filter((k) => req[k] !== undefined);
      if (own.length)
        throw new HttpError(
          403,
          'FORBIDDEN',
          `Your role reads logs as the component's log selector says: leave out ${own.join(', ')}.`,
        );
    }
    // `id` is a component's or, when no component has it, a catalog item's (config_id: an item's).
    const kind = req.config_id ? 'config' : req.id ? await logOwnerKind(db, req.id) : undefined;
    let owner;
    if (kind) {
      await requirePermission(identity, principal, kind === 'component' ? 'topologies' : 'config_scrapers', 'read');
      owner = await findLogOwner(db, kind, (req.config_id ?? req.id)!);
    }
    return c.json(await searchLogs(db, req, owner, { timeoutMs }));
  });
  return app;
}

export function loggingBackendRoutes({ db, identity }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  // Before the generic routes: the resource is built from the row's columns, not stored whole.
  app.get('/:id/spec', async (c) => {
    await requirePermission(identity, c.get('principal'), 'logging_backends', 'read');
    const id = c.req.param('id');
    const { rows } = UUID.test(id)
      ? await db.query<{ name: string; namespace: string; labels: unknown; spec: unknown }>(
          'SELECT name, namespace, labels, spec FROM logging_backends WHERE id = $1 AND deleted_at IS NULL',
          [id],
        )
      : { rows: [] };
    if (!rows[0]) return c.json(errorBody(new HttpError(404, 'NOT_FOUND', 'No such log backend.')), 404);
    return c.body(stringify(backendResource(rows[0])), 200, { 'content-type': 'application/yaml; charset=utf-8' });
  });
  addResourceRoutes(app, {
    db,
    identity,
    table: 'logging_backends',
    permission: 'logging_backends',
    kind: 'LoggingBackend',
    noun: 'log backend',
    parse: (doc) => parseLoggingBackend(db, doc),
    apply: (def, opts) => applyLoggingBackend(db, def, opts),
    summary: (def) => ({ types: Object.keys(def.spec).filter((k) => (def.spec[k as 'file']?.length ?? 0) > 0) }),
    remove: (id) => deleteLoggingBackend(db, id),
    sourceHeader: true,
  });
  return app;
}
