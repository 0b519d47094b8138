// /metrics, /healthz, /readyz and the request id, against a running server on each database:
// the exposition read by an independent Prometheus-format parser, a failing check visible in its
// metric within one schedule, METRICS_TOKEN, readiness when draining, with a migration missing,
// with the database closed or dropped.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { openPostgres } from '../src/db/database.js';
import { loadMigrations, migrate } from '../src/db/migrate.js';
import { readiness } from '../src/metrics/routes.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { createPostgresDatabase, databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { samples, scrape, value } from './helpers/prometheus.js';
import { until } from './helpers/processes.js';

/** A target whose status code the test sets. */
async function startTarget() {
  const state = { status: 200 };
  const server = http.createServer((_req, res) => {
    res.writeHead(state.status, { 'content-type': 'text/plain' });
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const SCHEDULE_S = 5;
const canary = (url: string) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: metrics-web, namespace: team-m}
spec:
  schedule: "@every ${SCHEDULE_S}s"
  http:
    - name: home
      url: ${url}/home
      responseCodes: [200]
`;

describe.each(databaseKinds())('/metrics, /healthz, /readyz on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let editor: TestUser;

  beforeAll(async () => {
    target = await startTarget();
    test = await openTestDatabase(kind);
    // Only the health engine runs (started below): the test's checks are the only work.
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
  });

  afterAll(async () => {
    await app?.ctx.health.stop();
    await app?.close();
    await test?.close();
    await target?.close();
  });

  it('serves every opsdeck_ metric in the text format, open without METRICS_TOKEN, requests counted by route pattern', async () => {
    const someId = '00000000-0000-0000-0000-00000000abcd';
    expect((await fetch(`${app.url}/api/canary/${someId}/spec`, { headers: editor.headers })).status).toBeLessThan(500);
    expect((await fetch(`${app.url}/api/no/such/thing`, { headers: editor.headers })).status).toBe(404);
    const s = await scrape(app.url);
    expect(s.status).toBe(200);
    expect(s.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of s.families.keys()) expect(name.startsWith('opsdeck_'), name).toBe(true);
    expect(value(s, 'opsdeck_info', { database: kind })).toBe(1);
    // Process metrics (prom-client's defaults) under the prefix.
    expect(s.families.get('opsdeck_process_cpu_user_seconds_total')?.type).toBe('COUNTER');
    expect(s.families.get('opsdeck_nodejs_eventloop_lag_seconds')?.type).toBe('GAUGE');
    // Routes are patterns: the raw id never becomes a label value.
    const routes = samples(s, 'opsdeck_http_requests_total').map((m) => m.labels!.route!);
    expect(routes.some((r) => r.includes(someId))).toBe(false);
    expect(routes).toContain('/api/*');
    expect(routes).toContain('/api/canary/:id/spec');
    expect(value(s, 'opsdeck_http_requests_total', { route: '/api/*', status_class: '4xx', method: 'GET' })).toBe(1);
    expect(s.families.get('opsdeck_http_request_duration_seconds')?.type).toBe('HISTOGRAM');
    // Queues: one series per engine, the notification and playbook queues, the pool.
    for (const engine of ['health', 'topology', 'catalog'])
      for (const name of ['opsdeck_scheduler_due', 'opsdeck_scheduler_late', 'opsdeck_scheduler_lag_seconds'])
        expect(value(s, name, { engine }), `${name}{engine=${engine}}`).toBeGreaterThanOrEqual(0);
    expect(value(s, 'opsdeck_notification_sends_pending')).toBeGreaterThanOrEqual(0);
    expect(value(s, 'opsdeck_playbook_runs_pending')).toBeGreaterThanOrEqual(0);
    expect(value(s, 'opsdeck_db_pool_max')).toBe(kind === 'pglite' ? 1 : 5);
    expect(value(s, 'opsdeck_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(value(s, 'opsdeck_metrics_snapshot_errors_total')).toBe(0);
  });

  it('shows the event queue backlog by event name', async () => {
    await test.db.query(
      `INSERT INTO event_queue (name, properties, created_at) VALUES ('metrics.test', '{}', now() - interval '1 minute')`,
    );
    // The snapshot is cached for a few seconds: wait for a fresh one.
    const s = await until(
      'the backlog in /metrics',
      async () => {
        const got = await scrape(app.url);
        return value(got, 'opsdeck_event_queue_pending', { event: 'metrics.test' }) === 1 ? got : undefined;
      },
      15_000,
    );
    expect(value(s, 'opsdeck_event_queue_oldest_age_seconds', { event: 'metrics.test' })).toBeGreaterThanOrEqual(59);
    await test.db.query(`DELETE FROM event_queue WHERE name = 'metrics.test'`);
  });

  it('shows a failing check in its metrics within one schedule', async () => {
    const res = await fetch(`${app.url}/api/canary`, {
      method: 'POST',
      body: canary(target.url),
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
    });
    expect(res.status, await res.text()).toBeLessThan(300);
    app.ctx.health.start();
    const labels = { check: 'home', canary: 'team-m/metrics-web', type: 'http' };
    await until(
      'the check to pass',
      async () => value(await scrape(app.url), 'opsdeck_check_status', labels) === 1,
      30_000,
    );
    target.state.status = 503;
    const failedAt = Date.now();
    const s = await until(
      'the failure in /metrics',
      async () => {
        const got = await scrape(app.url);
        return value(got, 'opsdeck_check_status', labels) === 0 ? got : undefined;
      },
      30_000,
    );
    // One schedule, plus the poll (1 s) and the snapshot cache (5 s) at most.
    expect(Date.now() - failedAt).toBeLessThan((SCHEDULE_S + 1 + 5 + 2) * 1000);
    expect(value(s, 'opsdeck_check_runs_total', { ...labels, result: 'fail' })).toBeGreaterThanOrEqual(1);
    expect(value(s, 'opsdeck_check_runs_total', { ...labels, result: 'pass' })).toBeGreaterThanOrEqual(1);
    const histogram = samples(s, 'opsdeck_check_duration_seconds', labels)[0]!;
    expect(Number(histogram.count)).toBeGreaterThanOrEqual(2);
    expect(Object.keys(histogram.buckets!)).toContain('+Inf');
    expect(value(s, 'opsdeck_check_last_run_timestamp_seconds', labels)).toBeGreaterThan(failedAt / 1000 - 60);
    // The canary runs are jobs in job_history: their durations too.
    const jobs = await until(
      'a job duration',
      async () => {
        const got = await scrape(app.url);
        return samples(got, 'opsdeck_job_duration_seconds').length ? got : undefined;
      },
      15_000,
    );
    expect(Number(samples(jobs, 'opsdeck_job_duration_seconds')[0]!.count)).toBeGreaterThanOrEqual(1);
    await app.ctx.health.stop();
  });

  it('answers /healthz and /readyz, and carries the request id', async () => {
    const live = await fetch(`${app.url}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok' });
    const given = await fetch(`${app.url}/readyz`, { headers: { 'X-Request-Id': 'probe-42' } });
    expect(given.status).toBe(200);
    expect(given.headers.get('x-request-id')).toBe('probe-42');
    expect(await given.json()).toEqual({ status: 'ready' });
    const made = await fetch(`${app.url}/api/about`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // A header that could forge log lines is replaced.
    const forged = await fetch(`${app.url}/healthz`, { headers: { 'X-Request-Id': 'a b "c"' } });
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);

    app.ctx.lifecycle.draining = true;
    try {
      const draining = await fetch(`${app.url}/readyz`);
      expect(draining.status).toBe(503);
      expect(await draining.json()).toEqual({ status: 'not ready', reason: 'the server is shutting down' });
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    } finally {
      app.ctx.lifecycle.draining = false;
    }
    const versions = loadMigrations().map((m) => m.version);
    expect(await readiness(test.db, { draining: false }, [...versions, 9999])).toEqual({
      ready: false,
      reason: 'migrations not applied: 9999',
    });
  });
});

