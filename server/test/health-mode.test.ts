// Health-only mode (OPSDECK_MODE=health): the same build with only the health area — the routes and
// /api/db relations of topology, incidents, catalog, logs and playbooks answer 404, while health checks
// are applied and run, status pages, maintenance, identity, connections and notifications stay; the
// console learns the mode from /api/about. Full mode, for contrast, has them all.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';

describe('OPSDECK_MODE', () => {
  const before = process.env.OPSDECK_MODE;
  afterEach(() => {
    if (before === undefined) delete process.env.OPSDECK_MODE;
    else process.env.OPSDECK_MODE = before;
  });
  it('is full by default, health when asked, and refuses anything else', () => {
    delete process.env.OPSDECK_MODE;
    expect(loadConfig().mode).toBe('full');
    process.env.OPSDECK_MODE = 'Health';
    expect(loadConfig().mode).toBe('health');
    process.env.OPSDECK_MODE = 'catalog';
    expect(() => loadConfig()).toThrow('OPSDECK_MODE must be one of full, health, got "catalog"');
  });
});

describe('health-only mode', () => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let target: HttpReceiver;
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${app.url}${path}`, { ...init, headers: { ...admin.headers, ...(init.headers as Record<string, string>) } });

  beforeAll(async () => {
    test = await openTestDatabase('pglite');
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false, mode: 'health' });
    admin = await createTestUser(test.db, 'admin');
    target = await startHttpReceiver();
  });
  afterAll(async () => {
    await app?.close();
    await target?.close();
    await test?.close();
  });

  it('tells the console its mode', async () => {
    const about = (await (await get('/api/about')).json()) as { mode: string };
    expect(about.mode).toBe('health');
  });

  it('answers 404 for the APIs and /api/db relations of the other areas', async () => {
    for (const path of [
      '/api/topology',
      '/api/incidents',
      '/api/catalog/scrapers',
      '/api/resources/search?q=x',
      '/api/playbook',
      '/api/logs',
      '/api/snapshot/topology/x',
      '/api/db/config_items',
      '/api/db/components',
      '/api/db/incidents',
      '/api/db/playbooks',
      '/api/db/logging_backends',
      '/api/db/integrations',
      '/api/db/rpc/related_configs_recursive',
    ]) {
      const res = await get(path);
      expect(res.status, path).toBe(404);
      expect(((await res.json()) as { code: string }).code, path).toBe('NOT_FOUND');
    }
    // Writes too, and without a session (absent, not forbidden).
    expect((await get('/api/db/config_scrapers', { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${app.url}/api/db/config_items`)).status).toBe(404);
  });

  it('runs health checks and keeps the settings health needs', async () => {
    const canary = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: health-only
spec:
  schedule: "@every 1h"
  http:
    - name: home
      url: ${target.url}/ok
      responseCodes: [200]
`;
    const applied = await get('/api/canary', {
      method: 'POST',
      body: canary,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(applied.status, await applied.clone().text()).toBe(201);
    const checks = (await (await get('/api/db/checks?select=id,name&name=eq.home')).json()) as { id: string }[];
    expect(checks).toHaveLength(1);
    const run = await get(`/api/canary/run/check/${checks[0]!.id}`, { method: 'POST' });
    expect(run.status, await run.clone().text()).toBe(200);
    expect(target.requests.some((r) => r.path === '/ok')).toBe(true);
    expect((await get('/api/canary/api/summary')).status).toBe(200);
    for (const path of [
      '/api/db/check_statuses?limit=1',
      '/api/db/people?limit=1',
      '/api/db/access_tokens?limit=1',
      '/api/db/connections?limit=1',
      '/api/db/notifications?limit=1',
      '/api/db/maintenance_windows?limit=1',
      '/api/maintenance-window/occurrences',
      '/api/status-page',
      '/api/users',
    ])
      expect((await get(path)).status, path).toBe(200);
  });
});

describe('full mode', () => {
  let test: TestDatabase;
  let app: Opsdeck;
  beforeAll(async () => {
    test = await openTestDatabase('pglite');
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false, mode: 'full' });
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });
  it('has every area', async () => {
    const admin = await createTestUser(test.db, 'admin');
    for (const path of ['/api/db/config_items?limit=1', '/api/db/components?limit=1', '/api/db/incidents?limit=1'])
      expect((await fetch(`${app.url}${path}`, { headers: admin.headers })).status, path).toBe(200);
    expect(
      ((await (await fetch(`${app.url}/api/about`, { headers: admin.headers })).json()) as { mode: string }).mode,
    ).toBe('full');
  });
});
