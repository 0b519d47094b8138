// Every resource table of the /api/db registry written with a real PostgREST client
// (@supabase/postgrest-js), as the original console and scripts write them. For each table that
// takes writes: insert, read back, update, soft delete, a bad spec refused with the message of its
// apply endpoint (400), and `Prefer: tx=rollback` leaving nothing changed (insert, update and soft
// delete — a canary's checks included). Tables that only an endpoint may write (playbooks, agents,
// access_tokens) answer 405 naming it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { evaluateIncidentRules } from '../src/incidents/rules.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

type Row = Record<string, unknown>;

/** The problem an answer names, without the field path in front and line/column positions. */
const problem = (m: string) =>
  m
    .replace(/ \(line \d+, column \d+\)/g, '')
    .replace(/^[\w.[\]]+: /, '')
    .split('\n')[0];

interface Case {
  table: string;
  /** A good row, and what it reads back as. */
  row: () => Row;
  stored: () => Row;
  /** A good change, and what the row reads back as after it. */
  change: () => Row;
  changed: () => Row;
  /** A bad row, and the same mistake sent to the apply endpoint (path, body). */
  bad: () => Row;
  apply: () => [string, unknown];
  /** The apply endpoint's message is the same text (true) or names the same problem (false). */
  sameText: boolean;
}

