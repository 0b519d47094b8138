// Playbook triggers end to end: a check failing (a real result recorded by the health store) starts
// exactly one run of a playbook with on.check [{event: failed}], a storm of 20 events starts one, labels
// and filters keep others out (and the playbook's own `filters`, for events and schedules), two
// replicas' event routers on one PostgreSQL still start one; an on.schedule runs at its time; webhooks refuse wrong credentials (401) and unknown paths (404), and a
// right request starts a run whose exec action sees the body (.request.json).
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { openPostgres } from '../src/db/database.js';
import { recordResult } from '../src/health/store.js';
import { EventRouter } from '../src/jobs/eventQueue.js';
import { PlaybookRunner } from '../src/playbooks/runner.js';
import { PlaybookScheduleTrigger } from '../src/playbooks/scheduleTrigger.js';
import { PlaybookTriggerConsumer } from '../src/playbooks/triggerConsumer.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const playbook = (name: string, spec: string) =>
  `apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata: {name: ${name}, namespace: ops}\nspec:\n${spec}`;

interface RunRow {
  id: string;
  status: string;
  check_id: string | null;
  trigger: { type: string; event?: string; schedule?: string; path?: string };
}

describe.each(databaseKinds())('playbook triggers on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let runner: PlaybookRunner;
  let editor: TestUser;
  let canaryId: string;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    runner = new PlaybookRunner(test.db, { pollMs: 50, heartbeatMs: 100 });
    editor = await createTestUser(test.db, 'editor');
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec, labels) VALUES ('shop', 'shop', '{}', '{"team":"web"}') RETURNING id`,
    );
    canaryId = rows[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await test?.close();
  });

  async function apply(yaml: string): Promise<string> {
    const res = await fetch(`${app.url}/api/playbook`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: yaml,
    });
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.applied[0]!.id;
  }

  async function check(name: string, labels: Record<string, string> = {}): Promise<string> {
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name, namespace, labels, status) VALUES ($1, 'http', $2, 'shop', $3, 'healthy') RETURNING id`,
      [canaryId, name, JSON.stringify(labels)],
    );
    return rows[0]!.id;
  }

  const fail = (checkId: string) =>
    recordResult(
      test.db,
      checkId,
      { pass: false, invalid: false, durationMs: 12, message: 'down', error: 'connection refused', details: null },
      new Date(),
    );

  const runsOf = async (playbookId: string) =>
    (
      await test.db.query<RunRow>(
        'SELECT id, status, check_id, trigger FROM playbook_runs WHERE playbook_id = $1 ORDER BY created_at',
        [playbookId],
      )
    ).rows;

  const stdoutOf = async (runId: string) =>
    (
      await test.db.query<{ out: string | null; error: string | null }>(
        `SELECT result->>'stdout' AS out, error FROM playbook_run_actions WHERE playbook_run_id = $1`,
        [runId],
      )
    ).rows[0];

  /** Runs what is due (earlier tests' runs included) until this run has ended. */
  async function drainUntilDone(runId: string) {
    for (let i = 0; i < 10; i++) {
      await runner.drain();
      const { rows } = await test.db.query<{ status: string }>('SELECT status FROM playbook_runs WHERE id = $1', [
        runId,
      ]);
      if (rows[0]?.status === 'completed' || rows[0]?.status === 'failed') return;
    }
  }

  it('starts exactly one run when a check fails, for the playbook listening for failed checks only', async () => {
    const restart = await apply(
      playbook(
        'on-check-failed',
        `  checks: [{types: [http]}]
  on:
    check: [{event: failed}]
  actions:
    - name: report
      exec: {script: "echo restarting {{.check.name}}"}
`,
      ),
    );
    const other = await apply(
      playbook(
        'on-check-passed-labelled',
        `  on:
    check: [{event: passed}, {event: failed, labels: {tier: db}}, {event: failed, filter: "check.name == 'nothing'"}]
  actions:
    - name: a
      exec: {script: "true"}
`,
      ),
    );
    const checkId = await check('web-home');
    await fail(checkId);
    await app.ctx.events.drain();
    const runs = await runsOf(restart);
    expect(runs).toEqual([
      expect.objectContaining({
        check_id: checkId,
        status: 'pending',
        trigger: { type: 'event', event: 'check.failed' },
      }),
    ]);
    expect(await runsOf(other)).toEqual([]);
    await runner.drain();
    expect(await stdoutOf(runs[0]!.id)).toMatchObject({ out: expect.stringContaining('restarting web-home') });
  });

  it('starts one run for a storm of 20 failure events of the same check', async () => {
    const id = await apply(
      playbook(
        'storm',
        `  on:
    canary: [{event: failed, labels: {app: cart}}]
  actions:
    - name: a
      exec: {script: "true"}
`,
      ),
    );
    const checkId = await check('cart-api', { app: 'cart' });
    for (let i = 0; i < 20; i++)
      await test.db.query(`INSERT INTO event_queue (name, properties) VALUES ('check.failed', $1)`, [
        JSON.stringify({ id: checkId, canary_id: canaryId, name: 'cart-api', status: 'unhealthy' }),
      ]);
    await app.ctx.events.drain();
    expect(await runsOf(id)).toHaveLength(1);
    const { rows } = await test.db.query<{ skipped: number }>(
      'SELECT skipped FROM playbook_trigger_debounce WHERE playbook_id = $1 AND resource_id = $2',
      [id, checkId],
    );
    expect(rows[0]!.skipped).toBe(19);
  });

  it.runIf(kind === 'postgres')('starts one run when two replicas handle a storm of events at once', async () => {
    const id = await apply(
      playbook(
        'two-replicas',
        `  on:
    check: [{event: failed, filter: "check.name.startsWith('replica')"}]
  actions:
    - name: a
      exec: {script: "true"}
`,
      ),
    );
    const checkId = await check('replica-check');
    const second = await openPostgres(test.url!, 5);
    try {
      const routers = [test.db, second].map((db) => {
        const router = new EventRouter(db, { batchSize: 3 });
        router.register(new PlaybookTriggerConsumer());
        return router;
      });
      for (let i = 0; i < 40; i++)
        await test.db.query(`INSERT INTO event_queue (name, properties) VALUES ('check.failed', $1)`, [
          JSON.stringify({ id: checkId, canary_id: canaryId, name: 'replica-check', status: 'unhealthy' }),
        ]);
      await Promise.all(routers.map((r) => r.drain()));
      expect(await runsOf(id)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('runs an on.schedule playbook at its time', async () => {
    const id = await apply(
      playbook(
        'every-5s',
        `  on:
    schedule: [{schedule: "@every 5s"}]
  actions:
    - name: tick
      exec: {script: "echo tick"}
`,
      ),
    );
    const schedules = new PlaybookScheduleTrigger(test.db, { pollMs: 200 });
    schedules.start();
    try {
      const started = Date.now();
      await expect.poll(async () => (await runsOf(id)).length, { timeout: 20_000, interval: 200 }).toBeGreaterThan(0);
      expect(Date.now() - started).toBeGreaterThan(2_000);
    } finally {
      await schedules.stop();
    }
    const [run] = await runsOf(id);
    expect(run!.trigger).toEqual({ type: 'schedule', schedule: '@every 5s' });
    await drainUntilDone(run!.id);
    expect(await stdoutOf(run!.id)).toMatchObject({ out: expect.stringContaining('tick') });
  });

  it('starts no run, from an event or a schedule, when the playbook filters are false for the resource', async () => {
    const id = await apply(
      playbook(
        'filtered',
        `  filters: ["check.name.startsWith('db-')"]
  on:
    check: [{event: failed, labels: {tier: filtered}}]
    schedule: [{schedule: "@every 1h"}]
  actions: [{name: a, exec: {script: "true"}}]
`,
      ),
    );
    const db = await check('db-main', { tier: 'filtered' });
    const web = await check('web-front', { tier: 'filtered' });
    const router = new EventRouter(test.db);
    const consumer = new PlaybookTriggerConsumer();
    router.register(consumer);
    for (const checkId of [db, web])
      await test.db.query(`INSERT INTO event_queue (name, properties) VALUES ('check.failed', $1)`, [
        JSON.stringify({ id: checkId, canary_id: canaryId, status: 'unhealthy' }),
      ]);
    await router.drain();
    expect(await runsOf(id)).toEqual([expect.objectContaining({ check_id: db })]);
    expect(consumer.stats).toMatchObject({ filteredOut: 1, debounced: 0 }); // (on-check-failed starts runs too)
    const { rows } = await test.db.query(
      'SELECT 1 FROM playbook_trigger_debounce WHERE playbook_id = $1 AND resource_id = $2',
      [id, web],
    );
    expect(rows).toEqual([]);

    // A schedule has no resource: check is null, the filter is not true, no run; the schedule moves on.
    await test.db.query(
      `UPDATE playbook_schedules SET next_runtime = now() - interval '1 second' WHERE playbook_id = $1`,
      [id],
    );
    const schedules = new PlaybookScheduleTrigger(test.db);
    await schedules.tick();
    expect(schedules.stats.filteredOut).toBe(1);
    expect(await runsOf(id)).toHaveLength(1);
    const { rows: next } = await test.db.query<{ later: boolean }>(
      'SELECT next_runtime > now() AS later FROM playbook_schedules WHERE playbook_id = $1',
      [id],
    );
    expect(next).toEqual([{ later: true }]);
  });

  const hook = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/playbook/webhook/${path}?source=ci`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });

  it('refuses a webhook with a wrong signature or an unknown path, and starts a run that sees the body', async () => {
    const id = await apply(
      playbook(
        'github-hook',
        `  on:
    webhook:
      path: deploy/github
      authentication: {github: {token: {value: gh-secret}}}
  actions:
    - name: echo
      exec: {script: "echo x={{.request.json.x}} from {{.request.params.source}}"}
`,
      ),
    );
    const body = JSON.stringify({ x: 'forty-two' });
    const sign = (secret: string) => `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`;
    expect((await hook('deploy/github', body, { 'x-hub-signature-256': sign('wrong') })).status).toBe(401);
    expect((await hook('deploy/github', body)).status).toBe(401);
    expect((await hook('deploy/nothing', body)).status).toBe(404);
    expect(await runsOf(id)).toEqual([]);
    const ok = await hook('deploy/github', body, { 'x-hub-signature-256': sign('gh-secret') });
    expect(ok.status).toBe(201);
    const runs = await runsOf(id);
    expect(runs).toEqual([expect.objectContaining({ trigger: { type: 'webhook', path: 'deploy/github' } })]);
    await drainUntilDone(runs[0]!.id);
    expect(await stdoutOf(runs[0]!.id)).toMatchObject({ out: expect.stringContaining('x=forty-two from ci') });
  });

  it('checks basic, svix and JWT webhook authentication, and refuses a path another playbook uses', async () => {
    await apply(
      playbook(
        'basic-hook',
        `  on: {webhook: {path: basic, authentication: {basic: {username: {value: ci}, password: {value: pw}}}}}\n  actions: [{name: a, exec: {script: "true"}}]\n`,
      ),
    );
    const basic = (user: string, pass: string) => ({
      authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`,
    });
    expect((await hook('basic', '{}', basic('ci', 'nope'))).status).toBe(401);
    expect((await hook('basic', '{}', basic('ci', 'pw'))).status).toBe(201);

    const secret = Buffer.from('svix secret bytes').toString('base64');
    await apply(
      playbook(
        'svix-hook',
        `  on: {webhook: {path: svix, authentication: {svix: {secret: {value: "whsec_${secret}"}}}}}\n  actions: [{name: a, exec: {script: "true"}}]\n`,
      ),
    );
    const svix = (body: string, ts: number) => {
      const sig = crypto
        .createHmac('sha256', Buffer.from(secret, 'base64'))
        .update(`msg_1.${ts}.${body}`)
        .digest('base64');
      return { 'svix-id': 'msg_1', 'svix-timestamp': String(ts), 'svix-signature': `v1,${sig}` };
    };
    const now = Math.floor(Date.now() / 1000);
    expect((await hook('svix', '{"a":1}', svix('{"a":2}', now))).status).toBe(401);
    expect((await hook('svix', '{"a":1}', svix('{"a":1}', now - 3600))).status).toBe(401);
    expect((await hook('svix', '{"a":1}', svix('{"a":1}', now))).status).toBe(201);

    const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'RS256', use: 'sig' }] };
    const server = http.createServer((_, res) => res.end(JSON.stringify(jwks)));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      await apply(
        playbook(
          'jwt-hook',
          `  on: {webhook: {path: jwt, authentication: {jwt: {jwksUri: "http://127.0.0.1:${port}/jwks"}}}}\n  actions: [{name: a, exec: {script: "true"}}]\n`,
        ),
      );
      const token = (key: crypto.KeyObject, exp: number) => {
        const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
        const data = `${part({ alg: 'RS256', kid: 'k1' })}.${part({ sub: 'ci', exp })}`;
        return `${data}.${crypto.sign('sha256', Buffer.from(data), key).toString('base64url')}`;
      };
      const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const later = now + 300;
      expect((await hook('jwt', '{}', { authorization: `Bearer ${token(other, later)}` })).status).toBe(401);
      expect((await hook('jwt', '{}', { authorization: `Bearer ${token(privateKey, now - 300)}` })).status).toBe(401);
      expect((await hook('jwt', '{}', { authorization: `Bearer ${token(privateKey, later)}` })).status).toBe(201);
    } finally {
      server.close();
    }

    const taken = await fetch(`${app.url}/api/playbook`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: playbook('thief', `  on:\n    webhook: {path: basic}\n  actions: [{name: a, exec: {script: "true"}}]\n`),
    });
    expect(taken.status).toBe(400);
    expect(((await taken.json()) as { errors: unknown[] }).errors).toEqual([
      expect.objectContaining({ path: 'spec.on.webhook.path', line: 6 }),
    ]);
  });
});
