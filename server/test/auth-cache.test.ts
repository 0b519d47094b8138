// Remembered callers (auth/principalCache.ts) on PostgreSQL: two "replicas" (identities on their own
// pools) on one database. A replica asks the database once per session or token, and every change
// made elsewhere (another replica, SQL by hand) applies to its very next request.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIdentity, type Identity } from '../src/auth/identity.js';
import { loadConfig } from '../src/config.js';
import { openPostgres, type Database, type QueryOptions } from '../src/db/database.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';

const SECRET = 'auth-cache-test-secret';

/** The database with its look-ups of callers counted. */
function counting(db: Database): { db: Database; lookUps: () => number } {
  let n = 0;
  const wrapped = Object.create(db) as Database;
  wrapped.query = ((sql: string, params?: unknown[], options?: QueryOptions) => {
    if (options?.prepare?.startsWith('opsdeck_person_by_')) n++;
    return db.query(sql, params, options);
  }) as Database['query'];
  return { db: wrapped, lookUps: () => n };
}

const bearer = (u: TestUser) => new Headers({ authorization: `Bearer ${u.token}` });

describe.runIf(process.env.TEST_DATABASE_URL)('remembered callers on postgres', () => {
  let test: TestDatabase;
  let other: Database;
  let replica: { db: Database; lookUps: () => number };
  let identity: Identity;

  beforeAll(async () => {
    test = await openTestDatabase('postgres');
    replica = counting(await openPostgres(test.url!, 3));
    other = await openPostgres(test.url!, 2);
    identity = await createIdentity(loadConfig({ authSecret: SECRET, authCacheMs: 30_000 }), replica.db);
    // LISTEN is in place once a look-up is remembered.
    const probe = await createTestUser(test.db, 'viewer');
    for (let i = 0; i < 100; i++) {
      await identity.authenticate(bearer(probe));
      const before = replica.lookUps();
      await identity.authenticate(bearer(probe));
      if (replica.lookUps() === before) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  afterAll(async () => {
    await replica?.db.close();
    await other?.close();
    await test?.close();
  });

  it('looks a token up once, and sees role changes and revocation made elsewhere at once', async () => {
    const user = await createTestUser(test.db, 'editor');
    expect((await identity.authenticate(bearer(user)))?.roles).toEqual(['editor']);
    // The user's creation is announced to every replica (NOTIFY) and may arrive after that first
    // look-up, dropping what it remembered: wait until a look-up is remembered.
    for (let i = 0; i < 100; i++) {
      const before = replica.lookUps();
      await identity.authenticate(bearer(user));
      if (replica.lookUps() === before) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const start = replica.lookUps();
    for (let i = 0; i < 5; i++) expect((await identity.authenticate(bearer(user)))?.id).toBe(user.id);
    expect(replica.lookUps() - start).toBe(0);

    await other.query(`UPDATE person_roles SET role = 'viewer' WHERE person_id = $1`, [user.id]);
    expect((await identity.authenticate(bearer(user)))?.roles).toEqual(['viewer']);
    await other.query(`UPDATE people SET state = 'inactive' WHERE id = $1`, [user.id]);
    expect(await identity.authenticate(bearer(user))).toBeNull();
    await other.query(`UPDATE people SET state = 'active' WHERE id = $1`, [user.id]);
    expect((await identity.authenticate(bearer(user)))?.id).toBe(user.id);

    await other.query(`UPDATE access_tokens SET expires_at = now() - interval '1 second' WHERE person_id = $1`, [
      user.id,
    ]);
    expect(await identity.authenticate(bearer(user))).toBeNull();
    await other.query(`UPDATE access_tokens SET expires_at = NULL WHERE person_id = $1`, [user.id]);
    expect((await identity.authenticate(bearer(user)))?.id).toBe(user.id);
    await other.query('DELETE FROM access_tokens WHERE person_id = $1', [user.id]);
    expect(await identity.authenticate(bearer(user))).toBeNull();
  });

  it('ends a session at sign-out and at its expiry', async () => {
    const user = await createTestUser(test.db, 'admin');
    const token = crypto.randomBytes(24).toString('base64url');
    await test.db.query(
      `INSERT INTO auth_sessions (token, person_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
      [token, user.id],
    );
    const signature = crypto.createHmac('sha256', SECRET).update(token).digest('base64');
    const cookie = new Headers({ cookie: `opsdeck.session_token=${encodeURIComponent(`${token}.${signature}`)}` });
    const start = replica.lookUps();
    for (let i = 0; i < 3; i++) expect((await identity.authenticate(cookie))?.via).toBe('session');
    expect(replica.lookUps() - start).toBe(1);

    // Remembered no longer than the session lasts.
    await other.query(`UPDATE auth_sessions SET expires_at = now() + interval '300 milliseconds' WHERE token = $1`, [
      token,
    ]);
    expect((await identity.authenticate(cookie))?.id).toBe(user.id);
    await new Promise((r) => setTimeout(r, 400));
    expect(await identity.authenticate(cookie)).toBeNull();

    await other.query(`UPDATE auth_sessions SET expires_at = now() + interval '1 day' WHERE token = $1`, [token]);
    expect((await identity.authenticate(cookie))?.id).toBe(user.id);
    await other.query('DELETE FROM auth_sessions WHERE token = $1', [token]);
    expect(await identity.authenticate(cookie)).toBeNull();
  });

  it('refuses a forged signature of a remembered session (a remembered cookie skips the HMAC)', async () => {
    const user = await createTestUser(test.db, 'admin');
    const token = crypto.randomBytes(24).toString('base64url');
    await test.db.query(
      `INSERT INTO auth_sessions (token, person_id, expires_at) VALUES ($1, $2, now() + interval '1 day')`,
      [token, user.id],
    );
    const signature = crypto.createHmac('sha256', SECRET).update(token).digest();
    const cookie = (sig: Buffer) =>
      new Headers({ cookie: `opsdeck.session_token=${encodeURIComponent(`${token}.${sig.toString('base64')}`)}` });
    const start = replica.lookUps();
    for (let i = 0; i < 3; i++) expect((await identity.authenticate(cookie(signature)))?.id).toBe(user.id);
    expect(replica.lookUps() - start).toBe(1);

    const forged = Buffer.from(signature);
    forged[0]! ^= 1;
    expect(await identity.authenticate(cookie(forged))).toBeNull();
    expect(await identity.authenticate(new Headers({ cookie: `opsdeck.session_token=${token}` }))).toBeNull();
    // Refused before any look-up, and the genuine cookie is still remembered.
    expect((await identity.authenticate(cookie(signature)))?.id).toBe(user.id);
    expect(replica.lookUps() - start).toBe(1);
  });

  it('looks every caller up while its LISTEN connection is down, and remembers again once it is back', async () => {
    const user = await createTestUser(test.db, 'viewer');
    await identity.authenticate(bearer(user));
    await other.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'opsdeck LISTEN opsdeck_auth' AND datname = current_database()`,
    );
    // Until the connection is back (it retries after 250 ms), each request asks the database.
    await new Promise((r) => setTimeout(r, 100));
    const start = replica.lookUps();
    await identity.authenticate(bearer(user));
    await identity.authenticate(bearer(user));
    expect(replica.lookUps() - start).toBe(2);
    await other.query(`UPDATE person_roles SET role = 'responder' WHERE person_id = $1`, [user.id]);
    expect((await identity.authenticate(bearer(user)))?.roles).toEqual(['responder']);

    let remembered = false;
    for (let i = 0; i < 100 && !remembered; i++) {
      await new Promise((r) => setTimeout(r, 50));
      await identity.authenticate(bearer(user));
      const before = replica.lookUps();
      await identity.authenticate(bearer(user));
      remembered = replica.lookUps() === before;
    }
    expect(remembered).toBe(true);
    await other.query(`UPDATE person_roles SET role = 'commander' WHERE person_id = $1`, [user.id]);
    expect((await identity.authenticate(bearer(user)))?.roles).toEqual(['commander']);
  });
});
