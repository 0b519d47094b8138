// Notification rules and silences through the API: mission-control YAML applied unchanged, every
// bad input refused with a message naming the field (and its line/column), nothing stored when one
// document of several is bad, the rule form's /api/db writes checked by the same rules, rules from
// files read-only there, specs read back as YAML, soft deletes, the CLI, permissions and the views.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { applyFile } from '../src/cliApply.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { apiClient } from './helpers/api.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const notification = (name: string, spec: string) =>
  `apiVersion: mission-control.flanksource.com/v1\nkind: Notification\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n${spec}`;
const silence = (name: string, spec: string) =>
  `apiVersion: mission-control.flanksource.com/v1\nkind: NotificationSilence\nmetadata:\n  name: ${name}\nspec:\n${spec}`;

describe.each(databaseKinds())('notifications API (%s)', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;
  const ids = { check: '', component: '', team: '', connection: '' };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-notifications-'));

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor', 'Edna Editor');
    viewer = await createTestUser(test.db, 'viewer');
    const q = async (sql: string, params: unknown[] = []) =>
      (await test.db.query<{ id: string }>(sql, params)).rows[0]!.id;
    const canary = await q(`INSERT INTO canaries (name, namespace, spec) VALUES ('web', 'shop', '{}') RETURNING id`);
    ids.check = await q(
      `INSERT INTO checks (canary_id, type, name, namespace) VALUES ($1, 'http', 'web-home', 'shop') RETURNING id`,
      [canary],
    );
    ids.component = await q(`INSERT INTO components (name, type) VALUES ('payments-db', 'Database') RETURNING id`);
    ids.team = await q(`INSERT INTO teams (name) VALUES ('sre') RETURNING id`);
    ids.connection = await q(
      `INSERT INTO connections (name, namespace, type, url) VALUES ('alerts', 'default', 'slack', 'slack://t@c') RETURNING id`,
    );
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const {
    api,
    applyYaml,
    refused: refusedAt,
  } = apiClient(
    () => app.url,
    () => editor,
  );
  const apply = (yaml: string, p = '/api/notification', as = editor) => applyYaml(p, yaml, as);
  const refused = (yaml: string, p = '/api/notification') => refusedAt(p, yaml);
  const rule = async (name: string) =>
    (
      await test.db.query<Record<string, unknown>>(
        `SELECT * FROM notifications WHERE name = $1 AND deleted_at IS NULL`,
        [name],
      )
    ).rows[0];

  it('applies a mission-control Notification unchanged, durations in nanoseconds', async () => {
    const res = await apply(
      notification(
        'http-check-alerts',
        `  events:
    - check.failed
    - check.passed
  filter: check.type == 'http'
  title: "Check {{.check.name}} is {{.check.status}}"
  template: |
    {{.check.name}} failed: {{.check.error}}
  to:
    connection: connection://slack/alerts
    properties:
      channel: ops
  repeatInterval: 2h
  waitFor: 5m
  waitForEvalPeriod: 30s
  groupBy: [type]
  inhibit:
    - direction: outgoing
      depth: 2
      from: Kubernetes::Deployment
      to: [Kubernetes::Pod]
  fallback:
    team: sre
    delay: 10m
`,
      ),
    );
    const body = (await res.json()) as { applied: { id: string; name: string; created: boolean }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.applied).toEqual([
      { id: expect.any(String), name: 'http-check-alerts', namespace: 'default', created: true },
    ]);
    const row = (await rule('http-check-alerts'))!;
    expect(row).toMatchObject({
      events: ['check.failed', 'check.passed'],
      filter: "check.type == 'http'",
      person_id: null,
      team_id: null,
      custom_services: [
        { connection: 'connection://slack/alerts', connection_id: ids.connection, properties: { channel: 'ops' } },
      ],
      properties: { channel: 'ops' },
      group_by: ['type'],
      inhibitions: [{ direction: 'outgoing', depth: 2, from: ['Kubernetes::Deployment'], to: ['Kubernetes::Pod'] }],
      fallback: { team: 'sre', team_id: ids.team, delay: 600e9 },
      source: 'UI',
      created_by: editor.id,
    });
    expect(Number(row.repeat_interval)).toBe(7200e9);
    expect(Number(row.wait_for)).toBe(300e9);
    expect(Number(row.wait_for_eval_period)).toBe(30e9);

    // Applying again updates the same rule.
    const again = await apply(notification('http-check-alerts', '  events: [check.failed]\n  to: {team: sre}\n'));
    expect(((await again.json()) as { applied: { created: boolean }[] }).applied[0]!.created).toBe(false);
    expect(await rule('http-check-alerts')).toMatchObject({
      team_id: ids.team,
      custom_services: null,
      events: ['check.failed'],
    });
  });

  it('refuses each bad input with the field, its line and its column', async () => {
    const cases: [string, RegExp, number][] = [
      [
        '  events: [check.exploded]\n  to: {email: a@b.example}\n',
        /^spec\.events\[0\]: unknown event "check\.exploded"/,
        7,
      ],
      ['  events: [check.failed]\n  filter: "check.type =="\n  to: {email: a@b.example}\n', /^spec\.filter: /, 8],
      ['  events: [check.failed]\n  template: "{{ .check.name "\n  to: {email: a@b.example}\n', /^spec\.template: /, 8],
      [
        '  events: [check.failed]\n  to:\n    person: nobody@example.test\n',
        /spec\.to\.person: no person "nobody@example\.test"/,
        9,
      ],
      ['  events: [check.failed]\n  to:\n    team: ghosts\n', /spec\.to\.team: no team "ghosts"/, 9],
      [
        '  events: [check.failed]\n  to:\n    connection: connection://slack/nope\n',
        /spec\.to\.connection: no connection/,
        9,
      ],
      [
        '  events: [check.failed]\n  to:\n    url: carrier-pigeon://coop\n',
        /spec\.to\.url: no notification channel reads carrier-pigeon:\/\/ URLs/,
        9,
      ],
      [
        '  events: [check.failed]\n  to: {email: a@b.example}\n  repeatInterval: 30s\n',
        /^spec\.repeatInterval: Duration must be greater than 1 minute/,
        9,
      ],
      ['  events: [check.failed]\n  to: {}\n', /^spec\.to: needs one recipient/, 8],
    ];
    for (const [spec, message, line] of cases) {
      const [first] = await refused(notification('bad', spec));
      expect(first!.message, spec).toMatch(message);
      expect(first!.line, spec).toBe(line);
      expect(first!.column).toBeGreaterThan(0);
    }
    const [syntax] = await refused('apiVersion: mission-control.flanksource.com/v1\nkind: Notification\nspec: [\n');
    expect(syntax).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    expect(await rule('bad')).toBeUndefined();
  });

  it('stores nothing when one document of several is bad', async () => {
    const good = notification('first-of-two', '  events: [check.failed]\n  to: {email: a@b.example}\n');
    const bad = notification('second-of-two', '  events: [check.failed]\n  to: {person: nobody}\n');
    const [problem] = await refused(`${good}---\n${bad}`);
    expect(problem!.message).toMatch(/spec\.to\.person: no person "nobody"/);
    expect(await rule('first-of-two')).toBeUndefined();
  });

  it('reads a rule back as YAML and soft-deletes it', async () => {
    const res = await apply(notification('to-delete', '  events: [component.unhealthy]\n  to: {email: a@b.example}\n'));
    const [{ id }] = ((await res.json()) as { applied: { id: string }[] }).applied as [{ id: string }];
    const spec = await api(`/api/notification/${id}/spec`, { as: viewer });
    expect(spec.headers.get('content-type')).toMatch(/yaml/);
    expect(parseYaml(await spec.text())).toMatchObject({
      kind: 'Notification',
      metadata: { name: 'to-delete' },
      spec: { events: ['component.unhealthy'], to: { email: 'a@b.example' } },
    });
    expect((await api(`/api/notification/${id}`, { method: 'DELETE', as: viewer })).status).toBe(403);
    expect((await api(`/api/notification/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/notification/${id}/spec`)).status).toBe(404);
    expect((await api(`/api/notification/${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('lets a viewer read but not write', async () => {
    const res = await apply(
      notification('viewer-try', '  events: [check.failed]\n  to: {email: a@b.example}\n'),
      '/api/notification',
      viewer,
    );
    expect(res.status).toBe(403);
    const list = await api('/api/db/notifications_summary?select=name,pending,sent,failed&order=name', { as: viewer });
    expect(list.status).toBe(200);
    const row = { name: 'v', events: ['check.failed'], team_id: ids.team };
    expect((await api('/api/db/notifications', { method: 'POST', body: JSON.stringify(row), as: viewer })).status).toBe(
      403,
    );
  });

  it('checks /api/db writes of the rule form with the same rules and writes the spec', async () => {
    const post = (row: Record<string, unknown>) =>
      api('/api/db/notifications', {
        method: 'POST',
        body: JSON.stringify(row),
        headers: { prefer: 'return=representation' },
      });
    const good = { name: 'form-rule', events: ['check.failed'], team_id: ids.team, repeat_interval: 3600e9 };
    const bads: [Record<string, unknown>, string][] = [
      [{ ...good, events: ['nope'] }, 'events'],
      [{ ...good, filter: 'check.name ==' }, 'filter'],
      [{ ...good, template: '{{ if }}' }, 'template'],
      [{ ...good, repeat_interval: 30e9 }, 'repeat_interval'],
      [{ ...good, wait_for: 1e9 }, 'wait_for'],
      [{ ...good, team_id: null }, 'person_id'],
      [{ ...good, custom_services: [{ url: 'slack://t@c' }] }, 'custom_services'],
      [{ ...good, team_id: null, custom_services: [{ connection: 'nope' }] }, 'custom_services[0].connection'],
    ];
    for (const [row, field] of bads) {
      const res = await post(row);
      const body = (await res.json()) as { code: string; message: string; details: { field: string }[] };
      expect(res.status, JSON.stringify(row)).toBe(400);
      expect(body.code).toBe('INVALID_NOTIFICATION');
      expect(body.details.map((d) => d.field)).toContain(field);
    }
    expect(await rule('form-rule')).toBeUndefined();
    const created = await post(good);
    expect(created.status).toBe(201);
    const [row] = (await created.json()) as { id: string; source: string }[];
    expect(row!.source).toBe('UI');
    const yaml = parseYaml(await (await api(`/api/notification/${row!.id}/spec`)).text()) as {
      spec: Record<string, unknown>;
    };
    expect(yaml.spec).toMatchObject({ events: ['check.failed'], to: { team: ids.team }, repeatInterval: '1h' });

    const patch = (body: Record<string, unknown>) =>
      api(`/api/db/notifications?id=eq.${row!.id}`, { method: 'PATCH', body: JSON.stringify(body) });
    expect((await patch({ wait_for: 10e9 })).status).toBe(400);
    expect((await patch({ wait_for: 300e9 })).status).toBe(204);
    expect(Number((await rule('form-rule'))!.wait_for)).toBe(300e9);
    expect((await patch({ deleted_at: new Date().toISOString() })).status).toBe(204);
  });

  it('keeps rules applied from a file read-only through /api/db', async () => {
    const file = path.join(tmp, 'rules.yaml');
    fs.writeFileSync(
      file,
      `${notification('from-file', '  events: [check.failed]\n  to: {team: sre}\n')}---\n${silence('from-file-silence', `  namespace: shop\n  until: now+1h\n`)}`,
    );
    expect(await applyFile(file, app.url, editor.token)).toBe(0);
    const stored = (await rule('from-file'))!;
    expect(stored.source).toBe('ConfigFile');
    const res = await api(`/api/db/notifications?id=eq.${String(stored.id)}`, {
      method: 'PATCH',
      body: JSON.stringify({ title: 'changed' }),
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toBe('This rule came from ConfigFile: change it there');
    const summary = await api(`/api/db/notifications_summary?name=eq.from-file&select=source,team,sent`);
    expect(await summary.json()).toEqual([{ source: 'ConfigFile', team: { id: ids.team, name: 'sre' }, sent: 0 }]);
  });

  it('applies silences: a component named by a selector, windows, filters; refuses what finds nothing', async () => {
    const res = await apply(
      silence(
        'db-maintenance',
        `  description: database maintenance
  from: now
  until: 2h
  recursive: true
  selectors:
    - name: payments-db
      types: [component]
`,
      ),
      '/api/notification/silence',
    );
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    const { rows } = await test.db.query<{ component_id: string; hours: number; recursive: boolean }>(
      `SELECT component_id, recursive, round(extract(epoch FROM until - "from") / 3600)::int AS hours FROM notification_silences WHERE id = $1`,
      [body.applied[0]!.id],
    );
    expect(rows[0]).toEqual({ component_id: ids.component, recursive: true, hours: 2 });
    const view = await api(
      `/api/db/notification_silences_summary?id=eq.${body.applied[0]!.id}&select=component_name,expired`,
    );
    expect(await view.json()).toEqual([{ component_name: 'payments-db', expired: false }]);

    const problems: [string, RegExp][] = [
      [
        '  until: now+1h\n  selectors:\n    - name: nothing-here\n',
        /spec\.selectors\[0\]: no check, canary, component or catalog item named "nothing-here"/,
      ],
      ['  namespace: shop\n  until: now+1h\n  filter: "check.name =="\n', /^spec\.filter: /],
      [
        '  namespace: shop\n  from: "2025-06-02T00:00:00Z"\n  until: "2025-06-01T00:00:00Z"\n',
        /^spec\.until: must be after from/,
      ],
      ['  namespace: shop\n  until: someday\n', /^spec\.until: "someday" is not a time/],
      ['  until: now+1h\n', /a silence needs a resource/],
    ];
    for (const [spec, message] of problems) {
      const [first] = await refused(silence('bad-silence', spec), '/api/notification/silence');
      expect(first!.message, spec).toMatch(message);
    }
    const id = body.applied[0]!.id;
    expect(parseYaml(await (await api(`/api/notification/silence/${id}/spec`)).text())).toMatchObject({
      kind: 'NotificationSilence',
    });
    expect((await api(`/api/notification/silence/${id}`, { method: 'DELETE' })).status).toBe(204);
  });

  it('checks /api/db writes of the silence form', async () => {
    const post = (row: Record<string, unknown>) =>
      api('/api/db/notification_silences', { method: 'POST', body: JSON.stringify(row) });
    const until = new Date(Date.now() + 3600_000).toISOString();
    const bads: [Record<string, unknown>, string][] = [
      [{ until }, 'check_id'],
      [{ check_id: ids.check, component_id: ids.component, until }, 'component_id'],
      [{ check_id: ids.check, from: until, until: new Date().toISOString() }, 'until'],
      [{ namespace: 'shop', filter: 'check.name ==', until }, 'filter'],
      [{ component_id: '00000000-0000-0000-0000-000000000001', until }, 'component_id'],
      [{ selectors: [{ types: ['http'], labelSelector: 'team=payments,???' }], until }, 'selectors'],
    ];
    for (const [row, field] of bads) {
      const res = await post(row);
      const body = (await res.json()) as { code: string; details: { field: string }[] };
      expect(res.status, JSON.stringify(row)).toBe(400);
      expect(body.code).toBe('INVALID_SILENCE');
      expect(body.details.map((d) => d.field)).toContain(field);
    }
    expect((await post({ check_id: ids.check, until, description: 'deploy' })).status).toBe(201);
    const view = await api(
      `/api/db/notification_silences_summary?description=eq.deploy&select=check_name,canary_name,created_by_name`,
    );
    expect(await view.json()).toEqual([{ check_name: 'web-home', canary_name: 'web', created_by_name: null }]);
  });
});
