// Reading the audit trail, for admins only (the admin-only `rbac` resource; 403 for anyone else):
// GET /api/audit — a page of entries, newest first, filtered by actor, resource type, action, resource
// and time range, with the total; GET /api/audit/filters — the values the filters offer.
import { Hono } from 'hono';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';

interface Deps {
  db: Database;
  identity: Identity;
}

const MAX_LIMIT = 500;

function timeParam(name: string, value: string | undefined): Date | undefined {
  if (!value) return undefined;
  const t = new Date(value);
  if (Number.isNaN(t.getTime()))
    throw new HttpError(400, 'INVALID_REQUEST', `${name} must be a date and time such as 2026-01-31T12:00:00Z`, name);
  return t;
}

function intParam(name: string, value: string | undefined, fallback: number, max: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > max)
    throw new HttpError(400, 'INVALID_REQUEST', `${name} must be a whole number from 0 to ${max}`, name);
  return n;
}

export function auditRoutes({ db, identity }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const mayRead = (principal: AuthEnv['Variables']['principal']) =>
    requirePermission(identity, principal, 'rbac', 'read');

  app.get('/', async (c) => {
    await mayRead(c.get('principal'));
    const q = c.req.query();
    const limit = intParam('limit', q.limit, 50, MAX_LIMIT) || 50;
    const offset = intParam('offset', q.offset, 0, 10_000_000);
    const from = timeParam('from', q.from);
    const to = timeParam('to', q.to);
    if (from && to && from > to) throw new HttpError(400, 'INVALID_REQUEST', 'from must be before to', 'from');
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    // actor: an id, or part of the email or name.
    if (q.actor) {
      if (/^[0-9a-f-]{36}$/i.test(q.actor)) add('actor_id = ?::uuid', q.actor);
      else add(`(actor_email ILIKE ? OR actor_name ILIKE $${params.length + 1})`, `%${q.actor}%`);
    }
    if (q.actor_kind) add('actor_kind = ?', q.actor_kind);
    if (q.resource_type) add('resource_type = ?', q.resource_type);
    if (q.resource_id) add('resource_id = ?', q.resource_id);
    if (q.action) add('action = ?', q.action);
    if (q.q) add(`(resource_name ILIKE ? OR resource_id ILIKE $${params.length + 1})`, `%${q.q}%`);
    if (from) add('at >= ?', from);
    if (to) add('at <= ?', to);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ rows }, total] = await Promise.all([
      db.query(
        `SELECT id::text AS id, at, actor_id, actor_email, actor_name, actor_kind, action, resource_type, resource_id,
           resource_name, source_ip, user_agent, details
         FROM audit_log ${clause} ORDER BY audit_log.at DESC, audit_log.id DESC LIMIT ${limit} OFFSET ${offset}`,
        params,
      ),
      db.query<{ n: string }>(`SELECT count(*) AS n FROM audit_log ${clause}`, params),
    ]);
    return c.json({ total: Number(total.rows[0]!.n), limit, offset, rows });
  });

  app.get('/filters', async (c) => {
    await mayRead(c.get('principal'));
    const [actions, types, actors] = await Promise.all([
      db.query<{ v: string }>('SELECT DISTINCT action AS v FROM audit_log ORDER BY 1'),
      db.query<{ v: string }>('SELECT DISTINCT resource_type AS v FROM audit_log ORDER BY 1'),
      db.query<{ id: string; email: string | null; name: string | null }>(
        `SELECT DISTINCT ON (actor_id) actor_id AS id, actor_email AS email, actor_name AS name
         FROM audit_log WHERE actor_id IS NOT NULL ORDER BY actor_id, at DESC LIMIT 500`,
      ),
    ]);
    return c.json({
      actions: actions.rows.map((r) => r.v),
      resource_types: types.rows.map((r) => r.v),
      actors: actors.rows,
    });
  });

  return app;
}
