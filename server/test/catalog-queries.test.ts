// The catalog's read side end to end over HTTP: the summary and changes endpoints, the views and
// functions of migration 0009 through /api/db, resource search, manual config links, permissions
// and 400s. Items, changes, insights and links are inserted with SQL (no scrapers involved).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import type { Database } from '../src/db/database.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const ID = {
  scraper: id(1),
  agent: id(2),
  ns1: id(10),
  deploy: id(11),
  rs: id(12),
  pod1: id(13),
  pod2: id(14),
  podGone: id(15),
  svc: id(16),
  other: id(17),
  cm: id(18),
  canary: id(30),
  check: id(31),
  topology: id(40),
  component: id(41),
  component2: id(42),
};

async function seed(db: Database) {
  await db.query(`INSERT INTO agents (id, name) VALUES ($1, 'edge-agent')`, [ID.agent]);
  await db.query(`INSERT INTO config_scrapers (id, name, spec) VALUES ($1, 'kube-scraper', '{}')`, [ID.scraper]);
  const item = (
    key: keyof typeof ID,
    type: string,
    cls: string,
    opts: {
      parent?: string;
      health?: string;
      status?: string;
      tags?: object;
      labels?: object;
      changes?: number;
      analysis?: object;
      cost?: number;
      deleted?: boolean;
      agent?: boolean;
    } = {},
  ) =>
    db.query(
      `INSERT INTO config_items (id, scraper_id, agent_id, external_id, type, config_class, name, description, status, health,
         labels, tags, parent_id, changes, analysis, cost_total_30d, cost_total_1d, deleted_at, config)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, '{"a": 1}')`,
      [
        ID[key],
        ID.scraper,
        opts.agent ? ID.agent : null,
        key,
        type,
        cls,
        key,
        `the ${key}`,
        opts.status ?? null,
        opts.health ?? null,
        JSON.stringify(opts.labels ?? {}),
        JSON.stringify(opts.tags ?? {}),
        opts.parent ?? null,
        opts.changes ?? 0,
        JSON.stringify(opts.analysis ?? {}),
        opts.cost ?? null,
        opts.cost === undefined ? null : opts.cost / 30,
        opts.deleted ? new Date().toISOString() : null,
      ],
    );
  const ns1 = { cluster: 'c1', namespace: 'ns1' };
  await item('ns1', 'Kubernetes::Namespace', 'Namespace', {
    tags: { cluster: 'c1' },
    health: 'healthy',
    status: 'Active',
  });
  await item('deploy', 'Kubernetes::Deployment', 'Deployment', {
    parent: ID.ns1,
    tags: ns1,
    labels: { app: 'web' },
    health: 'healthy',
    status: 'Running',
    changes: 3,
    analysis: { high: 1 },
    cost: 10,
    agent: true,
  });
  await item('rs', 'Kubernetes::ReplicaSet', 'ReplicaSet', { parent: ID.deploy, tags: ns1, health: 'healthy' });
  await item('pod1', 'Kubernetes::Pod', 'Pod', {
    parent: ID.rs,
    tags: ns1,
    labels: { app: 'web' },
    health: 'unhealthy',
    status: 'Running',
    changes: 2,
    analysis: { critical: 1 },
    cost: 3,
  });
  await item('pod2', 'Kubernetes::Pod', 'Pod', {
    parent: ID.rs,
    tags: ns1,
    health: 'warning',
    status: 'Pending',
    cost: 1.5,
  });
  await item('podGone', 'Kubernetes::Pod', 'Pod', { parent: ID.rs, tags: ns1, health: 'healthy', deleted: true });
  await item('svc', 'Kubernetes::Service', 'Service', { tags: ns1, labels: { app: 'web' }, health: 'healthy' });
  await item('other', 'Kubernetes::Service', 'Service', {
    tags: { cluster: 'c1', namespace: 'ns2' },
    labels: { app: 'web' },
  });
  await item('cm', 'Kubernetes::ConfigMap', 'ConfigMap', { tags: ns1 });
  await db.query(
    `INSERT INTO config_relationships (config_id, related_id, relation, selector_id) VALUES ($1, $2, 'DeploymentConfigMap', 'rule-0')`,
    [ID.deploy, ID.cm],
  );
  const change = (config: string, type: string, severity: string, ago: string, summary = `${type} happened`) =>
    db.query(
      `INSERT INTO config_changes (config_id, change_type, severity, source, summary, created_at, first_observed, count, details, diff)
       VALUES ($1, $2, $3, 'kubernetes', $4, now() - $5::interval, now() - $5::interval, 1, '{"x": 1}', '--- diff')`,
      [config, type, severity, summary, ago],
    );
  await change(ID.deploy, 'diff', 'high', '1 hour', 'spec.replicas changed');
  await change(ID.deploy, 'ScalingReplicaSet', 'info', '3 hours');
  await change(ID.deploy, 'diff', 'medium', '3 days');
  await change(ID.pod1, 'Pulled', 'info', '30 minutes');
  await change(ID.pod1, 'BackOff', 'high', '10 minutes');
  await change(ID.podGone, 'Killing', 'low', '5 minutes');
  await db.query(
    `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, message, status) VALUES
       ($1, 'kube-score', 'reliability', 'high', 'no probes', 'open'),
       ($2, 'trivy', 'security', 'critical', 'CVE-1', 'open')`,
    [ID.deploy, ID.pod1],
  );
  await db.query(`INSERT INTO canaries (id, name, spec) VALUES ($1, 'web-checks', '{}')`, [ID.canary]);
  await db.query(
    `INSERT INTO checks (id, canary_id, type, name, status) VALUES ($1, $2, 'http', 'web-http', 'healthy')`,
    [ID.check, ID.canary],
  );
  await db.query(
    `INSERT INTO check_config_relationships (check_id, config_id, canary_id, selector_id) VALUES ($1, $2, $3, 'sel')`,
    [ID.check, ID.deploy, ID.canary],
  );
  await db.query(`INSERT INTO topologies (id, name, spec) VALUES ($1, 'shop', '{}')`, [ID.topology]);
  await db.query(
    `INSERT INTO components (id, topology_id, name, type, labels) VALUES
       ($1, $3, 'web-frontend', 'Application', '{"namespace": "ns1"}'), ($2, $3, 'payments', 'Application', '{}')`,
    [ID.component, ID.component2, ID.topology],
  );
  await db.query(
    `INSERT INTO config_component_relationships (component_id, config_id, selector_id) VALUES ($1, $2, 'topology-selector')`,
    [ID.component, ID.deploy],
  );
}

