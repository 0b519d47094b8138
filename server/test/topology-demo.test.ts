// The demo topology: on the first start with an embedded database Opsdeck opens itself (demo on),
// the labelled "opsdeck-demo-topology" is applied and run at once by the real engines, so the card
// query shows Opsdeck's own components, whose inline checks against its own port turn them healthy.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { DEMO_TOPOLOGY_NAME } from '../src/topology/demo.js';
import type { CardComponent, TopologyResponse } from '../src/topology/query.js';
import { createTestUser, type TestUser } from './helpers/auth.js';

describe('demo topology', () => {
  let dir: string;
  let app: Opsdeck;
  let viewer: TestUser;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-demo-topology-'));
    app = await startOpsdeck({ dataDir: dir, port: 0, host: '127.0.0.1', demo: true, engines: true });
    viewer = await createTestUser(app.ctx.db, 'viewer');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const topology = async (query = ''): Promise<TopologyResponse> => {
    const res = await fetch(`${app.url}/api/topology${query}`, { headers: viewer.headers });
    expect(res.status).toBe(200);
    return (await res.json()) as TopologyResponse;
  };

  it('seeds a labelled demo topology describing Opsdeck, built right away', async () => {
    const { rows } = await app.ctx.db.query<{ id: string; source: string; labels: Record<string, string> }>(
      `SELECT id, source, labels FROM topologies WHERE name = $1 AND deleted_at IS NULL`,
      [DEMO_TOPOLOGY_NAME],
    );
    expect(rows).toEqual([{ id: expect.any(String), source: 'demo', labels: { demo: 'true', app: 'opsdeck' } }]);
    // The scheduler's first pass builds it: the card query is not empty.
    await expect
      .poll(async () => (await topology()).components.map((c) => c.name), { timeout: 60_000, interval: 500 })
      .toContain(DEMO_TOPOLOGY_NAME);
    const root = (await topology()).components.find((c) => c.name === DEMO_TOPOLOGY_NAME)!;
    expect(root.components.map((c) => c.name).sort()).toEqual(['API server', 'Database', 'Engines', 'Web console']);
    const engines = root.components.find((c) => c.name === 'Engines')!;
    expect(engines.components.map((c) => c.name).sort()).toEqual([
      'Catalog engine',
      'Health engine',
      'Topology engine',
    ]);
    // Properties read from /api/about by lookups.
    const prop = (c: CardComponent, name: string) => c.properties.find((p) => p.name === name);
    expect(prop(root, 'version')?.text).toBe(app.ctx.version);
    expect(typeof prop(root, 'uptime')?.value).toBe('number');
    const database = root.components.find((c) => c.name === 'Database')!;
    expect(prop(database, 'kind')?.text).toBe('pglite');
  }, 90_000);

  it('runs the inline checks against its own port: the API server turns healthy', async () => {
    const root = (await topology()).components.find((c) => c.name === DEMO_TOPOLOGY_NAME)!;
    const api = root.components.find((c) => c.name === 'API server')!;
    await expect
      .poll(
        async () => {
          await app.ctx.topology.recompute();
          const res = await topology(`?id=${api.id}`);
          return res.components[0]?.health;
        },
        { timeout: 90_000, interval: 1_000 },
      )
      .toBe('healthy');
    const { rows } = await app.ctx.db.query<{ name: string }>(
      `SELECT c.name FROM checks c JOIN check_component_relationships r ON r.check_id = c.id
       WHERE r.component_id = $1 AND r.deleted_at IS NULL`,
      [api.id],
    );
    expect(rows.map((r) => r.name)).toEqual(['opsdeck-demo-api']);
    // The health engine's component shows the demo canary's own checks.
    const engines = root.components.find((c) => c.name === 'Engines')!;
    const health = engines.components.find((c) => c.name === 'Health engine')!;
    const { rows: selected } = await app.ctx.db.query<{ name: string }>(
      `SELECT c.name FROM checks c JOIN check_component_relationships r ON r.check_id = c.id
       WHERE r.component_id = $1 AND r.deleted_at IS NULL ORDER BY c.name`,
      [health.id],
    );
    expect(selected.map((r) => r.name)).toEqual(['opsdeck-api-about', 'opsdeck-http-port']);
  }, 120_000);
});
