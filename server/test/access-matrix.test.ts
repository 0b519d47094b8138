// The permission matrix, over real HTTP: every role × every exposed relation × read and write, and
// the service endpoints, answer 2xx/4xx-but-allowed or 403 exactly as common/src/rbac.ts says.
import { can, ROLES, type Action, type Resource, type Role } from '@opsdeck/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { registry } from '../src/rest/registry.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

type Subject = Role | 'no role';
const SUBJECTS: Subject[] = [...ROLES, 'no role'];

interface Case {
  name: string;
  resource: Resource;
  action: Action;
  method: string;
  path: string;
  body?: unknown;
}

/** A request per relation and action that changes nothing: reads, or writes whose filter matches no row. */
function relationCases(
  kind: (name: string) => 'table' | 'view' | undefined,
  writable: (name: string) => boolean,
  firstColumn: (name: string) => string,
): Case[] {
  const cases: Case[] = [];
  for (const entry of registry.relations.values()) {
    if (!kind(entry.name)) continue;
    cases.push({
      name: `GET ${entry.name}`,
      resource: entry.resource,
      action: 'read',
      method: 'GET',
      path: `/api/db/${entry.name}?limit=1`,
    });
    if (!writable(entry.name)) continue;
    const writeResource = entry.writeResource ?? entry.resource;
    // A contradiction: deletes and updates nothing, but must pass the permission check first.
    const col = firstColumn(entry.name);
    const none = `?and=(${col}.is.null,${col}.not.is.null)`;
    cases.push({
      name: `DELETE ${entry.name}`,
      resource: writeResource,
      action: 'write',
      method: 'DELETE',
      path: `/api/db/${entry.name}${none}`,
    });
    cases.push({
      name: `PATCH ${entry.name}`,
      resource: writeResource,
      action: 'write',
      method: 'PATCH',
      path: `/api/db/${entry.name}${none}`,
      body: {},
    });
  }
  return cases;
}

const SERVICE_CASES: Case[] = [
  { name: 'list users', resource: 'identities', action: 'read', method: 'GET', path: '/api/users' },
  {
    name: 'invite user (invalid)',
    resource: 'identities',
    action: 'write',
    method: 'POST',
    path: '/api/users/invite',
    body: {},
  },
  {
    name: 'edit unknown user',
    resource: 'identities',
    action: 'write',
    method: 'PATCH',
    path: '/api/users/00000000-0000-4000-8000-000000000000',
    body: {},
  },
  {
    name: 'delete unknown user',
    resource: 'identities',
    action: 'write',
    method: 'DELETE',
    path: '/api/users/00000000-0000-4000-8000-000000000000',
  },
  { name: 'list tokens', resource: 'identities', action: 'read', method: 'GET', path: '/api/tokens' },
  {
    name: 'create token (invalid)',
    resource: 'identities',
    action: 'write',
    method: 'POST',
    path: '/api/tokens',
    body: {},
  },
  {
    name: 'delete unknown token',
    resource: 'identities',
    action: 'write',
    method: 'DELETE',
    path: '/api/tokens/00000000-0000-4000-8000-000000000000',
  },
  { name: 'list properties', resource: 'properties', action: 'read', method: 'GET', path: '/api/properties' },
];

describe.each(databaseKinds())('access matrix on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  const users = new Map<Subject, TestUser>();

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1' });
    for (const s of SUBJECTS) users.set(s, await createTestUser(test.db, s === 'no role' ? null : s));
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('answers every role, resource and action as the matrix says', async () => {
    const schema = app.ctx.schema;
    const cases = [
      ...relationCases(
        (n) => schema.relations.get(n)?.kind,
        (n) => {
          const w = schema.relations.get(n)?.writable;
          return !!w && w.update && w.delete && !registry.relations.get(n)?.readOnly;
        },
        (n) => schema.relations.get(n)!.columns[0]!.name,
      ),
      ...SERVICE_CASES,
    ];
    const mismatches: string[] = [];
    let checked = 0;
    for (const subject of SUBJECTS) {
      const user = users.get(subject)!;
      const roles = subject === 'no role' ? [] : [subject];
      for (const c of cases) {
        const res = await fetch(`${app.url}${c.path}`, {
          method: c.method,
          headers: { ...user.headers, ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: c.body === undefined ? undefined : JSON.stringify(c.body),
        });
        const text = await res.text();
        const allowed = can(roles, c.resource, c.action);
        checked++;
        if (res.status >= 500) mismatches.push(`${subject} ${c.name}: ${res.status} ${text}`);
        else if (allowed && res.status === 403) mismatches.push(`${subject} ${c.name}: allowed but 403 ${text}`);
        else if (!allowed && res.status !== 403)
          mismatches.push(`${subject} ${c.name}: refused by the matrix but ${res.status} ${text.slice(0, 200)}`);
      }
    }
    console.log(`access matrix on ${kind}: ${checked} role × endpoint cases checked`);
    expect(mismatches).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(200);
  });

  it('refuses every write to a relation only the server writes, whatever the role', async () => {
    const readOnly = [...registry.relations.values()].filter((r) => r.readOnly).map((r) => r.name);
    expect(readOnly).toContain('incident_histories');
    const admin = users.get('admin')!;
    for (const name of readOnly) {
      for (const method of ['POST', 'PATCH', 'DELETE']) {
        const res = await fetch(`${app.url}/api/db/${name}${method === 'POST' ? '' : '?limit=0'}`, {
          method,
          headers: { ...admin.headers, 'content-type': 'application/json' },
          body: method === 'DELETE' ? undefined : '{}',
        });
        expect(res.status, `${method} ${name}`).toBe(405);
        expect(((await res.json()) as { details: string }).details).toContain('read-only');
      }
    }
  });

  it('checks every resource an embed reaches, not only the table asked for', async () => {
    // A viewer may read agents but not connections; an embed into a refused resource is refused.
    const viewer = users.get('viewer')!;
    expect(
      (await fetch(`${app.url}/api/db/agents?select=id,person:person_id(name)`, { headers: viewer.headers })).status,
    ).toBe(200);
    const tokens = await fetch(`${app.url}/api/db/people?select=id,access_tokens!access_tokens_person_id_fkey(name)`, {
      headers: viewer.headers,
    });
    expect(tokens.status).toBe(403);
  });

  it('sends 401 without credentials everywhere but the public endpoints', async () => {
    for (const c of [
      ...SERVICE_CASES,
      { method: 'GET', path: '/api/db/people' },
      { method: 'GET', path: '/api/auth/whoami' },
      { method: 'GET', path: '/api/kubeconfig' },
    ]) {
      expect((await fetch(`${app.url}${c.path}`, { method: c.method })).status, c.path).toBe(401);
    }
    for (const path of ['/api/about', '/api/auth/config'])
      expect((await fetch(`${app.url}${path}`)).status, path).toBe(200);
  });
});
