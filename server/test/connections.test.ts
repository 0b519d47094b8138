// Connections end to end: /api/db/connections writes validated (nothing half-saved), secrets sealed
// and never returned, references kept as written, viewers refused, and the Test really connecting —
// PostgreSQL, MariaDB and Redis (real servers, wrong credentials too), SMTP with AUTH (a real SMTP
// server), Git (a local repository), a refused port, a malformed URL and a silent server within the
// time limit. Every answer and all console output are checked for the secrets used.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { captureOutput, leakedSecrets, recordingClient } from './helpers/recording.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';

const PG_URL = process.env.TEST_DATABASE_URL;
const MYSQL_URL = process.env.TEST_MYSQL_URL;
const REDIS_URL = process.env.TEST_REDIS_URL;
if (!PG_URL) console.warn('connection tests of postgres skipped: set TEST_DATABASE_URL');
if (!MYSQL_URL)
  console.warn('connection tests of mysql skipped: set TEST_MYSQL_URL (e.g. mysql://root@127.0.0.1:3306/test)');
if (!REDIS_URL) console.warn('connection tests of redis skipped: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379)');

const suffix = `${process.pid}${Date.now().toString(36)}`;
const SECRETS = {
  stored: `Stored-S3cret-${suffix}`,
  mysql: `My-S3cret-${suffix}`,
  mysqlWrong: `My-Wr0ng-${suffix}`,
  redis: `Rd-S3cret-${suffix}`,
  redisWrong: `Rd-Wr0ng-${suffix}`,
  smtp: `Smtp-S3cret-${suffix}`,
  smtpWrong: `Smtp-Wr0ng-${suffix}`,
  pg: `Pg-S3cret-${suffix}`,
  git: `Git-S3cret-${suffix}`,
};

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe.each(databaseKinds())('connections on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let viewer: TestUser;
  let smtp: SmtpSink;
  let output: ReturnType<typeof captureOutput>;
  const api = recordingClient(
    () => app.url,
    () => admin,
  );
  const repoDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-conn-git-'));
  const mysqlUser = `opsdeck_conn_${suffix}`.slice(0, 32);
  const redisUser = `opsdeck-conn-${suffix}`;
  let silent: net.Server | undefined;

  beforeAll(async () => {
    output = captureOutput();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
    viewer = await createTestUser(test.db, 'viewer');
    smtp = await startSmtpSink({ users: { mailer: SECRETS.smtp } });
    const git = (...args: string[]) => execFileSync('git', args, { cwd: repoDir, stdio: 'pipe' });
    git('init', '-q', '-b', 'main');
    fs.writeFileSync(path.join(repoDir, 'README'), 'hello\n');
    git('add', 'README');
    git('-c', 'user.email=t@example.test', '-c', 'user.name=t', 'commit', '-q', '-m', 'first');
    if (MYSQL_URL) {
      const root = await mysql.createConnection(MYSQL_URL);
      await root.query(`CREATE USER '${mysqlUser}'@'%' IDENTIFIED BY '${SECRETS.mysql}'`);
      await root.end();
    }
    if (REDIS_URL) {
      const r = new Redis(REDIS_URL);
      await r.call('ACL', 'SETUSER', redisUser, 'on', `>${SECRETS.redis}`, '~*', '+@all');
      r.disconnect();
    }
  });

  afterAll(async () => {
    output?.restore();
    await app?.close();
    await test?.close();
    await smtp?.close();
    silent?.close();
    fs.rmSync(repoDir, { recursive: true, force: true });
    if (MYSQL_URL) {
      const root = await mysql.createConnection(MYSQL_URL);
      await root.query(`DROP USER IF EXISTS '${mysqlUser}'@'%'`);
      await root.end();
    }
    if (REDIS_URL) {
      const r = new Redis(REDIS_URL);
      await r.call('ACL', 'DELUSER', redisUser);
      r.disconnect();
    }
  });

  const create = (row: Record<string, unknown>) =>
    api.call<Record<string, unknown>[]>('/api/db/connections', {
      body: row,
      headers: { prefer: 'return=representation' },
    });
  const testForm = (row: Record<string, unknown>) => api.call('/api/connection/test', { body: row });
  const testId = (id: string) => api.call(`/api/connection/test/${id}`, { method: 'POST' });
  const countNamed = async (...names: string[]) =>
    (await test.db.query('SELECT 1 FROM connections WHERE name = ANY($1)', [names])).rows.length;

  describe('writes through /api/db/connections', () => {
    it('stores a valid connection with its defaults, canonical type and the password sealed', async () => {
      const res = await create({
        name: 'mail-relay',
        type: 'SMTP',
        username: 'mailer',
        password: SECRETS.stored,
        properties: { host: 'smtp.example.test', from: 'ops@example.test', port: 2525 },
      });
      expect(res.status).toBe(201);
      const row = res.body[0]!;
      expect(row).toMatchObject({ type: 'email', namespace: 'default', has_password: true, password_ref: null });
      expect(row.properties).toEqual({
        host: 'smtp.example.test',
        from: 'ops@example.test',
        port: '2525',
        fromName: 'Opsdeck',
        encryption: 'Auto',
        auth: 'Unknown',
      });
      expect(row).not.toHaveProperty('password');
      const stored = await test.db.query<{ password: string }>('SELECT password FROM connections WHERE name = $1', [
        'mail-relay',
      ]);
      expect(stored.rows[0]!.password).toMatch(/^enc:v1:/);
    });

    it('refuses a missing field, a bad URL and a bad port, naming the field, and stores nothing', async () => {
      const missing = await create({ name: 'no-bucket', type: 's3', username: 'k', password: 'p' });
      expect(missing.status).toBe(400);
      expect(missing.body).toMatchObject({
        code: 'INVALID_CONNECTION',
        message: 'Bucket is required',
        details: [{ field: 'properties.bucket', message: 'Bucket is required' }],
      });
      const badUrl = await create({ name: 'bad-url', type: 'prometheus', url: 'prometheus:9090' });
      expect(badUrl.status).toBe(400);
      expect(badUrl.body).toMatchObject({
        details: [{ field: 'url', message: 'URL must be a URL such as https://host:port (got "prometheus:9090")' }],
      });
      const badPort = await create({
        name: 'bad-port',
        type: 'sftp',
        username: 'u',
        properties: { host: 'files', port: '70000' },
      });
      expect(badPort.status).toBe(400);
      expect(badPort.body).toMatchObject({
        details: [{ field: 'properties.port', message: 'Port must be between 1 and 65535' }],
      });
      // One wrong row of an array: none of them is stored.
      const batch = await api.call('/api/db/connections', {
        body: [
          { name: 'fine-one', type: 'http', url: 'http://a.example.test' },
          { name: 'wrong-one', type: 'http', url: 'not a url' },
        ],
      });
      expect(batch.status).toBe(400);
      expect(batch.body).toMatchObject({ code: 'INVALID_CONNECTION', details: [{ row: 1, field: 'url' }] });
      expect(await countNamed('no-bucket', 'bad-url', 'bad-port', 'fine-one', 'wrong-one')).toBe(0);
    });

    it('checks a PATCH against the stored type and keeps secrets it leaves out', async () => {
      const { body } = await create({
        name: 'patched',
        type: 'http',
        url: 'http://a.example.test',
        password: SECRETS.stored,
      });
      const id = body[0]!.id as string;
      const bad = await api.call(`/api/db/connections?id=eq.${id}`, { method: 'PATCH', body: { url: 'nope' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ details: [{ field: 'url' }] });
      const ok = await api.call(`/api/db/connections?id=eq.${id}`, {
        method: 'PATCH',
        body: { url: 'http://b.example.test' },
      });
      expect(ok.status).toBe(204);
      const read = await api.call<Record<string, unknown>[]>(`/api/db/connections?id=eq.${id}&select=url,has_password`);
      expect(read.body).toEqual([{ url: 'http://b.example.test', has_password: true }]);
    });

    it('refuses to change or delete a connection that came from elsewhere (source not UI)', async () => {
      const { body } = await create({
        name: 'from-crd',
        type: 'http',
        url: 'http://crd.example.test',
        source: 'KubernetesCRD',
      });
      const id = body[0]!.id as string;
      for (const patch of [{ url: 'http://other.example.test' }, { deleted_at: new Date().toISOString() }]) {
        const refused = await api.call(`/api/db/connections?id=eq.${id}`, { method: 'PATCH', body: patch });
        expect(refused.status).toBe(403);
        expect(refused.body).toMatchObject({ code: 'READ_ONLY_SOURCE' });
      }
      const read = await api.call<Record<string, unknown>[]>(`/api/db/connections?id=eq.${id}&select=url,deleted_at`);
      expect(read.body).toEqual([{ url: 'http://crd.example.test', deleted_at: null }]);
    });

    it('keeps secret references as written and says so without the secret', async () => {
      const res = await create({
        name: 'ref-db',
        type: 'postgres',
        url: 'postgres://db:5432/app',
        username: 'app',
        password: { valueFrom: { secretKeyRef: { name: 'db-creds', key: 'password' } } },
      });
      expect(res.status).toBe(201);
      expect(res.body[0]).toMatchObject({ has_password: true, password_ref: 'secret://db-creds/password' });
      const asked = await api.call('/api/db/connections?select=password&name=eq.ref-db');
      expect(asked.status).toBe(400);
    });

    it('says a reference needs a kubeconfig when none is configured', async () => {
      const saved = process.env.KUBECONFIG;
      delete process.env.KUBECONFIG;
      try {
        const res = await testForm({
          type: 'postgres',
          url: 'postgres://127.0.0.1:1/x',
          username: 'a',
          password: 'secret://db-creds/password',
        });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({
          message: expect.stringMatching(
            /^password secret:\/\/db-creds\/password is read from Kubernetes, which needs a kubeconfig/,
          ),
        });
      } finally {
        if (saved !== undefined) process.env.KUBECONFIG = saved;
      }
    });
  });

  describe('permissions', () => {
    it('refuses a viewer reads, writes and tests', async () => {
      const { rows } = await test.db.query<{ id: string }>('SELECT id FROM connections LIMIT 1');
      expect((await api.call('/api/db/connections', { as: viewer })).status).toBe(403);
      expect(
        (await api.call('/api/db/connections', { as: viewer, body: { name: 'v', type: 'http', url: 'http://x' } }))
          .status,
      ).toBe(403);
      expect((await api.call(`/api/connection/test/${rows[0]!.id}`, { as: viewer, method: 'POST' })).status).toBe(403);
      expect(
        (await api.call('/api/connection/test', { as: viewer, body: { type: 'http', url: 'http://x' } })).status,
      ).toBe(403);
    });
  });

  describe('the Test', () => {
    it('answers 404 for an unknown id, 400 for bad JSON and field errors, 501 for an untestable type', async () => {
      expect((await testId('00000000-0000-4000-8000-000000000000')).status).toBe(404);
      expect((await testId('not-an-id')).status).toBe(404);
      const badJson = await api.call('/api/connection/test', { raw: '{"type": ' });
      expect(badJson.status).toBe(400);
      expect(badJson.body).toMatchObject({ error: expect.stringMatching(/^The body must be a JSON connection/) });
      const invalid = await testForm({ type: 'postgres', url: 'postgres://db:99999/x', username: 'a', password: 'b' });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ code: 'INVALID_CONNECTION', details: [{ field: 'url' }] });
      const unsupported = await testForm({ type: 'pagerduty', password: 'routing-key' });
      expect(unsupported.status).toBe(501);
      expect(unsupported.body).toEqual({
        error: 'We currently do not support testing this connection type',
        message: 'We currently do not support testing this connection type',
      });
    });

    it('gives the cause for a refused port and a malformed URL', async () => {
      const port = await closedPort();
      const started = Date.now();
      const refused = await testForm({ type: 'http', url: `http://127.0.0.1:${port}/` });
      expect(refused).toMatchObject({ status: 400, body: { error: `connection refused: 127.0.0.1:${port}` } });
      const malformed = await testForm({ type: 'loki', url: 'http://[not-a-host/' });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toMatchObject({ error: expect.stringMatching(/^URL /) });
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it.runIf(kind === 'pglite')('gives up on a server that never answers at the time limit', async () => {
      silent = net.createServer(() => undefined);
      await new Promise<void>((r) => silent!.listen(0, '127.0.0.1', r));
      const { port } = silent.address() as net.AddressInfo;
      const started = Date.now();
      const res = await testForm({ type: 'http', url: `http://127.0.0.1:${port}/` });
      const took = Date.now() - started;
      expect(res).toMatchObject({
        status: 400,
        body: { error: `timed out after 15000 ms waiting for 127.0.0.1:${port}` },
      });
      expect(took).toBeGreaterThanOrEqual(14_900);
      expect(took).toBeLessThan(17_000);
    });

    it.skipIf(!PG_URL)('connects to PostgreSQL, and names the role that does not exist', async () => {
      const u = new URL(PG_URL!);
      const url = `postgres://$(username):$(password)@${u.host}${u.pathname}`;
      const { body } = await create({
        name: 'pg-main',
        type: 'postgresql',
        url,
        username: u.username,
        password: SECRETS.pg,
      });
      const ok = await testId(body[0]!.id as string);
      expect(ok).toMatchObject({
        status: 200,
        body: { message: 'ok', details: `SELECT 1 on ${u.host}${u.pathname} answered` },
      });
      expect(typeof (ok.body as { duration_ms: unknown }).duration_ms).toBe('number');
      const wrong = await testForm({ type: 'postgres', url, username: 'no_such_role_x', password: SECRETS.pg });
      expect(wrong).toMatchObject({
        status: 400,
        body: { error: `cannot connect to ${u.host}: role "no_such_role_x" does not exist` },
      });
    });

    it.skipIf(!MYSQL_URL)('connects to MariaDB, and says the password is wrong', async () => {
      const u = new URL(MYSQL_URL!);
      const url = `mysql://${u.host}/`;
      const ok = await testForm({ type: 'mariadb', url, username: mysqlUser, password: SECRETS.mysql });
      expect(ok).toMatchObject({ status: 200, body: { message: 'ok', details: `SELECT 1 on ${u.host} answered` } });
      const wrong = await testForm({ type: 'mysql', url, username: mysqlUser, password: SECRETS.mysqlWrong });
      expect(wrong.status).toBe(400);
      expect((wrong.body as { error: string }).error).toMatch(
        new RegExp(`^cannot connect to ${u.host}: Access denied for user '${mysqlUser}'`),
      );
    });

    it.skipIf(!REDIS_URL)('connects to Redis with AUTH, and says the password is wrong', async () => {
      const u = new URL(REDIS_URL!);
      const ok = await testForm({
        type: 'redis',
        url: `redis://${u.host}`,
        username: redisUser,
        password: SECRETS.redis,
        properties: { db: '1' },
      });
      expect(ok).toMatchObject({ status: 200, body: { details: `PING on ${u.host} (db 1) answered PONG` } });
      const wrong = await testForm({
        type: 'redis',
        url: `redis://${u.host}`,
        username: redisUser,
        password: SECRETS.redisWrong,
      });
      expect(wrong.status).toBe(400);
      expect((wrong.body as { error: string }).error).toMatch(
        new RegExp(`^Redis at ${u.host} refused the credentials: WRONGPASS`),
      );
    });

    it('signs in to SMTP without sending mail, and says the password is wrong', async () => {
      const port = new URL(smtp.url).port;
      const mail = {
        type: 'email',
        username: 'mailer',
        properties: { host: '127.0.0.1', port, from: 'ops@example.test' },
      };
      const { body } = await create({ name: 'smtp-test', ...mail, password: SECRETS.smtp });
      const id = body[0]!.id as string;
      const ok = await testId(id);
      expect(ok).toMatchObject({
        status: 200,
        body: {
          message: 'ok',
          details: `127.0.0.1:${port} answered EHLO and accepted the login of mailer; no mail was sent`,
        },
      });
      const wrong = await testForm({ ...mail, password: SECRETS.smtpWrong });
      expect(wrong.status).toBe(400);
      expect((wrong.body as { error: string }).error).toMatch(
        /^127\.0\.0\.1:\d+ refused the username or password: 535/,
      );
      expect(smtp.messages).toEqual([]);
      // Editing without retyping the password: the stored one is used.
      const unsavedEdit = await testForm({ ...mail, id });
      expect(unsavedEdit.status).toBe(200);
      // PATCH without the password keeps it: the stored connection still signs in.
      const patch = await api.call(`/api/db/connections?id=eq.${id}`, {
        method: 'PATCH',
        body: { properties: { ...mail.properties, fromName: 'Ops' } },
      });
      expect(patch.status).toBe(204);
      expect((await testId(id)).status).toBe(200);
    });

    it('lists a Git repository and finds its ref; names a repository that does not exist', async () => {
      const ok = await testForm({ type: 'git', url: `file://${repoDir}`, username: 'git', password: SECRETS.git });
      expect(ok).toMatchObject({
        status: 200,
        body: {
          details: expect.stringMatching(
            new RegExp(`^git ls-remote file://${repoDir}: refs/heads/main is at [0-9a-f]{12}$`),
          ),
        },
      });
      const missingRef = await testForm({ type: 'git', url: `file://${repoDir}`, properties: { ref: 'release' } });
      expect(missingRef).toMatchObject({
        status: 400,
        body: { error: `ref release was not found in file://${repoDir} (branches: main)` },
      });
      const missing = await testForm({ type: 'git', url: `file://${repoDir}-nope` });
      expect(missing.status).toBe(400);
      expect((missing.body as { error: string }).error).toMatch(
        new RegExp(
          `^git ls-remote file://${repoDir}-nope failed: '${repoDir}-nope' does not appear to be a git repository`,
        ),
      );
    });
  });

  it('never shows a secret in any answer or in the server output', () => {
    expect(api.bodies.length).toBeGreaterThan(20);
    const leaks = leakedSecrets({ answers: api.bodies.join('\n'), output: output.text() }, Object.values(SECRETS));
    expect(leaks).toEqual([]);
  });
});
