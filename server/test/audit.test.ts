// The audit trail end to end: an apply (the API and `opsdeck apply`), a /api/db PATCH, a role change,
// a token's creation and revocation, an agent's generation: each one row with the right actor, kind,
// source address and what changed; a failed write none; a connection written with a password leaves
// the password nowhere in audit_log; GET /api/audit and /api/db/audit_log are an admin's (403 for an
// editor and a viewer), paged and filtered; nobody writes audit_log through /api/db.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { applyFile } from '../src/cliApply.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { apiClient } from './helpers/api.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

interface AuditRow {
  id: string;
  actor_id: string | null;
  actor_email: string | null;
  actor_kind: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  source_ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

const canaryYaml = (name: string) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: ${name}
  namespace: audit
spec:
  schedule: "@every 5m"
  http:
    - name: home
      url: http://127.0.0.1:9/
`;

describe.each(databaseKinds())('audit trail on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let editor: TestUser;
  let viewer: TestUser;
  const { api } = apiClient(
    () => app.url,
    () => admin,
  );
  const json = (body: unknown) => JSON.stringify(body);

  /** The audit rows written since `mark` (an id), oldest first. */
  const since = async (mark: string): Promise<AuditRow[]> =>
    (
      await test.db.query<AuditRow>(
        `SELECT id::text, actor_id, actor_email, actor_kind, action, resource_type, resource_id, resource_name,
           source_ip, user_agent, details FROM audit_log WHERE id > $1::bigint ORDER BY audit_log.id`,
        [mark],
      )
    ).rows;
  const mark = async (): Promise<string> =>
    (await test.db.query<{ m: string }>('SELECT coalesce(max(id), 0)::text AS m FROM audit_log')).rows[0]!.m;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('records an apply with the caller, its address and agent, and whether it created the resource', async () => {
    const m = await mark();
    const res = await api('/api/canary', {
      method: 'POST',
      body: canaryYaml('audited'),
      headers: { 'content-type': 'application/yaml', 'user-agent': 'audit-test/1.0', 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.status).toBe(201);
    const { applied } = (await res.json()) as { applied: { id: string }[] };
    const rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: admin.id,
      actor_kind: 'token',
      action: 'apply',
      resource_type: 'Canary',
      resource_id: applied[0]!.id,
      resource_name: 'audit/audited',
      // TRUST_PROXY is off: the socket's address, not the header's.
      source_ip: '127.0.0.1',
      user_agent: 'audit-test/1.0',
      details: { created: true, source: 'UI' },
    });
    expect(rows[0]!.actor_email).toMatch(/@example\.test$/);
  });

  it('records `opsdeck apply` as an apply from a config file', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-audit-'));
    const file = path.join(dir, 'canary.yaml');
    fs.writeFileSync(file, canaryYaml('from-file'));
    const m = await mark();
    const log = console.log;
    console.log = () => undefined;
    try {
      expect(await applyFile(file, app.url, admin.token)).toBe(0);
    } finally {
      console.log = log;
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: admin.id,
      action: 'apply',
      resource_type: 'Canary',
      resource_name: 'audit/from-file',
      source_ip: '127.0.0.1',
      details: { source: 'ConfigFile' },
    });
  });

  it('records a /api/db PATCH with the row’s name and the fields it set, and nothing for a refused or empty one', async () => {
    const { rows: team } = await test.db.query<{ id: string }>(
      `INSERT INTO teams (name) VALUES ('audit-team') RETURNING id`,
    );
    const id = team[0]!.id;
    const m = await mark();
    const res = await api(`/api/db/teams?id=eq.${id}`, { method: 'PATCH', body: json({ icon: 'shield' }) });
    expect(res.status).toBe(204);
    // A viewer's PATCH is refused: no entry.
    const refused = await api(`/api/db/teams?id=eq.${id}`, { method: 'PATCH', body: json({ icon: 'x' }), as: viewer });
    expect(refused.status).toBe(403);
    // Nor for writes that matched no row.
    const none = '00000000-0000-4000-8000-000000000000';
    expect((await api(`/api/db/teams?id=eq.${none}`, { method: 'PATCH', body: json({ icon: 'x' }) })).status).toBe(204);
    expect((await api(`/api/db/teams?id=eq.${none}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/db/teams?name=eq.nobody`, { method: 'PATCH', body: json({ icon: 'x' }) })).status).toBe(
      204,
    );
    const rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: admin.id,
      action: 'update',
      resource_type: 'teams',
      resource_id: id,
      resource_name: 'audit-team',
      source_ip: '127.0.0.1',
      details: { method: 'PATCH', fields: ['icon'], filters: [`id=eq.${id}`] },
    });
  });

  it('records a role change with the role given', async () => {
    const person = await createTestUser(test.db, 'viewer', 'Role Change Person');
    const m = await mark();
    const res = await api(`/api/users/${person.id}`, { method: 'PATCH', body: json({ role: 'editor' }) });
    expect(res.status).toBe(200);
    const rows = await since(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      actor_id: admin.id,
      action: 'role_change',
      resource_type: 'person',
      resource_id: person.id,
      source_ip: '127.0.0.1',
      details: { role: 'editor', fields: ['role'] },
    });
  });

  it('records a token’s creation and revocation, never the token itself', async () => {
    const m = await mark();
    const res = await api('/api/tokens', { method: 'POST', body: json({ name: 'ci-deploy' }) });
    expect(res.status).toBe(201);
    const created = (await res.json()) as { id: string; token: string };
    expect((await api(`/api/tokens/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    const rows = await since(m);
    expect(rows.map((r) => r.action)).toEqual(['token_create', 'token_revoke']);
    expect(rows[0]).toMatchObject({
      actor_id: admin.id,
      resource_type: 'access_token',
      resource_id: created.id,
      resource_name: 'ci-deploy',
      source_ip: '127.0.0.1',
    });
    expect(rows[1]).toMatchObject({ resource_id: created.id });
    const dump = await test.db.query<{ t: string }>(`SELECT string_agg(audit_log::text, ' ') AS t FROM audit_log`);
    expect(dump.rows[0]!.t).not.toContain(created.token);
  });

  it('records an agent’s generation and deletion', async () => {
    const m = await mark();
    const res = await api('/api/agent/generate', { method: 'POST', body: json({ name: 'audit-agent' }) });
    expect(res.status).toBe(201);
    const agent = (await res.json()) as { id: string; access_token: string };
    expect((await api(`/api/agent/${agent.id}`, { method: 'DELETE' })).status).toBe(200);
    const rows = await since(m);
    expect(rows.map((r) => [r.action, r.resource_type, r.resource_id])).toEqual([
      ['create', 'agent', agent.id],
      ['delete', 'agent', agent.id],
    ]);
    expect(rows[0]!.resource_name).toBe('audit-agent');
    const dump = await test.db.query<{ t: string }>(`SELECT string_agg(audit_log::text, ' ') AS t FROM audit_log`);
    expect(dump.rows[0]!.t).not.toContain(agent.access_token);
  });

  it('stores which fields of a connection changed, never its password', async () => {
    const secret = `Audit-S3cret-${process.pid}-${Date.now().toString(36)}`;
    const newSecret = `${secret}-rotated`;
    const m = await mark();
    const created = await api('/api/db/connections', {
      method: 'POST',
      body: json({
        name: 'audited-db',
        type: 'postgres',
        url: 'postgres://db.example.test/app',
        username: 'app',
        password: secret,
      }),
      headers: { prefer: 'return=representation' },
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = ((await created.json()) as { id: string }[])[0]!.id;
    const patched = await api(`/api/db/connections?id=eq.${id}`, {
      method: 'PATCH',
      body: json({ password: newSecret, username: 'app2' }),
    });
    expect(patched.status, await patched.clone().text()).toBe(204);
    const rows = await since(m);
    expect(rows.map((r) => [r.action, r.resource_type, r.resource_id, r.resource_name])).toEqual([
      ['create', 'connections', id, 'audited-db'],
      ['update', 'connections', id, 'audited-db'],
    ]);
    expect(rows[1]!.details).toMatchObject({ fields: ['password', 'username'] });
    const dump = await test.db.query<{ t: string }>(`SELECT string_agg(audit_log::text, ' ') AS t FROM audit_log`);
    expect(dump.rows[0]!.t).not.toContain(secret);
    expect(dump.rows[0]!.t).not.toContain('Audit-S3cret');
  });

  it('answers GET /api/audit to admins only, paged and filtered', async () => {
    for (const who of [viewer, editor]) {
      const res = await api('/api/audit', { as: who });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('FORBIDDEN');
      expect((await api('/api/db/audit_log', { as: who })).status).toBe(403);
    }
    const all = (await (await api('/api/audit?limit=2')).json()) as { total: number; rows: AuditRow[] };
    expect(all.rows).toHaveLength(2);
    expect(all.total).toBeGreaterThanOrEqual(10);
    const page2 = (await (await api('/api/audit?limit=2&offset=2')).json()) as { rows: AuditRow[] };
    expect(page2.rows[0]!.id).not.toBe(all.rows[0]!.id);
    const roles = (await (await api('/api/audit?action=role_change')).json()) as { total: number; rows: AuditRow[] };
    expect(roles.total).toBe(1);
    expect(roles.rows[0]!.details).toMatchObject({ role: 'editor' });
    const byType = (await (await api(`/api/audit?resource_type=Canary&actor=${admin.id}`)).json()) as {
      total: number;
    };
    expect(byType.total).toBe(2);
    const future = (await (await api(`/api/audit?from=${new Date(Date.now() + 3_600_000).toISOString()}`)).json()) as {
      total: number;
    };
    expect(future.total).toBe(0);
    const bad = await api('/api/audit?from=yesterday');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe(
      'from must be a date and time such as 2026-01-31T12:00:00Z',
    );
    const filters = (await (await api('/api/audit/filters')).json()) as { actions: string[]; resource_types: string[] };
    expect(filters.actions).toEqual(expect.arrayContaining(['apply', 'role_change', 'token_create', 'update']));
    expect(filters.resource_types).toEqual(expect.arrayContaining(['Canary', 'connections', 'person']));
    // /api/db/audit_log: readable by admins, written by nobody.
    const viaDb = await api('/api/db/audit_log?action=eq.role_change&select=action,resource_type');
    expect(await viaDb.json()).toEqual([{ action: 'role_change', resource_type: 'person' }]);
    const write = await api('/api/db/audit_log', {
      method: 'POST',
      body: json({ actor_kind: 'system', action: 'forged', resource_type: 'x' }),
    });
    expect(write.status).toBe(405);
  });
});
