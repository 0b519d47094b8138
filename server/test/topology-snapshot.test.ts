// Topology against the catalog and incidents: a component's health rolls up from linked configs,
// its summary counts open incidents and insights, health changes queue component.<health> events,
// the Topology kind applies through the CLI, and GET /api/snapshot/topology/{id} downloads a zip
// whose files hold the subtree, configs with changes, checks with statuses and incidents in range.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { applyFile } from '../src/cliApply.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const TOPOLOGY = `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata:
  name: shop
  namespace: snap
spec:
  type: App
  components:
    - name: frontend
      type: Service
      components:
        - name: web-pod
          type: Pod
    - name: backend
      type: Service
`;

describe.each(databaseKinds())('topology with catalog and incidents on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;
  let topologyId: string;
  const ids: Record<string, string> = {};
  let config: string;
  let relatedConfig: string;
  let check: string;
  let incident: string;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const call = (p: string, init: RequestInit & { as?: TestUser | null } = {}) =>
    fetch(`${app.url}${p}`, {
      ...init,
      headers: {
        ...(init.as === null ? {} : (init.as ?? editor).headers),
        ...(init.headers as Record<string, string>),
      },
    });

  const componentRow = async (name: string) =>
    (
      await test.db.query<{
        id: string;
        health: string;
        summary: { checks: Record<string, number>; incidents: number; insights: number };
      }>(`SELECT id, health, summary FROM components WHERE topology_id = $1 AND name = $2 AND deleted_at IS NULL`, [
        topologyId,
        name,
      ])
    ).rows[0]!;

  it('applies a Topology with the CLI and builds it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-topology-'));
    const file = path.join(dir, 'shop.yaml');
    fs.writeFileSync(file, TOPOLOGY);
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await applyFile(file, app.url, editor.token)).toBe(0);
      expect(log).toHaveBeenCalledWith('topology/snap/shop created');
    } finally {
      log.mockRestore();
    }
    const { rows } = await test.db.query<{ id: string }>(
      `SELECT id FROM topologies WHERE name = 'shop' AND namespace = 'snap' AND deleted_at IS NULL`,
    );
    topologyId = rows[0]!.id;
    const res = await call(`/api/topology/${topologyId}/run`, { method: 'POST' });
    expect(res.status).toBe(200);
    for (const name of ['shop', 'frontend', 'web-pod', 'backend']) ids[name] = (await componentRow(name)).id;
    expect(Object.keys(ids)).toHaveLength(4);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('rolls health up from linked configs, counts open incidents and insights, and queues events', async () => {
    const q = test.db.query.bind(test.db);
    const item = async (name: string, health: string) =>
      (
        await q<{ id: string }>(
          `INSERT INTO config_items (external_id, type, config_class, name, health, config)
           VALUES ($1, 'Kubernetes::Pod', 'Pod', $1, $2, $3) RETURNING id`,
          [name, health, JSON.stringify({ spec: { image: `${name}:1` } })],
        )
      ).rows[0]!.id;
    config = await item('web-pod-abc', 'healthy');
    relatedConfig = await item('web-node', 'healthy');
    await q(
      `INSERT INTO config_relationships (config_id, related_id, relation, selector_id) VALUES ($1, $2, 'NodePod', 'parent')`,
      [relatedConfig, config],
    );
    await q(
      `INSERT INTO config_component_relationships (component_id, config_id, selector_id) VALUES ($1, $2, 'manual')`,
      [ids['web-pod'], config],
    );
    await q(
      `INSERT INTO config_changes (config_id, change_type, summary, created_at) VALUES
         ($1, 'diff', 'image changed', now() - interval '1 hour'),
         ($1, 'diff', 'long ago', now() - interval '10 days'),
         ($2, 'diff', 'node drained', now() - interval '2 hours')`,
      [config, relatedConfig],
    );
    await q(
      `INSERT INTO config_analysis (config_id, analyzer, severity, message, status) VALUES
         ($1, 'privileged', 'high', 'runs privileged', 'open'),
         ($1, 'old-image', 'low', 'fixed', 'resolved')`,
      [config],
    );
    const canary = (
      await q<{ id: string }>(
        `INSERT INTO canaries (name, namespace, spec) VALUES ('snap-checks', 'snap', '{}') RETURNING id`,
      )
    ).rows[0]!.id;
    check = (
      await q<{ id: string }>(
        `INSERT INTO checks (canary_id, type, name, status) VALUES ($1, 'http', 'backend-health', 'healthy') RETURNING id`,
        [canary],
      )
    ).rows[0]!.id;
    await q(
      `INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id) VALUES ($1, $2, $3, 'manual')`,
      [check, ids.backend, canary],
    );
    await q(
      `INSERT INTO check_statuses (check_id, time, status, duration) VALUES
         ($1, now() - interval '5 minutes', true, 12), ($1, now() - interval '3 days', false, 40)`,
      [check],
    );
    incident = (
      await q<{ id: string }>(`INSERT INTO incidents (title, severity) VALUES ('web pods crash', 'high') RETURNING id`)
    ).rows[0]!.id;
    const hypothesis = (
      await q<{ id: string }>(
        `INSERT INTO hypotheses (incident_id, title, status) VALUES ($1, 'bad image', 'Possible') RETURNING id`,
        [incident],
      )
    ).rows[0]!.id;
    await q(
      `INSERT INTO evidences (hypothesis_id, type, description, component_id) VALUES ($1, 'topology', 'Topology', $2)`,
      [hypothesis, ids['web-pod']],
    );
    // A closed incident does not count.
    const closed = (
      await q<{ id: string }>(
        `INSERT INTO incidents (title, status, component_id) VALUES ('old', 'closed', $1) RETURNING id`,
        [ids.backend],
      )
    ).rows[0]!.id;
    expect(closed).toBeTruthy();

    await app.ctx.topology.recompute();
    expect((await componentRow('web-pod')).health).toBe('healthy');
    expect((await componentRow('shop')).summary).toEqual({
      checks: { healthy: 1, unhealthy: 0, warning: 0 },
      incidents: 1,
      insights: 1,
    });
    expect((await componentRow('frontend')).summary).toMatchObject({ incidents: 1, insights: 1 });
    expect((await componentRow('backend')).summary).toMatchObject({ incidents: 0, insights: 0 });

    // The config turns unhealthy: the pod, its parent and the root follow, and events are queued.
    await q(`DELETE FROM event_queue WHERE name LIKE 'component.%'`);
    await q(`UPDATE config_items SET health = 'unhealthy' WHERE id = $1`, [config]);
    await app.ctx.topology.recompute();
    expect((await componentRow('web-pod')).health).toBe('unhealthy');
    expect((await componentRow('frontend')).health).toBe('unhealthy');
    expect((await componentRow('shop')).health).toBe('unhealthy');
    expect((await componentRow('backend')).health).toBe('healthy');
    const { rows: events } = await q<{ name: string; properties: { id: string; previous: string; status: string } }>(
      `SELECT name, properties FROM event_queue WHERE name LIKE 'component.%' ORDER BY properties->>'name'`,
    );
    expect(events.map((e) => [e.name, e.properties.id, e.properties.previous])).toEqual(
      expect.arrayContaining([
        ['component.unhealthy', ids['web-pod'], 'healthy'],
        ['component.unhealthy', ids.frontend, 'healthy'],
        ['component.unhealthy', ids.shop, 'healthy'],
      ]),
    );
    expect(events).toHaveLength(3);
    // Nothing changes on the next pass: no more events.
    await app.ctx.topology.recompute();
    const again = await q(`SELECT 1 FROM event_queue WHERE name LIKE 'component.%'`);
    expect(again.rows).toHaveLength(3);
  });

  const download = async (id: string, query: string, as: TestUser = viewer) => {
    const res = await call(`/api/snapshot/topology/${id}${query}`, { as });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="snapshot-frontend-[\w-]+\.zip"$/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const json = (name: string) => JSON.parse(strFromU8(files[name]!)) as Record<string, unknown>[];
    return { names: Object.keys(files).sort(), json, readme: strFromU8(files['README.md']!) };
  };

  it('downloads a snapshot zip of a component: subtree, configs, changes, checks and incidents in the range', async () => {
    const snap = await download(ids.frontend!, '?start=now-2d&related=false');
    expect(snap.names).toEqual([
      'README.md',
      'check_statuses.json',
      'checks.json',
      'component.json',
      'components.json',
      'config_analysis.json',
      'config_changes.json',
      'configs.json',
      'incidents.json',
      'manifest.json',
    ]);
    expect((snap.json('component.json') as unknown as { name: string }).name).toBe('frontend');
    expect(snap.json('components.json').map((c) => c.name)).toEqual(['web-pod']);
    expect(snap.json('configs.json').map((c) => [c.id, c.name, c.component_ids])).toEqual([
      [config, 'web-pod-abc', [ids['web-pod']]],
    ]);
    // Only the change inside the range.
    expect(snap.json('config_changes.json').map((c) => c.summary)).toEqual(['image changed']);
    expect(
      snap
        .json('config_analysis.json')
        .map((c) => c.analyzer)
        .sort(),
    ).toEqual(['old-image', 'privileged']);
    // The backend's check is not under frontend.
    expect(snap.json('checks.json')).toEqual([]);
    expect(snap.json('incidents.json').map((i) => [i.id, (i.evidences as unknown[]).length])).toEqual([[incident, 1]]);
    const manifest = snap.json('manifest.json') as unknown as {
      component: { id: string };
      related: boolean;
      counts: Record<string, number>;
      truncated: string[];
    };
    expect(manifest.component.id).toBe(ids.frontend);
    expect(manifest.related).toBe(false);
    expect(manifest.counts['components.json']).toBe(1);
    expect(manifest.truncated).toEqual([]);
    expect(snap.readme).toContain('# Snapshot of frontend');
  });

  it('adds related configs with related=true, and check statuses of the range for the root', async () => {
    const snap = await download(ids.frontend!, '?start=now-2d&related=true');
    expect(snap.names).toContain('related_configs.json');
    expect(snap.json('related_configs.json').map((c) => [c.id, c.related_to])).toEqual([[relatedConfig, [config]]]);
    expect(
      snap
        .json('config_changes.json')
        .map((c) => c.summary)
        .sort(),
    ).toEqual(['image changed', 'node drained']);

    const root = await call(`/api/snapshot/topology/${ids.shop}?start=now-1d`, { as: viewer });
    const files = unzipSync(new Uint8Array(await root.arrayBuffer()));
    const statuses = JSON.parse(strFromU8(files['check_statuses.json']!)) as { check_id: string; status: boolean }[];
    expect(statuses).toEqual([expect.objectContaining({ check_id: check, status: true })]);
    const children = JSON.parse(strFromU8(files['components.json']!)) as { name: string }[];
    expect(children.map((c) => c.name).sort()).toEqual(['backend', 'frontend', 'web-pod']);
  });

  it('answers 404 for an unknown component, 400 for a bad range, 401 without a session', async () => {
    const missing = await call(`/api/snapshot/topology/00000000-0000-0000-0000-000000000042`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'No such component.' });
    expect((await call(`/api/snapshot/topology/not-a-uuid`)).status).toBe(404);
    const badRange = await call(`/api/snapshot/topology/${ids.shop}?start=yesterday`);
    expect(badRange.status).toBe(400);
    expect(((await badRange.json()) as { error: string }).error).toMatch(/start "yesterday" is not a time range/);
    const future = await call(`/api/snapshot/topology/${ids.shop}?start=now%2B1d`);
    expect(future.status).toBe(400);
    const badFlag = await call(`/api/snapshot/topology/${ids.shop}?related=maybe`);
    expect(badFlag.status).toBe(400);
    expect((await call(`/api/snapshot/topology/${ids.shop}`, { as: null })).status).toBe(401);
  });

  it('lists components with an external id in components_with_logs', async () => {
    await test.db.query(`UPDATE components SET external_id = 'web-pod-abc' WHERE id = $1`, [ids['web-pod']]);
    const res = await call(`/api/db/components_with_logs?topology_id=eq.${topologyId}&select=id,name,external_id`, {
      as: viewer,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([{ id: ids['web-pod'], name: 'web-pod', external_id: 'web-pod-abc' }]);
  });

  it('leaves out the incidents and the catalog while their features are disabled', async () => {
    await test.db.query(
      `INSERT INTO properties (name, value) VALUES ('incidents.disable', 'true'), ('config.disable', 'true')`,
    );
    app.ctx.identity.featuresChanged();
    try {
      const snap = await download(ids.frontend!, '?start=now-2d');
      expect(snap.names).toEqual([
        'README.md',
        'check_statuses.json',
        'checks.json',
        'component.json',
        'components.json',
        'manifest.json',
      ]);
      const manifest = snap.json('manifest.json') as unknown as { omitted: string[] };
      expect(manifest.omitted).toEqual(
        expect.arrayContaining(['incidents.json', 'configs.json', 'config_changes.json']),
      );
    } finally {
      await test.db.query(`DELETE FROM properties WHERE name IN ('incidents.disable', 'config.disable')`);
      app.ctx.identity.featuresChanged();
    }
  });

  it('refuses snapshots while the topology feature is disabled', async () => {
    await test.db.query(`INSERT INTO properties (name, value) VALUES ('topology.disable', 'true')`);
    app.ctx.identity.featuresChanged();
    try {
      const res = await call(`/api/snapshot/topology/${ids.shop}`, { as: viewer });
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'FEATURE_DISABLED' });
    } finally {
      await test.db.query(`DELETE FROM properties WHERE name = 'topology.disable'`);
      app.ctx.identity.featuresChanged();
    }
  });
});
