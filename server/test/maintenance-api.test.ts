// Maintenance windows through the API: MaintenanceWindow resources applied from YAML (line and column
// errors, checks resolved by name and label selector, editors only), read back and deleted; the
// settings form's /api/db writes checked like the resource (viewers read, never write; applied windows
// read-only); and the occurrences endpoint expanding a recurring window.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { apiClient } from './helpers/api.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const windowYaml = (name: string, spec: string) =>
  `apiVersion: opsdeck.dev/v1\nkind: MaintenanceWindow\nmetadata:\n  name: ${name}\nspec:\n${spec}`;

describe.each(databaseKinds())('maintenance window API (%s)', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let viewer: TestUser;
  const ids: Record<string, string> = {};
  const { api, applyYaml, refused } = apiClient(
    () => app.url,
    () => editor,
  );

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
    const { rows: c } = await test.db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('mw', 'default', '{}') RETURNING id::text`,
    );
    for (const [name, labels] of [
      ['api', { tier: 'public' }],
      ['web', { tier: 'public' }],
      ['db', { tier: 'private' }],
    ] as const) {
      const { rows } = await test.db.query<{ id: string }>(
        `INSERT INTO checks (canary_id, type, name, labels) VALUES ($1, 'http', $2, $3) RETURNING id::text`,
        [c[0]!.id, name, JSON.stringify(labels)],
      );
      ids[name] = rows[0]!.id;
    }
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO components (name, health) VALUES ('Checkout', 'healthy') RETURNING id::text`,
    );
    ids.checkout = rows[0]!.id;
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('applies a one-off window resolving checks by name and label selector, reads it back and deletes it', async () => {
    const yaml = windowYaml(
      'db-upgrade',
      `  message: Upgrading the database
  start: 2026-03-01T10:00:00Z
  end: "2026-03-01T12:00:00+01:00"
  checks:
    - name: db
    - labelSelector: tier=public
  components:
    - id: ${ids.checkout}
  statusPages: [shop]
`,
    );
    const res = await applyYaml('/api/maintenance-window', yaml);
    const body = (await res.json()) as { applied: { id: string; created: boolean; checks: number }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.applied[0]).toMatchObject({ name: 'db-upgrade', created: true, checks: 3, components: 1 });
    const id = body.applied[0]!.id;
    const { rows } = await test.db.query<Record<string, unknown>>(
      `SELECT starts_at, ends_at, check_ids::text[] AS check_ids, component_ids::text[] AS component_ids, status_pages,
         silence, source FROM maintenance_windows WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toMatchObject({ status_pages: ['shop'], silence: true, source: 'UI' });
    expect(new Date(rows[0]!.ends_at as string).toISOString()).toBe('2026-03-01T11:00:00.000Z');
    expect([...(rows[0]!.check_ids as string[])].sort()).toEqual([ids.api, ids.web, ids.db].sort());
    expect(rows[0]!.component_ids).toEqual([ids.checkout]);

    // Applied again: the same row, changed in place.
    const again = await applyYaml('/api/maintenance-window', yaml.replace('Upgrading the database', 'Upgrading'));
    expect(((await again.json()) as { applied: { id: string; created: boolean }[] }).applied[0]).toMatchObject({
      id,
      created: false,
    });
    const spec = await api(`/api/maintenance-window/${id}/spec`, { as: viewer });
    expect(spec.status).toBe(200);
    const text = await spec.text();
    expect(text).toContain('kind: MaintenanceWindow');
    expect(text).toContain('message: Upgrading\n');

    expect((await api(`/api/maintenance-window/${id}`, { method: 'DELETE', as: viewer })).status).toBe(403);
    expect((await api(`/api/maintenance-window/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/maintenance-window/${id}/spec`)).status).toBe(404);
  });

  it('refuses bad windows with line and column, and viewers', async () => {
    const problems = await refused(
      '/api/maintenance-window',
      windowYaml(
        'bad',
        `  start: 2026-03-01T12:00:00Z
  end: 2026-03-01T10:00:00Z
  checks:
    - name: nope
`,
      ),
    );
    expect(problems.map((p) => p.message)).toEqual([
      'spec.end: the end must be after the start (line 7, column 8)',
      'spec.checks[0]: no check named "nope" (line 9, column 7)',
    ]);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'spec.end', line: 7, column: 8 }),
        expect.objectContaining({ path: 'spec.checks[0]', line: 9, column: 7 }),
      ]),
    );
    const cron = await refused(
      '/api/maintenance-window',
      windowYaml(
        'bad-cron',
        `  schedule: "61 * * * *"\n  duration: soon\n  timezone: Mars/Base\n  statusPages: [shop]\n`,
      ),
    );
    expect(cron.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^spec.timezone: timezone "Mars\/Base" is not a time zone name/),
        expect.stringMatching(/^spec.duration: duration: "soon" is not a duration/),
      ]),
    );
    const both = await refused(
      '/api/maintenance-window',
      windowYaml(
        'both',
        `  start: 2026-03-01T10:00:00Z\n  end: 2026-03-01T12:00:00Z\n  schedule: "0 2 * * *"\n  duration: 1h\n  statusPages: [shop]\n`,
      ),
    );
    expect(both[0]!.message).toMatch(/either a start and an end, or a schedule and a duration/);
    const res = await applyYaml(
      '/api/maintenance-window',
      windowYaml('by-viewer', `  schedule: "0 2 * * *"\n  duration: 1h\n  statusPages: [shop]\n`),
      viewer,
    );
    expect(res.status).toBe(403);
  });

  it('lets the form write rows through /api/db, checked like the resource; viewers read only', async () => {
    const post = (row: unknown, as?: TestUser) =>
      api('/api/db/maintenance_windows', {
        method: 'POST',
        body: JSON.stringify(row),
        headers: { prefer: 'return=representation' },
        as,
      });
    const good = {
      name: 'nightly',
      message: 'Nightly backup',
      schedule: '0 2 * * *',
      duration: '30m',
      timezone: 'Europe/Berlin',
      check_ids: [ids.db],
    };
    expect((await post(good, viewer)).status).toBe(403);
    const created = await post(good);
    const rows = (await created.json()) as { id: string }[];
    expect(created.status, JSON.stringify(rows)).toBe(201);
    const id = rows[0]!.id;
    const read = await api(`/api/db/maintenance_windows?id=eq.${id}`, { as: viewer });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { name: string }[])[0]!.name).toBe('nightly');

    const bad = await post({ name: 'nightly', schedule: 'every night', duration: '0s', check_ids: ['not-an-id'] });
    const problem = (await bad.json()) as { code: string; message: string };
    expect(bad.status).toBe(400);
    expect(problem.code).toBe('INVALID_MAINTENANCE_WINDOW');
    expect(problem.message).toContain('schedule: schedule "every night" is not a cron expression');
    expect(problem.message).toContain('duration: duration "0s" must be longer than zero');
    expect(problem.message).toContain('check_ids: a list of ids');
    expect(problem.message).toContain('name: a maintenance window named "nightly" exists');
    const none = await post({ name: 'empty', starts_at: '2026-03-01T10:00:00Z', ends_at: '2026-03-01T11:00:00Z' });
    expect(((await none.json()) as { message: string }).message).toContain('choose what is in maintenance');

    // A change of when: a recurring window made one-off; a bad change is refused and nothing is stored.
    const patch = (change: unknown) =>
      api(`/api/db/maintenance_windows?id=eq.${id}`, { method: 'PATCH', body: JSON.stringify(change) });
    expect((await patch({ ends_at: '2026-03-01T09:00:00Z', starts_at: '2026-03-01T10:00:00Z' })).status).toBe(400);
    expect((await patch({ starts_at: '2026-03-01T10:00:00Z', ends_at: '2026-03-01T11:00:00Z' })).status).toBe(204);
    const { rows: after } = await test.db.query('SELECT schedule, duration FROM maintenance_windows WHERE id = $1', [
      id,
    ]);
    expect(after[0]).toEqual({ schedule: null, duration: null });
    expect((await patch({ deleted_at: new Date().toISOString() })).status).toBe(204);

    // A window applied by the CLI is read-only here.
    const applied = await applyYaml(
      '/api/maintenance-window',
      windowYaml('from-git', `  schedule: "0 3 * * 0"\n  duration: 2h\n  statusPages: [shop]\n`),
    );
    expect(applied.status).toBe(201);
    await test.db.query(`UPDATE maintenance_windows SET source = 'ConfigFile' WHERE name = 'from-git'`);
    const { rows: git } = await test.db.query<{ id: string }>(
      `SELECT id FROM maintenance_windows WHERE name = 'from-git'`,
    );
    const ro = await api(`/api/db/maintenance_windows?id=eq.${git[0]!.id}`, {
      method: 'PATCH',
      body: JSON.stringify({ message: 'changed' }),
    });
    expect(ro.status).toBe(403);
  });

  it('lists occurrences of recurring windows in a range', async () => {
    const res = await api('/api/maintenance-window/occurrences?from=2026-03-02T00:00:00Z&to=2026-03-16T00:00:00Z', {
      as: viewer,
    });
    const list = (await res.json()) as { name: string; start: string; end: string }[];
    expect(res.status).toBe(200);
    expect(list.filter((o) => o.name === 'from-git').map((o) => o.start)).toEqual([
      '2026-03-08T03:00:00.000Z',
      '2026-03-15T03:00:00.000Z',
    ]);
    expect((await api('/api/maintenance-window/occurrences?from=yesterday', { as: viewer })).status).toBe(400);
  });
});
