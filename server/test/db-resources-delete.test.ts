// DELETE /api/db/<table> on every guarded resource table, with a real PostgREST client
// (@supabase/postgrest-js): it does what the resource's own delete endpoint does (rest/deleteRules.ts,
// resources/dbDeletes.ts) — a soft delete with its dependents (a canary's checks, a topology's
// components), a 405 naming the endpoint (checks), or the plain delete (access tokens) — rows from
// elsewhere (source not UI, pushed by an agent) are refused with 403 as a PATCH refuses them,
// `Prefer: tx=rollback` changes nothing, and the caller's role is checked.
// (Beside db-resources-all.test.ts, which covers inserts, updates and soft deletes by PATCH.)
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

type Row = Record<string, unknown>;

interface Case {
  table: string;
  /** A good row named `name`. */
  row: (name: string) => Row;
}

describe.each(databaseKinds())('DELETE on every guarded resource table through postgrest-js on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let db: PostgrestClient;
  let viewer: PostgrestClient;
  const ids = { team: '', check: '' };
  const until = new Date(Date.now() + 3_600_000).toISOString();

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
    db = new PostgrestClient(`${app.url}/api/db`, { headers: admin.headers as Record<string, string> });
    const seen = await createTestUser(test.db, 'viewer');
    viewer = new PostgrestClient(`${app.url}/api/db`, { headers: seen.headers as Record<string, string> });
    const team = await test.db.query<{ id: string }>(`INSERT INTO teams (name) VALUES ('del-sre') RETURNING id`);
    ids.team = team.rows[0]!.id;
    const canary = await test.db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('del-seed', 'del', '{}') RETURNING id`,
    );
    const check = await test.db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, name, type) VALUES ($1, 'del-seed-check', 'http') RETURNING id`,
      [canary.rows[0]!.id],
    );
    ids.check = check.rows[0]!.id;
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const resource = (apiVersion: string, kindName: string, name: string, spec: Row) => ({
    apiVersion,
    kind: kindName,
    metadata: { name, namespace: 'del' },
    spec,
  });
  const canary = (name: string) =>
    resource('canaries.flanksource.com/v1', 'Canary', name, {
      interval: 300,
      http: [{ name: 'home', url: 'http://127.0.0.1:9/a' }],
    });
  const topology = (name: string) =>
    resource('canaries.flanksource.com/v1', 'Topology', name, {
      type: 'App',
      components: [{ name: 'front', type: 'Service' }],
    });

  const cases: Case[] = [
    { table: 'canaries', row: (name) => ({ spec: canary(name) }) },
    { table: 'topologies', row: (name) => ({ spec: topology(name) }) },
    {
      table: 'config_scrapers',
      row: (name) => ({
        spec: resource('configs.flanksource.com/v1', 'ScrapeConfig', name, {
          file: [{ type: 'Demo::Thing', paths: ['/nonexistent/*.json'], id: '$.id' }],
        }),
      }),
    },
    {
      table: 'incident_rules',
      row: (name) => ({
        spec: {
          apiVersion: 'mission-control.flanksource.com/v1',
          kind: 'IncidentRule',
          metadata: { name },
          spec: { components: [{ name: 'pay*' }], template: { severity: 'high' } },
        },
      }),
    },
    { table: 'notifications', row: (name) => ({ name, events: ['check.failed'], team_id: ids.team }) },
    { table: 'notification_silences', row: (name) => ({ name, check_id: ids.check, until }) },
    { table: 'logging_backends', row: (name) => ({ name, spec: { file: [{ paths: ['/tmp/none/*.log'] }] } }) },
    {
      table: 'maintenance_windows',
      row: (name) => ({ name, schedule: '0 2 * * *', duration: '30m', check_ids: [ids.check] }),
    },
    { table: 'status_pages', row: (name) => ({ slug: name, spec: { title: 'Del', sections: [] } }) },
    {
      table: 'connections',
      row: (name) => ({ name, type: 'postgres', url: 'postgres://db:5432/app', username: 'app', password: 'pw' }),
    },
  ];

  const insert = async (table: string, row: Row) => {
    const inserted = await db.from(table).insert(row).select('id').single();
    expect(inserted.error, JSON.stringify(inserted.error)).toBeNull();
    return (inserted.data as { id: string }).id;
  };
  const stored = async (table: string, id: string) => {
    const { rows } = await test.db.query<{ row: Row }>(`SELECT to_jsonb(t) AS row FROM ${table} t WHERE id = $1`, [id]);
    return rows[0]?.row;
  };

  it.each(cases)(
    '$table: DELETE is the soft delete (tx=rollback changes nothing); a row from elsewhere is 403',
    async (c) => {
      const id = await insert(c.table, c.row(`del-${c.table.replace(/_/g, '-')}`));

      // A dry run: the row stays live.
      const dry = await db.from(c.table).delete().eq('id', id).rollback();
      expect(dry.error, JSON.stringify(dry.error)).toBeNull();
      expect((await stored(c.table, id))!.deleted_at).toBeNull();

      // A role that may not write: refused, nothing changed.
      const refused = await viewer.from(c.table).delete().eq('id', id);
      expect(refused.status, JSON.stringify(refused.error)).toBe(403);
      expect((await stored(c.table, id))!.deleted_at).toBeNull();

      // Not named by id: the caller is told how to name it.
      const byName = await db.from(c.table).delete().eq('deleted_at', 'x');
      expect(byName.status).toBe(400);
      expect(byName.error?.message).toMatch(/\?id=eq\.<id>/);

      // The delete: the row is kept, soft-deleted, and answered as PostgREST answers a DELETE.
      const deleted = await db.from(c.table).delete().eq('id', id).select('id');
      expect(deleted.error, JSON.stringify(deleted.error)).toBeNull();
      expect(deleted.data).toEqual([{ id }]);
      const after = await stored(c.table, id);
      expect(after, 'the row is kept').toBeDefined();
      expect(after!.deleted_at).not.toBeNull();

      // A row applied from a file is read-only here, as a PATCH of it is.
      const other = await insert(c.table, c.row(`del-file-${c.table.replace(/_/g, '-')}`));
      await test.db.query(`UPDATE ${c.table} SET source = 'ConfigFile' WHERE id = $1`, [other]);
      const patch = await db.from(c.table).update({ deleted_at: new Date().toISOString() }).eq('id', other);
      const readOnly = await db.from(c.table).delete().eq('id', other);
      expect(readOnly.status, JSON.stringify(readOnly.error)).toBe(403);
      expect(readOnly.error?.code).toBe('READ_ONLY_SOURCE');
      expect(readOnly.error?.message).toMatch(/came from ConfigFile/);
      expect(patch.status, JSON.stringify(patch.error)).toBe(403);
      expect(await stored(c.table, other)).toMatchObject({ deleted_at: null, source: 'ConfigFile' });
    },
  );

  it("canaries: DELETE takes the canary's checks, as DELETE /api/canary/{id} does; a dry run keeps them", async () => {
    const id = await insert('canaries', { spec: canary('del-checks') });
    const liveChecks = async () => {
      const { data } = await db.from('checks').select('name').eq('canary_id', id).is('deleted_at', null);
      return data as { name: string }[];
    };
    expect(await liveChecks()).toEqual([{ name: 'home' }]);
    await db.from('canaries').delete().eq('id', id).rollback();
    expect(await liveChecks()).toEqual([{ name: 'home' }]);
    expect((await db.from('canaries').delete().eq('id', id)).status).toBe(204);
    expect(await liveChecks()).toEqual([]);
    expect((await stored('canaries', id))!.deleted_at).not.toBeNull();
  });

  it('canaries: a row an agent pushed is refused (403), as a PATCH of it is', async () => {
    const id = await insert('canaries', { spec: canary('del-agent') });
    const agent = await test.db.query<{ id: string }>(`INSERT INTO agents (name) VALUES ('del-edge') RETURNING id`);
    await test.db.query(`UPDATE canaries SET agent_id = $2 WHERE id = $1`, [id, agent.rows[0]!.id]);
    const refused = await db.from('canaries').delete().eq('id', id);
    expect(refused.status).toBe(403);
    expect(refused.error?.message).toMatch(/agent/);
    const patch = await db.from('canaries').update({ deleted_at: new Date().toISOString() }).eq('id', id);
    expect(patch.status).toBe(403);
    expect((await stored('canaries', id))!.deleted_at).toBeNull();
  });

  it('topologies: DELETE takes its components, as DELETE /api/topology/{id} does', async () => {
    const id = await insert('topologies', { spec: topology('del-shop') });
    await test.db.query(`INSERT INTO components (name, type, topology_id) VALUES ('del-front', 'Service', $1)`, [id]);
    const live = async () =>
      (await test.db.query(`SELECT 1 FROM components WHERE topology_id = $1 AND deleted_at IS NULL`, [id])).rows.length;
    expect(await live()).toBe(1);
    await db.from('topologies').delete().eq('id', id).rollback();
    expect(await live()).toBe(1);
    expect((await db.from('topologies').delete().eq('id', id)).error).toBeNull();
    expect(await live()).toBe(0);
  });

  it('agents: DELETE is the delete endpoint (soft delete, the trigger cleans up); tx=rollback keeps it', async () => {
    const generated = await fetch(`${app.url}/api/agent/generate`, {
      method: 'POST',
      body: JSON.stringify({ name: 'del-agent-2' }),
      headers: { ...admin.headers, 'content-type': 'application/json' },
    });
    const agent = (await generated.json()) as { id: string };
    expect(generated.status).toBe(201);
    await db.from('agents').delete().eq('id', agent.id).rollback();
    expect((await stored('agents', agent.id))!.deleted_at).toBeNull();
    expect((await db.from('agents').delete().eq('id', agent.id)).error).toBeNull();
    expect((await stored('agents', agent.id))!.deleted_at).not.toBeNull();
  });

  it('checks: 405 naming the canary spec; access_tokens: the plain delete (revocation); playbooks: 405', async () => {
    const check = await db.from('checks').delete().eq('id', ids.check);
    expect(check.status).toBe(405);
    expect(check.error?.message).toMatch(/canary's spec/);
    expect((await stored('checks', ids.check))!.deleted_at).toBeNull();

    const made = await fetch(`${app.url}/api/tokens`, {
      method: 'POST',
      body: JSON.stringify({ name: 'del-token', personId: admin.id }),
      headers: { ...admin.headers, 'content-type': 'application/json' },
    });
    expect(made.status).toBe(201);
    const token = (await made.json()) as { id: string };
    await db.from('access_tokens').delete().eq('id', token.id).rollback();
    expect(await stored('access_tokens', token.id)).toBeDefined();
    expect((await viewer.from('access_tokens').delete().eq('id', token.id)).status).toBe(403);
    expect((await db.from('access_tokens').delete().eq('id', token.id)).error).toBeNull();
    expect(await stored('access_tokens', token.id)).toBeUndefined();

    const playbook = await db.from('playbooks').delete().eq('id', ids.check);
    expect(playbook.status).toBe(405);
    expect(playbook.error?.message).toMatch(/POST \/api\/playbook/);
  });
});
