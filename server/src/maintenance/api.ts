// Maintenance window endpoints, /api/maintenance-window: apply MaintenanceWindow resources (YAML or
// JSON; admin, editor: canaries write), read one back as YAML (/:id/spec), delete one, and list the
// occurrences in a range (GET /occurrences?from=&to=, recurring windows expanded; viewers may read).
// The rows themselves are read and written by the settings screen through /api/db/maintenance_windows.
import { Hono } from 'hono';
import { stringify } from 'yaml';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { addResourceRoutes, inResourceOrder, UUID } from '../resources/routes.js';
import {
  applyMaintenanceWindow,
  deleteMaintenanceWindow,
  MAINTENANCE_KIND,
  maintenanceResourceOf,
  parseMaintenanceWindow,
} from './resource.js';
import { maintenanceOccurrences } from './windows.js';

interface Deps {
  db: Database;
  identity: Identity;
}

/** The longest range /occurrences expands at once. */
const MAX_RANGE_MS = 366 * 86_400_000;

function instantParam(value: string | undefined, name: string, fallback: Date): Date {
  if (value === undefined || value === '') return fallback;
  const d = new Date(value);
  if (Number.isNaN(d.getTime()))
    throw new HttpError(400, 'INVALID_REQUEST', `${name}: an instant such as 2026-03-01T00:00:00Z`);
  return d;
}

export function maintenanceRoutes({ db, identity }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();

  app.get('/occurrences', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    const now = new Date();
    const from = instantParam(c.req.query('from'), 'from', now);
    const to = instantParam(c.req.query('to'), 'to', new Date(from.getTime() + 7 * 86_400_000));
    if (to.getTime() < from.getTime()) throw new HttpError(400, 'INVALID_REQUEST', 'to must not be before from');
    if (to.getTime() - from.getTime() > MAX_RANGE_MS)
      throw new HttpError(400, 'INVALID_REQUEST', 'the range from..to is at most 366 days');
    const list = await maintenanceOccurrences(db, from, to);
    return c.json(
      list.map((o) => ({
        ...o,
        start: o.start.toISOString(),
        end: o.end.toISOString(),
        active: o.start <= now && o.end > now,
      })),
    );
  });

  // Read back: the resource as applied, or (a window made in the form) built from its columns.
  app.get('/:id/spec', async (c) => {
    await requirePermission(identity, c.get('principal'), 'canaries', 'read');
    const id = c.req.param('id');
    const { rows } = UUID.test(id)
      ? await db.query<Parameters<typeof maintenanceResourceOf>[0] & { spec: unknown }>(
          `SELECT name, message, starts_at, ends_at, schedule, duration, timezone, check_ids::text[] AS check_ids,
             component_ids::text[] AS component_ids, status_pages, silence, spec
           FROM maintenance_windows WHERE id = $1 AND deleted_at IS NULL`,
          [id],
        )
      : { rows: [] };
    const row = rows[0];
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such maintenance window.');
    const resource = row.spec ? inResourceOrder(row.spec) : maintenanceResourceOf(row);
    return c.body(stringify(resource), 200, { 'content-type': 'application/yaml; charset=utf-8' });
  });

  addResourceRoutes(app, {
    db,
    identity,
    table: 'maintenance_windows',
    permission: 'canaries',
    kind: MAINTENANCE_KIND,
    noun: 'maintenance window',
    parse: (doc) => parseMaintenanceWindow(db, doc),
    apply: (def, opts) => applyMaintenanceWindow(db, def, opts),
    summary: (def) => ({ checks: def.checkIds.length, components: def.componentIds.length }),
    remove: (id) => deleteMaintenanceWindow(db, id),
    sourceHeader: true,
  });
  return app;
}
