// Connection secrets at rest: written through /api/db, stored sealed, never read back, opened for
// the checks that use them; a replica started with the same key opens them too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { connectionResolver } from '../src/connections/resolve.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds())('connection secrets on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const write = (method: string, path: string, body: unknown) =>
    fetch(`${app.url}/api/db/${path}`, {
      method,
      headers: { ...admin.headers, 'content-type': 'application/json', prefer: 'return=representation' },
      body: JSON.stringify(body),
    });

  it('stores passwords and certificates sealed and opens them only for checks', async () => {
    const res = await write('POST', 'connections', {
      name: 'sealed-db',
      type: 'postgres',
      url: 'postgres://$(username):$(password)@127.0.0.1/app',
      username: 'app',
      password: 'hunter2 secret',
      certificate: '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----',
    });
    expect(res.status).toBe(201);
    const [returned] = (await res.json()) as Record<string, unknown>[];
    expect(returned).not.toHaveProperty('password');
    expect(returned).not.toHaveProperty('certificate');

    const { rows } = await test.db.query<{ password: string; certificate: string }>(
      "SELECT password, certificate FROM connections WHERE name = 'sealed-db'",
    );
    expect(rows[0]!.password).toMatch(/^enc:v1:/);
    expect(rows[0]!.password).not.toContain('hunter2');
    expect(rows[0]!.certificate).not.toContain('BEGIN CERTIFICATE');

    const resolved = await connectionResolver(test.db)('connection://postgres/sealed-db');
    expect(resolved).toMatchObject({ username: 'app', password: 'hunter2 secret' });
    expect(resolved!.certificate).toContain('BEGIN CERTIFICATE');
  });

  it('seals a changed password on update too', async () => {
    const res = await write('PATCH', 'connections?name=eq.sealed-db', { password: 'rotated' });
    expect(res.status).toBe(200);
    const { rows } = await test.db.query<{ password: string }>(
      "SELECT password FROM connections WHERE name = 'sealed-db'",
    );
    expect(rows[0]!.password).toMatch(/^enc:v1:/);
    expect((await connectionResolver(test.db)('sealed-db'))!.password).toBe('rotated');
  });

  it('keeps the generated key in the database, so another process on it opens the secrets', async () => {
    const { rows } = await test.db.query<{ value: string }>(
      "SELECT value FROM server_settings WHERE name = 'encryption_key'",
    );
    expect(rows[0]!.value.length).toBeGreaterThanOrEqual(32);
  });
});
