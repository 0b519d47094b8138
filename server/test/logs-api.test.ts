// Logs through the API: LoggingBackend resources applied from YAML (problems at their line and
// column), the form's /api/db writes checked by the same rules, POST /api/logs for a component's
// log selector, permissions (viewers read logs where they read the component; logs off → 403),
// a slow backend timing out with a message naming it, the views the viewer reads.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { searchLogs } from '../src/logs/search.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { apiClient, type Problem } from './helpers/api.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startHttpReceiver } from './helpers/http-receiver.js';
import { insertComponentWithLogSelectors, writeLogLines } from './helpers/logs.js';

const backend = (name: string, spec: string) =>
  `apiVersion: apm-hub.flanksource.com/v1\nkind: LoggingBackend\nmetadata:\n  name: ${name}\nspec:\n${spec}`;

describe.each(databaseKinds())('logs API (%s)', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;
  let component = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-logs-api-'));
  const T0 = Date.now() - 60_000;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor', 'Edna Editor');
    viewer = await createTestUser(test.db, 'viewer');
    writeLogLines(
      path.join(dir, 'shop.log'),
      [1, 2, 3].map((n) => [T0 + n * 1000, `shop line ${n}`]),
    );
    writeLogLines(path.join(dir, 'pay.log'), [[T0, 'pay line 1']]);
    component = await insertComponentWithLogSelectors(test.db, 'checkout', [
      { name: 'app', backend: 'shop-files', selector: { app: 'shop' } },
    ]);
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const { api, applyYaml, refused } = apiClient(
    () => app.url,
    () => editor,
  );
  const apply = (yaml: string) => applyYaml('/api/logging_backends', yaml);
  const logs = (body: Record<string, unknown>, as: TestUser = editor) =>
    api('/api/logs', { method: 'POST', body: JSON.stringify(body), as });

  it('applies a LoggingBackend, reads it back and lists it among integrations', async () => {
    const yaml = backend(
      'shop-files',
      `  file:\n    - paths: [${dir}/shop.log]\n      labels: {app: shop}\n    - paths: [${dir}/pay.log]\n      labels: {app: pay}\n`,
    );
    const res = await apply(yaml);
    expect(res.status).toBe(201);
    const { applied } = (await res.json()) as { applied: { id: string; created: boolean; types: string[] }[] };
    expect(applied[0]).toMatchObject({ created: true, types: ['file'] });
    const spec = await api(`/api/logging_backends/${applied[0]!.id}/spec`);
    expect(await spec.text()).toContain('kind: LoggingBackend');
    const integrations = await api(`/api/db/integrations?integration_type=eq.logging_backends&select=name`);
    expect(await integrations.json()).toEqual([{ name: 'shop-files' }]);
  });

  it('refuses bad resources with line and column', async () => {
    const errors = await refused(
      '/api/logging_backends',
      backend(
        'bad',
        `  graylog: []\n  file:\n    - paths: [relative/*.log]\n  loki:\n    - connection: connection://Loki/missing\n`,
      ),
    );
    expect(errors.map((e) => [e.message.replace(/ \(line.*$/, ''), e.line])).toEqual([
      ['spec.graylog: unknown log backend type (supported: file, loki, opensearch, kubernetes)', 6],
      ['spec.file[0].paths[0]: "relative/*.log" must be an absolute path (it is read on the server)', 8],
      ['spec.loki[0].connection: no connection "connection://Loki/missing"', 10],
    ]);
    expect(errors[0]!.column).toBe(12);
  });

  it('checks /api/db writes with the same rules', async () => {
    const bad = await api('/api/db/logging_backends', {
      method: 'POST',
      body: JSON.stringify({ name: 'form', spec: { loki: [{ labels: { a: 'b' } }] } }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: 'INVALID_LOGGING_BACKEND',
      message: 'spec.loki[0].url: give url or connection',
    });
    const good = await api('/api/db/logging_backends', {
      method: 'POST',
      body: JSON.stringify({ name: 'form', spec: { backends: [{ file: [{ path: [`${dir}/pay.log`] }] }] } }),
      headers: { prefer: 'return=representation' },
    });
    expect(good.status).toBe(201);
    const [row] = (await good.json()) as { spec: unknown; source: string }[];
    expect(row).toMatchObject({ spec: { file: [{ paths: [`${dir}/pay.log`] }] }, source: 'UI' });

    // A backend from elsewhere (a file applied at start) is changed there, not here (spec/3 §2).
    const { rows: fromFile } = await test.db.query<{ id: string }>(
      `INSERT INTO logging_backends (name, spec, source) VALUES ('from-file', $1::jsonb, 'ConfigFile') RETURNING id`,
      [JSON.stringify({ file: [{ paths: [`${dir}/pay.log`] }] })],
    );
    // Neither changed nor deleted (the form deletes by setting deleted_at).
    for (const change of [{ labels: { a: 'b' } }, { deleted_at: new Date().toISOString() }]) {
      const res = await api(`/api/db/logging_backends?id=eq.${fromFile[0]!.id}`, {
        method: 'PATCH',
        body: JSON.stringify(change),
      });
      expect(res.status, JSON.stringify(change)).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'READ_ONLY_SOURCE' });
    }
    const { rows: still } = await test.db.query(`SELECT labels, deleted_at FROM logging_backends WHERE id = $1`, [
      fromFile[0]!.id,
    ]);
    expect(still).toEqual([{ labels: {}, deleted_at: null }]);
  });

  it("reads a component's logs through its selector, for viewers too", async () => {
    const res = await logs({ id: component, start: 'now-1d' }, viewer);
    expect(res.status).toBe(200);
    const page = (await res.json()) as {
      results: { message: string; labels: Record<string, string> }[];
      backend: unknown;
    };
    expect(page.results.map((l) => l.message.slice(25))).toEqual(['shop line 3', 'shop line 2', 'shop line 1']);
    expect(page.results[0]!.labels.app).toBe('shop');
    expect(page.backend).toMatchObject({ name: 'shop-files', type: 'file' });
    const search = await logs({ backend: 'shop-files', query: '/line [12]$/', start: 'now-1d', limit: 1 });
    const first = (await search.json()) as { results: { message: string }[]; nextCursor: string };
    expect(first.results.map((l) => l.message.slice(25))).toEqual(['shop line 2']);
    const next = await logs({
      backend: 'shop-files',
      query: '/line [12]$/',
      start: 'now-1d',
      limit: 1,
      cursor: first.nextCursor,
    });
    expect(((await next.json()) as { results: { message: string }[] }).results.map((l) => l.message.slice(25))).toEqual(
      ['shop line 1'],
    );

    // A viewer reads where a component's selector says, nothing of their choosing.
    for (const [body, message] of [
      [{ backend: 'shop-files' }, 'Your role reads logs through a component or catalog item: give its id.'],
      [{}, 'Your role reads logs through a component or catalog item: give its id.'],
      [
        { id: component, labels: { app: 'pay' } },
        "Your role reads logs as the component's log selector says: leave out labels.",
      ],
      [{ id: component, type: 'file' }, "Your role reads logs as the component's log selector says: leave out type."],
    ] as const) {
      const refusedRead = await logs(body, viewer);
      expect(refusedRead.status).toBe(403);
      expect(await refusedRead.json()).toMatchObject({ code: 'FORBIDDEN', message });
    }
    // Where the topology may not be read (its feature off), neither are its components' logs.
    await test.db.query(`INSERT INTO properties (name, value) VALUES ('topology.disable', 'true')`);
    app.ctx.identity.featuresChanged();
    try {
      expect(await (await logs({ id: component }, viewer)).json()).toMatchObject({ code: 'FEATURE_DISABLED' });
      expect((await logs({ backend: 'shop-files', start: 'now-1d' })).status).toBe(200);
    } finally {
      await test.db.query(`DELETE FROM properties WHERE name = 'topology.disable'`);
      app.ctx.identity.featuresChanged();
    }

    const listed = await api(`/api/db/components_with_logs?id=eq.${component}&select=name,logs`, { as: viewer });
    expect(await listed.json()).toEqual([
      { name: 'checkout', logs: [{ name: 'app', backend: 'shop-files', selector: { app: 'shop' } }] },
    ]);
  });

  it("stores a topology component's logs selectors and lists it in components_with_logs", async () => {
    const topology = [
      'apiVersion: canaries.flanksource.com/v1',
      'kind: Topology',
      'metadata: {name: shop}',
      'spec:',
      '  type: App',
      '  components:',
      '    - name: cart',
      '      type: Service',
      '      logs:',
      '        - {name: app, backend: shop-files, labels: {app: shop}}',
      '        - {name: pods, type: kubernetes, selector: {namespace: shop}}',
    ].join('\n');
    const res = await api('/api/topology', {
      method: 'POST',
      body: topology,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(res.status).toBe(201);
    const { applied } = (await res.json()) as { applied: { id: string }[] };
    expect((await api(`/api/topology/${applied[0]!.id}/run`, { method: 'POST' })).status).toBe(200);
    const listed = await api(`/api/db/components_with_logs?name=eq.cart&select=name,logs`, { as: viewer });
    expect(await listed.json()).toEqual([
      {
        name: 'cart',
        logs: [
          { name: 'app', backend: 'shop-files', type: null, selector: { app: 'shop' } },
          { name: 'pods', backend: null, type: 'kubernetes', selector: { namespace: 'shop' } },
        ],
      },
    ]);
    const bad = await api('/api/topology', {
      method: 'POST',
      body: topology.replace('{name: pods, type: kubernetes', '{name: pods, type: graylog'),
      headers: { 'content-type': 'application/yaml' },
    });
    expect(bad.status).toBe(400);
    const errs = ((await bad.json()) as { errors: Problem[] }).errors;
    expect(errs[0]!.message).toMatch(/^spec\.components\[0\]\.logs\[1\]\.type: Invalid option/);
  });

  it('answers 404, 400 and 403 in words', async () => {
    expect(await (await logs({ backend: 'nope' })).json()).toMatchObject({
      code: 'NOT_FOUND',
      error: 'No such log backend "nope".',
    });
    expect((await logs({ id: '00000000-0000-0000-0000-000000000001' })).status).toBe(404);
    const badRegex = await logs({ backend: 'shop-files', query: '/(/' });
    expect(badRegex.status).toBe(400);
    expect(((await badRegex.json()) as { error: string }).error).toMatch(
      /^query: \/\(\/ is not a valid regular expression/,
    );
    const badTime = await logs({ backend: 'shop-files', start: 'yesterday' });
    expect(((await badTime.json()) as { error: string }).error).toBe(
      'start "yesterday" is not a time (RFC3339 or now-1h)',
    );
    expect((await logs({ id: component, selector: 'other' })).status).toBe(400);
    // Listed for its external id (View Logs), but nothing says where its logs are.
    const { rows: bare } = await test.db.query<{ id: string }>(
      `INSERT INTO components (name, type, external_id) VALUES ('bare', 'Service', 'shop/bare') RETURNING id`,
    );
    expect(await (await logs({ id: bare[0]!.id }, viewer)).json()).toMatchObject({
      code: 'INVALID_REQUEST',
      message:
        'The component "bare" does not say where its logs are: give it logs selectors (logs: [{name, backend, selector}] in its topology).',
    });
    const notJson = await api('/api/logs', { method: 'POST', body: '{"backend": ' });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: 'INVALID_REQUEST', message: 'The request body must be JSON.' });
    for (const chains of [null, { x: 5 }]) {
      const cursor = Buffer.from(JSON.stringify({ v: 1, chains })).toString('base64url');
      const badCursor = await logs({ backend: 'shop-files', cursor });
      expect(badCursor.status).toBe(400);
      expect(((await badCursor.json()) as { error: string }).error).toMatch(/cursor: not a cursor of this backend/);
    }

    await test.db.query(`INSERT INTO properties (name, value) VALUES ('logs.disable', 'true')`);
    app.ctx.identity.featuresChanged();
    try {
      const off = await logs({ id: component }, viewer);
      expect(off.status).toBe(403);
      expect(((await off.json()) as { code: string }).code).toBe('FEATURE_DISABLED');
    } finally {
      await test.db.query(`DELETE FROM properties WHERE name = 'logs.disable'`);
      app.ctx.identity.featuresChanged();
    }
  });

  it('times out a slow backend with a message naming it', async () => {
    const hang = await startHttpReceiver();
    hang.reply({ hang: true });
    try {
      await apply(backend('slow-loki', `  loki:\n    - url: ${hang.url}\n      labels: {job: x}\n`));
      const started = Date.now();
      await expect(searchLogs(test.db, { backend: 'slow-loki' }, undefined, { timeoutMs: 300 })).rejects.toMatchObject({
        status: 504,
        code: 'BACKEND_TIMEOUT',
        message: 'The log backend "slow-loki" (loki) did not answer within 0.3 s.',
      });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await hang.close();
    }
  });
});
