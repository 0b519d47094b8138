// Expressions in canaries, end to end: a Canary whose test/display/transform/metrics carry a CEL
// syntax error, an unknown function, a bad Go template or a JavaScript syntax error is refused at
// apply (400 with the field path, its line and column in the YAML, and the position within the
// script), through POST /api/canary and through /api/db/canaries (postgrest-js) alike; canaries
// using canary-checker's CEL extension functions apply and run against a loopback server. The suite
// ends by printing `canary expressions: N/M as expected`.
import { PostgrestClient } from '@supabase/postgrest-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { startCompatServer, type CompatServer } from './helpers/compat-server.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { celCases, celRefusals } from './helpers/compat-cases-cel.js';

const canaryYaml = (name: string, body: string) =>
  `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: ${name}\nspec:\n  schedule: "@every 1h"\n${body}`;

interface ErrorBody {
  error: string;
  errors?: {
    path?: string;
    line?: number;
    column?: number;
    message: string;
    script?: { line: number; column: number };
  }[];
}

describe('canary expressions: refused at apply, extension functions at run time', () => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let server: CompatServer;
  let asExpected = 0;
  let counted = 0;

  beforeAll(async () => {
    server = await startCompatServer();
    test = await openTestDatabase('pglite');
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
  });

  afterAll(async () => {
    console.log(`canary expressions: ${asExpected}/${counted} as expected`);
    await app?.close();
    await test?.close();
    await server?.close();
  });

  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${app.url}${p}`, { ...init, headers: { ...admin.headers, ...(init.headers as Record<string, string>) } });

  const apply = (yaml: string) =>
    api('/api/canary', { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' } });

  it.each(celRefusals.map((c, i) => [c.name, c, i] as const))('refused: %s', async (_name, c, i) => {
    counted++;
    const yaml = canaryYaml(`refused-${i}`, c.yaml);
    const res = await apply(yaml);
    const body = (await res.json()) as ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(400);
    const error = body.errors?.find((e) => e.path === c.path);
    expect(error, JSON.stringify(body)).toBeDefined();
    expect(error!.message).toContain(c.message);
    // The field's place in the YAML document (the resource starts with 6 lines of header).
    expect({ line: error!.line, column: error!.column }).toEqual(c.at);
    if (c.script) expect(error!.script).toEqual(c.script);
    // Nothing was stored.
    const { rows } = await test.db.query(`SELECT 1 FROM canaries WHERE name = $1`, [`refused-${i}`]);
    expect(rows).toHaveLength(0);
    asExpected++;
  });

  it('the same refusal through /api/db/canaries (postgrest-js), with the same message', async () => {
    counted++;
    const db = new PostgrestClient(`${app.url}/api/db`, { headers: admin.headers as Record<string, string> });
    const c = celRefusals.find((r) => r.message.includes("unknown function 'foo'"))!;
    const spec = parseYaml(canaryYaml('db-refused', c.yaml)) as Record<string, unknown>;
    const { error, status } = await db.from('canaries').insert({ spec });
    expect(status, JSON.stringify(error)).toBe(400);
    expect(error?.message).toContain(c.path);
    expect(error?.message).toContain("unknown function 'foo'");
    const viaApi = (await (await apply(canaryYaml('db-refused', c.yaml))).json()) as ErrorBody;
    // The same words, without the YAML line (a row's spec is JSON: no document positions).
    expect(error?.message).toBe(viaApi.error.replace(/ \(line \d+, column \d+\)/g, ''));
    const none = await db.from('canaries').select('id').eq('name', 'db-refused');
    expect(none.data).toEqual([]);
    asExpected++;
  });

  it('a refused PATCH of a stored row keeps the row as it was', async () => {
    counted++;
    const db = new PostgrestClient(`${app.url}/api/db`, { headers: admin.headers as Record<string, string> });
    const good = parseYaml(canaryYaml('db-patch', celCases[0]!.yaml({ url: server.url }))) as Record<string, unknown>;
    const created = await db.from('canaries').insert({ spec: good }).select('id').single();
    expect(created.status, JSON.stringify(created.error)).toBe(201);
    const bad = structuredClone(good) as { spec: { exec: { test: { expr: string } }[] } };
    bad.spec.exec[0]!.test = { expr: 'results.stdout.shout()' };
    const patched = await db.from('canaries').update({ spec: bad }).eq('id', created.data!.id);
    expect(patched.status).toBe(400);
    expect(patched.error?.message).toContain("spec.exec[0].test.expr: CEL error: unknown function 'shout'");
    const { rows } = await test.db.query<{ spec: unknown }>(`SELECT spec FROM canaries WHERE id = $1`, [
      created.data!.id,
    ]);
    expect(rows[0]!.spec).toEqual(good);
    asExpected++;
  });

  it.each([
    [
      '/api/notification',
      'apiVersion: mission-control.flanksource.com/v1\nkind: Notification\nmetadata:\n  name: n\n  namespace: default\nspec:\n  events: [check.failed]\n  filter: "check.type == \'http\' && foo(check)"\n  to: {email: a@b.example}\n',
      'spec.filter',
    ],
    [
      '/api/catalog',
      'apiVersion: configs.flanksource.com/v1\nkind: ScrapeConfig\nmetadata:\n  name: s\n  namespace: ops\nspec:\n  file:\n    - type: X\n      paths: ["/tmp/x.json"]\n  analysis:\n    rules:\n      - name: r\n        expr: "config.a.foo() == 1"\n',
      'spec.analysis.rules[0].expr',
    ],
    [
      '/api/playbook',
      'apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata: {name: p, namespace: ops}\nspec:\n  filters: ["check.name.startsWith(\'db-\') && foo(1)"]\n  actions: [{name: a, exec: {script: "true"}}]\n',
      'spec.filters[0]',
    ],
  ])('refused by %s: an unknown function in its CEL', async (endpoint, yaml, path) => {
    counted++;
    const res = await api(endpoint, { method: 'POST', body: yaml, headers: { 'content-type': 'application/yaml' } });
    const body = (await res.json()) as ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(400);
    const error = body.errors?.find((e) => e.path === path);
    expect(error, JSON.stringify(body)).toMatchObject({ line: expect.any(Number), column: expect.any(Number) });
    expect(error!.message).toMatch(/unknown function '(foo)'/);
    asExpected++;
  });

  it('refused in a Topology: an inline canary check, at its place in the topology', async () => {
    counted++;
    const yaml =
      'apiVersion: canaries.flanksource.com/v1\nkind: Topology\nmetadata:\n  name: t\n  namespace: ops\nspec:\n' +
      '  components:\n    - name: checkout\n      checks:\n        - inline:\n            http:\n' +
      '              - name: h\n                url: http://127.0.0.1:1/\n                test:\n' +
      '                  expr: code == foo(1)\n';
    const res = await api('/api/topology', {
      method: 'POST',
      body: yaml,
      headers: { 'content-type': 'application/yaml' },
    });
    const body = (await res.json()) as ErrorBody;
    expect(res.status, JSON.stringify(body)).toBe(400);
    const path = 'spec.components[0].checks[0].inline.http[0].test.expr';
    expect(
      body.errors?.find((e) => e.path === path),
      JSON.stringify(body),
    ).toMatchObject({
      line: 15,
      column: 33,
      script: { line: 1, column: 9 },
      message: expect.stringContaining("unknown function 'foo'"),
    });
    asExpected++;
  });

  it.each(celCases.map((c, i) => [c.name, c, i] as const))('runs: %s', async (_name, c, i) => {
    counted++;
    const yaml = canaryYaml(`cel-${i}`, c.yaml({ url: server.url }));
    const applied = await apply(yaml);
    expect(applied.status, `${await applied.clone().text()}\n${yaml}`).toBe(201);
    const { rows } = await test.db.query<{ id: string }>(
      `SELECT c.id FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE k.name = $1 AND c.deleted_at IS NULL`,
      [`cel-${i}`],
    );
    expect(rows).toHaveLength(1);
    const run = await api(`/api/canary/run/check/${rows[0]!.id}`, { method: 'POST' });
    expect(run.status).toBe(200);
    const result = (await run.json()) as { pass: boolean; error?: string | null; message?: string | null };
    expect(result.pass ? 'pass' : 'fail', `${c.name}: ${result.error ?? ''} ${result.message ?? ''}\n${yaml}`).toBe(
      c.expected,
    );
    if (c.message) expect(result.message).toMatch(c.message);
    asExpected++;
  });
});
