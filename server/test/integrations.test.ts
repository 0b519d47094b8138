// Settings → Integrations through /api/db/integrations (0013): a Topology applied through
// /api/topology and a ScrapeConfig applied through /api/catalog are listed together with their type
// and their last run (the newest job_history row); deleted ones leave the list; a viewer reads it;
// nobody writes it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

interface IntegrationRow {
  id: string;
  name: string;
  namespace: string;
  source: string;
  integration_type: string;
  agent_id: string;
  labels: Record<string, string>;
  schedule: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  job_status: string | null;
  job_details: Record<string, unknown> | null;
  job_name: string | null;
  job_time_start: string | null;
}

describe.each(databaseKinds())('integrations on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;
  let dir: string;
  let topologyId: string;
  let scraperId: string;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-integrations-'));
    fs.writeFileSync(path.join(dir, 'apps.yaml'), 'id: app-1\nname: cart\nkind: App\n');
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const api = (p: string, init: RequestInit & { as?: TestUser } = {}) =>
    fetch(`${app.url}${p}`, { ...init, headers: { ...(init.as ?? editor).headers, ...(init.headers as object) } });

  async function applyOk(endpoint: string, yaml: string): Promise<string> {
    const res = await api(endpoint, { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' } });
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.applied[0]!.id;
  }

  async function integrations(query = 'order=name.asc', as = editor): Promise<IntegrationRow[]> {
    const res = await api(`/api/db/integrations?${query}`, { as });
    const body = (await res.json()) as IntegrationRow[];
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  }

  it('lists an applied topology and scraper with their type and no run yet', async () => {
    topologyId = await applyOk(
      '/api/topology',
      `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: shop
  namespace: ops
  labels: {team: payments}
spec:
  schedule: "@every 5m"
  type: App
  components:
    - name: web
      type: Service
`,
    );
    scraperId = await applyOk(
      '/api/catalog',
      `apiVersion: configs.flanksource.com/v1
kind: ScrapeConfig
metadata:
  name: app-files
  namespace: ops
spec:
  schedule: "@every 60m"
  file:
    - type: "Demo::App"
      id: $.id
      name: $.name
      paths: ["${dir}/*.yaml"]
`,
    );

    const rows = await integrations();
    expect(rows.map((r) => [r.name, r.integration_type, r.id])).toEqual([
      ['app-files', 'scrapers', scraperId],
      ['shop', 'topologies', topologyId],
    ]);
    const shop = rows[1]!;
    expect(shop).toMatchObject({
      namespace: 'ops',
      source: 'UI',
      agent_id: '00000000-0000-0000-0000-000000000000',
      labels: { team: 'payments' },
      schedule: '@every 5m',
      created_by: editor.id,
      job_status: null,
      job_details: null,
      job_name: null,
      job_time_start: null,
    });
    expect(Object.keys(shop).sort()).toEqual(
      [
        'id',
        'name',
        'namespace',
        'source',
        'integration_type',
        'agent_id',
        'labels',
        'schedule',
        'created_by',
        'created_at',
        'updated_at',
        'job_status',
        'job_details',
        'job_name',
        'job_time_start',
      ].sort(),
    );
    expect(rows[0]).toMatchObject({ namespace: 'ops', schedule: '@every 60m', created_by: editor.id });
  });

  it('shows the last run of each after running them', async () => {
    const topologyRun = await api(`/api/topology/${topologyId}/run`, { method: 'POST' });
    expect(topologyRun.status, await topologyRun.clone().text()).toBe(200);
    expect(((await topologyRun.json()) as { status: string }).status).toBe('SUCCESS');
    const scraperRun = await api(`/api/catalog/run/${scraperId}`, { method: 'POST' });
    expect(scraperRun.status, await scraperRun.clone().text()).toBe(200);
    expect(((await scraperRun.json()) as { status: string }).status).toBe('SUCCESS');

    const rows = await integrations();
    const byType = new Map(rows.map((r) => [r.integration_type, r]));
    expect(byType.get('topologies')).toMatchObject({ job_status: 'SUCCESS', job_name: 'Topology' });
    expect(byType.get('scrapers')).toMatchObject({ job_status: 'SUCCESS', job_name: 'ConfigScraper' });
    for (const r of rows) {
      expect(r.job_details).toEqual(expect.any(Object));
      expect(Date.now() - Date.parse(r.job_time_start!)).toBeLessThan(5 * 60_000);
    }

    // The newest run wins: a later failed run of the scraper shows as its last job.
    await test.db.query(
      `INSERT INTO job_history (name, resource_type, resource_id, status, details, time_start)
       VALUES ('ConfigScraper', 'config_scraper', $1, 'FAILED', '{"errors": ["disk gone"]}', now() + interval '1 minute')`,
      [scraperId],
    );
    const after = await integrations(`id=eq.${scraperId}`);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ job_status: 'FAILED', job_details: { errors: ['disk gone'] } });
  });

  it('pages, counts, sorts and filters on the server', async () => {
    const res = await api('/api/db/integrations?order=integration_type.desc,name.asc&limit=1&offset=0', {
      headers: { Prefer: 'count=exact' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe('0-0/2');
    expect(((await res.json()) as IntegrationRow[]).map((r) => r.name)).toEqual(['shop']);
    expect((await integrations('integration_type=eq.scrapers')).map((r) => r.name)).toEqual(['app-files']);
    expect((await integrations('order=updated_at.desc')).length).toBe(2);
  });

  it('lets a viewer read and refuses every write', async () => {
    expect((await integrations('order=name.asc', viewer)).map((r) => r.name)).toEqual(['app-files', 'shop']);
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const res = await api(`/api/db/integrations${method === 'POST' ? '' : `?id=eq.${topologyId}`}`, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'DELETE' ? undefined : JSON.stringify({ name: 'renamed' }),
      });
      expect(res.status, method).toBe(405);
    }
    expect((await integrations(`id=eq.${topologyId}`))[0]!.name).toBe('shop');
  });

  it('leaves deleted topologies and scrapers out', async () => {
    expect((await api(`/api/topology/${topologyId}`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect((await integrations()).map((r) => r.name)).toEqual(['app-files']);
    expect((await api(`/api/catalog/${scraperId}`, { method: 'DELETE' })).status).toBeLessThan(300);
    expect(await integrations()).toEqual([]);
  });
});
