// /api/db over real HTTP on a real database: the behaviours the console relies on, on PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { buildRegistry } from '../src/rest/registry.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const ALICE = '00000000-0000-4000-8000-000000000001';
const BOB = '00000000-0000-4000-8000-000000000002';
const CAROL = '00000000-0000-4000-8000-000000000003';
const TEAM = '00000000-0000-4000-8000-0000000000a1';
const AGENT = '00000000-0000-4000-8000-0000000000b1';

const FIXTURE = `
INSERT INTO people (id, name, email, properties, created_at, updated_at) VALUES
  ('${ALICE}', 'Alice', 'alice@example.com', '{"tier":"gold","tags":["a","b"]}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'),
  ('${BOB}', 'Bob', 'bob@example.com', '{"tier":"silver"}', '2026-01-02T00:00:00Z', '2026-01-02T00:00:00Z'),
  ('${CAROL}', 'Carol', NULL, NULL, '2026-01-03T00:00:00Z', '2026-01-03T00:00:00Z');
INSERT INTO teams (id, name, icon, spec, created_by) VALUES ('${TEAM}', 'Core', 'k8s', '{"responder_clients":{}}', '${ALICE}');
INSERT INTO team_members (team_id, person_id) VALUES ('${TEAM}', '${ALICE}'), ('${TEAM}', '${BOB}');
INSERT INTO agents (id, name, person_id, created_by) VALUES ('${AGENT}', 'edge-1', '${BOB}', '${ALICE}');
INSERT INTO connections (id, name, type, url, username, password) VALUES
  ('00000000-0000-4000-8000-0000000000c1', 'db', 'postgres', 'postgres://db', 'admin', 's3cret');
CREATE FUNCTION people_like(pattern text) RETURNS SETOF people LANGUAGE sql STABLE AS
  $$ SELECT * FROM people WHERE name ILIKE pattern $$;
CREATE FUNCTION add_numbers(a int, b int DEFAULT 10) RETURNS int LANGUAGE sql IMMUTABLE AS $$ SELECT a + b $$;
CREATE FUNCTION touch_people() RETURNS int LANGUAGE sql VOLATILE AS
  $$ UPDATE people SET name = name || '!' RETURNING 1 $$;
`;

