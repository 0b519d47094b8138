// The topology engine end to end: Topology resources applied from YAML, runs that build component
// trees from static specs and from lookups answered by a loopback HTTP server (forEach, property
// merges), inline checks that become canaries the health engine runs, check/config/team links,
// health roll-up, stable ids across runs, soft deletes, the card query and its permissions.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { authenticate, errorBody, HttpError, type AuthEnv } from '../src/auth/middleware.js';
import { checkers } from '../src/health/checkers/index.js';
import { buildRegistry, type ExposedRelation } from '../src/rest/registry.js';
import { topologyRoutes } from '../src/topology/api.js';
import { TopologyEngine } from '../src/topology/engine.js';
import type { TopologyResponse } from '../src/topology/query.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

/** The registry entries this engine asks for (the same lines as in the hand-over). */
const TOPOLOGY_RELATIONS: ExposedRelation[] = [
  { name: 'topologies', resource: 'topologies' },
  { name: 'components', resource: 'topologies' },
  { name: 'component_names', resource: 'topologies' },
  { name: 'component_labels', resource: 'topologies' },
  { name: 'component_relationships', resource: 'topologies' },
  { name: 'check_component_relationships', resource: 'topologies' },
  { name: 'checks_by_component', resource: 'topologies' },
  { name: 'team_components', resource: 'topologies' },
  { name: 'config_component_relationships', resource: 'topologies' },
];

interface Service {
  name: string;
  state: string;
  replicas: number;
}

