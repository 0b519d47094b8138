// Identity endpoints: better-auth's flows, whoami, invites, users, access tokens and the kubeconfig.
import crypto from 'node:crypto';
import { inviteUserSchema, permissionsFor, splitName, updateUserSchema } from '@opsdeck/common';
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { Config } from '../config.js';
import type { Database, Queryable } from '../db/database.js';
import type { Identity } from './identity.js';
import { errorBody, HttpError, requirePermission, type AuthEnv } from './middleware.js';
import { createToken } from './tokens.js';
import { logger } from '../log.js';

const log = logger('auth');

const INVITE_DAYS = 7;
const inviteIdentifier = (token: string) => `invite:${crypto.createHash('sha256').update(token).digest('hex')}`;

interface Deps {
  config: Config;
  db: Database;
  identity: Identity;
}

function parse<T>(schema: z.ZodType<T>, body: unknown): T {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  throw new HttpError(400, 'VALIDATION', issue.message, String(issue.path[0] ?? ''));
}

async function jsonBody(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new HttpError(400, 'VALIDATION', 'The request body must be JSON.');
  }
}

export function identityRoutes({ config, db, identity }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const auth = () => identity.auth();

  app.onError((err, c) => {
    if (err instanceof HttpError) return c.json(errorBody(err), err.status);
    throw err;
  });

  // ---- public --------------------------------------------------------------------------------
  app.get('/auth/config', (c) =>
    c.json({
      registration: config.registration === 'open',
      oidc: { enabled: !!config.oidc, name: config.oidc?.name ?? '' },
      smtp: identity.mailer.enabled,
    }),
  );

  app.get('/auth/invite', async (c) => {
    const invite = await findInvite(db, c.req.query('token'));
    return c.json({ email: invite.email, name: invite.name });
  });

  app.post('/auth/invite/accept', async (c) => {
    const body = (await jsonBody(c)) as { token?: unknown; password?: unknown };
    const invite = await findInvite(db, body.token);
    const password = typeof body.password === 'string' ? body.password : '';
    if (password.length < 8 || password.length > 256) {
      throw new HttpError(400, 'PASSWORD_TOO_SHORT', 'The password must be 8 to 256 characters long.', 'password');
    }
    const hash = await (await (await auth()).$context).password.hash(password);
    await db.transaction(async (tx) => {
      const used = await tx.query('DELETE FROM auth_verifications WHERE identifier = $1 RETURNING id', [
        inviteIdentifier(String(body.token)),
      ]);
      if (used.rows.length === 0)
        throw new HttpError(
          400,
          'INVITE_INVALID',
          'This invite link is not valid. Ask an administrator for a new one.',
        );
      await tx.query(
        `INSERT INTO auth_accounts (id, account_id, provider_id, person_id, password) VALUES ($1, $2::text, 'credential', $2::uuid, $3)`,
        [crypto.randomUUID(), invite.id, hash],
      );
      // Following the emailed link proves the address.
      await tx.query('UPDATE people SET email_verified = true, updated_at = now() WHERE id = $1', [invite.id]);
    });
    return c.json({ email: invite.email });
  });

  // ---- the signed-in person --------------------------------------------------------------------
  app.get('/auth/whoami', async (c) => {
    const p = c.get('principal');
    return c.json({
      person: { id: p.id, name: p.name, email: p.email, avatar: p.avatar },
      roles: p.roles,
      permissions: permissionsFor(p.roles),
      disabledFeatures: [...(await identity.disabledFeatures())].sort(),
      twoFactorEnabled: p.twoFactorEnabled,
    });
  });

  // Everything else under /auth is better-auth's (sign-in, sign-out, reset, verification, TOTP, OAuth).
  app.on(['GET', 'POST'], '/auth/*', async (c) => (await auth()).handler(c.req.raw));

  // ---- users (identities) ----------------------------------------------------------------------
  app.get('/users', async (c) => {
    await requirePermission(identity, c.get('principal'), 'identities', 'read');
    const limit = Math.min(Math.max(Number(c.req.query('limit') ?? 50) || 50, 1), 1000);
    // ?sortBy=name|email|state|created_at&sortOrder=asc|desc (the table's sortable columns).
    const sortColumns: Record<string, string> = {
      name: 'p.name',
      email: 'p.email',
      state: 'p.state',
      created_at: 'p.created_at',
    };
    const sortBy = sortColumns[c.req.query('sortBy') ?? 'name'];
    if (!sortBy)
      throw new HttpError(400, 'VALIDATION', `sortBy must be one of ${Object.keys(sortColumns).join(', ')}`, 'sortBy');
    const sortOrder = c.req.query('sortOrder') === 'desc' ? 'DESC' : 'ASC';
    const offset = Math.max(Number(c.req.query('offset') ?? 0) || 0, 0);
    const { rows } = await db.query<{
      id: string;
      name: string;
      email: string | null;
      state: string;
      created_at: string;
      roles: string[] | string;
      total: string;
    }>(
      `SELECT p.id, p.name, p.email, p.state, p.created_at,
         coalesce(array_agg(r.role ORDER BY r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles,
         count(*) OVER () AS total
       FROM people p LEFT JOIN person_roles r ON r.person_id = p.id
       WHERE p.deleted_at IS NULL AND p.type IS DISTINCT FROM 'agent'
              GROUP BY p.id ORDER BY ${sortBy} ${sortOrder} NULLS LAST, p.id LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    let total = Number(rows[0]?.total ?? 0);
    if (rows.length === 0 && offset > 0) {
      const count = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM people WHERE deleted_at IS NULL AND type IS DISTINCT FROM 'agent'`,
      );
      total = Number(count.rows[0]!.n);
    }
    return c.json({
      data: rows.map((r) => {
        const roles = Array.isArray(r.roles)
          ? r.roles
          : r.roles
              .replace(/^\{|\}$/g, '')
              .split(',')
              .filter(Boolean);
        const { first, last } = splitName(r.name);
        return {
          id: r.id,
          name: r.name,
          email: r.email,
          roles,
          state: r.state,
          created_at: r.created_at,
          traits: { name: { first, last }, email: r.email },
        };
      }),
      total,
    });
  });

  app.post('/users/invite', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'identities', 'write');
    const input = parse(inviteUserSchema, await jsonBody(c));
    const token = crypto.randomBytes(32).toString('base64url');
    const id = await db.transaction(async (tx) => {
      await assertEmailFree(tx, input.email);
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO people (name, email, created_at, updated_at) VALUES ($1, $2, now(), now()) RETURNING id`,
        [`${input.firstName} ${input.lastName}`, input.email.toLowerCase()],
      );
      const personId = rows[0]!.id;
      await tx.query('INSERT INTO person_roles (person_id, role) VALUES ($1, $2)', [personId, input.role]);
      await tx.query(
        `INSERT INTO auth_verifications (id, identifier, value, expires_at) VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
        [crypto.randomUUID(), inviteIdentifier(token), personId, INVITE_DAYS],
      );
      return personId;
    });
    const link = `${config.publicUrl}/registration?invite=${token}`;
    let emailed = false;
    if (identity.mailer.enabled) {
      emailed = await identity.mailer
        .send({
          to: input.email,
          subject: 'You are invited to Opsdeck',
          text: `${principal.name} invited you to Opsdeck.\n\nChoose your password within ${INVITE_DAYS} days:\n\n${link}`,
        })
        .catch((e) => {
          log.error(`invite email to ${input.email} failed: ${(e as Error).message}`);
          return false;
        });
    }
    return c.json({ id, link, emailed }, 201);
  });

  app.patch('/users/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'identities', 'write');
    const id = c.req.param('id');
    const input = parse(updateUserSchema, await jsonBody(c));
    await db.transaction(async (tx) => {
      const current = await tx.query<{ name: string }>(
        'SELECT name FROM people WHERE id::text = $1 AND deleted_at IS NULL',
        [id],
      );
      if (!current.rows[0]) throw new HttpError(404, 'NOT_FOUND', 'No such user.');
      const { first, last } = splitName(current.rows[0].name);
      const name = `${input.firstName ?? first} ${input.lastName ?? last}`.trim();
      if (input.email) await assertEmailFree(tx, input.email, id);
      if (input.role) {
        if (input.role !== 'admin') await assertNotLastAdmin(tx, id);
        await tx.query('DELETE FROM person_roles WHERE person_id = $1', [id]);
        await tx.query('INSERT INTO person_roles (person_id, role) VALUES ($1, $2)', [id, input.role]);
      }
      if (input.state === 'inactive') {
        await assertNotLastAdmin(tx, id);
        await tx.query('DELETE FROM auth_sessions WHERE person_id = $1', [id]);
      }
      await tx.query(
        `UPDATE people SET name = $2, email = coalesce($3, email), state = coalesce($4, state), updated_at = now() WHERE id = $1`,
        [id, name, input.email?.toLowerCase() ?? null, input.state ?? null],
      );
    });
    return c.json({ id });
  });

  app.delete('/users/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'identities', 'write');
    const id = c.req.param('id');
    await db.transaction(async (tx) => {
      const found = await tx.query('SELECT 1 FROM people WHERE id::text = $1 AND deleted_at IS NULL', [id]);
      if (!found.rows[0]) throw new HttpError(404, 'NOT_FOUND', 'No such user.');
      await assertNotLastAdmin(tx, id);
      // People stay (their history keeps pointing at them); they can no longer sign in.
      await tx.query(`UPDATE people SET deleted_at = now(), state = 'inactive', updated_at = now() WHERE id = $1`, [
        id,
      ]);
      await tx.query('DELETE FROM auth_sessions WHERE person_id = $1', [id]);
      await tx.query('DELETE FROM access_tokens WHERE person_id = $1', [id]);
    });
    return c.body(null, 204);
  });

  // ---- access tokens -----------------------------------------------------------------------------
  app.get('/tokens', async (c) => {
    await requirePermission(identity, c.get('principal'), 'identities', 'read');
    const { rows } = await db.query(
      `SELECT id, name, person_id, created_by, created_at, expires_at, last_used_at FROM access_tokens ORDER BY created_at DESC LIMIT 1000`,
    );
    return c.json(rows);
  });

  app.post('/tokens', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'identities', 'write');
    const body = (await jsonBody(c)) as { name?: unknown; personId?: unknown; expiresAt?: unknown };
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name || name.length > 100)
      throw new HttpError(400, 'VALIDATION', 'Give the token a name (at most 100 characters).', 'name');
    let expiresAt: Date | null = null;
    if (body.expiresAt !== undefined && body.expiresAt !== null) {
      expiresAt = new Date(String(body.expiresAt));
      if (Number.isNaN(expiresAt.getTime()) || expiresAt.getTime() <= Date.now()) {
        throw new HttpError(400, 'VALIDATION', 'expiresAt must be a date in the future.', 'expiresAt');
      }
    }
    const personId = typeof body.personId === 'string' ? body.personId : principal.id;
    const person = await db.query(`SELECT 1 FROM people WHERE id::text = $1 AND deleted_at IS NULL`, [personId]);
    if (!person.rows[0]) throw new HttpError(400, 'VALIDATION', 'No such person.', 'personId');
    const created = await createToken(db, { name, personId, createdBy: principal.id, expiresAt });
    return c.json(created, 201);
  });

  app.delete('/tokens/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'identities', 'write');
    const { rows } = await db.query('DELETE FROM access_tokens WHERE id::text = $1 RETURNING id', [c.req.param('id')]);
    if (!rows[0]) throw new HttpError(404, 'NOT_FOUND', 'No such token.');
    return c.body(null, 204);
  });

  // ---- kubeconfig: a real kubeconfig for this server with a fresh token of the caller ---------------
  app.get('/kubeconfig', async (c) => {
    const principal = c.get('principal');
    const { token } = await createToken(db, {
      name: `kubeconfig ${new Date().toISOString().slice(0, 10)}`,
      personId: principal.id,
      createdBy: principal.id,
    });
    const server = config.publicUrl;
    const cluster = new URL(server).hostname;
    const yaml = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      `  - name: ${cluster}`,
      '    cluster:',
      `      server: ${server}`,
      'contexts:',
      `  - name: ${cluster}`,
      '    context:',
      `      cluster: ${cluster}`,
      `      user: ${JSON.stringify(principal.email ?? principal.name)}`,
      `current-context: ${cluster}`,
      'users:',
      `  - name: ${JSON.stringify(principal.email ?? principal.name)}`,
      '    user:',
      `      token: ${token}`,
      '',
    ].join('\n');
    return c.body(yaml, 200, {
      'content-type': 'application/yaml; charset=utf-8',
      'content-disposition': `attachment; filename="opsdeck-kubeconfig.yaml"`,
      'cache-control': 'no-store',
    });
  });

  return app;
}