describe.each(databaseKinds())('every resource table through postgrest-js on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let db: PostgrestClient;
  let dir: string;
  const ids = { team: '', check: '' };
  const until = new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
    db = new PostgrestClient(`${app.url}/api/db`, { headers: admin.headers as Record<string, string> });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'db-resources-all-'));
    fs.writeFileSync(path.join(dir, 'a.log'), 'hello\n');
    const team = await test.db.query<{ id: string }>(`INSERT INTO teams (name) VALUES ('sre') RETURNING id`);
    ids.team = team.rows[0]!.id;
    const canary = await test.db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('seed', 'all', '{}') RETURNING id`,
    );
    const check = await test.db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, name, type) VALUES ($1, 'seed-check', 'http') RETURNING id`,
      [canary.rows[0]!.id],
    );
    ids.check = check.rows[0]!.id;
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const applyMessage = async (p: string, body: unknown) => {
    const res = await fetch(`${app.url}${p}`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { ...admin.headers, 'content-type': 'application/json' },
    });
    const json = (await res.json()) as { message: string };
    expect(res.status, JSON.stringify(json)).toBe(400);
    return json.message;
  };

  const canary = (name: string, url: string, extra: Row = {}) => ({
    apiVersion: 'canaries.flanksource.com/v1',
    kind: 'Canary',
    metadata: { name, namespace: 'all' },
    spec: { interval: 300, http: [{ name: 'home', url }], ...extra },
  });
  const topology = (name: string, components: unknown) => ({
    apiVersion: 'canaries.flanksource.com/v1',
    kind: 'Topology',
    metadata: { name, namespace: 'all' },
    spec: { type: 'App', components },
  });
  const scraper = (name: string, entry: Row) => ({
    apiVersion: 'configs.flanksource.com/v1',
    kind: 'ScrapeConfig',
    metadata: { name, namespace: 'all' },
    spec: { file: [{ type: 'Demo::Thing', paths: [`${dir}/*.json`], ...entry }] },
  });
  const rule = (name: string, template: Row) => ({
    apiVersion: 'mission-control.flanksource.com/v1',
    kind: 'IncidentRule',
    metadata: { name },
    spec: { components: [{ name: 'pay*' }], template },
  });

  const cases: Case[] = [
    {
      table: 'canaries',
      row: () => ({ spec: canary('all-web', 'http://127.0.0.1:9/a') }),
      stored: () => ({ name: 'all-web', namespace: 'all' }),
      change: () => ({ spec: canary('all-web', 'http://127.0.0.1:9/b') }),
      changed: () => ({ spec: canary('all-web', 'http://127.0.0.1:9/b') }),
      bad: () => ({ spec: canary('all-bad', 'http://x', { pigeon: [{ name: 'coo' }] }) }),
      apply: () => ['/api/canary', canary('all-bad', 'http://x', { pigeon: [{ name: 'coo' }] })],
      sameText: true,
    },
    {
      table: 'topologies',
      row: () => ({ spec: topology('all-shop', [{ name: 'front', type: 'Service' }]) }),
      stored: () => ({ name: 'all-shop', namespace: 'all' }),
      change: () => ({ spec: topology('all-shop', [{ name: 'back', type: 'Service' }]) }),
      changed: () => ({ spec: topology('all-shop', [{ name: 'back', type: 'Service' }]) }),
      bad: () => ({ spec: topology('all-bad', 'many') }),
      apply: () => ['/api/topology', topology('all-bad', 'many')],
      sameText: true,
    },
    {
      table: 'config_scrapers',
      row: () => ({ spec: scraper('all-files', { id: '$.id' }) }),
      stored: () => ({ name: 'all-files', namespace: 'all' }),
      change: () => ({ spec: scraper('all-files', { id: '$.key' }) }),
      changed: () => ({ spec: scraper('all-files', { id: '$.key' }) }),
      bad: () => ({ spec: scraper('all-bad', { transform: { javascript: 'JSON.stringify(config' } }) }),
      apply: () => ['/api/catalog', scraper('all-bad', { transform: { javascript: 'JSON.stringify(config' } })],
      sameText: true,
    },
    {
      table: 'incident_rules',
      row: () => ({ spec: rule('all-pay', { title: '{{.component.name}} down', severity: 'high' }) }),
      stored: () => ({ name: 'all-pay', source: 'UI' }),
      change: () => ({ spec: rule('all-pay', { severity: 'low' }) }),
      changed: () => ({
        spec: expect.objectContaining({ template: { severity: 'low' }, components: [{ name: 'pay*' }] }),
      }),
      bad: () => ({ spec: rule('all-bad', { severity: 'Urgent' }) }),
      apply: () => ['/api/incidents/rules', rule('all-bad', { severity: 'Urgent' })],
      sameText: true,
    },
    {
      table: 'notifications',
      row: () => ({ name: 'all-rule', events: ['check.failed'], team_id: ids.team, repeat_interval: 3600e9 }),
      stored: () => ({ name: 'all-rule', source: 'UI' }),
      change: () => ({ filter: "check.type == 'http'" }),
      changed: () => ({ filter: "check.type == 'http'" }),
      bad: () => ({ name: 'all-bad', events: ['check.failed'], team_id: ids.team, filter: 'check.name ==' }),
      apply: () => [
        '/api/notification',
        {
          apiVersion: 'mission-control.flanksource.com/v1',
          kind: 'Notification',
          metadata: { name: 'all-bad' },
          spec: { events: ['check.failed'], to: { team: 'sre' }, filter: 'check.name ==' },
        },
      ],
      sameText: false,
    },
    {
      table: 'notification_silences',
      row: () => ({ name: 'all-quiet', check_id: ids.check, until }),
      stored: () => ({ name: 'all-quiet', check_id: ids.check }),
      change: () => ({ description: 'deploy' }),
      changed: () => ({ description: 'deploy' }),
      bad: () => ({ name: 'all-bad', namespace: 'shop', filter: 'check.name ==', until }),
      apply: () => [
        '/api/notification/silence',
        {
          apiVersion: 'mission-control.flanksource.com/v1',
          kind: 'NotificationSilence',
          metadata: { name: 'all-bad' },
          spec: { namespace: 'shop', filter: 'check.name ==', until: '2h' },
        },
      ],
      sameText: false,
    },
    {
      table: 'logging_backends',
      row: () => ({ name: 'all-logs', spec: { file: [{ paths: [`${dir}/*.log`] }] } }),
      stored: () => ({ name: 'all-logs', source: 'UI' }),
      change: () => ({ spec: { file: [{ paths: [`${dir}/a.log`] }] } }),
      changed: () => ({ spec: { file: [{ paths: [`${dir}/a.log`] }] } }),
      bad: () => ({ name: 'all-bad', spec: { loki: [{ labels: { a: 'b' } }] } }),
      apply: () => [
        '/api/logging_backends',
        {
          apiVersion: 'apm-hub.flanksource.com/v1',
          kind: 'LoggingBackend',
          metadata: { name: 'all-bad' },
          spec: { loki: [{ labels: { a: 'b' } }] },
        },
      ],
      sameText: true,
    },
    {
      table: 'maintenance_windows',
      row: () => ({ name: 'all-nightly', schedule: '0 2 * * *', duration: '30m', check_ids: [ids.check] }),
      stored: () => ({ name: 'all-nightly', schedule: '0 2 * * *' }),
      change: () => ({ message: 'Backups' }),
      changed: () => ({ message: 'Backups' }),
      bad: () => ({ name: 'all-bad', schedule: 'every night', duration: '30m', check_ids: [ids.check] }),
      apply: () => [
        '/api/maintenance-window',
        {
          apiVersion: 'opsdeck.dev/v1',
          kind: 'MaintenanceWindow',
          metadata: { name: 'all-bad' },
          spec: { schedule: 'every night', duration: '30m', checks: [{ id: ids.check }] },
        },
      ],
      sameText: false,
    },
    {
      table: 'status_pages',
      row: () => ({ slug: 'all-page', spec: { title: 'All', sections: [] } }),
      stored: () => ({ slug: 'all-page', source: 'UI' }),
      change: () => ({ spec: { title: 'All pages', sections: [] } }),
      changed: () => ({ spec: expect.objectContaining({ title: 'All pages' }) }),
      bad: () => ({
        slug: 'all-bad',
        spec: { title: 'x', sections: [{ name: 'A', checks: [{ labelSelector: 'a b c' }] }] },
      }),
      apply: () => [
        '/api/status-page',
        {
          apiVersion: 'opsdeck.dev/v1',
          kind: 'StatusPage',
          metadata: { name: 'all-bad' },
          spec: { title: 'x', sections: [{ name: 'A', checks: [{ labelSelector: 'a b c' }] }] },
        },
      ],
      sameText: false,
    },
    {
      table: 'connections',
      row: () => ({ name: 'all-db', type: 'postgres', url: 'postgres://db:5432/app', username: 'app', password: 'pw' }),
      stored: () => ({ name: 'all-db', type: 'postgres' }),
      change: () => ({ url: 'postgres://db2:5432/app' }),
      changed: () => ({ url: 'postgres://db2:5432/app' }),
      bad: () => ({ name: 'all-bad', type: 'http', url: 'not a url' }),
      apply: () => ['/api/connection/test', { name: 'all-bad', type: 'http', url: 'not a url' }],
      sameText: true,
    },
  ];

  const read = async (table: string, id: string) => {
    const { data, error } = await db.from(table).select('*').eq('id', id);
    expect(error).toBeNull();
    return (data as Row[])[0];
  };

  it.each(cases)('$table: insert, read back, update, soft delete, bad spec and tx=rollback', async (c) => {
    // A dry run stores nothing.
    const dry = await db.from(c.table).insert(c.row()).rollback();
    expect(dry.error, JSON.stringify(dry.error)).toBeNull();
    const none = await db.from(c.table).select('id').match(c.stored()).is('deleted_at', null);
    expect(none.error, JSON.stringify(none.error)).toBeNull();
    expect(none.data).toEqual([]);

    const inserted = await db.from(c.table).insert(c.row()).select('id').single();
    expect(inserted.error, JSON.stringify(inserted.error)).toBeNull();
    const id = (inserted.data as { id: string }).id;
    expect(await read(c.table, id)).toMatchObject(c.stored());

    // A change rolled back leaves the row as it was; then the change itself.
    const before = await read(c.table, id);
    const dryChange = await db.from(c.table).update(c.change()).eq('id', id).rollback();
    expect(dryChange.error, JSON.stringify(dryChange.error)).toBeNull();
    expect(await read(c.table, id)).toEqual(before);
    const changed = await db.from(c.table).update(c.change()).eq('id', id);
    expect(changed.error, JSON.stringify(changed.error)).toBeNull();
    expect(await read(c.table, id), JSON.stringify(await read(c.table, id))).toMatchObject(c.changed());

    // The same mistake: refused here and at the apply endpoint, with the same message.
    const expected = await applyMessage(...c.apply());
    const refused = await db.from(c.table).insert(c.bad());
    expect(refused.status, JSON.stringify(refused.error)).toBe(400);
    if (c.sameText) expect(problem(refused.error!.message)).toBe(problem(expected));
    else expect(problem(expected)).toContain(problem(refused.error!.message).slice(0, 40));
    const badChange = await db.from(c.table).update(c.bad()).eq('id', id);
    expect(badChange.status).toBe(400);
    expect(await read(c.table, id)).toMatchObject(c.changed());

    // A soft delete rolled back leaves it live; then the soft delete.
    const deletedAt = new Date().toISOString();
    const dryDelete = await db.from(c.table).update({ deleted_at: deletedAt }).eq('id', id).rollback();
    expect(dryDelete.error, JSON.stringify(dryDelete.error)).toBeNull();
    expect((await read(c.table, id))!.deleted_at).toBeNull();
    const deleted = await db.from(c.table).update({ deleted_at: deletedAt }).eq('id', id);
    expect(deleted.error, JSON.stringify(deleted.error)).toBeNull();
    expect((await read(c.table, id))!.deleted_at).not.toBeNull();
  });

  it("canaries: a rolled-back soft delete keeps the canary's checks; the real one removes them", async () => {
    const inserted = await db
      .from('canaries')
      .insert({ spec: canary('all-checks', 'http://127.0.0.1:9/c') })
      .select('id')
      .single();
    const id = (inserted.data as { id: string }).id;
    const liveChecks = async () => {
      const { data } = await db.from('checks').select('name').eq('canary_id', id).is('deleted_at', null);
      return data as { name: string }[];
    };
    expect(await liveChecks()).toEqual([{ name: 'home' }]);
    await db.from('canaries').update({ deleted_at: new Date().toISOString() }).eq('id', id).rollback();
    expect(await liveChecks()).toEqual([{ name: 'home' }]);
    expect((await read('canaries', id))!.deleted_at).toBeNull();
    await db.from('canaries').update({ deleted_at: new Date().toISOString() }).eq('id', id);
    expect(await liveChecks()).toEqual([]);
  });

  it('incident_rules: a rule written as a row is used at the next pass', async () => {
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO components (name, type, health, status) VALUES ('payments', 'API', 'unhealthy', 'down') RETURNING id`,
    );
    const inserted = await db
      .from('incident_rules')
      .insert({ spec: rule('all-open', { title: '{{.component.name}} is down', severity: 'high' }) })
      .select('id')
      .single();
    expect(inserted.error).toBeNull();
    await evaluateIncidentRules(test.db);
    const { data } = await db.from('incidents').select('title,severity').eq('component_id', rows[0]!.id);
    expect(data).toEqual([{ title: 'payments is down', severity: 'high' }]);
  });

  it('teams: plain rows (no apply endpoint): insert, update, soft delete, tx=rollback', async () => {
    const dry = await db.from('teams').insert({ name: 'all-dry' }).rollback();
    expect(dry.error).toBeNull();
    expect((await db.from('teams').select('id').eq('name', 'all-dry')).data).toEqual([]);
    const inserted = await db.from('teams').insert({ name: 'all-team' }).select('id').single();
    const id = (inserted.data as { id: string }).id;
    await db.from('teams').update({ icon: 'shield' }).eq('id', id);
    expect(await read('teams', id)).toMatchObject({ name: 'all-team', icon: 'shield' });
    await db.from('teams').update({ deleted_at: new Date().toISOString() }).eq('id', id).rollback();
    expect((await read('teams', id))!.deleted_at).toBeNull();
  });

  it('agents: created only by POST /api/agent/generate (405); properties checked as generate checks them', async () => {
    const refused = await db.from('agents').insert({ name: 'edge' });
    expect(refused.status).toBe(405);
    expect(refused.error?.message).toMatch(/POST \/api\/agent\/generate/);
    const generated = await fetch(`${app.url}/api/agent/generate`, {
      method: 'POST',
      body: JSON.stringify({ name: 'all-edge' }),
      headers: { ...admin.headers, 'content-type': 'application/json' },
    });
    const agent = (await generated.json()) as { id: string };
    expect(generated.status).toBe(201);
    expect((await db.from('agents').update({ name: 'renamed' }).eq('id', agent.id)).status).toBe(405);
    const expected = await applyMessage('/api/agent/generate', { name: 'all-edge-2', properties: { zone: 1 } });
    const bad = await db
      .from('agents')
      .update({ properties: { zone: 1 } })
      .eq('id', agent.id);
    expect(bad.status).toBe(400);
    expect(bad.error?.message).toBe(expected);
    expect(
      (
        await db
          .from('agents')
          .update({ properties: { zone: 'eu' } })
          .eq('id', agent.id)
      ).error,
    ).toBeNull();
    expect(await read('agents', agent.id)).toMatchObject({ properties: { zone: 'eu' } });
    await db.from('agents').update({ deleted_at: new Date().toISOString() }).eq('id', agent.id).rollback();
    expect((await read('agents', agent.id))!.deleted_at).toBeNull();
    await db.from('agents').update({ deleted_at: new Date().toISOString() }).eq('id', agent.id);
    expect((await read('agents', agent.id))!.deleted_at).not.toBeNull();
  });

  it('access_tokens, checks and playbooks: refused with 405 naming the endpoint', async () => {
    const token = await db.from('access_tokens').insert({ name: 't', value: 'x', person_id: admin.id });
    expect(token.status).toBe(405);
    expect(token.error?.message).toMatch(/POST \/api\/tokens/);
    // A check alone would never run: it is an entry of its canary's spec.
    const check = await db.from('checks').insert({ canary_id: null, name: 'alone', type: 'http' });
    expect(check.status).toBe(405);
    expect(check.error?.message).toMatch(/POST \/api\/canary/);
    const retype = await db.from('checks').update({ type: 'tcp' }).eq('id', ids.check);
    expect(retype.status).toBe(405);
    const playbook = await db.from('playbooks').insert({ name: 'p', spec: {} });
    expect(playbook.status).toBe(405);
    expect(playbook.error?.message).toMatch(/POST \/api\/playbook/);
  });
});