/** A service catalogue and health endpoints whose answers the test controls. */
async function startTarget() {
  const state = {
    services: [
      { name: 'cart', state: 'Running', replicas: 2 },
      { name: 'pay', state: 'Running', replicas: 3 },
    ] as Service[],
    servicesStatus: 200,
    healthStatus: 200,
    metrics: [
      { name: 'web', properties: [{ name: 'cpu', value: 70, max: 100 }] },
      { name: 'api', properties: [{ name: 'cpu', value: 20, max: 100 }] },
    ] as unknown[],
  };
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/services') send(state.servicesStatus, state.servicesStatus === 200 ? state.services : {});
    else if (req.url === '/metrics') send(200, state.metrics);
    else if (req.url?.startsWith('/health')) send(state.healthStatus, { ok: state.healthStatus === 200 });
    else send(404, {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const header = (name: string, extra = '') =>
  `apiVersion: canaries.flanksource.com/v1\nkind: Topology\nmetadata:\n  name: ${name}\n  namespace: ops${extra}\nspec:\n`;

describe.each(databaseKinds())('topology engine on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let engine: TopologyEngine;
  let server: ServerType;
  let topologyUrl: string;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let editor: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    target = await startTarget();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      engines: false,
      registry: buildRegistry(TOPOLOGY_RELATIONS),
    });
    // The scheduler is driven by the test; the roll-up runs after every run.
    engine = new TopologyEngine(app.ctx.db, checkers, { recomputeMs: 0 });
    const api = new Hono<AuthEnv>();
    api.use('/api/*', authenticate(app.ctx.identity, app.ctx.config.publicUrl, false));
    api.route('/api/topology', topologyRoutes({ db: app.ctx.db, identity: app.ctx.identity, checkers, engine }));
    api.onError((err, c) => {
      if (err instanceof HttpError) return c.json(errorBody(err), err.status);
      console.error(err);
      return c.json({ error: 'Internal server error' }, 500);
    });
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    topologyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
  });

  afterAll(async () => {
    await engine?.stop();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await app?.close();
    await test?.close();
    await target?.close();
  });

  const call = (base: () => string, path: string, init: RequestInit & { as?: TestUser } = {}) =>
    fetch(`${base()}${path}`, {
      ...init,
      headers: { ...(init.as ?? editor).headers, ...(init.headers as Record<string, string>) },
    });
  const api = (path: string, init: RequestInit & { as?: TestUser } = {}) => call(() => topologyUrl, path, init);
  const db = (path: string, init: RequestInit & { as?: TestUser } = {}) => call(() => app.url, path, init);

  async function apply(yaml: string, as = editor) {
    return api('/api/topology', { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' }, as });
  }

  async function applyOk(yaml: string): Promise<string> {
    const res = await apply(yaml);
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.applied[0]!.id;
  }

  async function run(id: string) {
    const res = await api(`/api/topology/${id}/run`, { method: 'POST' });
    expect(res.status).toBe(200);
    return (await res.json()) as { status: string; errors: string[]; components: number; created: number };
  }

  interface Row {
    id: string;
    name: string;
    type: string | null;
    parent_id: string | null;
    path: string;
    is_leaf: boolean;
    health: string;
    status: string | null;
    properties: { name: string; value?: number; text?: string; max?: number }[];
    summary: { checks: { healthy: number; unhealthy: number; warning: number } };
    deleted_at: string | null;
  }

  async function components(topologyId: string, live = true): Promise<Row[]> {
    const { rows } = await test.db.query<Row>(
      `SELECT id, name, type, parent_id, path, is_leaf, health, status, properties, summary, deleted_at
       FROM components WHERE topology_id = $1 ${live ? 'AND deleted_at IS NULL' : ''} ORDER BY path, name`,
      [topologyId],
    );
    return rows;
  }

  /** name → [child names] for the live tree, sorted. */
  async function tree(topologyId: string): Promise<Record<string, string[]>> {
    const rows = await components(topologyId);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const out: Record<string, string[]> = {};
    for (const r of rows) {
      out[r.name] ??= [];
      if (r.parent_id) (out[byId.get(r.parent_id)!.name] ??= []).push(r.name);
    }
    for (const k of Object.keys(out)) out[k]!.sort();
    return out;
  }

  const byName = async (topologyId: string, name: string) =>
    (await components(topologyId)).find((r) => r.name === name)!;

  it('applies a Topology from YAML, reads it back, and refuses invalid ones with line and column', async () => {
    const yaml = `${header('static')}  type: App\n  icon: shop\n  components:\n    - name: web\n      type: Service\n`;
    const res = await apply(yaml);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { applied: { id: string; name: string; namespace: string; created: boolean }[] };
    expect(body.applied).toEqual([{ id: expect.any(String), name: 'static', namespace: 'ops', created: true }]);
    const spec = await api(`/api/topology/${body.applied[0]!.id}/spec`, { as: viewer });
    expect(spec.status).toBe(200);
    expect(await spec.text()).toContain('kind: Topology');
    const again = await apply(yaml);
    expect(((await again.json()) as { applied: { created: boolean }[] }).applied[0]!.created).toBe(false);

    const bad = await apply(
      `${header('bad')}  components:\n    - type: nameless\n    - name: x\n      lookup:\n        pigeon: [{}]\n`,
    );
    expect(bad.status).toBe(400);
    const errors = ((await bad.json()) as { code: string; errors: { message: string; line: number; column: number }[] })
      .errors;
    expect(errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^spec\.components\[0\]\.name: a component needs a name .*\(line 8, column \d+\)$/),
      expect.stringMatching(/^spec\.components\[1\]\.lookup\.pigeon: check type "pigeon" is not supported/),
    ]);
    expect(errors[0]!.line).toBe(8);
    expect((await apply('kind: Canary\n')).status).toBe(400);
    expect((await apply('')).status).toBe(400);
    expect((await apply(yaml, viewer)).status).toBe(403);
    expect((await api('/api/topology/not-a-uuid/spec')).status).toBe(404);
  });

  it('builds a static tree on its schedule: paths, leaves, job history', async () => {
    const id = await applyOk(
      `${header('static')}  type: App\n  components:\n    - name: web\n      type: Service\n      components:\n        - {name: pod-1, type: Pod}\n    - name: db\n      type: Database\n`,
    );
    await test.db.query(`UPDATE topologies SET next_runtime = now() - interval '1 second' WHERE id = $1`, [id]);
    expect(await engine.tick()).toBe(1);
    await engine.stop();
    expect(await tree(id)).toEqual({ static: ['db', 'web'], web: ['pod-1'], 'pod-1': [], db: [] });
    const root = await byName(id, 'static');
    const web = await byName(id, 'web');
    const pod = await byName(id, 'pod-1');
    expect([root.path, root.is_leaf, root.type]).toEqual(['', false, 'App']);
    expect([web.path, web.parent_id, web.is_leaf]).toEqual([root.id, root.id, false]);
    expect([pod.path, pod.is_leaf]).toEqual([`${root.id}.${web.id}`, true]);
    const { rows: jobs } = await test.db.query<{ status: string; success_count: number; resource_id: string }>(
      `SELECT status, success_count, resource_id FROM job_history WHERE resource_type = 'topology' AND resource_id = $1`,
      [id],
    );
    expect(jobs).toEqual([{ status: 'SUCCESS', success_count: 4, resource_id: id }]);
    const { rows } = await test.db.query<{ next_runtime: string }>(
      'SELECT next_runtime FROM topologies WHERE id = $1',
      [id],
    );
    expect(new Date(rows[0]!.next_runtime).getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
  });

  const lookupYaml = () =>
    `${header('shop')}  type: App
  components:
    - name: services
      type: Group
      components:
        - name: discovered
          type: Service
          lookup:
            http:
              - url: ${target.url}/services
                display:
                  javascript: |
                    JSON.stringify(json.map(function (s) {
                      return { name: s.name, status: s.state, properties: [{ name: 'replicas', value: s.replicas }] };
                    }))
          forEach:
            properties:
              - {name: url, text: "http://{{.component.name}}.svc"}
            components:
              - name: "$(.component.name)-db"
                type: Database
`;

  it('turns lookup results into components, with forEach children and properties', async () => {
    const id = await applyOk(lookupYaml());
    const result = await run(id);
    expect(result).toMatchObject({ status: 'SUCCESS', errors: [], components: 6, created: 6 });
    expect(await tree(id)).toEqual({
      shop: ['services'],
      services: ['cart', 'pay'],
      cart: ['cart-db'],
      pay: ['pay-db'],
      'cart-db': [],
      'pay-db': [],
    });
    const cart = await byName(id, 'cart');
    expect(cart).toMatchObject({ type: 'Service', status: 'Running' });
    expect(cart.properties).toEqual([
      { name: 'replicas', value: 2 },
      { name: 'url', text: 'http://cart.svc' },
    ]);
  });

  it('runs again idempotently: same ids, nothing duplicated, nothing rewritten', async () => {
    const { rows } = await test.db.query<{ id: string }>(`SELECT id FROM topologies WHERE name = 'shop'`);
    const id = rows[0]!.id;
    const before = await components(id);
    const result = await run(id);
    expect(result).toMatchObject({ status: 'SUCCESS', components: 6, created: 0 });
    const after = await components(id);
    expect(after.map((r) => [r.name, r.id, r.path])).toEqual(before.map((r) => [r.name, r.id, r.path]));
    const { rows: all } = await test.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM components WHERE topology_id = $1',
      [id],
    );
    expect(all[0]!.n).toBe(6);
    const { rows: updated } = await test.db.query<{ details: { updated: number } }>(
      `SELECT details FROM job_history WHERE resource_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [id],
    );
    expect(updated[0]!.details.updated).toBe(0);
  });

  it('soft-deletes components no longer produced, keeps them when the lookup fails, revives them by id', async () => {
    const { rows } = await test.db.query<{ id: string }>(`SELECT id FROM topologies WHERE name = 'shop'`);
    const id = rows[0]!.id;
    const pay = await byName(id, 'pay');
    target.state.services = [{ name: 'cart', state: 'Running', replicas: 2 }];
    await run(id);
    expect((await tree(id)).services).toEqual(['cart']);
    const gone = (await components(id, false)).filter((r) => r.name.startsWith('pay'));
    expect(gone).toHaveLength(2);
    expect(gone.every((r) => r.deleted_at !== null)).toBe(true);

    // A failing lookup is not taken for "everything was removed".
    target.state.servicesStatus = 500;
    const failed = await run(id);
    expect(failed.status).toBe('WARNING');
    expect(failed.errors.join('\n')).toMatch(/spec\.components\[0\]\.components\[0\]\.lookup: http lookup/);
    expect((await tree(id)).services).toEqual(['cart']);
    expect((await byName(id, 'services')).is_leaf).toBe(false);
    target.state.servicesStatus = 200;

    target.state.services.push({ name: 'pay', state: 'Degraded', replicas: 1 });
    await run(id);
    const back = await byName(id, 'pay');
    expect(back.id).toBe(pay.id);
    expect(back.status).toBe('Degraded');
  });

  it('merges properties returned by a topology-level lookup into components by name', async () => {
    const id = await applyOk(`${header('metrics')}  properties:
    - name: cpu-by-component
      lookup:
        http:
          - url: ${target.url}/metrics
            display:
              expr: json
  components:
    - name: web
      properties: [{name: cpu, value: 1, max: 4, unit: cores}]
    - name: api
`);
    const result = await run(id);
    expect(result.errors).toEqual([]);
    expect((await byName(id, 'web')).properties).toEqual([{ name: 'cpu', value: 70, max: 100, unit: 'cores' }]);
    expect((await byName(id, 'api')).properties).toEqual([{ name: 'cpu', value: 20, max: 100 }]);
  });

  it('creates a canary for an inline check, links its checks and rolls their health up', async () => {
    const id = await applyOk(`${header('inline')}  components:
    - name: checkout
      checks:
        - inline:
            schedule: "@every 1m"
            http:
              - name: checkout-health
                url: ${target.url}/health
`);
    await run(id);
    const { rows: canaries } = await test.db.query<{ id: string; name: string; namespace: string; source: string }>(
      `SELECT id, name, namespace, source FROM canaries WHERE source = $1 AND deleted_at IS NULL`,
      [`topology:${id}`],
    );
    expect(canaries).toEqual([
      { id: expect.any(String), name: 'inline-checkout', namespace: 'ops', source: `topology:${id}` },
    ]);
    const checkout = await byName(id, 'checkout');
    const { rows: links } = await test.db.query<{ name: string; selector_id: string }>(
      `SELECT c.name, r.selector_id FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
       WHERE r.component_id = $1 AND r.deleted_at IS NULL`,
      [checkout.id],
    );
    expect(links).toEqual([{ name: 'checkout-health', selector_id: 'inline:inline-checkout' }]);
    expect(checkout.health).toBe('unknown'); // the check has not run yet

    // The health engine runs the canary like any other; the roll-up picks the result up.
    await test.db.query(`UPDATE canaries SET next_runtime = now() - interval '1 second' WHERE id = $1`, [
      canaries[0]!.id,
    ]);
    expect(await app.ctx.health.tick()).toBe(1);
    await app.ctx.health.stop();
    await engine.recompute();
    const healthy = await byName(id, 'checkout');
    expect(healthy.health).toBe('healthy');
    expect(healthy.summary.checks).toEqual({ healthy: 1, unhealthy: 0, warning: 0 });
    expect((await byName(id, 'inline')).health).toBe('healthy');

    // The Checks panel reads the view through /api/db.
    const panel = await db(`/api/db/checks_by_component?component_id=eq.${checkout.id}&select=name,status,type`, {
      as: viewer,
    });
    expect(await panel.json()).toEqual([{ name: 'checkout-health', status: 'healthy', type: 'http' }]);

    // A run without the inline check deletes its canary.
    await applyOk(`${header('inline')}  components:\n    - name: checkout\n`);
    await run(id);
    const { rows: left } = await test.db.query(`SELECT 1 FROM canaries WHERE source = $1 AND deleted_at IS NULL`, [
      `topology:${id}`,
    ]);
    expect(left).toHaveLength(0);
    expect(
      (
        await test.db.query(
          `SELECT 1 FROM check_component_relationships WHERE component_id = $1 AND deleted_at IS NULL`,
          [checkout.id],
        )
      ).rows,
    ).toHaveLength(0);
  });

  it('links existing checks by selector and turns the tree unhealthy when one fails', async () => {
    const canary = await db('/api/canary', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: payments-api, namespace: ops, labels: {app: payments}}
spec:
  http:
    - {name: payments-status, url: "${target.url}/health"}
    - {name: payments-ping, url: "${target.url}/health", labels: {probe: ping}}
`,
    });
    expect(canary.status).toBe(201);
    const id = await applyOk(`${header('payments-tree')}  components:
    - name: region
      components:
        - name: payments
          checks:
            - selector: {labelSelector: "app=payments,probe!=ping"}
        - name: ping
          checks:
            - selector: {name: "payments-p*"}
        - name: healthy-sibling
          health: healthy
`);
    const result = await run(id);
    expect(result.errors).toEqual([]);
    const linked = async (name: string) => {
      const c = await byName(id, name);
      const { rows } = await test.db.query<{ name: string }>(
        `SELECT c.name FROM check_component_relationships r JOIN checks c ON c.id = r.check_id
         WHERE r.component_id = $1 AND r.deleted_at IS NULL ORDER BY c.name`,
        [c.id],
      );
      return rows.map((r) => r.name);
    };
    expect(await linked('payments')).toEqual(['payments-status']);
    expect(await linked('ping')).toEqual(['payments-ping']);

    target.state.healthStatus = 503;
    await test.db.query(`UPDATE canaries SET next_runtime = now() - interval '1 second' WHERE name = 'payments-api'`);
    expect(await app.ctx.health.tick()).toBe(1);
    await app.ctx.health.stop();
    target.state.healthStatus = 200;
    await engine.recompute();
    expect((await byName(id, 'payments')).health).toBe('unhealthy');
    expect((await byName(id, 'healthy-sibling')).health).toBe('healthy');
    const region = await byName(id, 'region');
    expect(region.health).toBe('unhealthy');
    expect(region.summary.checks).toEqual({ healthy: 0, unhealthy: 2, warning: 0 });
    expect((await byName(id, 'payments')).summary).toEqual({
      checks: { healthy: 0, unhealthy: 1, warning: 0 },
      incidents: 0,
      insights: 0,
    });
  });

  it('stores config selectors for the catalog, and teams, keeping manual links', async () => {
    await test.db.query(`INSERT INTO teams (name, icon) VALUES ('storage', 'database')`);
    const configId = '11111111-2222-4333-8444-555555555555';
    // Links point at real catalog items.
    await test.db.query(
      `INSERT INTO config_items (id, external_id, type, config_class, name) VALUES
         ($1, 'pv-1', 'Kubernetes::PersistentVolume', 'PersistentVolume', 'pv-1'),
         ('99999999-2222-4333-8444-555555555555', 'pv-2', 'Kubernetes::PersistentVolume', 'PersistentVolume', 'pv-2')`,
      [configId],
    );
    const yaml = (configs: string) => `${header('storage')}  components:
    - name: volumes
      teams: [storage]
      configs:
${configs}`;
    const id = await applyOk(
      yaml(`        - {name: "pv-*", types: [Kubernetes::PersistentVolume]}\n        - {id: "${configId}"}\n`),
    );
    await run(id);
    const volumes = await byName(id, 'volumes');
    const configLinks = async () =>
      (
        await test.db.query<{ config_id: string | null; selector_id: string; selector: unknown }>(
          `SELECT config_id, selector_id, selector FROM config_component_relationships
           WHERE component_id = $1 AND deleted_at IS NULL ORDER BY selector_id`,
          [volumes.id],
        )
      ).rows;
    const first = await configLinks();
    expect(first).toHaveLength(2);
    expect(first).toEqual(
      expect.arrayContaining([
        {
          config_id: null,
          selector_id: expect.stringMatching(/^config:/),
          selector: { name: 'pv-*', types: ['Kubernetes::PersistentVolume'] },
        },
        { config_id: configId, selector_id: expect.stringMatching(/^config:/), selector: { id: configId } },
      ]),
    );
    // A link made by hand in the console survives runs.
    const manual = await db('/api/db/config_component_relationships', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        component_id: volumes.id,
        config_id: '99999999-2222-4333-8444-555555555555',
        selector_id: 'manual',
      }),
    });
    expect(manual.status).toBe(201);
    await applyOk(yaml(`        - {name: "pv-*", types: [Kubernetes::PersistentVolume]}\n`));
    await run(id);
    const second = await configLinks();
    expect(second.map((l) => l.selector_id === 'manual' || l.config_id === null)).toEqual([true, true]);

    const teams = await db(
      `/api/db/team_components?component_id=eq.${volumes.id}&select=team_id,team:team_id(name,icon)`,
      {
        as: viewer,
      },
    );
    expect(await teams.json()).toEqual([{ team_id: expect.any(String), team: { name: 'storage', icon: 'database' } }]);
  });

  it('shows components selected by another one under it, and attaches by parent lookup', async () => {
    const id = await applyOk(`${header('overview')}  components:
    - name: databases
      selectors:
        - {name: "*-db", type: Database}
        - {name: healthy-sibling}
    - name: orphan
      parentLookup: {name: services, type: Group}
`);
    const result = await run(id);
    expect(result.errors).toEqual([]);
    const databases = await byName(id, 'databases');
    const { rows } = await test.db.query<{ name: string }>(
      `SELECT c.name FROM component_relationships r JOIN components c ON c.id = r.component_id
       WHERE r.relationship_id = $1 AND r.deleted_at IS NULL ORDER BY c.name`,
      [databases.id],
    );
    expect(rows.map((r) => r.name)).toEqual(['cart-db', 'healthy-sibling', 'pay-db']);
    expect(databases.health).toBe('healthy'); // the healthy sibling counts; the databases are unknown

    const card = (await (
      await api(`/api/topology?id=${databases.id}&sortBy=name&sortOrder=asc`)
    ).json()) as TopologyResponse;
    expect(card.components[0]!.components.map((c) => c.name)).toEqual(['cart-db', 'healthy-sibling', 'pay-db']);
    const { rows: shop } = await test.db.query<{ id: string }>(
      `SELECT id FROM components WHERE name = 'services' AND type = 'Group' AND deleted_at IS NULL`,
    );
    const services = (await (
      await api(`/api/topology?id=${shop[0]!.id}&sortBy=name&sortOrder=asc`)
    ).json()) as TopologyResponse;
    expect(services.components[0]!.components.map((c) => c.name)).toEqual(['cart', 'orphan', 'pay']);
  });

  it('answers the card query: roots, one component with children, filters, flatten, sorting', async () => {
    const id = await applyOk(`${header('cards', '\n  labels: {env: prod}')}  type: Cluster
  components:
    - name: frontend
      type: Service
      labels: {tier: web}
      teams: [storage]
      properties: [{name: rps, value: 10, headline: true}]
      components:
        - {name: fe-1, type: Pod, health: healthy}
        - {name: fe-2, type: Pod, health: unhealthy}
    - name: backend
      type: Service
      labels: {tier: api}
      properties: [{name: rps, value: 50, headline: true}]
      components:
        - {name: be-1, type: Pod, health: warning}
    - name: secret-sauce
      type: Job
      hidden: true
      health: healthy
`);
    await run(id);
    const get = async (query: string, as = viewer) => {
      const res = await api(`/api/topology${query}`, { as });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as TopologyResponse;
    };
    const root = await byName(id, 'cards');

    const roots = await get('');
    const card = roots.components.find((c) => c.id === root.id)!;
    expect(card).toMatchObject({ name: 'cards', type: 'Cluster', health: 'unhealthy', labels: { env: 'prod' } });
    expect(roots.components.every((c) => c.parent_id === null)).toBe(true);
    expect(card.components.map((c) => c.name)).toEqual(['frontend', 'backend', 'secret-sauce']);

    const one = await get(`?id=${root.id}`);
    expect(one.components).toHaveLength(1);
    expect(one.components[0]!.id).toBe(root.id);
    const children = one.components[0]!.components;
    expect(children.map((c) => [c.name, c.health])).toEqual([
      ['frontend', 'unhealthy'],
      ['backend', 'warning'],
      ['secret-sauce', 'healthy'],
    ]);
    expect(children[0]!.components.map((c) => c.name)).toEqual(['fe-2', 'fe-1']);
    expect(children[0]!.teams).toEqual([{ team_id: expect.any(String), name: 'storage', icon: 'database' }]);
    expect(children[0]!.summary).toEqual({
      checks: { healthy: 0, unhealthy: 0, warning: 0 },
      incidents: 0,
      insights: 0,
    });
    expect(one.types).toEqual(['Job', 'Pod', 'Service']);
    expect(one.healthStatuses).toEqual(['healthy', 'unhealthy', 'warning']);
    expect(one.teams).toEqual(['storage']);

    const names = (r: TopologyResponse) => r.components[0]!.components.map((c) => c.name);
    expect(names(await get(`?id=${root.id}&status=warning`))).toEqual(['backend']);
    expect(names(await get(`?id=${root.id}&status=!unhealthy,!warning`))).toEqual(['secret-sauce']);
    expect(names(await get(`?id=${root.id}&labels=tier=api`))).toEqual(['backend']);
    expect(names(await get(`?id=${root.id}&labels=tier____web:-1`))).toEqual(['backend', 'secret-sauce']);
    expect(names(await get(`?id=${root.id}&team=storage`))).toEqual(['frontend']);
    expect(names(await get(`?id=${root.id}&hidden=false`))).toEqual(['frontend', 'backend']);
    expect(names(await get(`?id=${root.id}&sortBy=name&sortOrder=asc`))).toEqual([
      'backend',
      'frontend',
      'secret-sauce',
    ]);
    expect(names(await get(`?id=${root.id}&sortBy=rps&sortOrder=desc`))).toEqual([
      'backend',
      'frontend',
      'secret-sauce',
    ]);
    // A type selected: every Pod below, flat.
    expect(names(await get(`?id=${root.id}&type=Pod&flatten=true&sortBy=name&sortOrder=asc`))).toEqual([
      'be-1',
      'fe-1',
      'fe-2',
    ]);
    const depthOne = await get(`?id=${root.id}&depth=1`);
    expect(depthOne.components[0]!.components.every((c) => c.components.length === 0)).toBe(true);

    for (const bad of ['?id=nope', '?sortOrder=sideways', '?flatten=maybe', '?depth=99', '?labels={x', '?agent_id=x']) {
      const res = await api(`/api/topology${bad}`, { as: viewer });
      expect(res.status, bad).toBe(400);
      expect(((await res.json()) as { code: string }).code).toBe('VALIDATION');
    }
    expect((await api('/api/topology?id=00000000-0000-4000-8000-000000000000', { as: viewer })).status).toBe(404);

    // The console's other reads (spec/2 §7) through /api/db.
    const labels = (await (await db('/api/db/component_labels?key=eq.tier&order=value', { as: viewer })).json()) as {
      value: string;
    }[];
    expect(labels.map((l) => l.value)).toEqual(['api', 'web']);
    const named = (await (
      await db(`/api/db/component_names?topology_id=eq.${id}&type=eq.Pod&select=name,type,icon&order=name`, {
        as: viewer,
      })
    ).json()) as { name: string }[];
    expect(named.map((n) => n.name)).toEqual(['be-1', 'fe-1', 'fe-2']);
  });

  it('lets a viewer read but not apply, run or delete', async () => {
    const { rows } = await test.db.query<{ id: string }>(`SELECT id FROM topologies WHERE name = 'cards'`);
    const id = rows[0]!.id;
    expect((await api('/api/topology', { as: viewer })).status).toBe(200);
    expect((await api(`/api/topology/${id}/spec`, { as: viewer })).status).toBe(200);
    expect((await api(`/api/topology/${id}/run`, { method: 'POST', as: viewer })).status).toBe(403);
    expect((await api(`/api/topology/${id}`, { method: 'DELETE', as: viewer })).status).toBe(403);
    expect((await db('/api/db/components?limit=1', { as: viewer })).status).toBe(200);
    const write = await db(`/api/db/components?id=eq.${id}`, {
      method: 'PATCH',
      as: viewer,
      headers: { 'content-type': 'application/json' },
      body: '{"hidden":true}',
    });
    expect(write.status).toBe(403);
    const anonymous = await fetch(`${topologyUrl}/api/topology`);
    expect(anonymous.status).toBe(401);
  });

  it('refuses a second run while one holds the lease, and 404s unknown topologies', async () => {
    const { rows } = await test.db.query<{ id: string }>(`SELECT id FROM topologies WHERE name = 'cards'`);
    const id = rows[0]!.id;
    await test.db.query(
      `UPDATE topologies SET lease_until = now() + interval '1 minute', lease_owner = 'x' WHERE id = $1`,
      [id],
    );
    expect((await api(`/api/topology/${id}/run`, { method: 'POST' })).status).toBe(409);
    await test.db.query(`UPDATE topologies SET lease_until = NULL, lease_owner = NULL WHERE id = $1`, [id]);
    expect((await api('/api/topology/00000000-0000-4000-8000-000000000000/run', { method: 'POST' })).status).toBe(404);
    expect((await api('/api/topology/00000000-0000-4000-8000-000000000000', { method: 'DELETE' })).status).toBe(404);
  });

  it('never runs a topology twice at once when two schedulers share the database', async () => {
    const id = await applyOk(`${header('shared')}  components:\n    - name: only\n`);
    await test.db.query(`UPDATE topologies SET next_runtime = now() + interval '1 hour' WHERE deleted_at IS NULL`);
    await test.db.query(`UPDATE topologies SET next_runtime = now() - interval '1 second' WHERE id = $1`, [id]);
    const a = new TopologyEngine(app.ctx.db, checkers, { recomputeMs: 0 });
    const b = new TopologyEngine(app.ctx.db, checkers, { recomputeMs: 0 });
    const claimed = await Promise.all([a.tick(), b.tick()]);
    await Promise.all([a.stop(), b.stop()]);
    expect(claimed.reduce((x, y) => x + y, 0)).toBe(1);
    const { rows } = await test.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM job_history WHERE resource_type = 'topology' AND resource_id = $1`,
      [id],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('deletes a topology: its components and links go, its inline canaries too', async () => {
    const id = await applyOk(`${header('doomed')}  components:
    - name: thing
      checks:
        - inline:
            http:
              - {name: thing-health, url: "${target.url}/health"}
`);
    await run(id);
    const thing = await byName(id, 'thing');
    expect((await api(`/api/topology/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await components(id)).toEqual([]);
    const { rows: canaries } = await test.db.query(`SELECT 1 FROM canaries WHERE source = $1 AND deleted_at IS NULL`, [
      `topology:${id}`,
    ]);
    expect(canaries).toHaveLength(0);
    const { rows: links } = await test.db.query(
      `SELECT 1 FROM check_component_relationships WHERE component_id = $1 AND deleted_at IS NULL`,
      [thing.id],
    );
    expect(links).toHaveLength(0);
    expect((await api(`/api/topology/${id}/spec`)).status).toBe(404);
  });

  it('runs due topologies and rolls health up in the background once started', async () => {
    await test.db.query(`UPDATE topologies SET next_runtime = now() + interval '1 hour' WHERE deleted_at IS NULL`);
    const id = await applyOk(`${header('background')}  components:\n    - {name: worker, health: warning}\n`);
    const background = new TopologyEngine(app.ctx.db, checkers, { pollMs: 50, recomputeMs: 50 });
    background.start();
    try {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline && (await components(id)).length < 2) await new Promise((r) => setTimeout(r, 50));
      // The tree is written first, then rolled up (a moment later).
      while (Date.now() < deadline && (await byName(id, 'background')).health !== 'warning')
        await new Promise((r) => setTimeout(r, 50));
      expect((await byName(id, 'background')).health).toBe('warning');
      // A check-driven change between runs is picked up by the periodic pass.
      await test.db.query(`UPDATE components SET own_health = 'unhealthy' WHERE topology_id = $1 AND name = 'worker'`, [
        id,
      ]);
      while (Date.now() < deadline && (await byName(id, 'background')).health !== 'unhealthy')
        await new Promise((r) => setTimeout(r, 50));
      expect((await byName(id, 'background')).health).toBe('unhealthy');
    } finally {
      await background.stop();
    }
  });
});
