// The health engine end to end: canaries applied from YAML, checks really run against a loopback HTTP
// server on their schedule and on demand, results, transitions, events, job history, roll-ups, the
// summary API, and replicas sharing one database without running a check twice.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { checkers } from '../src/health/checkers/index.js';
import { HealthEngine } from '../src/health/engine.js';
import { rollupCheckStatuses } from '../src/health/rollup.js';
import { runRetention } from '../src/retention/run.js';
import { retentionTable } from '../src/retention/tables.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

/** A target whose answer the test controls. */
async function startTarget() {
  const state = { status: 200, body: '{"status":"ok","items":[1,2,3]}', hits: 0 };
  const server = http.createServer((req, res) => {
    state.hits++;
    res.writeHead(state.status, { 'content-type': 'application/json' });
    res.end(state.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const canaryYaml = (url: string, name = 'web', schedule = '@every 1m') => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: ${name}
  namespace: team-a
  labels: {env: test}
spec:
  schedule: "${schedule}"
  http:
    - name: status-endpoint
      url: ${url}/status
      responseCodes: [200]
      test:
        expr: "json.status == 'ok' && size(json.items) == 3"
      display:
        template: "code={{.code}} items={{len .json.items}}"
      labels: {tier: frontend}
    - name: always-fails-test
      url: ${url}/status
      test:
        expr: "code == 201"
`;

describe.each(databaseKinds())('health engine on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let editor: TestUser;
  let viewer: TestUser;
  let responder: TestUser;

  beforeAll(async () => {
    target = await startTarget();
    test = await openTestDatabase(kind);
    // The scheduler is driven by the test (tick) so timing is deterministic.
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
    responder = await createTestUser(test.db, 'responder');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    await target?.close();
  });

  const api = (path: string, init: RequestInit & { as?: TestUser } = {}) =>
    fetch(`${app.url}${path}`, {
      ...init,
      headers: { ...(init.as ?? editor).headers, ...(init.headers as Record<string, string>) },
    });

  async function apply(yaml: string, as = editor) {
    return api('/api/canary', { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' }, as });
  }

  async function checkRow(name: string) {
    const { rows } = await test.db.query<{
      id: string;
      status: string | null;
      last_transition_time: string | null;
      next_runtime: string;
    }>('SELECT id, status, last_transition_time, next_runtime FROM checks WHERE name = $1 AND deleted_at IS NULL', [
      name,
    ]);
    return rows[0]!;
  }

  /** Makes a canary due now and runs one scheduler pass to completion. */
  async function runDue(canaryName: string, engine: HealthEngine = app.ctx.health) {
    await test.db.query(`UPDATE canaries SET next_runtime = now() - interval '1 second' WHERE name = $1`, [canaryName]);
    expect(await engine.tick()).toBeGreaterThanOrEqual(1);
    await engine.stop();
  }

  it('applies a Canary from YAML and keeps it to read back', async () => {
    const res = await apply(canaryYaml(target.url));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { applied: { id: string; created: boolean; checks: unknown[] }[] };
    expect(body.applied[0]).toMatchObject({
      created: true,
      checks: [{ name: 'status-endpoint' }, { name: 'always-fails-test' }],
    });
    const yaml = await (await api(`/api/canary/${body.applied[0]!.id}/spec`)).text();
    expect(yaml.startsWith('apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:')).toBe(true);
    // Applied checks show when they will first run.
    const { rows: fresh } = await test.db.query<{ next_runtime: string | null }>(
      `SELECT next_runtime FROM checks WHERE canary_id = $1`,
      [body.applied[0]!.id],
    );
    expect(fresh.every((r) => r.next_runtime !== null)).toBe(true);
    expect(yaml).toContain("json.status == 'ok'");
    const again = await apply(canaryYaml(target.url));
    expect(((await again.json()) as { applied: { created: boolean }[] }).applied[0]!.created).toBe(false);
    const { rows } = await test.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM checks WHERE deleted_at IS NULL AND canary_id = $1`,
      [body.applied[0]!.id],
    );
    expect(Number(rows[0]!.n)).toBe(2);
  });

  it('refuses invalid canaries with the field path and line', async () => {
    const bad = await apply(
      `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: bad\nspec:\n  http:\n    - url: http://x\n  carrierPigeon:\n    - name: coo\n`,
    );
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { errors: { message: string; line: number }[] };
    expect(body.errors.map((e) => e.message).join('\n')).toMatch(/spec\.http\[0\]\.name: .* \(line 7, column \d+\)/);
    expect(body.errors.map((e) => e.message).join('\n')).toMatch(
      /spec\.carrierPigeon: check type "carrierPigeon" is not supported \(supported: .*http.*\)/,
    );
    const syntax = await apply('apiVersion: canaries.flanksource.com/v1\nkind: Canary\n  metadata: x\n');
    expect(syntax.status).toBe(400);
    const syntaxError = ((await syntax.json()) as { errors: { line: number; message: string }[] }).errors[0]!;
    expect(syntaxError.line).toBeGreaterThanOrEqual(2);
    expect(syntaxError.message).toMatch(/\(line \d+, column \d+\)$/);
    expect((await apply('')).status).toBe(400);
    // An error inside a check points at the field's own line.
    const field = await apply(
      `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: fieldline\nspec:\n  http:\n    - name: a\n      url: http://x\n      thresholdMillis: abc\n`,
    );
    const fieldError = ((await field.json()) as { errors: { path: string; line: number }[] }).errors[0]!;
    expect(fieldError).toMatchObject({ path: 'spec.http[0].thresholdMillis', line: 9 });
    expect((await apply(canaryYaml(target.url, 'nope'), viewer)).status).toBe(403);
  });

  it('runs checks on schedule: status, message, test failures, history, events (a first failure, not a first pass) and job history', async () => {
    await runDue('web');
    const ok = await checkRow('status-endpoint');
    expect(ok.status).toBe('healthy');
    const failing = await checkRow('always-fails-test');
    expect(failing.status).toBe('unhealthy');
    const { rows: statuses } = await test.db.query<{
      status: boolean;
      message: string | null;
      error: string | null;
      duration: number;
    }>('SELECT status, message, error, duration FROM check_statuses WHERE check_id = $1', [ok.id]);
    expect(statuses).toEqual([expect.objectContaining({ status: true, message: 'code=200 items=3', error: null })]);
    const { rows: failed } = await test.db.query<{ error: string }>(
      'SELECT error FROM check_statuses WHERE check_id = $1',
      [failing.id],
    );
    expect(failed[0]!.error).toBe('test failed: code == 201');
    const { rows: events } = await test.db.query<{ name: string; properties: { id: string } }>(
      `SELECT name, properties FROM event_queue WHERE name LIKE 'check.%'`,
    );
    // A new check's first failure is news; its first pass is not.
    expect(events.map((e) => `${e.name}:${e.properties.id}`)).toEqual([`check.failed:${failing.id}`]);
    const { rows: jobs } = await test.db.query<{ status: string; success_count: number; error_count: number }>(
      `SELECT status, success_count, error_count FROM job_history WHERE name = 'Canary'`,
    );
    expect(jobs).toEqual([{ status: 'WARNING', success_count: 1, error_count: 1 }]);
    const listed = await api('/api/db/job_histories?resource_type=eq.canary&select=name,resource_name,status', {
      as: viewer,
    });
    expect(await listed.json()).toEqual([{ name: 'Canary', resource_name: 'team-a/web', status: 'WARNING' }]);
    // The next run follows the schedule.
    expect(new Date(ok.next_runtime).getTime()).toBeGreaterThan(Date.now());
    // Settings → Event Queue reads the summary per event name.
    const summary = await api('/api/db/event_queue_summary?name=like.check.*&order=name', { as: viewer });
    expect(await summary.json()).toEqual([expect.objectContaining({ name: 'check.failed', pending: 1, failed: 0 })]);
  });

  it('turns unhealthy when the target breaks, with one transition and one event', async () => {
    const before = await checkRow('status-endpoint');
    target.state.status = 503;
    const run = await api(`/api/canary/run/check/${before.id}`, { method: 'POST', as: responder });
    expect(run.status).toBe(200);
    expect(await run.json()).toMatchObject({ pass: false, error: expect.stringContaining('503') });
    const after = await checkRow('status-endpoint');
    expect(after.status).toBe('unhealthy');
    expect(after.last_transition_time).not.toBe(before.last_transition_time);
    // A second failing run is no transition.
    await api(`/api/canary/run/check/${before.id}`, { method: 'POST', as: responder });
    expect((await checkRow('status-endpoint')).last_transition_time).toBe(after.last_transition_time);
    const { rows } = await test.db.query(
      `SELECT 1 FROM event_queue WHERE name = 'check.failed' AND properties->>'id' = $1`,
      [before.id],
    );
    expect(rows).toHaveLength(1);
    target.state.status = 200;
  });

  it('lets admin, editor, responder and commander run a check now, not a viewer', async () => {
    const { id } = await checkRow('status-endpoint');
    expect((await api(`/api/canary/run/check/${id}`, { method: 'POST', as: viewer })).status).toBe(403);
    expect((await api(`/api/canary/run/check/${id}`, { method: 'POST', as: editor })).status).toBe(200);
    expect((await api(`/api/canary/run/check/00000000-0000-4000-8000-000000000000`, { method: 'POST' })).status).toBe(
      404,
    );
  });

  it('serves the summary with uptime, latency and labels, filtered by labels', async () => {
    const res = await api('/api/canary/api/summary?start=1h', { as: viewer });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      duration: number;
      checks_summary: {
        name: string;
        labels: Record<string, string>;
        uptime: { passed: number; failed: number };
        latency: { p95: number };
      }[];
    };
    const item = body.checks_summary.find((c) => c.name === 'status-endpoint')!;
    expect(item).toMatchObject({
      canary_name: 'web',
      canary_namespace: 'team-a',
      type: 'http',
      status: 'healthy',
      labels: { env: 'test', tier: 'frontend' },
    });
    expect(item.uptime.passed + item.uptime.failed).toBeGreaterThanOrEqual(3);
    expect(item.latency.p95).toBeGreaterThanOrEqual(0);
    const filtered = (await (
      await api(`/api/canary/api/summary?labels=${encodeURIComponent('{"tier":"frontend"}')}`)
    ).json()) as { checks_summary: unknown[] };
    expect(filtered.checks_summary).toHaveLength(1);
    expect((await api('/api/canary/api/summary?start=yesterday-ish')).status).toBe(400);
    expect((await api('/api/canary/api/summary?start=1mo')).status).toBe(200);
    expect((await api('/api/canary/api/summary?start=now-1y')).status).toBe(200);
    expect(item).toHaveProperty('agent_name', null);
  });

  it('serves per-check stats and history through /api/db as the console reads them', async () => {
    const { id } = await checkRow('status-endpoint');
    const stats = (await (await api(`/api/canary/checks/${id}/stats?start=1h&buckets=12`)).json()) as {
      uptime: { passed: number };
      series: unknown[];
      latency: { p99: number };
    };
    expect(stats.uptime.passed).toBeGreaterThanOrEqual(1);
    expect(stats.series.length).toBeGreaterThanOrEqual(1);
    // Not a check id, or no such check: 404 (the id is compared as a uuid, never a 500).
    for (const bad of ['not-a-uuid', '00000000-0000-0000-0000-00000000000g', '5f0c6a3e-0000-4000-8000-000000000000'])
      expect((await api(`/api/canary/checks/${bad}/stats?start=1h`)).status).toBe(404);
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const history = await api(
      `/api/db/check_statuses?check_id=eq.${id}&time=gt.${since}&order=time.desc&status=eq.false&limit=50&offset=0`,
      {
        headers: { prefer: 'count=exact' },
        as: viewer,
      },
    );
    expect(history.status).toBe(200);
    expect(history.headers.get('content-range')).toMatch(/^0-\d+\/\d+$/);
    expect(((await history.json()) as { status: boolean }[]).every((s) => s.status === false)).toBe(true);
  });

  it('rolls statuses up by hour and day and prunes raw rows past retention', async () => {
    const { id } = await checkRow('always-fails-test');
    await test.db.query(
      `INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, now() - interval '40 days', true, 10)`,
      [id],
    );
    const r = await rollupCheckStatuses(app.ctx.db, new Date(Date.now() - 45 * 86_400_000));
    expect(r.ran).toBe(true);
    const pruned = await runRetention(app.ctx.db, retentionTable('check_statuses'), { owner: 'test', days: 30 });
    expect(pruned.deleted).toBe(1);
    const { rows } = await test.db.query<{ total: number }>(
      `SELECT sum(total)::int AS total FROM check_statuses_1h WHERE check_id = $1`,
      [id],
    );
    expect(rows[0]!.total).toBeGreaterThanOrEqual(2);
    const { rows: daily } = await test.db.query(`SELECT 1 FROM check_statuses_1d WHERE check_id = $1`, [id]);
    expect(daily.length).toBeGreaterThanOrEqual(1);
  });

  it('expands one check into several results with a transform, and fails on expression errors', async () => {
    const yaml = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: fanout}
spec:
  http:
    - name: items
      url: ${target.url}/items
      transform:
        javascript: |
          JSON.stringify(json.items.map(function (n) {
            return { name: "item-" + n, pass: n !== 2, message: "value " + n, labels: { item: String(n) } };
          }))
    - name: broken-display
      url: ${target.url}/items
      display:
        expr: "json.nope.deeper"
`;
    expect((await apply(yaml)).status).toBe(201);
    await runDue('fanout');
    const { rows } = await test.db.query<{
      name: string;
      status: string;
      transformed_by: string | null;
      labels: Record<string, string>;
    }>(
      `SELECT c.name, c.status, c.transformed_by, c.labels FROM checks c JOIN canaries ca ON ca.id = c.canary_id
       WHERE ca.name = 'fanout' AND c.deleted_at IS NULL ORDER BY c.name`,
    );
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['broken-display', 'unhealthy'],
      ['item-1', 'healthy'],
      ['item-2', 'unhealthy'],
      ['item-3', 'healthy'],
      ['items', 'healthy'],
    ]);
    const parent = (await checkRow('items')).id;
    expect(rows.filter((r) => r.name.startsWith('item-')).every((r) => r.transformed_by === parent)).toBe(true);
    expect(rows.find((r) => r.name === 'item-2')!.labels).toEqual({ item: '2' });
    const broken = await checkRow('broken-display');
    const { rows: statuses } = await test.db.query<{ error: string }>(
      'SELECT error FROM check_statuses WHERE check_id = $1',
      [broken.id],
    );
    expect(statuses[0]!.error).toMatch(/^display could not be evaluated: /);
  });

  it('removes checks dropped from the spec and deletes canaries', async () => {
    const res = await apply(canaryYaml(target.url).split('    - name: always-fails-test')[0]!);
    const { applied } = (await res.json()) as { applied: { id: string; checks: unknown[] }[] };
    expect(applied[0]!.checks).toHaveLength(1);
    const { rows } = await test.db.query(
      `SELECT 1 FROM checks WHERE name = 'always-fails-test' AND deleted_at IS NULL`,
    );
    expect(rows).toHaveLength(0);
    expect((await api(`/api/canary/${applied[0]!.id}`, { method: 'DELETE' })).status).toBe(204);
    const summary = (await (await api('/api/canary/api/summary')).json()) as {
      checks_summary: { canary_name: string }[];
    };
    expect(summary.checks_summary.some((c) => c.canary_name === 'web')).toBe(false);
  });

  it('never runs a canary twice at once when two schedulers share the database', async () => {
    await apply(canaryYaml(target.url, 'shared'));
    await test.db.query(`UPDATE canaries SET next_runtime = now() - interval '1 second' WHERE name = 'shared'`);
    const before = target.state.hits;
    const a = new HealthEngine(app.ctx.db, checkers);
    const b = new HealthEngine(app.ctx.db, checkers);
    const claimed = await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(claimed.reduce((x, y) => x + y, 0)).toBe(1);
    expect(target.state.hits - before).toBe(2); // the canary's two checks, once each
  });
});
