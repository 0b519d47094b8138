// Status pages end to end: StatusPage resources applied from YAML (line and column errors, editors
// only), the settings form's /api/db writes, the public page and its JSON for an anonymous reader
// following a real check against a loopback server as it fails and recovers, private pages, badges
// (public only for entries on a public page), incidents and maintenance on the page, and nothing
// private (URL credentials, result errors and messages, labels, people) in anything public.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { apiClient } from './helpers/api.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';

const PASSWORD = 'Sup3rSecretPw';
const ERROR_SECRET = 'token=ERRSECRET42';
const LABEL_SECRET = 'LABELSECRET77';
const PERSON = 'Cora Commander Privatename';

const page = (name: string, spec: string) =>
  `apiVersion: opsdeck.dev/v1\nkind: StatusPage\nmetadata:\n  name: ${name}\nspec:\n${spec}`;

describe.each(databaseKinds())('status pages (%s)', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let target: HttpReceiver;
  let editor: TestUser;
  let viewer: TestUser;
  let responder: TestUser;
  let webId = '';
  let hiddenId = '';
  let componentId = '';

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    // Pages computed per request: each step below reads what the one before wrote.
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false, statusPageCacheMs: 0 });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
    responder = await createTestUser(test.db, 'responder');
    target = await startHttpReceiver();
    const host = new URL(target.url).host;
    const canary = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: shop
spec:
  schedule: "@every 1h"
  http:
    - name: web
      url: http://admin:${PASSWORD}@${host}/health
      responseCodes: [200]
      labels: {tier: public, secret: ${LABEL_SECRET}}
    - name: internal-db
      url: http://${host}/db
      responseCodes: [200]
