// The catalog engine end to end: ScrapeConfigs applied through /api/catalog, runs that really read
// files the test writes (then changes, then deletes), a loopback HTTP server, PostgreSQL and
// MariaDB queries and bash scripts; items, changes with their exact diff, repeat counting, stale
// soft deletes and undeletes, parents and relationships, insights opened and resolved, events, job
// history, apply errors with line and column, and permissions.
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/mysql';

interface RunResult {
  status: string;
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  insights: number;
  errors: string[];
}

interface ItemRow {
  id: string;
  external_id: string;
  name: string;
  type: string;
  config_class: string;
  config: Record<string, unknown>;
  parent_id: string | null;
  path: string;
  health: string | null;
  deleted_at: string | null;
  delete_reason: string | null;
  changes: number;
  analysis: Record<string, number>;
}

const scrapeConfig = (name: string, spec: string) =>
  `apiVersion: configs.flanksource.com/v1\nkind: ScrapeConfig\nmetadata:\n  name: ${name}\n  namespace: ops\nspec:\n${spec}`;

/** A loopback API whose answer the test controls; it wants Basic auth. */
async function startTarget() {
  const state = {
    body: {
      services: [
        { id: 's1', name: 'cart', replicas: 2 },
        { id: 's2', name: 'pay', replicas: 1 },
      ],
    },
  };
  const server = http.createServer((req, res) => {
    if (req.headers.authorization !== `Basic ${Buffer.from('svc:s3cret').toString('base64')}`) {
      res.writeHead(401).end('who are you?');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(state.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(databaseKinds())('catalog engine on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;
  let dir: string;
  let target: Awaited<ReturnType<typeof startTarget>>;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-catalog-'));
    target = await startTarget();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    await target?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const api = (p: string, init: RequestInit & { as?: TestUser } = {}) =>
    fetch(`${app.url}${p}`, { ...init, headers: { ...(init.as ?? editor).headers, ...(init.headers as object) } });

  const apply = (yaml: string, as = editor) =>
    api('/api/catalog', { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' }, as });

  async function applyOk(yaml: string): Promise<string> {
    const res = await apply(yaml);
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.applied[0]!.id;
  }

  async function run(id: string): Promise<RunResult> {
    const res = await api(`/api/catalog/run/${id}`, { method: 'POST' });
    const body = (await res.json()) as RunResult;
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  }

  async function items(scraperId: string, live = true): Promise<ItemRow[]> {
    const { rows } = await test.db.query<ItemRow>(
      `SELECT id, external_id, name, type, config_class, config, parent_id, path, health, deleted_at, delete_reason, changes, analysis
       FROM config_items WHERE scraper_id = $1 ${live ? 'AND deleted_at IS NULL' : ''} ORDER BY external_id`,
      [scraperId],
    );
    return rows;
  }

  describe('file scraper', () => {
    let id: string;
    let sub: string;

    beforeAll(async () => {
      sub = path.join(dir, 'files');
      fs.mkdirSync(sub);
      fs.writeFileSync(
        path.join(sub, 'apps.yaml'),
        'id: app-1\nname: cart\nkind: App\nreplicas: 1\ntoken: abc\n---\nid: app-2\nname: pay\nkind: App\nreplicas: 3\ntoken: def\n',
      );
      fs.writeFileSync(
        path.join(sub, 'db.json'),
        JSON.stringify({ id: 'db-1', name: 'orders', kind: 'Database', size: 10, internal: { x: 1 } }),
      );
      id = await applyOk(
        scrapeConfig(
          'files',
          `  schedule: "@every 5m"
  file:
    - type: "Demo::{{.kind}}"
      class: $.kind
      id: $.id
      name: $.name
      paths: ["${sub}/*.yaml", "${sub}/*.json"]
      transform:
        exclude: [$.internal]
        mask:
          - selector: "config.kind == 'App'"
            jsonpath: $.token
            value: md5sum
  changes:
    severity:
      - expr: "'replicas' in change.paths"
        severity: high
  analysis:
    rules:
      - name: single-replica
        type: "Demo::App"
        expr: "config.replicas < 2"
        severity: high
        analysis_type: availability
        message: "{{.name}} runs {{.replicas}} replica"
`,
        ),
      );
    });

    it('creates one item per document, with exclude and mask applied', async () => {
      const r = await run(id);
      expect(r).toMatchObject({ status: 'SUCCESS', items: 3, created: 3, updated: 0, deleted: 0, errors: [] });
      const rows = await items(id);
      expect(rows.map((i) => [i.external_id, i.name, i.type, i.config_class])).toEqual([
        ['app-1', 'cart', 'Demo::App', 'App'],
        ['app-2', 'pay', 'Demo::App', 'App'],
        ['db-1', 'orders', 'Demo::Database', 'Database'],
      ]);
      expect(rows[0]!.config.token).toBe(crypto.createHash('md5').update('abc').digest('hex'));
      expect(rows[2]!.config).toEqual({ id: 'db-1', kind: 'Database', name: 'orders', size: 10 });
      const { rows: events } = await test.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM event_queue WHERE name = 'config.created' AND properties->>'scraper_id' = $1`,
        [id],
      );
      expect(events[0]!.n).toBe(3);
    });

    it('opens an insight for items a rule matches', async () => {
      const { rows } = await test.db.query<{
        analyzer: string;
        severity: string;
        message: string;
        status: string;
        name: string;
      }>(
        `SELECT a.analyzer, a.severity, a.message, a.status, i.name FROM config_analysis a JOIN config_items i ON i.id = a.config_id
         WHERE a.scraper_id = $1`,
        [id],
      );
      expect(rows).toEqual([
        { analyzer: 'single-replica', severity: 'high', message: 'cart runs 1 replica', status: 'open', name: 'cart' },
      ]);
      const cart = (await items(id)).find((i) => i.name === 'cart')!;
      expect(cart.analysis).toEqual({ high: 1 });
    });

    it('records a changed field as a diff change with the exact diff, patch and summary', async () => {
      fs.writeFileSync(
        path.join(sub, 'db.json'),
        JSON.stringify({ id: 'db-1', name: 'orders', kind: 'Database', size: 20, internal: { x: 2 } }),
      );
      const r = await run(id);
      expect(r).toMatchObject({ status: 'SUCCESS', items: 3, created: 0, updated: 1, unchanged: 2, changes: 1 });
      const db = (await items(id)).find((i) => i.external_id === 'db-1')!;
      const { rows } = await test.db.query<{
        change_type: string;
        summary: string;
        diff: string;
        patches: string;
        count: number;
        severity: string;
      }>(`SELECT change_type, summary, diff, patches, count, severity FROM config_changes WHERE config_id = $1`, [
        db.id,
      ]);
      expect(rows).toEqual([
        {
          change_type: 'diff',
          summary: 'size',
          severity: 'info',
          count: 1,
          patches: '{"size":20}',
          diff: [
            '--- before',
            '+++ after',
            '@@ -1,4 +1,4 @@',
            ' id: db-1',
            ' kind: Database',
            ' name: orders',
            '-size: 10',
            '+size: 20',
            '',
          ].join('\n'),
        },
      ]);
      expect(db.changes).toBe(1);
      const { rows: events } = await test.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM event_queue WHERE name = 'config.updated' AND properties->>'id' = $1`,
        [db.id],
      );
      expect(events[0]!.n).toBe(1);
    });

    it('counts the same change seen again inside the window on one row', async () => {
      const setSize = (size: number) =>
        fs.writeFileSync(
          path.join(sub, 'db.json'),
          JSON.stringify({ id: 'db-1', name: 'orders', kind: 'Database', size }),
        );
      setSize(10);
      await run(id); // 20 → 10: a new change
      setSize(20);
      await run(id); // 10 → 20 again: the first change, counted
      const db = (await items(id)).find((i) => i.external_id === 'db-1')!;
      const { rows } = await test.db.query<{ patches: string; count: number }>(
        `SELECT patches, count FROM config_changes WHERE config_id = $1 ORDER BY patches`,
        [db.id],
      );
      expect(rows).toEqual([
        { patches: '{"size":10}', count: 1 },
        { patches: '{"size":20}', count: 2 },
      ]);
    });

    it('resolves an insight that no longer applies, keeping first_observed', async () => {
      const before = await test.db.query<{ first_observed: Date }>(
        `SELECT first_observed FROM config_analysis WHERE scraper_id = $1`,
        [id],
      );
      fs.writeFileSync(
        path.join(sub, 'apps.yaml'),
        'id: app-1\nname: cart\nkind: App\nreplicas: 2\ntoken: abc\n---\nid: app-2\nname: pay\nkind: App\nreplicas: 3\ntoken: def\n',
      );
      await run(id);
      const { rows } = await test.db.query<{ status: string; first_observed: Date }>(
        `SELECT status, first_observed FROM config_analysis WHERE scraper_id = $1`,
        [id],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.status).toBe('resolved');
      expect(new Date(rows[0]!.first_observed).getTime()).toBe(new Date(before.rows[0]!.first_observed).getTime());
      expect((await items(id)).find((i) => i.name === 'cart')!.analysis).toEqual({});
      const { rows: changes } = await test.db.query<{ severity: string; summary: string }>(
        `SELECT c.severity, c.summary FROM config_changes c JOIN config_items i ON i.id = c.config_id
         WHERE i.scraper_id = $1 AND i.name = 'cart'`,
        [id],
      );
      expect(changes).toEqual([{ severity: 'high', summary: 'replicas' }]);
    });

    it('soft-deletes an item whose file is gone, and undeletes it when it comes back', async () => {
      const dbBefore = (await items(id)).find((i) => i.external_id === 'db-1')!;
      const saved = fs.readFileSync(path.join(sub, 'db.json'), 'utf8');
      fs.rmSync(path.join(sub, 'db.json'));
      const r = await run(id);
      expect(r).toMatchObject({ status: 'SUCCESS', items: 2, deleted: 1 });
      const gone = (await items(id, false)).find((i) => i.external_id === 'db-1')!;
      expect(gone.deleted_at).not.toBeNull();
      expect(gone.delete_reason).toBe('stale');
      const { rows } = await test.db.query<{ change_type: string }>(
        `SELECT change_type FROM config_changes WHERE config_id = $1 AND change_type = 'DELETE'`,
        [gone.id],
      );
      expect(rows).toHaveLength(1);
      const ev = await test.db.query(
        `SELECT 1 FROM event_queue WHERE name = 'config.deleted' AND properties->>'id' = $1`,
        [gone.id],
      );
      expect(ev.rows).toHaveLength(1);
      fs.writeFileSync(path.join(sub, 'db.json'), saved);
      const again = await run(id);
      expect(again).toMatchObject({ items: 3, created: 0, updated: 1 });
      const back = (await items(id)).find((i) => i.external_id === 'db-1')!;
      expect(back.id).toBe(dbBefore.id);
      expect(back.deleted_at).toBeNull();
    });

    it('writes a job history row for every run', async () => {
      const { rows } = await test.db.query<{
        name: string;
        status: string;
        success_count: number;
        resource_name: string;
      }>(
        `SELECT name, status, success_count, resource_name FROM job_histories WHERE resource_type = 'config_scraper' AND resource_id = $1
         ORDER BY time_start DESC`,
        [id],
      );
      expect(rows.length).toBeGreaterThanOrEqual(6);
      expect(rows[0]).toEqual({
        name: 'ConfigScraper',
        status: 'SUCCESS',
        success_count: 3,
        resource_name: 'ops/files',
      });
    });
  });

  it('resolves topology config selectors to the scraped items', async () => {
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO components (name, type) VALUES ('shop', 'Service') RETURNING id`,
    );
    const component = rows[0]!.id;
    await test.db.query(
      `INSERT INTO config_component_relationships (component_id, selector_id, selector) VALUES ($1, 'configs:0', $2)`,
      [component, JSON.stringify({ name: 'basket', type: 'Demo::App' })],
    );
    const sub = path.join(dir, 'links');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'cart.json'), '{"id":"c1","name":"basket"}');
    const scraper = await applyOk(
      scrapeConfig(
        'links',
        `  file:\n    - type: Demo::App\n      id: $.id\n      name: $.name\n      paths: ["${sub}/*.json"]\n`,
      ),
    );
    await run(scraper);
    const { rows: links } = await test.db.query<{ name: string }>(
      `SELECT i.name FROM config_component_relationships r JOIN config_items i ON i.id = r.config_id
       WHERE r.component_id = $1 AND r.deleted_at IS NULL`,
      [component],
    );
    expect(links).toEqual([{ name: 'basket' }]);
  });

  it('keeps missing items until the stale age has passed', async () => {
    const sub = path.join(dir, 'stale');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'a.json'), '{"id":"a"}');
    fs.writeFileSync(path.join(sub, 'b.json'), '{"id":"b"}');
    const id = await applyOk(
      scrapeConfig(
        'stale',
        `  retention:\n    staleItemAge: 1h\n  file:\n    - type: Demo::Thing\n      id: $.id\n      paths: ["${sub}/*.json"]\n`,
      ),
    );
    await run(id);
    fs.rmSync(path.join(sub, 'b.json'));
    expect(await run(id)).toMatchObject({ items: 1, deleted: 0 });
    expect((await items(id)).map((i) => i.external_id)).toEqual(['a', 'b']);
    // Last seen two hours ago: now it is stale.
    await test.db.query(
      `UPDATE config_items SET last_scraped_time = now() - interval '2 hours' WHERE scraper_id = $1 AND external_id = 'b'`,
      [id],
    );
    expect(await run(id)).toMatchObject({ items: 1, deleted: 1 });
    expect((await items(id)).map((i) => i.external_id)).toEqual(['a']);
  });

  it('keeps only the changes retention allows per item', async () => {
    const sub = path.join(dir, 'retention');
    fs.mkdirSync(sub);
    const id = await applyOk(
      scrapeConfig(
        'retention',
        `  retention:\n    changes:\n      - name: diff\n        count: 2\n  file:\n    - type: Demo::Thing\n      id: $.id\n      paths: ["${sub}/a.json"]\n`,
      ),
    );
    for (const v of [1, 2, 3, 4, 5]) {
      fs.writeFileSync(path.join(sub, 'a.json'), JSON.stringify({ id: 'a', v }));
      await run(id);
    }
    const item = (await items(id))[0]!;
    const { rows } = await test.db.query<{ patches: string }>(
      `SELECT patches FROM config_changes WHERE config_id = $1 ORDER BY created_at`,
      [item.id],
    );
    expect(rows.map((r) => r.patches)).toEqual(['{"v":4}', '{"v":5}']);
    expect(item.changes).toBe(2);
  });

  it('keeps the items of a file it cannot read, reporting the file', async () => {
    const sub = path.join(dir, 'partial');
    fs.mkdirSync(sub);
    fs.writeFileSync(path.join(sub, 'a.json'), '{"id":"a"}');
    fs.writeFileSync(path.join(sub, 'b.json'), '{"id":"b"}');
    const id = await applyOk(
      scrapeConfig('partial', `  file:\n    - type: Demo::Thing\n      id: $.id\n      paths: ["${sub}/*.json"]\n`),
    );
    await run(id);
    fs.writeFileSync(path.join(sub, 'b.json'), '{"id": ');
    const r = await run(id);
    expect(r).toMatchObject({ status: 'WARNING', items: 1, deleted: 0 });
    expect(r.errors).toEqual([expect.stringMatching(/^file\[0\]: .*b\.json: not valid JSON/)]);
    expect((await items(id)).map((i) => i.external_id)).toEqual(['a', 'b']);
  });

  it('links owners as parents and relationships, and transform.relationship rules', async () => {
    const sub = path.join(dir, 'k8s');
    fs.mkdirSync(sub);
    const obj = (kind: string, name: string, uid: string, owner?: [string, string, string], extra = '') =>
      `apiVersion: v1\nkind: ${kind}\nmetadata:\n  name: ${name}\n  uid: ${uid}\n${kind === 'Namespace' ? '' : '  namespace: shop\n'}${
        owner ? `  ownerReferences:\n    - {kind: ${owner[0]}, name: ${owner[1]}, uid: ${owner[2]}}\n` : ''
      }${extra}`;
    fs.writeFileSync(
      path.join(sub, 'all.yaml'),
      [
        obj('Namespace', 'shop', 'u-ns'),
        obj('Deployment', 'web', 'u-dep', undefined, 'spec:\n  replicas: 1\nstatus:\n  readyReplicas: 1\n'),
        obj('ReplicaSet', 'web-1', 'u-rs', ['Deployment', 'web', 'u-dep']),
        obj(
          'Pod',
          'web-1-a',
          'u-pod',
          ['ReplicaSet', 'web-1', 'u-rs'],
          'spec:\n  serviceAccountName: web-sa\nstatus:\n  phase: Pending\n',
        ),
        obj('ServiceAccount', 'web-sa', 'u-sa'),
      ].join('---\n'),
    );
    const id = await applyOk(
      scrapeConfig(
        'k8s',
        `  file:
    - type: "Kubernetes::{{.kind}}"
      id: $.metadata.uid
      name: $.metadata.name
      paths: ["${sub}/all.yaml"]
      transform:
        relationship:
          - filter: "config.kind == 'Pod'"
            type: {value: ServiceAccount}
            name: {expr: "config.spec.serviceAccountName"}
            namespace: $.metadata.namespace
`,
      ),
    );
    expect(await run(id)).toMatchObject({ status: 'SUCCESS', items: 5 });
    const rows = await items(id);
    const by = Object.fromEntries(rows.map((r) => [r.name, r]));
    expect(by['web-1-a']!.parent_id).toBe(by['web-1']!.id);
    expect(by['web-1']!.parent_id).toBe(by.web!.id);
    expect(by.web!.parent_id).toBe(by.shop!.id);
    expect(by['web-1-a']!.path).toBe([by.shop!.id, by.web!.id, by['web-1']!.id].join('.'));
    expect(by['web-1-a']!.health).toBe('warning');
    expect(by.web!.health).toBe('healthy');
    const { rows: rels } = await test.db.query<{ f: string; t: string; relation: string; selector_id: string }>(
      `SELECT a.name AS f, b.name AS t, r.relation, r.selector_id FROM config_relationships r
       JOIN config_items a ON a.id = r.config_id JOIN config_items b ON b.id = r.related_id
       WHERE a.scraper_id = $1 AND r.deleted_at IS NULL ORDER BY a.name, b.name`,
      [id],
    );
    expect(rels).toEqual([
      { f: 'shop', t: 'web', relation: 'NamespaceDeployment', selector_id: 'parent' },
      { f: 'shop', t: 'web-sa', relation: 'NamespaceServiceAccount', selector_id: 'parent' },
      { f: 'web', t: 'web-1', relation: 'DeploymentReplicaSet', selector_id: 'parent' },
      { f: 'web-1', t: 'web-1-a', relation: 'ReplicaSetPod', selector_id: 'parent' },
      { f: 'web-1-a', t: 'web-sa', relation: 'PodServiceAccount', selector_id: 'relationship:0' },
    ]);
  });

  it('scrapes an HTTP API with Basic auth, splitting the response with items', async () => {
    const id = await applyOk(
      scrapeConfig(
        'http',
        `  http:
    - url: ${target.url}/services
      username: {value: svc}
      password: {value: s3cret}
      items: $.services[*]
      type: Demo::Service
      id: $.id
      name: $.name
`,
      ),
    );
    expect(await run(id)).toMatchObject({ status: 'SUCCESS', items: 2, created: 2 });
    expect((await items(id)).map((i) => [i.external_id, i.name, i.config.replicas])).toEqual([
      ['s1', 'cart', 2],
      ['s2', 'pay', 1],
    ]);
    const bad = await applyOk(
      scrapeConfig('http-bad', `  http:\n    - url: ${target.url}/services\n      type: Demo::Service\n`),
    );
    const r = await run(bad);
    expect(r.status).toBe('FAILED');
    expect(r.errors[0]).toMatch(/^http\[0\]: .*answered 401: who are you\?/);
  });

  it('runs a bash script and reads its JSON output', async () => {
    const id = await applyOk(
      scrapeConfig(
        'exec',
        `  exec:
    - script: |
        printf '[{"host":"%s","port":1},{"host":"b","port":2}]' "$TARGET"
      env: [{name: TARGET, value: alpha}]
      items: $[*]
      type: Demo::Host
      id: $.host
`,
      ),
    );
    expect(await run(id)).toMatchObject({ status: 'SUCCESS', items: 2 });
    expect((await items(id)).map((i) => i.external_id)).toEqual(['alpha', 'b']);
    const failing = await applyOk(
      scrapeConfig('exec-bad', `  exec:\n    - script: echo nope >&2; exit 3\n      type: X\n`),
    );
    const r = await run(failing);
    expect(r.status).toBe('FAILED');
    expect(r.errors).toEqual(['exec[0]: the script exited with 3: nope']);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('reads rows from PostgreSQL, one item per row', async () => {
    const id = await applyOk(
      scrapeConfig(
        'pg',
        `  sql:
    - driver: postgres
      connection: ${process.env.TEST_DATABASE_URL}
      query: "SELECT * FROM (VALUES (1, 'alpha'), (2, 'beta')) AS t(id, name)"
      type: Demo::Row
      id: $.id
      name: $.name
`,
      ),
    );
    expect(await run(id)).toMatchObject({ status: 'SUCCESS', items: 2 });
    expect((await items(id)).map((i) => [i.external_id, i.name])).toEqual([
      ['1', 'alpha'],
      ['2', 'beta'],
    ]);
  });

  it('reads rows from MariaDB through a stored connection', async () => {
    await test.db.query(`INSERT INTO connections (name, type, url) VALUES ('maria', 'mysql', $1)`, [MYSQL_URL]);
    const id = await applyOk(
      scrapeConfig(
        'maria',
        `  sql:
    - connection: connection://mysql/maria
      query: "SELECT 'u1' AS id, 'root' AS name UNION ALL SELECT 'u2', 'app'"
      type: Demo::User
      id: $.id
      name: $.name
`,
      ),
    );
    const r = await run(id);
    expect(r, JSON.stringify(r.errors)).toMatchObject({ status: 'SUCCESS', items: 2 });
    expect((await items(id)).map((i) => i.name)).toEqual(['root', 'app']);
  });

  describe('the apply API', () => {
    it('refuses unsupported scraper types with their line and column', async () => {
      const res = await apply(
        scrapeConfig('bad', `  file:\n    - type: X\n      paths: [a.json]\n  aws:\n    - region: eu-west-1\n`),
      );
      expect(res.status).toBe(400);
      const body = (await res.json()) as {
        code: string;
        errors: { message: string; line: number; column: number; path: string }[];
      };
      expect(body.code).toBe('INVALID_RESOURCE');
      expect(body.errors).toEqual([
        {
          message: expect.stringMatching(
            /^spec\.aws: scraper type "aws" is not supported \(supported: exec, file, http, kubernetes, sql\)/,
          ),
          path: 'spec.aws',
          line: 11,
          column: 5,
        },
      ]);
    });

    it('names missing fields, bad schedules, bad CEL and YAML syntax errors by position', async () => {
      const res = await apply(
        scrapeConfig(
          'bad',
          `  schedule: "every day"\n  file:\n    - type: X\n  analysis:\n    rules:\n      - name: r\n        expr: "config.a =="\n`,
        ),
      );
      expect(res.status).toBe(400);
      const body = (await res.json()) as { errors: { path: string; line: number }[] };
      expect(body.errors.map((e) => [e.path, e.line])).toEqual([
        ['spec.schedule', 7],
        ['spec.file[0].paths', 9],
        ['spec.analysis.rules[0].expr', 13],
      ]);
      const syntax = await apply('apiVersion: configs.flanksource.com/v1\nkind: ScrapeConfig\nmetadata: {name: x\n');
      expect(syntax.status).toBe(400);
      const err = (await syntax.json()) as { errors: { line: number }[] };
      expect(err.errors[0]!.line).toBeGreaterThan(0);
    });

    it('reads a scraper back as YAML, keeps unknown fields, and soft-deletes it keeping its items', async () => {
      const sub = path.join(dir, 'del');
      fs.mkdirSync(sub);
      fs.writeFileSync(path.join(sub, 'a.json'), '{"id":"a"}');
      const id = await applyOk(
        scrapeConfig(
          'del',
          `  custom: {kept: true}\n  file:\n    - type: Demo::Thing\n      id: $.id\n      paths: ["${sub}/a.json"]\n`,
        ),
      );
      await run(id);
      const spec = await api(`/api/catalog/${id}/spec`, { as: viewer });
      expect(spec.status).toBe(200);
      const text = await spec.text();
      expect(text).toMatch(/^apiVersion: configs.flanksource.com\/v1\nkind: ScrapeConfig\n/);
      expect(text).toContain('custom:\n    kept: true');
      expect((await api(`/api/catalog/${id}`, { method: 'DELETE' })).status).toBe(204);
      expect((await api(`/api/catalog/${id}/spec`)).status).toBe(404);
      expect((await api(`/api/catalog/run/${id}`, { method: 'POST' })).status).toBe(404);
      expect(await items(id)).toHaveLength(1);
    });

    it('lets a viewer read but not apply, delete or run', async () => {
      const res = await apply(scrapeConfig('viewer', `  file:\n    - type: X\n      paths: [a.json]\n`), viewer);
      expect(res.status).toBe(403);
      const { rows } = await test.db.query<{ id: string }>(
        `SELECT id FROM config_scrapers WHERE deleted_at IS NULL LIMIT 1`,
      );
      expect((await api(`/api/catalog/${rows[0]!.id}`, { method: 'DELETE', as: viewer })).status).toBe(403);
      expect((await api(`/api/catalog/run/${rows[0]!.id}`, { method: 'POST', as: viewer })).status).toBe(403);
      expect((await api(`/api/catalog/${rows[0]!.id}/spec`, { as: viewer })).status).toBe(200);
    });
  });
});