interface Group {
  [key: string]: unknown;
  count: number;
  health: Record<string, number>;
  status: Record<string, number>;
  analysis: Record<string, number>;
  changes: number;
  cost_total_30d: number;
}
interface Change {
  id: string;
  config_id: string;
  change_type: string;
  severity: string;
  summary: string;
  count: number;
  config: { id: string; name: string; type: string; config_class: string; deleted_at: string | null };
}
interface Node {
  id: string;
  name: string;
  type: string;
  depth: number;
  direction: string;
  relation: string | null;
  related_ids: string[];
  tags: Record<string, string>;
  changes: number;
}

describe.each(databaseKinds())('catalog queries on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
    await seed(test.db);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const call = (method: string, path: string, body?: unknown, as: TestUser = editor) =>
    fetch(`${app.url}${path}`, {
      method,
      headers: { ...as.headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
  async function json<T>(method: string, path: string, body?: unknown, as?: TestUser, status = 200): Promise<T> {
    const res = await call(method, path, body, as);
    const text = await res.text();
    expect(res.status, text).toBe(status);
    return JSON.parse(text) as T;
  }
  const summary = (body: unknown, as?: TestUser) =>
    json<{ groups: Group[] }>('POST', '/api/catalog/summary', body, as).then((r) => r.groups);
  const changes = (body: unknown, as?: TestUser) =>
    json<{ changes: Change[]; total: number }>('POST', '/api/catalog/changes', body, as);
  const get = <T>(path: string, as?: TestUser) => json<T>('GET', `/api/db/${path}`, undefined, as);

  describe('POST /api/catalog/summary', () => {
    it('groups live items by class and type with health, status, insights, changes and cost', async () => {
      const groups = await summary({});
      expect(groups.map((g) => `${String(g.config_class)}/${String(g.type)}`)).toEqual([
        'ConfigMap/Kubernetes::ConfigMap',
        'Deployment/Kubernetes::Deployment',
        'Namespace/Kubernetes::Namespace',
        'Pod/Kubernetes::Pod',
        'ReplicaSet/Kubernetes::ReplicaSet',
        'Service/Kubernetes::Service',
      ]);
      const pods = groups.find((g) => g.type === 'Kubernetes::Pod')!;
      expect(pods.count).toBe(2);
      expect(pods.health).toEqual({ healthy: 0, unhealthy: 1, warning: 1, unknown: 0 });
      expect(pods.status).toEqual({ Running: 1, Pending: 1 });
      expect(pods.analysis).toEqual({ critical: 1 });
      expect(pods.changes).toBe(2);
      expect(pods.cost_total_30d).toBeCloseTo(4.5);
      const svc = groups.find((g) => g.type === 'Kubernetes::Service')!;
      expect(svc.health).toEqual({ healthy: 1, unhealthy: 0, warning: 0, unknown: 1 });
      expect(svc.status).toEqual({ unknown: 2 });
    });

    it('includes deleted items on request and filters by fields, health, status and search', async () => {
      const withDeleted = await summary({ deleted: true, filter: { type: 'Kubernetes::Pod' } });
      expect(withDeleted).toHaveLength(1);
      expect(withDeleted[0]!.count).toBe(3);
      expect((await summary({ health: ['unhealthy', 'warning'] })).map((g) => g.type)).toEqual(['Kubernetes::Pod']);
      expect((await summary({ status: ['!Running', '!Pending', '!Active'] })).map((g) => g.count)).toEqual([1, 1, 2]);
      expect((await summary({ search: 'pod1' })).map((g) => [g.type, g.count])).toEqual([['Kubernetes::Pod', 1]]);
      const byNs = await summary({ groupBy: ['tags.namespace'], filter: { 'labels.app': 'web' } });
      expect(byNs.map((g) => [g['tags.namespace'], g.count])).toEqual([
        ['ns1', 3],
        ['ns2', 1],
      ]);
      const byAgent = await summary({ groupBy: ['agent'], filter: { config_class: 'Deployment,Pod' } });
      expect(byAgent.map((g) => [g.agent, g.count])).toEqual([
        ['edge-agent', 1],
        [null, 2],
      ]);
    });

    it('counts changes and insights over other look-backs from their tables', async () => {
      const groups = await summary({
        changes: { since: '2h' },
        analysis: { since: '1d' },
        filter: { type: 'Kubernetes::Deployment' },
      });
      expect(groups[0]!.changes).toBe(1);
      expect(groups[0]!.analysis).toEqual({ high: 1 });
    });

    it('answers 400 for unknown fields and malformed bodies', async () => {
      for (const [body, text] of [
        [{ groupBy: ['bogus'] }, '"bogus" is not a field of a catalog item'],
        [{ filter: { 'drop table': 'x' } }, 'is not a field of a catalog item'],
        [{ colour: 'red' }, 'colour'],
        [{ changes: { since: 'forever' } }, 'changes.since'],
        [{ cost: '90d' }, 'cost'],
        ['{not json', 'must be a JSON object'],
      ] as const) {
        const res = await call('POST', '/api/catalog/summary', body);
        const out = (await res.json()) as { message: string };
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(out.message).toContain(text);
      }
    });
  });

  describe('POST /api/catalog/changes', () => {
    it('lists changes of live items in a time range, newest first, with their item and a total', async () => {
      const r = await changes({ from: 'now-2d' });
      expect(r.total).toBe(4);
      expect(r.changes.map((c) => c.change_type)).toEqual(['BackOff', 'Pulled', 'diff', 'ScalingReplicaSet']);
      expect(r.changes[0]!.config).toMatchObject({
        id: ID.pod1,
        name: 'pod1',
        type: 'Kubernetes::Pod',
        config_class: 'Pod',
      });
      expect(r.changes[0]).not.toHaveProperty('diff');
      expect((await changes({ from: 'now-2d', include_deleted_configs: true })).total).toBe(5);
      expect((await changes({})).total).toBe(5);
    });

    it('pages, sorts and filters by severity, types, tags, summary and source', async () => {
      const page2 = await changes({ from: 'now-2d', page: 2, page_size: 3 });
      expect(page2.total).toBe(4);
      expect(page2.changes.map((c) => c.change_type)).toEqual(['ScalingReplicaSet']);
      expect((await changes({ severity: 'high' })).changes.map((c) => c.change_type)).toEqual(['BackOff', 'diff']);
      expect((await changes({ severity: 'medium,info' })).total).toBe(3);
      expect((await changes({ config_type: 'Kubernetes::Pod' })).total).toBe(2);
      expect((await changes({ type: '!diff,!Pulled' })).changes.map((c) => c.change_type)).toEqual([
        'BackOff',
        'ScalingReplicaSet',
      ]);
      expect((await changes({ change_type: ['diff'] })).total).toBe(2);
      expect((await changes({ tags: { namespace: 'ns1' } })).total).toBe(5);
      expect((await changes({ tags: { namespace: '!ns1' } })).total).toBe(0);
      expect((await changes({ summary: 'SPEC.REPLICAS' })).total).toBe(1);
      expect((await changes({ source: 'github' })).total).toBe(0);
      const bySeverity = await changes({ sort_by: 'severity', sort_order: 'asc', page_size: 2 });
      expect(bySeverity.changes.map((c) => c.severity)).toEqual(['info', 'info']);
      const byName = await changes({ sort_by: 'config.name', sort_order: 'asc' });
      expect(byName.changes[0]!.config.name).toBe('deploy');
    });

    it('reads one item, or it and its related items up or down', async () => {
      expect((await changes({ id: ID.deploy })).total).toBe(3);
      const down = await changes({ id: ID.deploy, recursive: 'downstream', from: 'now-2d' });
      expect(down.changes.map((c) => c.config.name).sort()).toEqual(['deploy', 'deploy', 'pod1', 'pod1']);
      const up = await changes({ id: ID.pod1, recursive: 'upstream' });
      expect(up.total).toBe(5);
      expect((await changes({ id: ID.deploy, recursive: 'downstream', depth: 1 })).total).toBe(3);
      expect((await changes({ id: ID.rs, recursive: 'downstream', include_deleted_configs: true })).total).toBe(3);
    });

    it('answers 400 for bad dates, unknown fields and out-of-range paging', async () => {
      for (const [body, text] of [
        [{ from: 'yesterday' }, 'from: "yesterday" is not a time'],
        [{ to: 'now-xd' }, 'to:'],
        [{ from: 'now', to: 'now-1d' }, 'from must be before to'],
        [{ foo: 1 }, 'foo'],
        [{ page_size: 5000 }, 'page_size'],
        [{ page: 0 }, 'page'],
        [{ sort_by: 'password' }, 'sort_by'],
        [{ severity: 'apocalyptic' }, 'apocalyptic'],
        [{ id: 'not-a-uuid' }, 'id must be a catalog item id'],
        [{ recursive: 'all' }, 'recursive needs id'],
      ] as const) {
        const res = await call('POST', '/api/catalog/changes', body);
        const out = (await res.json()) as { message: string };
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(out.message).toContain(text);
      }
    });
  });

  describe('related_configs_recursive', () => {
    const related = (query: string) => get<Node[]>(`rpc/related_configs_recursive?config_id=${ID.deploy}${query}`);

    it('walks parents, children and relationships in both directions', async () => {
      const nodes = await related('');
      const by = Object.fromEntries(nodes.map((n) => [n.name, n]));
      expect(Object.keys(by).sort()).toEqual(['cm', 'deploy', 'ns1', 'pod1', 'pod2', 'rs']);
      expect(by.deploy).toMatchObject({ depth: 0, direction: 'root' });
      expect(by.ns1).toMatchObject({ depth: 1, direction: 'incoming', relation: 'parent' });
      expect(by.cm).toMatchObject({ depth: 1, direction: 'outgoing', relation: 'DeploymentConfigMap' });
      expect(by.pod1).toMatchObject({ depth: 2, direction: 'outgoing', changes: 2, tags: { namespace: 'ns1' } });
      expect(by.deploy!.related_ids.sort()).toEqual([ID.rs, ID.cm].sort());
      expect(by.ns1!.related_ids).toEqual([ID.deploy]);
      expect(by.rs!.related_ids.sort()).toEqual([ID.pod1, ID.pod2].sort());
    });

    it('honours depth, direction, deleted items and result filters', async () => {
      expect((await related('&max_depth=1')).map((n) => n.name).sort()).toEqual(['cm', 'deploy', 'ns1', 'rs']);
      expect((await related('&type_filter=outgoing')).map((n) => n.name)).not.toContain('ns1');
      expect((await related('&type_filter=incoming')).map((n) => n.name).sort()).toEqual(['deploy', 'ns1']);
      expect((await related('&include_deleted_configs=true')).map((n) => n.name)).toContain('podGone');
      expect((await related('&type=eq.Kubernetes::Pod')).map((n) => n.name).sort()).toEqual(['pod1', 'pod2']);
    });

    it('adds soft relations: same namespace and cluster, sharing a label', async () => {
      const nodes = await related('&outgoing_relation=both');
      const svc = nodes.find((n) => n.name === 'svc');
      expect(svc).toMatchObject({ relation: 'soft', direction: 'outgoing', depth: 1 });
      expect(nodes.map((n) => n.name)).not.toContain('other');
      expect(nodes.find((n) => n.name === 'deploy')!.related_ids).toContain(ID.svc);
      const soft = await related('&type_filter=incoming&incoming_relation=soft');
      expect(soft.map((n) => n.name).sort()).toEqual(['deploy', 'pod1', 'svc']);
    });
  });

  describe('views', () => {
    it('config_detail carries the scraper, the agent and the tab counts', async () => {
      const [detail] = await get<Record<string, unknown>[]>(`config_detail?id=eq.${ID.deploy}`);
      expect(detail).toMatchObject({
        name: 'deploy',
        config_scrapers: { id: ID.scraper, name: 'kube-scraper' },
        agent: { id: ID.agent, name: 'edge-agent' },
        summary: { changes: 3, analysis: 1, relationships: 3, checks: 1, playbook_runs: 0 },
      });
      const [pod] = await get<Record<string, unknown>[]>(`config_detail?id=eq.${ID.pod1}&select=summary,agent`);
      expect(pod).toEqual({
        agent: null,
        summary: { changes: 2, analysis: 1, relationships: 1, checks: 0, playbook_runs: 0 },
      });
    });

    it('lists the filter options of the catalog screens', async () => {
      expect((await get<{ type: string }[]>('config_types')).map((r) => r.type)).toEqual([
        'Kubernetes::ConfigMap',
        'Kubernetes::Deployment',
        'Kubernetes::Namespace',
        'Kubernetes::Pod',
        'Kubernetes::ReplicaSet',
        'Kubernetes::Service',
      ]);
      expect((await get<{ change_type: string }[]>('change_types')).map((r) => r.change_type).sort()).toEqual([
        'BackOff',
        'Killing',
        'Pulled',
        'ScalingReplicaSet',
        'diff',
      ]);
      expect(await get('config_tags?key=eq.namespace&order=value')).toEqual([
        { key: 'namespace', value: 'ns1' },
        { key: 'namespace', value: 'ns2' },
      ]);
      expect(await get('config_labels')).toEqual([{ key: 'app', value: 'web' }]);
      expect((await get<{ status: string }[]>('config_statuses?order=status')).map((r) => r.status)).toEqual([
        'Active',
        'Pending',
        'Running',
      ]);
      expect((await get<{ config_class: string }[]>('config_classes')).length).toBe(6);
      expect(await get('config_analysis_analyzers?order=analyzer')).toEqual([
        { analyzer: 'kube-score' },
        { analyzer: 'trivy' },
      ]);
      const names = await get<{ name: string; deleted_at: string | null }[]>('config_names?name=eq.podGone');
      expect(names[0]!.deleted_at).not.toBeNull();
      const summaryView = await get<{ type: string; count: number }[]>('config_summary?type=eq.Kubernetes::Pod');
      expect(summaryView[0]!.count).toBe(2);
    });

    it('reads insights with their item, and insights, changes and checks by component or item', async () => {
      const items = await get<{ analyzer: string; config: object }[]>('config_analysis_items?severity=eq.critical');
      expect(items).toHaveLength(1);
      expect(items[0]!.config).toEqual({ id: ID.pod1, name: 'pod1', type: 'Kubernetes::Pod', config_class: 'Pod' });
      const byComponent = await get<{ analyzer: string }[]>(`analysis_by_component?component_id=eq.${ID.component}`);
      expect(byComponent.map((a) => a.analyzer)).toEqual(['kube-score']);
      const changed = await get<unknown[]>(`changes_by_component?component_id=eq.${ID.component}`);
      expect(changed).toHaveLength(3);
      const checks = await get<{ name: string; canary_name: string }[]>(
        `check_summary_for_config?config_id=eq.${ID.deploy}`,
      );
      expect(checks).toMatchObject([{ name: 'web-http', canary_name: 'web-checks' }]);
      const lookup = await get<{ analyzer: string }[]>(
        `rpc/lookup_analysis_by_component?component_id=${ID.component}&severity=high`,
      );
      expect(lookup.map((a) => a.analyzer)).toEqual(['kube-score']);
      expect(await get(`rpc/lookup_analysis_by_component?component_id=${ID.component}&severity=low`)).toEqual([]);
    });

    it('refuses writes to the views', async () => {
      const res = await call('POST', '/api/db/config_detail', { name: 'x' });
      expect(res.status).toBe(405);
    });
  });

  describe('POST /api/resources/search', () => {
    it('finds checks, components and catalog items by name', async () => {
      const r = await json<Record<string, { id: string; name: string }[]>>('POST', '/api/resources/search', {
        search: 'WEB',
      });
      expect(r.checks!.map((c) => c.name)).toEqual(['web-http']);
      expect(r.components!.map((c) => c.name)).toEqual(['web-frontend']);
      expect(r.configs).toEqual([]);
      const pods = await json<Record<string, unknown[]>>('POST', '/api/resources/search', {
        search: 'pod',
        configs: { types: ['Kubernetes::Pod'] },
        limit: 1,
      });
      expect(pods).toEqual({
        checks: [],
        components: [],
        configs: [expect.objectContaining({ id: ID.pod1, type: 'Kubernetes::Pod', namespace: 'ns1' })],
      });
    });

    it('answers 400 for a missing search or a limit over 50', async () => {
      expect((await call('POST', '/api/resources/search', { limit: 10 })).status).toBe(400);
      const res = await call('POST', '/api/resources/search', { search: 'a', limit: 51 });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('limit');
    });
  });

  describe('config links', () => {
    const link = { component_id: ID.component2, config_id: ID.pod1 };

    it('links a component to an item once, and unlinks only manual links', async () => {
      expect((await call('POST', '/api/catalog/config-links', link)).status).toBe(201);
      const again = await json<{ created: boolean }>('POST', '/api/catalog/config-links', link);
      expect(again.created).toBe(false);
      const rows = await get<{ selector_id: string }[]>(
        `config_component_relationships?component_id=eq.${ID.component2}&deleted_at=is.null`,
      );
      expect(rows.map((r) => r.selector_id)).toEqual(['manual']);
      const analysis = await get<{ analyzer: string }[]>(`analysis_by_component?component_id=eq.${ID.component2}`);
      expect(analysis.map((a) => a.analyzer)).toEqual(['trivy']);

      expect((await call('DELETE', '/api/catalog/config-links', link)).status).toBe(204);
      expect((await call('DELETE', '/api/catalog/config-links', link)).status).toBe(404);
      // A link made by a topology selector is not a manual link.
      const selectorLink = { component_id: ID.component, config_id: ID.deploy };
      expect((await call('DELETE', '/api/catalog/config-links', selectorLink)).status).toBe(404);
      expect(
        await get(
          `config_component_relationships?component_id=eq.${ID.component}&deleted_at=is.null&select=selector_id`,
        ),
      ).toEqual([{ selector_id: 'topology-selector' }]);
    });

    it('answers 404 for a missing component or item and 400 for bad ids', async () => {
      const noConfig = await call('POST', '/api/catalog/config-links', {
        component_id: ID.component,
        config_id: id(999),
      });
      expect(noConfig.status).toBe(404);
      expect(((await noConfig.json()) as { message: string }).message).toBe('No such catalog item.');
      const noComponent = await call('POST', '/api/catalog/config-links', {
        component_id: id(998),
        config_id: ID.pod1,
      });
      expect(noComponent.status).toBe(404);
      expect((await call('POST', '/api/catalog/config-links', { component_id: 'x', config_id: ID.pod1 })).status).toBe(
        400,
      );
    });
  });

  describe('permissions', () => {
    it('lets a viewer read everything and link nothing', async () => {
      expect((await summary({}, viewer)).length).toBeGreaterThan(0);
      expect((await changes({}, viewer)).total).toBe(5);
      expect((await get<unknown[]>(`config_detail?id=eq.${ID.deploy}`, viewer)).length).toBe(1);
      expect((await get<unknown[]>(`rpc/related_configs_recursive?config_id=${ID.deploy}`, viewer)).length).toBe(6);
      const res = await call(
        'POST',
        '/api/catalog/config-links',
        { component_id: ID.component2, config_id: ID.pod2 },
        viewer,
      );
      expect(res.status).toBe(403);
      expect(
        (
          await call(
            'DELETE',
            '/api/catalog/config-links',
            { component_id: ID.component, config_id: ID.deploy },
            viewer,
          )
        ).status,
      ).toBe(403);
    });

    it('refuses callers that are not signed in', async () => {
      const res = await fetch(`${app.url}/api/catalog/summary`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(401);
    });
  });
});