`;
    const res = await app.ctx.db.query('SELECT 1'); // the app is up
    expect(res.rows).toHaveLength(1);
    const applied = await fetch(`${app.url}/api/canary`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: canary,
    });
    expect(applied.status, await applied.clone().text()).toBe(201);
    const { rows } = await test.db.query<{ id: string; name: string; canary_id: string }>(
      'SELECT id::text, name, canary_id::text FROM checks WHERE deleted_at IS NULL ORDER BY name',
    );
    webId = rows.find((r) => r.name === 'web')!.id;
    hiddenId = rows.find((r) => r.name === 'internal-db')!.id;
    const comp = await test.db.query<{ id: string }>(
      `INSERT INTO components (name, health, labels) VALUES ('Checkout', 'healthy', '{"team":"${LABEL_SECRET}"}') RETURNING id::text`,
    );
    componentId = comp.rows[0]!.id;
    await test.db.query(
      `INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id) VALUES ($1, $2, $3, 'manual')`,
      [webId, componentId, rows[0]!.canary_id],
    );
  });

  afterAll(async () => {
    await app?.close();
    await target?.close();
    await test?.close();
  });

  const { api, applyYaml, refused } = apiClient(
    () => app.url,
    () => editor,
  );
  const anon = (p: string, init: RequestInit = {}) => fetch(`${app.url}${p}`, { redirect: 'manual', ...init });
  const run = async (id: string) => {
    const res = await api(`/api/canary/run/check/${id}`, { method: 'POST', as: responder });
    expect(res.status).toBe(200);
  };
  const json = async (slug: string) => {
    const res = await anon(`/api/status/${slug}`);
    expect(res.status).toBe(200);
    return (await res.json()) as {
      state: string;
      sections: { name: string; entries: { name: string; state: string; uptime: number | null; days: unknown[] }[] }[];
      incidents: { title: string; severity: string }[];
      maintenance: { name: string; message: string; active: boolean }[];
    };
  };

  it('applies a StatusPage from YAML, for editors only, and reads it back', async () => {
    const yaml = page(
      'shop',
      `  title: Shop status\n  description: Our shop\n  sections:\n    - name: Website\n      checks:\n        - labelSelector: tier=public\n      components:\n        - name: Checkout\n`,
    );
    expect((await applyYaml('/api/status-page', yaml, viewer)).status).toBe(403);
    const res = await applyYaml('/api/status-page', yaml);
    expect(res.status).toBe(201);
    const { applied } = (await res.json()) as {
      applied: { id: string; name: string; created: boolean; url: string }[];
    };
    expect(applied[0]).toMatchObject({ name: 'shop', created: true, url: '/status/shop' });
    const again = await applyYaml('/api/status-page', yaml);
    expect(((await again.json()) as { applied: { created: boolean }[] }).applied[0]!.created).toBe(false);
    const spec = await api(`/api/status-page/${applied[0]!.id}/spec`, { as: viewer });
    expect(await spec.text()).toContain('kind: StatusPage\nmetadata:\n  name: shop\nspec:\n  title: Shop status');
    const list = (await (await api('/api/status-page', { as: viewer })).json()) as { slug: string; private: boolean }[];
    expect(list).toEqual([expect.objectContaining({ slug: 'shop', private: false })]);
    expect((await api('/api/status-page/shop', { as: viewer })).status).toBe(200);
  });

  it('refuses bad resources with line and column', async () => {
    const errors = await refused('/api/status-page', page('Bad_Name', `  title: x\n`));
    expect(errors[0]!.message).toMatch(/^metadata\.name: a status page name is its address/);
    expect(errors[0]!.line).toBe(4);
    const selector = await refused(
      '/api/status-page',
      page(
        'ok',
        `  title: x\n  sections:\n    - name: A\n      checks:\n        - labelSelector: "a b c"\n        - {name: x, id: 6c3ee1c2-0000-4000-8000-000000000000}\n`,
      ),
    );
    expect(selector.map((e) => [e.message.replace(/ \(line.*$/, ''), e.line])).toEqual([
      ['spec.sections[0].checks[1]: give exactly one of name, id or labelSelector', 11],
    ]);
    const parse = await refused(
      '/api/status-page',
      page('ok', `  title: x\n  sections:\n    - name: A\n      checks:\n        - labelSelector: "a b c"\n`),
    );
    expect(parse[0]).toMatchObject({ line: 10, column: 26 });
    expect(parse[0]!.message).toContain('spec.sections[0].checks[0].labelSelector: label selector "a b c"');
  });

  it('checks the settings form writes (/api/db) with the same rules', async () => {
    const bad = await api('/api/db/status_pages', {
      method: 'POST',
      body: JSON.stringify({ slug: 'Has Spaces', spec: { title: '' } }),
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'INVALID_STATUS_PAGE' });
    const good = await api('/api/db/status_pages', {
      method: 'POST',
      body: JSON.stringify({ slug: 'form-page', private: true, spec: { title: 'Form', sections: [] } }),
      headers: { prefer: 'return=representation' },
    });
    expect(good.status).toBe(201);
    const [row] = (await good.json()) as { id: string; private: boolean; spec: { private: boolean } }[];
    expect(row).toMatchObject({ private: true, spec: { private: true } });
    const viewerWrite = await api('/api/db/status_pages', {
      method: 'POST',
      body: JSON.stringify({ slug: 'nope', spec: { title: 'x' } }),
      as: viewer,
    });
    expect(viewerWrite.status).toBe(403);
    const patch = await api(`/api/db/status_pages?id=eq.${row!.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ private: false }),
      headers: { prefer: 'return=representation' },
    });
    expect(((await patch.json()) as { spec: { private: boolean } }[])[0]!.spec.private).toBe(false);
    expect((await api(`/api/status-page/${row!.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await anon('/api/status/form-page')).status).toBe(404);
  });

  it('shows an anonymous reader the right states as a check fails and recovers', async () => {
    target.reply({ status: 200, body: { ok: true } });
    await run(webId);
    let data = await json('shop');
    expect(data.state).toBe('operational');
    expect(data.sections[0]!.entries.map((e) => [e.name, e.state])).toEqual([
      ['Checkout', 'operational'],
      ['web', 'operational'],
    ]);
    expect(data.sections[0]!.entries[1]!.uptime).toBe(100);
    expect(data.sections[0]!.entries[1]!.days).toHaveLength(90);

    target.reply({ status: 503, body: ERROR_SECRET });
    await run(webId);
    await test.db.query(`UPDATE components SET health = 'unhealthy' WHERE id = $1`, [componentId]);
    data = await json('shop');
    expect(data.state).toBe('major_outage');
    expect(data.sections[0]!.entries.map((e) => e.state)).toEqual(['down', 'down']);
    expect(data.sections[0]!.entries[1]!.uptime).toBe(50);
    const html = await anon('/status/shop', { headers: { 'accept-encoding': 'identity' } });
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toContain('text/html');
    const text = await html.text();
    expect(text).toContain(
      '<div class="overall o-major_outage" id="overall" data-state="major_outage">Major outage</div>',
    );
    expect(text).toContain('<span class="name">web</span><span class="st s-down">Down</span>');
    expect(text).toContain('name="viewport"');
    expect(text).not.toMatch(/<script[^>]+src=/); // no console bundle

    target.reply({ status: 200, body: { ok: true } });
    await run(webId);
    await test.db.query(`UPDATE components SET health = 'healthy' WHERE id = $1`, [componentId]);
    data = await json('shop');
    expect(data.state).toBe('operational');
    expect(data.sections[0]!.entries.map((e) => e.state)).toEqual(['operational', 'operational']);
    const after = await (await anon('/status/shop')).text();
    expect(after).toContain('All systems operational');
  });

  it('lists open incidents linked to entries (title, severity, status and time only)', async () => {
    const person = await createTestUser(test.db, 'commander', PERSON);
    await test.db.query(
      `INSERT INTO incidents (title, description, severity, status, component_id, commander_id, created_by)
       VALUES ('Checkout is slow', 'INTERNAL-DESCRIPTION', 'high', 'open', $1, $2, $2),
              ('Old one', 'x', 'low', 'resolved', $1, $2, $2)`,
      [componentId, person.id],
    );
    const data = await json('shop');
    expect(data.incidents).toEqual([
      {
        title: 'Checkout is slow',
        severity: 'high',
        status: 'open',
        created_at: expect.any(String),
        entries: ['Checkout'],
      },
    ]);
    const text = await (await anon('/status/shop')).text();
    expect(text).toContain('Checkout is slow');
    expect(text).not.toContain('INTERNAL-DESCRIPTION');
  });

  it('shows current and upcoming maintenance announced for its entries or the page', async () => {
    await test.db.query(
      `INSERT INTO maintenance_windows (name, message, starts_at, ends_at, check_ids)
       VALUES ('Database upgrade', 'Checkout may be slow', now() - interval '5 minutes', now() + interval '1 hour', ARRAY[$1::uuid]),
              ('Network work', 'Short blips', now() + interval '2 days', now() + interval '2 days 1 hour', '{}'),
              ('Far away', 'Later', now() + interval '20 days', now() + interval '21 days', ARRAY[$1::uuid]),
              ('Elsewhere', 'Not ours', now() - interval '5 minutes', now() + interval '1 hour', ARRAY[$2::uuid])`,
      [webId, hiddenId],
    );
    await test.db.query(`UPDATE maintenance_windows SET status_pages = '{shop}' WHERE name = 'Network work'`);
    const data = await json('shop');
    expect(data.maintenance.map((m) => [m.name, m.message, m.active])).toEqual([
      ['Database upgrade', 'Checkout may be slow', true],
      ['Network work', 'Short blips', false],
    ]);
    expect(data.sections[0]!.entries.find((e) => e.name === 'web')!.state).toBe('maintenance');
    const text = await (await anon('/status/shop')).text();
    expect(text).toContain('Database upgrade');
    expect(text).toContain('In progress');
    expect(text).not.toContain('Not ours');
    await test.db.query(`DELETE FROM maintenance_windows`);
  });

  it('keeps a private page for signed-in readers', async () => {
    const res = await applyYaml(
      '/api/status-page',
      page(
        'internal',
        `  title: Internal\n  private: true\n  sections:\n    - name: All\n      checks:\n        - id: ${hiddenId}\n`,
      ),
    );
    expect(res.status).toBe(201);
    expect((await anon('/api/status/internal')).status).toBe(401);
    const html = await anon('/status/internal');
    expect(html.status).toBe(302);
    expect(html.headers.get('location')).toBe('/login?return_to=%2Fstatus%2Finternal');
    const signedIn = await api('/api/status/internal', { as: viewer });
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { title: string }).title).toBe('Internal');
    expect((await api('/status/internal', { as: viewer })).status).toBe(200);
    expect((await anon('/status/no-such-page')).status).toBe(404);
  });

  it('serves badges only for entries on a public page (signed-in readers: any)', async () => {
    const status = await anon(`/api/badge/check/${webId}/status`);
    expect(status.status).toBe(200);
    expect(status.headers.get('content-type')).toContain('image/svg+xml');
    expect(status.headers.get('cache-control')).toBe('public, max-age=60');
    const svg = await status.text();
    expect(svg).toMatch(/^<svg xmlns/);
    expect(svg).toContain('<title>web: up</title>');
    const etag = status.headers.get('etag')!;
    expect((await anon(`/api/badge/check/${webId}/status`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const uptime = await (await anon(`/api/badge/check/${webId}/uptime?range=7d`)).text();
    expect(uptime).toMatch(/<title>uptime 7d: \d+(\.\d+)?%<\/title>/);
    const latency = await (await anon(`/api/badge/component/${componentId}/latency?range=30d`)).text();
    expect(latency).toMatch(/<title>latency 30d: \d+ms<\/title>/);
    // On the private page only: no public badge.
    expect((await anon(`/api/badge/check/${hiddenId}/status`)).status).toBe(404);
    expect((await anon(`/api/badge/check/not-a-uuid/status`)).status).toBe(404);
    expect((await api(`/api/badge/check/${hiddenId}/status`, { as: viewer })).status).toBe(200);
    const range = await anon(`/api/badge/check/${webId}/uptime?range=1y`);
    expect(range.status).toBe(400);
    expect(((await range.json()) as { message: string }).message).toBe('range "1y" is not one of 24h, 7d, 30d');
    // A name every object has is not a range either.
    expect((await anon(`/api/badge/check/${webId}/uptime?range=constructor`)).status).toBe(400);
    expect((await anon(`/api/badge/config/${webId}/status`)).status).toBe(400);
    expect((await anon(`/api/badge/check/${webId}/colour`)).status).toBe(400);
  });

  it('leaks nothing private: no URL credentials, errors, messages, labels or people', async () => {
    await test.db.query(
      `INSERT INTO check_statuses (check_id, time, status, message, error, details)
       VALUES ($1, now() - interval '1 minute', false, 'msg ${ERROR_SECRET}', 'err ${ERROR_SECRET}', '{"k":"${ERROR_SECRET}"}')`,
      [webId],
    );
    const bodies = [
      await (await anon('/status/shop')).text(),
      await (await anon('/api/status/shop')).text(),
      await (await anon(`/api/badge/check/${webId}/status`)).text(),
      await (await anon(`/api/badge/check/${webId}/uptime`)).text(),
      await (await anon(`/api/badge/component/${componentId}/status`)).text(),
    ];
    for (const body of bodies) {
      for (const secret of [
        PASSWORD,
        ERROR_SECRET,
        'ERRSECRET',
        LABEL_SECRET,
        PERSON,
        'INTERNAL-DESCRIPTION',
        target.url,
      ])
        expect(body).not.toContain(secret);
      expect(body).not.toContain('internal-db');
    }
    const data = JSON.parse(bodies[1]!) as Record<string, unknown>;
    expect(Object.keys(data).sort()).toEqual(
      [
        'days_from',
        'description',
        'footer',
        'incidents',
        'logo',
        'maintenance',
        'sections',
        'slug',
        'state',
        'state_text',
        'title',
        'updated_at',
      ].sort(),
    );
  });
});
