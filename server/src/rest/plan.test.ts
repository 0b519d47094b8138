import { describe, expect, it } from 'vitest';
import type { Column, ForeignKey, FunctionDef, Relation, SchemaCache } from '../db/introspect.js';
import { ApiError } from './errors.js';
import { parseRequest, type RawRequest } from './parse.js';
import { closestColumn, plan, type Plan, type ReadNode } from './plan.js';
import { buildRegistry } from './registry.js';
import { buildSql } from './sql.js';

// A small schema: people, teams, team_members (junction), agents (two FKs to people), secrets.
function relation(
  name: string,
  cols: string[],
  primaryKey: string[] = ['id'],
  kind: Relation['kind'] = 'table',
): Relation {
  const columns: Column[] = cols.map((c) => ({ name: c, type: 'text', nullable: true, hasDefault: false }));
  return {
    name,
    kind,
    columns,
    columnsByName: new Map(columns.map((c) => [c.name, c])),
    primaryKey,
    uniqueKeys: primaryKey.length ? [primaryKey] : [],
    writable: { insert: kind === 'table', update: kind === 'table', delete: kind === 'table' },
  };
}
const fk = (
  constraint: string,
  table: string,
  columns: string[],
  refTable: string,
  refColumns = ['id'],
): ForeignKey => ({ constraint, table, columns, refTable, refColumns });
const fn = (over: Partial<FunctionDef>): FunctionDef => ({
  name: 'f',
  args: [],
  returnsSet: false,
  returnsRelation: null,
  outColumns: [],
  returnType: 'integer',
  volatile: true,
  ...over,
});

const schema: SchemaCache = {
  schema: 'public',
  relations: new Map(
    [
      relation('people', ['id', 'name', 'email', 'labels']),
      relation('teams', ['id', 'name', 'created_by']),
      relation('team_members', ['team_id', 'person_id'], ['team_id', 'person_id']),
      relation('agents', ['id', 'name', 'person_id', 'created_by']),
      relation('connections', ['id', 'name', 'password']),
      relation('hidden', ['id']),
      relation('people_names', ['name'], [], 'view'),
    ].map((r) => [r.name, r]),
  ),
  foreignKeys: [
    fk('teams_created_by_fkey', 'teams', ['created_by'], 'people'),
    fk('team_members_team_id_fkey', 'team_members', ['team_id'], 'teams'),
    fk('team_members_person_id_fkey', 'team_members', ['person_id'], 'people'),
    fk('agents_person_id_fkey', 'agents', ['person_id'], 'people'),
    fk('agents_created_by_fkey', 'agents', ['created_by'], 'people'),
    fk('hidden_person_fkey', 'hidden', ['id'], 'people'),
  ],
  functions: new Map([
    [
      'add',
      [
        fn({
          name: 'add',
          args: [
            { name: 'a', type: 'integer', hasDefault: false },
            { name: 'b', type: 'integer', hasDefault: true },
          ],
        }),
      ],
    ],
    [
      'search_people',
      [
        fn({
          name: 'search_people',
          args: [{ name: 'q', type: 'text', hasDefault: false }],
          returnsSet: true,
          returnsRelation: 'people',
          returnType: 'people',
        }),
      ],
    ],
    ['unexposed', [fn({ name: 'unexposed' })]],
  ]),
};
const registry = buildRegistry(
  [
    { name: 'people', resource: 'database' },
    { name: 'teams', resource: 'database' },
    { name: 'team_members', resource: 'database' },
    { name: 'agents', resource: 'agents' },
    { name: 'connections', resource: 'connections', secretColumns: ['password'] },
    { name: 'people_names', resource: 'database' },
  ].map((r) => ({ ...r, resource: r.resource as 'database' })),
  [
    { name: 'add', resource: 'database' },
    { name: 'search_people', resource: 'database' },
  ],
);
// buildRegistry merges with the production registry; these tests only use the names above.

function planFor(
  path: string,
  query: Record<string, string> | [string, string][] = {},
  extra: Partial<RawRequest> = {},
): Plan {
  const req = parseRequest({
    method: 'GET',
    path,
    query: Array.isArray(query) ? query : Object.entries(query),
    headers: {},
    ...extra,
  });
  return plan(req, { schema, registry });
}

function failure(f: () => unknown): ApiError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected an error');
}

const root = (p: Plan): ReadNode => (p as { root: ReadNode }).root;
const keys = (n: ReadNode) => n.projection.map((p) => p.key);

