// /api/connection: the connection Test (docs/api.md "Connections") — of a stored connection by id, or of
// an unsaved form (secrets left out come from the stored connection named by `id`). Needs write on
// connections. Remote failures are 400 with the cause in words, never 500.
import { validateConnection, withConnectionDefaults } from '@opsdeck/common';
import { Hono, type Context } from 'hono';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Queryable } from '../db/database.js';
import { openConnection, type StoredConnection } from './references.js';
import type { ResolvedConnection } from './resolve.js';
import { runConnectionTest, testerFor, TEST_TIMEOUT_MS } from './testers/index.js';
import { normaliseConnection } from './writeGuard.js';

interface Deps {
  db: Queryable;
  identity: Identity;
  /** The time limit of one test (tests shorten it). */
  timeoutMs?: number;
}

const STORED_COLUMNS = [
  'name',
  'namespace',
  'type',
  'url',
  'username',
  'password',
  'certificate',
  'insecure_tls',
  'properties',
] as const;

async function loadStored(db: Queryable, id: string): Promise<StoredConnection | undefined> {
  const { rows } = await db.query<StoredConnection>(
    `SELECT ${STORED_COLUMNS.join(', ')} FROM connections WHERE id::text = $1 AND deleted_at IS NULL`,
    [id],
  );
  return rows[0];
}

const notFound = (id: string) => new HttpError(404, 'NOT_FOUND', `No connection with id ${id}.`);

function badRequest(c: Context, message: string, extra: Record<string, unknown> = {}) {
  return c.json({ error: message, message, ...extra }, 400);
}

export function connectionRoutes({ db, identity, timeoutMs = TEST_TIMEOUT_MS }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const mayWrite = (c: Context<AuthEnv>) => requirePermission(identity, c.get('principal'), 'connections', 'write');

  /** Opens the connection (secrets, references) and tests it; a reference that cannot be read is a 400. */
  async function test(c: Context<AuthEnv>, stored: StoredConnection) {
    let conn: ResolvedConnection;
    try {
      conn = await openConnection(stored);
    } catch (e) {
      return badRequest(c, (e as Error).message);
    }
    const answer = await runConnectionTest(conn, testerFor(conn.type), timeoutMs);
    return c.json(answer.body, answer.status);
  }

  app.post('/test/:id', async (c) => {
    await mayWrite(c);
    const id = c.req.param('id');
    const stored = await loadStored(db, id);
    if (!stored) throw notFound(id);
    return test(c, stored);
  });

  app.post('/test', async (c) => {
    await mayWrite(c);
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch (e) {
      return badRequest(c, `The body must be a JSON connection: ${(e as Error).message}`);
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return badRequest(c, 'The body must be a JSON object of connection fields.');
    const form = normaliseConnection(body as Record<string, unknown>);
    if (form.id !== undefined && form.id !== null && form.id !== '') {
      const stored = await loadStored(db, String(form.id));
      if (!stored) throw notFound(String(form.id));
      // Fields left out (the secrets a form does not show again) are the stored connection's.
      for (const col of STORED_COLUMNS) if (form[col] === undefined) form[col] = stored[col];
    }
    if (typeof form.name !== 'string' || !form.name.trim()) form.name = 'unsaved';
    const row = withConnectionDefaults(form);
    const errors = validateConnection(row);
    if (errors.length) return badRequest(c, errors[0]!.message, { code: 'INVALID_CONNECTION', details: errors });
    return test(c, row as unknown as StoredConnection);
  });

  return app;
}