describe.each(databaseKinds())('/api/db on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    await test.db.exec(FIXTURE);
    admin = await createTestUser(test.db, 'admin', 'Zed Admin');
    app = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      registry: buildRegistry(
        [],
        [
          { name: 'people_like', resource: 'database' },
          { name: 'add_numbers', resource: 'database' },
          { name: 'touch_people', resource: 'database' },
        ],
      ),
    });
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  async function call(method: string, path: string, opts: { headers?: Record<string, string>; body?: unknown } = {}) {
    const res = await fetch(`${app.url}/api/db${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...admin.headers, ...opts.headers },
      body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, range: res.headers.get('content-range'), json: text ? JSON.parse(text) : null };
  }

  it('reads with aliases, JSON paths, order and counts', async () => {
    const r = await call(
      'GET',
      `/people?select=name,tier:properties->>tier&order=name.desc&limit=2&id=neq.${admin.id}`,
      {
        headers: { prefer: 'count=exact' },
      },
    );
    expect(r.status).toBe(206);
    expect(r.range).toBe('0-1/3');
    expect(r.json).toEqual([
      { name: 'Carol', tier: null },
      { name: 'Bob', tier: 'silver' },
    ]);
  });

  it('embeds through foreign keys in both directions and through the junction', async () => {
    const members = await call(
      'GET',
      `/team_members?select=team:team_id(id,name,icon),person:person_id(name)&order=person_id`,
    );
    expect(members.json).toEqual([
      { team: { id: TEAM, name: 'Core', icon: 'k8s' }, person: { name: 'Alice' } },
      { team: { id: TEAM, name: 'Core', icon: 'k8s' }, person: { name: 'Bob' } },
    ]);
    const teams = await call('GET', '/teams?select=name,people!team_members(name)&people.order=name.desc');
    expect(teams.json).toEqual([{ name: 'Core', people: [{ name: 'Bob' }, { name: 'Alice' }] }]);
    const people = await call('GET', '/people?select=name,agents!agents_person_id_fkey!inner(name)');
    expect(people.json).toEqual([{ name: 'Bob', agents: [{ name: 'edge-1' }] }]);
  });

  it('filters with every family of operator', async () => {
    const names = async (q: string) =>
      (await call('GET', `/people?select=name&order=name&id=neq.${admin.id}&${q}`)).json.map(
        (p: { name: string }) => p.name,
      );
    expect(await names('name=in.(Alice,"Bob")')).toEqual(['Alice', 'Bob']);
    expect(await names('email=is.null')).toEqual(['Carol']);
    expect(await names('name=ilike.*O*')).toEqual(['Bob', 'Carol']);
    expect(await names('or=(properties->>tier.eq.gold,name.eq.Carol)')).toEqual(['Alice', 'Carol']);
    expect(await names('properties=cs.{"tags":["a"]}')).toEqual(['Alice']);
    expect(await names('name=not.in.(Alice)&email=not.is.null')).toEqual(['Bob']);
    expect(await names('created_at=gte.2026-01-02&created_at=lt.2026-01-03')).toEqual(['Bob']);
  });

  it('answers a single object only when exactly one row matches', async () => {
    const one = await call('GET', `/people?id=eq.${ALICE}&select=name`, {
      headers: { accept: 'application/vnd.pgrst.object+json' },
    });
    expect(one).toMatchObject({ status: 200, json: { name: 'Alice' } });
    const many = await call('GET', `/people?select=name&id=neq.${admin.id}`, {
      headers: { accept: 'application/vnd.pgrst.object+json' },
    });
    expect(many).toMatchObject({ status: 406, json: { code: 'PGRST116', details: 'The result contains 3 rows' } });
  });

  it('inserts, upserts, updates and deletes, returning what was asked', async () => {
    const id = '00000000-0000-4000-8000-0000000000d1';
    const created = await call('POST', '/people?select=id,name', {
      headers: { prefer: 'return=representation' },
      body: [{ id, name: 'Dan' }],
    });
    expect(created).toMatchObject({ status: 201, json: [{ id, name: 'Dan' }] });
    const minimal = await call('POST', '/properties', { body: { name: 'logs.disable', value: 'true' } });
    expect(minimal).toMatchObject({ status: 201, json: null });
    const upsert = await call('POST', '/properties?select=name,value', {
      headers: { prefer: 'resolution=merge-duplicates,return=representation' },
      body: { name: 'logs.disable', value: 'false' },
    });
    expect(upsert.json).toEqual([{ name: 'logs.disable', value: 'false' }]);
    const patched = await call('PATCH', `/people?id=eq.${id}&select=name`, {
      headers: { prefer: 'return=representation' },
      body: { name: 'Daniel' },
    });
    expect(patched).toMatchObject({ status: 200, json: [{ name: 'Daniel' }] });
    expect((await call('DELETE', `/people?id=eq.${id}`)).status).toBe(204);
    expect((await call('GET', `/people?id=eq.${id}`)).json).toEqual([]);
  });

  it('leaves nothing behind when a write fails or a singular write touches several rows', async () => {
    const dup = await call('POST', '/people', {
      body: [
        { id: '00000000-0000-4000-8000-0000000000e1', name: 'X' },
        { id: ALICE, name: 'Y' },
      ],
    });
    expect(dup).toMatchObject({ status: 409, json: { code: '23505' } });
    expect((await call('GET', '/people?name=eq.X')).json).toEqual([]);
    const many = await call('PATCH', '/people?name=neq.nobody', {
      headers: { accept: 'application/vnd.pgrst.object+json' },
      body: { avatar: 'x' },
    });
    expect(many.status).toBe(406);
    expect((await call('GET', '/people?avatar=eq.x')).json).toEqual([]);
    const rolled = await call('PATCH', `/people?id=eq.${CAROL}`, {
      headers: { prefer: 'tx=rollback,return=representation' },
      body: { avatar: 'y' },
    });
    expect(rolled.json).toMatchObject([{ avatar: 'y' }]);
    expect((await call('GET', '/people?avatar=eq.y')).json).toEqual([]);
  });

  it('never returns secret columns, even from writes', async () => {
    const read = await call('GET', '/connections');
    expect(read.json[0]).not.toHaveProperty('password');
    expect(read.json[0]).toMatchObject({ name: 'db', username: 'admin' });
    const written = await call('PATCH', '/connections?name=eq.db', {
      headers: { prefer: 'return=representation' },
      body: { password: 'n3w' },
    });
    expect(written.status).toBe(200);
    expect(JSON.stringify(written.json)).not.toContain('n3w');
    expect((await call('GET', '/connections?password=eq.n3w')).status).toBe(400);
  });

  it('calls functions by GET and POST, read-only on GET', async () => {
    expect((await call('GET', '/rpc/people_like?pattern=a*&select=name&order=name')).status).toBe(200);
    const rows = await call('GET', '/rpc/people_like?pattern=%25o%25&select=name&order=name');
    expect(rows.json).toEqual([{ name: 'Bob' }, { name: 'Carol' }]);
    expect((await call('POST', '/rpc/add_numbers', { body: { a: 1, b: 2 } })).json).toBe(3);
    expect((await call('GET', '/rpc/add_numbers?a=5')).json).toBe(15);
    const refused = await call('GET', '/rpc/touch_people');
    expect(refused).toMatchObject({ status: 405, json: { code: '25006' } });
    expect((await call('POST', '/rpc/nope', { body: {} })).status).toBe(404);
  });

  it('answers 404 for relations outside the registry and 400 for bad input, never 500', async () => {
    expect(await call('GET', '/schema_migrations')).toMatchObject({ status: 404, json: { code: '42P01' } });
    expect(await call('GET', '/people?id=eq.not-a-uuid')).toMatchObject({ status: 400, json: { code: '22P02' } });
    expect(await call('GET', '/people?name=bogus.1')).toMatchObject({ status: 400, json: { code: 'PGRST100' } });
    expect(await call('POST', '/people', { body: '{"name":' })).toMatchObject({
      status: 400,
      json: { message: 'Empty or invalid json' },
    });
    expect(await call('POST', '/people', { body: { id: ALICE } })).toMatchObject({
      status: 400,
      json: { code: '23502' },
    });
    expect(
      await call('POST', '/team_members', {
        body: { team_id: TEAM, person_id: '00000000-0000-4000-8000-00000000ffff' },
      }),
    ).toMatchObject({ status: 409, json: { code: '23503' } });
  });

  it('serves /api/about and /api/properties', async () => {
    const about = await (await fetch(`${app.url}/api/about`)).json();
    expect(about).toMatchObject({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), database: kind });
    const props = await (await fetch(`${app.url}/api/properties`, { headers: admin.headers })).json();
    expect(Array.isArray(props)).toBe(true);
  });
});