describe('plan: relations and columns', () => {
  it('expands * to the visible columns and hides secret ones', () => {
    expect(keys(root(planFor('/people')))).toEqual(['id', 'name', 'email', 'labels']);
    expect(keys(root(planFor('/connections')))).toEqual(['id', 'name']);
  });

  it('answers 404 for relations outside the registry, even when they exist', () => {
    for (const name of ['hidden', 'nope', 'schema_migrations']) {
      const e = failure(() => planFor(`/${name}`));
      expect(e.status).toBe(404);
      expect(e.message).toBe(`relation "public.${name}" does not exist`);
    }
  });

  it('treats secret columns as absent in select, filters and order', () => {
    for (const q of [{ select: 'password' }, { password: 'eq.x' }, { order: 'password' }] as Record<string, string>[]) {
      const e = failure(() => planFor('/connections', q));
      expect(e.code).toBe('42703');
      expect(e.message).toBe('column connections.password does not exist');
    }
  });

  it('names unknown columns like PostgreSQL, with its suggestion for near misses', () => {
    const e = failure(() => planFor('/people', { select: 'nme' }));
    expect(e.hint).toBe('Perhaps you meant to reference the column "people.name".');
    expect(failure(() => planFor('/people', { select: 'zzzzzz' })).hint).toBeNull();
    expect(closestColumn('emial', ['email', 'name'])).toBe('email');
    expect(closestColumn('ab', ['id'])).toBeUndefined();
  });

  it('keys JSON path columns by their last key and casts only to known types', () => {
    expect(keys(root(planFor('/people', { select: 'labels->>app,labels->a->0,x:id::text' })))).toEqual([
      'app',
      'labels',
      'x',
    ]);
    const e = failure(() => planFor('/people', { select: 'id::text;drop' }));
    expect(e.code).toBe('PGRST100');
    expect(failure(() => planFor('/people', { select: 'id::evil' })).message).toBe('type "evil" does not exist');
  });
});

describe('plan: embeds', () => {
  const embed = (p: Plan, i = 0) =>
    root(p).projection.filter((x) => x.kind === 'embed')[i] as { node: ReadNode; key: string };

  it('embeds many-to-one by table, column and constraint name', () => {
    for (const target of ['person_id', 'people!agents_person_id_fkey', 'people!person_id']) {
      const e = embed(planFor('/agents', { select: `id,${target}(name)` }));
      expect(e.node.join).toMatchObject({
        toOne: true,
        rel: { cardinality: 'many-to-one', fk: { constraint: 'agents_person_id_fkey' } },
      });
    }
    expect(embed(planFor('/team_members', { select: 'team:team_id(id,name)' })).key).toBe('team');
  });

  it('embeds one-to-many and many-to-many', () => {
    expect(embed(planFor('/people', { select: 'agents!agents_person_id_fkey(*)' })).node.join).toMatchObject({
      toOne: false,
      rel: { cardinality: 'one-to-many' },
    });
    expect(embed(planFor('/teams', { select: 'name,people!team_members(name)' })).node.join).toMatchObject({
      rel: { cardinality: 'many-to-many', junction: 'team_members' },
    });
  });

  it('reports ambiguous embeds with every candidate and a hint', () => {
    const e = failure(() => planFor('/agents', { select: 'people(*)' }));
    expect(e.status).toBe(300);
    expect(e.code).toBe('PGRST201');
    expect(e.details).toEqual([
      {
        cardinality: 'many-to-one',
        embedding: 'agents with people',
        relationship: 'agents_person_id_fkey using agents(person_id) and people(id)',
      },
      {
        cardinality: 'many-to-one',
        embedding: 'agents with people',
        relationship: 'agents_created_by_fkey using agents(created_by) and people(id)',
      },
    ]);
    expect(e.hint).toContain("'people!agents_person_id_fkey'");
  });

  it('reports missing relationships and never embeds unexposed relations', () => {
    const e = failure(() => planFor('/people', { select: 'hidden(*)' }));
    expect(e).toMatchObject({
      status: 400,
      code: 'PGRST200',
      message: "Could not find a relationship between 'people' and 'hidden' in the schema cache",
    });
    expect(failure(() => planFor('/people', { select: 'agents!nope(*)' })).details).toContain("using the hint 'nope'");
  });

  it('applies embedded filters, order and limits, and refuses them on unselected embeds', () => {
    const p = planFor('/teams', [
      ['select', 'name,members:people!team_members(name)'],
      ['members.name', 'like.A*'],
      ['members.limit', '2'],
      ['members.order', 'name.desc'],
    ]);
    expect(embed(p).node).toMatchObject({ limit: 2, conditions: [{ op: 'like' }], order: [{ direction: 'desc' }] });
    const e = failure(() => planFor('/teams', { 'people.name': 'eq.x' }));
    expect(e.code).toBe('PGRST108');
  });

  it('collects the resources a request touches for access control', () => {
    expect(planFor('/agents', { select: 'id,person:person_id(name)' }).access).toEqual([
      { resource: 'agents', action: 'read' },
      { resource: 'database', action: 'read' },
    ]);
    expect(planFor('/agents', {}, { method: 'DELETE' }).access).toEqual([{ resource: 'agents', action: 'write' }]);
  });
});