describe('/metrics with METRICS_TOKEN', () => {
  let test: TestDatabase;
  let app: Opsdeck;
  beforeAll(async () => {
    test = await openTestDatabase('pglite');
    app = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      engines: false,
      metricsToken: 'scrape-secret-1',
    });
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('wants the token as a bearer token', async () => {
    const none = await fetch(`${app.url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await none.json()) as { message: string }).message).toMatch(/METRICS_TOKEN.*Authorization: Bearer/);
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    expect((await fetch(`${app.url}/metrics`, { headers: { authorization: 'scrape-secret-1' } })).status).toBe(401);
    const ok = await scrape(app.url, { authorization: 'Bearer scrape-secret-1' });
    expect(ok.status).toBe(200);
    expect(value(ok, 'opsdeck_info', { database: 'pglite' })).toBe(1);
    // The probes stay open.
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });
});

describe('/readyz without a database', () => {
  it('answers not ready once the database is closed', async () => {
    const test = await openTestDatabase('pglite');
    const versions = loadMigrations().map((m) => m.version);
    expect(await readiness(test.db, { draining: false }, versions)).toEqual({ ready: true });
    await test.close();
    const r = await readiness(test.db, { draining: false }, versions);
    expect(r.ready).toBe(false);
    expect(!r.ready && r.reason).toMatch(/^database unreachable: /);
  });

  it.runIf(!!process.env.TEST_DATABASE_URL)('answers 503 when its PostgreSQL database is dropped', async () => {
    const created = await createPostgresDatabase();
    const db = await openPostgres(created.url, 3);
    let app: Opsdeck | undefined;
    try {
      await migrate(db);
      app = await startOpsdeck({ database: db, port: 0, host: '127.0.0.1', engines: false });
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
      await created.drop();
      const res = await fetch(`${app.url}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { status: string; reason: string };
      expect(body.status).toBe('not ready');
      expect(body.reason).toMatch(/^database unreachable: /);
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    } finally {
      await app?.close().catch(() => undefined);
      await db.close().catch(() => undefined);
      await created.drop().catch(() => undefined);
    }
  });
});
