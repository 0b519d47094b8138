// Catalog items that say where their logs are: a ScrapeConfig's scraper entry lists `logs` (values
// templated over the item's config), a run stores them per item as config_items.log_selectors,
// configs_with_logs lists the items, and POST /api/logs {config_id} reads their lines from a file
// backend. Problems of `logs` are refused at apply with line and column; dropping `logs` clears them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const scrapeConfig = (name: string, spec: string) =>
  `apiVersion: configs.flanksource.com/v1\nkind: ScrapeConfig\nmetadata:\n  name: ${name}\n  namespace: ops\nspec:\n${spec}`;

interface Page {
  results: { message: string; labels: Record<string, string> }[];
  nextCursor: string | null;
  backend: unknown;
}

describe.each(databaseKinds())('catalog item logs (%s)', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;
  let scraper = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-logs-catalog-'));
  const apps = path.join(dir, 'apps');
  const T0 = Date.now() - 60_000;

  const api = (p: string, init: RequestInit & { as?: TestUser } = {}) =>
    fetch(`${app.url}${p}`, { ...init, headers: { ...(init.as ?? editor).headers, ...(init.headers as object) } });
  const yaml = (p: string, body: string) =>
    api(p, { method: 'POST', body, headers: { 'content-type': 'application/yaml' } });
  const logs = (body: Record<string, unknown>, as: TestUser = editor) =>
    api('/api/logs', {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
      as,
    });
  const itemId = async (name: string) =>
    (
      await test.db.query<{ id: string }>(
        'SELECT id FROM config_items WHERE scraper_id = $1 AND name = $2 AND deleted_at IS NULL',
        [scraper, name],
      )
    ).rows[0]!.id;

  const filesSpec = (logsField: string) => `  file:
    - type: Shop::App
      id: $.id
      name: $.name
      paths: ["${apps}/*.json"]
${logsField}`;
  const withLogs = `      logs:
        - name: app
          backend: shop-files
          type: file
          selector: {app: "{{.app}}"}
        - name: "{{.name}}-pods"
          type: kubernetes
          labels: {namespace: $.namespace, app: "{{.app}}"}
`;

  async function applyAndRun(spec: string): Promise<string> {
    const res = await yaml('/api/catalog', scrapeConfig('shop-apps', spec));
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    const id = body.applied[0]!.id;
    const run = await api(`/api/catalog/run/${id}`, { method: 'POST' });
    const result = (await run.json()) as { status: string; errors: string[] };
    expect(result, JSON.stringify(result)).toMatchObject({ status: 'SUCCESS', errors: [] });
    return id;
  }

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
    fs.mkdirSync(apps);
    fs.writeFileSync(
      path.join(apps, 'cart.json'),
      JSON.stringify({ id: 'a1', name: 'cart', app: 'shop', namespace: 'web' }),
    );
    fs.writeFileSync(path.join(apps, 'pay.json'), JSON.stringify({ id: 'a2', name: 'pay', app: 'pay' }));
    const line = (n: number, what: string) => `${new Date(T0 + n * 1000).toISOString()} ${what} line ${n}\n`;
    fs.writeFileSync(path.join(dir, 'shop.log'), [1, 2, 3].map((n) => line(n, 'shop')).join(''));
    fs.writeFileSync(path.join(dir, 'pay.log'), line(1, 'pay'));
    const backend = await yaml(
      '/api/logging_backends',
      `apiVersion: apm-hub.flanksource.com/v1
kind: LoggingBackend
metadata: {name: shop-files}
spec:
  file:
    - paths: [${dir}/shop.log]
      labels: {app: shop}
    - paths: [${dir}/pay.log]
      labels: {app: pay}
`,
    );
    expect(backend.status).toBe(201);
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('stores the rendered log selectors of each scraped item and lists them in configs_with_logs', async () => {
    scraper = await applyAndRun(filesSpec(withLogs));
    const listed = await api('/api/db/configs_with_logs?select=name,type,logs&order=name', { as: viewer });
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([
      {
        name: 'cart',
        type: 'Shop::App',
        logs: [
          { name: 'app', backend: 'shop-files', type: 'file', selector: { app: 'shop' } },
          { name: 'cart-pods', backend: null, type: 'kubernetes', selector: { namespace: 'web', app: 'shop' } },
        ],
      },
      {
        name: 'pay',
        type: 'Shop::App',
        // The namespace JSONPath finds nothing on this item: the label is left out.
        logs: [
          { name: 'app', backend: 'shop-files', type: 'file', selector: { app: 'pay' } },
          { name: 'pay-pods', backend: null, type: 'kubernetes', selector: { app: 'pay' } },
        ],
      },
    ]);
  });

  it("reads a catalog item's lines through POST /api/logs {config_id}, for viewers too", async () => {
    const cart = await itemId('cart');
    const res = await logs({ config_id: cart, start: 'now-1d' }, viewer);
    const page = (await res.json()) as Page;
    expect(res.status, JSON.stringify(page)).toBe(200);
    expect(page.results.map((l) => l.message.slice(25))).toEqual(['shop line 3', 'shop line 2', 'shop line 1']);
    expect(page.results[0]!.labels).toMatchObject({ app: 'shop', file: `${dir}/shop.log` });
    expect(page.backend).toMatchObject({ name: 'shop-files', type: 'file' });

    const paged = (await (await logs({ config_id: cart, start: 'now-1d', limit: 2 })).json()) as Page;
    expect(paged.results.map((l) => l.message.slice(25))).toEqual(['shop line 3', 'shop line 2']);
    const rest = (await (
      await logs({ config_id: cart, start: 'now-1d', limit: 2, cursor: paged.nextCursor })
    ).json()) as Page;
    expect(rest.results.map((l) => l.message.slice(25))).toEqual(['shop line 1']);

    const pay = (await (await logs({ config_id: await itemId('pay'), start: 'now-1d' })).json()) as Page;
    expect(pay.results.map((l) => l.message.slice(25))).toEqual(['pay line 1']);

    // `id` names a catalog item too when no component has it; a viewer reads it by its selector only.
    const byId = (await (await logs({ id: cart, start: 'now-1d', limit: 1 }, viewer)).json()) as Page;
    expect(byId.results.map((l) => l.message.slice(25))).toEqual(['shop line 3']);
    const forced = await logs({ id: cart, backend: 'shop-files', labels: { app: 'pay' } }, viewer);
    expect(forced.status).toBe(403);
    expect(await forced.json()).toMatchObject({
      message: "Your role reads logs as the component's log selector says: leave out backend, labels.",
    });
    await test.db.query(`INSERT INTO properties (name, value) VALUES ('config.disable', 'true')`);
    app.ctx.identity.featuresChanged();
    try {
      // Without the catalog, its items' logs are not readable either.
      expect(await (await logs({ id: cart }, viewer)).json()).toMatchObject({ code: 'FEATURE_DISABLED' });
    } finally {
      await test.db.query(`DELETE FROM properties WHERE name = 'config.disable'`);
      app.ctx.identity.featuresChanged();
    }

    const missing = await logs({ config_id: cart, selector: 'nope' });
    expect(missing.status).toBe(400);
    const gone = await logs({ config_id: '00000000-0000-0000-0000-000000000001' });
    expect(await gone.json()).toMatchObject({ code: 'NOT_FOUND', error: 'Catalog item not found.' });
  });

  it('refuses bad logs entries at apply with line and column', async () => {
    type Problems = { errors: { message: string; path: string; line: number; column: number }[] };
    const bad = filesSpec(`      logs:\n        - name: "{{.name"\n          type: graylog\n`);
    const res = await yaml('/api/catalog', scrapeConfig('bad-logs', bad));
    expect(res.status).toBe(400);
    const body = (await res.json()) as Problems;
    expect(body.errors.map((e) => [e.path, e.line, e.column])).toEqual([
      ['spec.file[0].logs[0].name', 13, 17],
      ['spec.file[0].logs[0].type', 14, 17],
    ]);
    expect(body.errors[1]!.message).toBe(
      'spec.file[0].logs[0].type: "graylog" is not a log backend type (one of file, loki, opensearch, kubernetes) (line 14, column 17)',
    );
    const unnamed = await yaml(
      '/api/catalog',
      scrapeConfig('bad-logs', filesSpec(`      logs:\n        - backend: shop-files\n`)),
    );
    expect(unnamed.status).toBe(400);
    const { errors } = (await unnamed.json()) as Problems;
    expect(errors.map((e) => [e.path, e.line])).toEqual([['spec.file[0].logs[0].name', 13]]);
    expect(errors[0]!.message).toMatch(/^spec\.file\[0\]\.logs\[0\]\.name: name is required/);
  });

  it('clears the selectors when the scraper no longer says where logs are', async () => {
    const cart = await itemId('cart');
    await applyAndRun(filesSpec(''));
    const { rows } = await test.db.query<{ log_selectors: unknown }>(
      'SELECT log_selectors FROM config_items WHERE id = $1',
      [cart],
    );
    expect(rows[0]!.log_selectors).toBeNull();
    expect(await (await api('/api/db/configs_with_logs?select=name')).json()).toEqual([]);
    const res = await logs({ config_id: cart });
    expect(res.status).toBe(400);
  });
});