describe('plan: writes', () => {
  const post = (body: unknown, query: Record<string, string> = {}, prefer?: string) =>
    planFor('/people', query, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { prefer },
    });

  it('takes columns from the payload keys or the columns parameter', () => {
    expect(post({ id: '1', name: 'a' })).toMatchObject({ kind: 'insert', columns: ['id', 'name'], returning: null });
    expect(post([{ id: '1', name: 'a', extra: 1 }], { columns: 'id,name' })).toMatchObject({ columns: ['id', 'name'] });
  });

  it('refuses invalid JSON, mismatched keys and unknown columns', () => {
    expect(failure(() => post('{oops')).message).toBe('Empty or invalid json');
    expect(failure(() => post([{ id: 1 }, { name: 'x' }])).message).toBe('All object keys must match');
    expect(failure(() => post({ nope: 1 })).message).toBe("Column 'nope' of relation 'people' does not exist");
    expect(failure(() => post('42')).code).toBe('PGRST102');
  });

  it('refuses writes to a relation PostgreSQL cannot write, with a clear 405', () => {
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const e = failure(() => planFor('/people_names', {}, { method, body: '{"name":"x"}' }));
      expect(e.status).toBe(405);
      expect(e.details).toBe("'people_names' is read-only: it can only be read (GET).");
    }
    expect(planFor('/people_names').kind).toBe('read');
  });

  it('plans upserts on the primary key or on_conflict columns', () => {
    expect(post({ id: '1' }, {}, 'resolution=merge-duplicates')).toMatchObject({
      onConflict: { columns: ['id'], action: 'merge' },
    });
    expect(post({ id: '1' }, { on_conflict: 'email' }, 'resolution=ignore-duplicates')).toMatchObject({
      onConflict: { columns: ['email'], action: 'ignore' },
    });
  });
});

describe('plan: functions', () => {
  it('sorts GET parameters into arguments and filters', () => {
    const p = planFor('/rpc/search_people', { q: 'a', name: 'eq.x' });
    expect(p).toMatchObject({ kind: 'rpc', argNames: ['q'], readOnly: true });
    expect(root(p).conditions).toMatchObject([{ kind: 'filter', op: 'eq' }]);
  });

  it('takes POST arguments from the JSON body and honours defaults', () => {
    expect(planFor('/rpc/add', {}, { method: 'POST', body: '{"a":1}' })).toMatchObject({
      argNames: ['a'],
      readOnly: false,
      root: null,
    });
  });

  it('suggests a close function name or a fitting overload', () => {
    expect(failure(() => planFor('/rpc/ad')).hint).toBe('Perhaps you meant to call the function public.add');
    expect(failure(() => planFor('/rpc/add', { b: '1' })).hint).toBe(
      'Perhaps you meant to call the function public.add(a, b)',
    );
    expect(failure(() => planFor('/rpc/zzzzzzz')).hint).toBeNull();
  });

  it('answers 404 for unknown, unexposed or mismatched functions', () => {
    expect(failure(() => planFor('/rpc/unexposed')).message).toBe(
      'Could not find the function public.unexposed without parameters in the schema cache',
    );
    const get = failure(() => planFor('/rpc/add', { z: '1' }));
    expect(get.message).toBe('Could not find the function public.add(z) in the schema cache');
    expect(get.details).toBe(
      'Searched for the function public.add with parameter z, but no matches were found in the schema cache.',
    );
    expect(failure(() => planFor('/rpc/add', {}, { method: 'POST', body: '{"z":1}' })).message).toBe(
      'Could not find the function public.add(z) in the schema cache',
    );
  });
});

describe('sql', () => {
  it('binds every value and quotes every identifier', () => {
    const p = planFor('/people', [
      ['select', 'id,app:labels->>app'],
      ['name', "eq.x'); drop table people;--"],
      ['or', '(email.like.*@x.io,labels->>tier.in.(a,"b,c"))'],
      ['order', 'name.desc.nullslast'],
      ['limit', '5'],
    ]);
    const { text, values } = buildSql(p);
    expect(text).not.toContain('drop table');
    expect(text).toContain('"people_1"."name" = $');
    expect(text).toContain('LIKE');
    expect(text).toContain('ORDER BY "people_1"."name" DESC NULLS LAST');
    expect(values).toEqual(
      expect.arrayContaining(["x'); drop table people;--", '%@x.io', '{"a","b,c"}', 'app', 'tier', 5]),
    );
  });

  it('escapes quotes in identifiers that reach SQL as JSON keys', () => {
    const { text } = buildSql(planFor('/people', { select: '"we\\"ird":name' }));
    expect(text).toContain('AS "we""ird"');
  });

  it('adds a count subquery only when asked', () => {
    expect(buildSql(planFor('/people')).text).toContain('NULL::bigint AS total');
    expect(buildSql(planFor('/people', {}, { headers: { prefer: 'count=exact' } })).text).toMatch(
      /SELECT \(SELECT pg_catalog\.count\(\*\)/,
    );
  });

  it('joins many-to-many embeds through the junction', () => {
    const { text } = buildSql(planFor('/teams', { select: 'name,people!team_members(name)' }));
    expect(text).toMatch(/"public"\."team_members" AS "team_members_\d+"/);
    expect(text).toContain('json_agg(_r)');
  });

  it('builds inserts from one bound JSON payload', () => {
    const { text, values } = buildSql(planFor('/people', {}, { method: 'POST', body: '{"id":"1","name":"a"}' }));
    expect(text).toContain('json_populate_recordset(NULL::"public"."people", $1::json)');
    expect(values).toEqual(['[{"id":"1","name":"a"}]']);
  });
});