async function findInvite(db: Queryable, token: unknown): Promise<{ id: string; email: string; name: string }> {
  if (typeof token !== 'string' || !token)
    throw new HttpError(400, 'INVITE_INVALID', 'This invite link is not valid. Ask an administrator for a new one.');
  const { rows } = await db.query<{ id: string; email: string; name: string; expired: boolean }>(
    `SELECT p.id, p.email, p.name, v.expires_at < now() AS expired
     FROM auth_verifications v JOIN people p ON p.id::text = v.value
     WHERE v.identifier = $1 AND p.deleted_at IS NULL`,
    [inviteIdentifier(token)],
  );
  const row = rows[0];
  if (!row)
    throw new HttpError(400, 'INVITE_INVALID', 'This invite link is not valid. Ask an administrator for a new one.');
  if (row.expired)
    throw new HttpError(400, 'INVITE_EXPIRED', 'This invite link has expired. Ask an administrator for a new one.');
  return row;
}

async function assertEmailFree(tx: Queryable, email: string, exceptId?: string) {
  const { rows } = await tx.query(
    'SELECT 1 FROM people WHERE lower(email) = lower($1) AND deleted_at IS NULL AND ($2::text IS NULL OR id::text <> $2)',
    [email, exceptId ?? null],
  );
  if (rows[0]) throw new HttpError(409, 'EMAIL_TAKEN', 'A user with this email already exists.', 'email');
}

/** Refuses to take the last active administrator away. */
async function assertNotLastAdmin(tx: Queryable, personId: string) {
  const { rows } = await tx.query<{ other_admins: string; is_admin: boolean }>(
    `SELECT count(*) FILTER (WHERE p.id::text <> $1) AS other_admins, bool_or(p.id::text = $1) AS is_admin
     FROM person_roles r JOIN people p ON p.id = r.person_id
     WHERE r.role = 'admin' AND p.deleted_at IS NULL AND p.state = 'active'`,
    [personId],
  );
  if (rows[0]?.is_admin && Number(rows[0].other_admins) === 0) {
    throw new HttpError(409, 'LAST_ADMIN', 'This is the last administrator; make someone else an administrator first.');
  }
}
