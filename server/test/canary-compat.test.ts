// canary-checker compatibility: each case is a Canary in canary-checker's own YAML form, applied through
// the API and run once against loopback servers (HTTP with redirects, digest auth and TLS), the machine's
// databases and files made here, with the pass/fail canary-checker gives it. Add a case by adding a row
// to `cases`; the suite ends by printing `canary compatibility: N/M as expected`.
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { DIGEST_PASSWORD, DIGEST_USER, startCompatServer, type CompatServer } from './helpers/compat-server.js';
import { depsCases, makeDepsFiles } from './helpers/compat-cases-deps.js';
import { celCases, celRefusals } from './helpers/compat-cases-cel.js';
import { startTlsServer, type TlsServer } from './helpers/tls-server.js';

/** What a case's YAML may refer to: the loopback server, a folder of files made by the test, databases. */
interface Env {
  url: string;
  dir: string;
  mysql: { host: string; port: string; user: string; password: string; db: string };
  postgres: { host: string; port: string; user: string; password: string; db: string };
  /** A loopback HTTPS server with a self-signed certificate (30 days) and that certificate. */
  tls: { url: string; cert: string };
}

interface Case {
  name: string;
  /** The check types under `spec:` (indented two spaces), as canary-checker users write them. */
  yaml: (env: Env) => string;
  /** 'refused': the apply answers 400 naming `refusedAt`, with line and column. */
  expected: 'pass' | 'fail' | 'refused';
  refusedAt?: string;
  /** Run the whole canary (dependencies first) and judge this check, instead of the canary's one check. */
  judge?: string;
  /** Skipped (and not counted) when the service it needs is not configured. */
  needs?: 'mysql' | 'postgres';
}

const exec = (script: string, test?: string, extra = ''): string =>
  `  exec:\n    - name: c\n      script: ${JSON.stringify(script)}\n${test ? `      test:\n        expr: ${JSON.stringify(test)}\n` : ''}${extra}`;

const test = (expr: string): string => `      test:\n        expr: ${JSON.stringify(expr)}\n`;

const httpCheck = (url: string, fields: string): string => `  http:\n    - name: c\n      url: ${url}\n${fields}`;

const digest = (user: string, password: string, on: boolean, rest = ''): string =>
  `      digest: ${on}\n      username:\n        value: ${JSON.stringify(user)}\n      password:\n        value: ${JSON.stringify(password)}\n${rest}`;

const sql = (type: 'mysql' | 'postgres', url: string, rest = ''): string =>
  `  ${type}:\n    - name: c\n      url: ${JSON.stringify(url)}\n${rest}`;

const creds = (user: string, password: string): string =>
  `      username:\n        value: ${JSON.stringify(user)}\n      password:\n        value: ${JSON.stringify(password)}\n`;

const myAuth = (e: Env): string => `${e.mysql.user}${e.mysql.password ? `:${e.mysql.password}` : ''}`;
const myDsn = (e: Env): string => `${myAuth(e)}@tcp(${e.mysql.host}:${e.mysql.port})/${e.mysql.db}`;
const pgUrl = (e: Env): string => {
  const p = e.postgres;
  return `postgres://${p.user}${p.password ? `:${p.password}` : ''}@${p.host}:${p.port}/${p.db}?sslmode=disable`;
};

const folder = (p: string, rest: string): string =>
  `  folder:\n    - name: c\n      path: ${JSON.stringify(p)}\n${rest}`;

const cases: Case[] = [
  // exec: results = {stdout, stderr, exitCode}, stdout without its trailing newline.
  { name: 'exec echo passes', yaml: () => exec('echo hello'), expected: 'pass' },
  { name: 'exec exit 1 fails', yaml: () => exec('exit 1'), expected: 'fail' },
  { name: 'exec results.stdout', yaml: () => exec('echo hello', 'results.stdout == "hello"'), expected: 'pass' },
  { name: 'exec results.stdout mismatch', yaml: () => exec('echo hello', 'results.stdout == "bye"'), expected: 'fail' },
  { name: 'exec results.exitCode', yaml: () => exec('echo hi', 'results.exitCode == 0'), expected: 'pass' },
  { name: 'exec results.stderr', yaml: () => exec('echo oops >&2', 'results.stderr == "oops"'), expected: 'pass' },
  {
    name: 'exec multi-line stdout',
    yaml: () => exec('printf "a\\nb\\n"', 'results.stdout == "a\\nb"'),
    expected: 'pass',
  },
  {
    name: 'exec display template from results',
    yaml: () =>
      exec('echo 42', 'int(results.stdout) > 40', '      display:\n        template: "{{.results.stdout}}"\n'),
    expected: 'pass',
  },
  {
    name: 'exec json in stdout',
    yaml: () => exec(`echo '{"a": 3}'`, 'results.stdout.contains("a")'),
    expected: 'pass',
  },
  {
    name: 'exec env value',
    yaml: () =>
      exec('echo $GREETING', 'results.stdout == "hi"', '      env:\n        - name: GREETING\n          value: hi\n'),
    expected: 'pass',
  },
  // http: headers by canonical and lower-case name, redirects, json whatever the charset, variables bound.
  { name: 'http 200 passes', yaml: (e) => httpCheck(`${e.url}/json`, ''), expected: 'pass' },
  { name: 'http 500 fails', yaml: (e) => httpCheck(`${e.url}/status?code=500`, ''), expected: 'fail' },
  {
    name: 'http responseCodes [404]',
    yaml: (e) => httpCheck(`${e.url}/status?code=404`, '      responseCodes: [404]\n'),
    expected: 'pass',
  },
  {
    name: 'http json with charset suffix',
    yaml: (e) => httpCheck(`${e.url}/json`, test("json.status == 'ok' && size(json.items) == 3")),
    expected: 'pass',
  },
  {
    name: 'http json with upper-case charset',
    yaml: (e) => httpCheck(`${e.url}/json-upper`, test("json.status == 'ok'")),
    expected: 'pass',
  },
  {
    name: 'http problem+json parsed',
    yaml: (e) => httpCheck(`${e.url}/problem`, test("json.status == 'ok'")),
    expected: 'pass',
  },
  {
    name: 'http nested json',
    yaml: (e) => httpCheck(`${e.url}/json`, test("json.nested.name == 'opsdeck'")),
    expected: 'pass',
  },
  {
    name: 'http json test mismatch',
    yaml: (e) => httpCheck(`${e.url}/json`, test("json.status == 'down'")),
    expected: 'fail',
  },
  {
    name: "http headers['Content-Type']",
    yaml: (e) => httpCheck(`${e.url}/json`, test("headers['Content-Type'].startsWith('application/json')")),
    expected: 'pass',
  },
  {
    name: "http headers['content-type']",
    yaml: (e) => httpCheck(`${e.url}/json`, test("headers['content-type'].startsWith('application/json')")),
    expected: 'pass',
  },
  {
    name: "http headers['X-Custom-Header']",
    yaml: (e) => httpCheck(`${e.url}/text`, test("headers['X-Custom-Header'] == 'hello'")),
    expected: 'pass',
  },
  {
    name: 'http maxRedirects 0 returns the 302',
    yaml: (e) =>
      httpCheck(
        `${e.url}/redirect`,
        `      maxRedirects: 0\n      responseCodes: [302]\n${test("code == 302 && headers['Location'] == '/json'")}`,
      ),
    expected: 'pass',
  },
  {
    name: 'http maxRedirects 0 without responseCodes fails',
    yaml: (e) => httpCheck(`${e.url}/redirect`, '      maxRedirects: 0\n'),
    expected: 'fail',
  },
  {
    name: 'http redirect followed by default',
    yaml: (e) => httpCheck(`${e.url}/redirect`, test("code == 200 && json.status == 'ok'")),
    expected: 'pass',
  },
  {
    name: 'http maxRedirects 1 exceeded',
    yaml: (e) => httpCheck(`${e.url}/redirect-twice`, '      maxRedirects: 1\n'),
    expected: 'fail',
  },
  {
    name: 'http maxRedirects 2 enough',
    yaml: (e) => httpCheck(`${e.url}/redirect-twice`, '      maxRedirects: 2\n'),
    expected: 'pass',
  },
  {
    name: 'http content bound',
    yaml: (e) => httpCheck(`${e.url}/text`, test("content == 'plain text body'")),
    expected: 'pass',
  },
  {
    name: 'http code bound',
    yaml: (e) => httpCheck(`${e.url}/text`, test('code == 200')),
    expected: 'pass',
  },
  {
    name: 'http elapsed bound',
    yaml: (e) => httpCheck(`${e.url}/text`, test("elapsed < Duration('10s')")),
    expected: 'pass',
  },
  {
    name: 'http sslAge bound without TLS',
    yaml: (e) => httpCheck(`${e.url}/text`, test("sslAge == Duration('0s')")),
    expected: 'pass',
  },
  {
    name: 'http responseContent',
    yaml: (e) => httpCheck(`${e.url}/text`, '      responseContent: plain text\n'),
    expected: 'pass',
  },
  {
    name: 'http responseContent missing',
    yaml: (e) => httpCheck(`${e.url}/text`, '      responseContent: nowhere\n'),
    expected: 'fail',
  },
  {
    name: 'http display template',
    yaml: (e) => httpCheck(`${e.url}/json`, '      display:\n        template: "{{.code}} {{.json.status}}"\n'),
    expected: 'pass',
  },
  // http digest authentication (RFC 7616 / 2617, MD5, qop=auth) against a server that checks the answer.
  {
    name: 'http digest auth',
    yaml: (e) => httpCheck(`${e.url}/digest`, digest(DIGEST_USER, DIGEST_PASSWORD, true, test('json.authenticated'))),
    expected: 'pass',
  },
  {
    name: 'http digest auth wrong password',
    yaml: (e) => httpCheck(`${e.url}/digest`, digest(DIGEST_USER, 'wrong', true)),
    expected: 'fail',
  },
  {
    name: 'http digest server without digest: true',
    yaml: (e) => httpCheck(`${e.url}/digest`, digest(DIGEST_USER, DIGEST_PASSWORD, false)),
    expected: 'fail',
  },
  {
    name: 'http digest 401 testable',
    yaml: (e) =>
      httpCheck(
        `${e.url}/digest`,
        `      responseCodes: [401]\n${test("headers['Www-Authenticate'].startsWith('Digest')")}`,
      ),
    expected: 'pass',
  },
  // mysql (MariaDB on the machine): URL forms, $(username)/$(password), results: N, markFailOnEmpty.
  {
    name: 'mysql Go DSN',
    needs: 'mysql',
    yaml: (e) => sql('mysql', `${myAuth(e)}@tcp(${e.mysql.host}:${e.mysql.port})/${e.mysql.db}`),
    expected: 'pass',
  },
  {
    name: 'mysql Go DSN with mysql:// prefix',
    needs: 'mysql',
    yaml: (e) => sql('mysql', `mysql://${myAuth(e)}@tcp(${e.mysql.host}:${e.mysql.port})/${e.mysql.db}`),
    expected: 'pass',
  },
  {
    name: 'mysql URL',
    needs: 'mysql',
    yaml: (e) => sql('mysql', `mysql://${myAuth(e)}@${e.mysql.host}:${e.mysql.port}/${e.mysql.db}`),
    expected: 'pass',
  },
  {
    name: 'mysql $(username):$(password) interpolated',
    needs: 'mysql',
    yaml: (e) =>
      sql(
        'mysql',
        `$(username):$(password)@tcp(${e.mysql.host}:${e.mysql.port})/${e.mysql.db}`,
        creds(e.mysql.user, e.mysql.password),
      ),
    expected: 'pass',
  },
  {
    name: 'mysql:// prefix with $(username) interpolated',
    needs: 'mysql',
    yaml: (e) =>
      sql(
        'mysql',
        `mysql://$(username):$(password)@tcp(${e.mysql.host}:${e.mysql.port})/${e.mysql.db}`,
        creds(e.mysql.user, e.mysql.password),
      ),
    expected: 'pass',
  },
  {
    name: 'mysql wrong user refused',
    needs: 'mysql',
    yaml: (e) => sql('mysql', `nobody-here:nope@tcp(${e.mysql.host}:${e.mysql.port})/${e.mysql.db}`),
    expected: 'fail',
  },
  {
    name: 'mysql results: 2 met',
    needs: 'mysql',
    yaml: (e) => sql('mysql', myDsn(e), '      query: SELECT 1 UNION SELECT 2\n      results: 2\n'),
    expected: 'pass',
  },
  {
    name: 'mysql results: 3 not met',
    needs: 'mysql',
    yaml: (e) => sql('mysql', myDsn(e), '      query: SELECT 1 UNION SELECT 2\n      results: 3\n'),
    expected: 'fail',
  },
  {
    name: 'mysql empty result passes by default',
    needs: 'mysql',
    yaml: (e) => sql('mysql', myDsn(e), '      query: SELECT 1 FROM DUAL WHERE 1 = 0\n'),
    expected: 'pass',
  },
  {
    name: 'mysql markFailOnEmpty',
    needs: 'mysql',
    yaml: (e) => sql('mysql', myDsn(e), '      query: SELECT 1 FROM DUAL WHERE 1 = 0\n      markFailOnEmpty: true\n'),
    expected: 'fail',
  },
  {
    name: 'mysql results.rows and count in test',
    needs: 'mysql',
    yaml: (e) =>
      sql('mysql', myDsn(e), `      query: SELECT 7 AS a\n${test("results.count == 1 && results.rows[0].a == '7'")}`),
    expected: 'pass',
  },
  // postgres (the machine's PostgreSQL): URL and keyword DSN, $(username)/$(password), results, markFailOnEmpty.
  {
    name: 'postgres URL',
    needs: 'postgres',
    yaml: (e) => sql('postgres', pgUrl(e)),
    expected: 'pass',
  },
  {
    name: 'postgres keyword DSN',
    needs: 'postgres',
    yaml: (e) =>
      sql(
        'postgres',
        `host=${e.postgres.host} port=${e.postgres.port} user=${e.postgres.user} dbname=${e.postgres.db} sslmode=disable${e.postgres.password ? ` password=${e.postgres.password}` : ''}`,
      ),
    expected: 'pass',
  },
  {
    name: 'postgres $(username):$(password) interpolated',
    needs: 'postgres',
    yaml: (e) =>
      sql(
        'postgres',
        `postgres://$(username):$(password)@${e.postgres.host}:${e.postgres.port}/${e.postgres.db}?sslmode=disable`,
        creds(e.postgres.user, e.postgres.password),
      ),
    expected: 'pass',
  },
  {
    name: 'postgres results: 3 met',
    needs: 'postgres',
    yaml: (e) => sql('postgres', pgUrl(e), '      query: SELECT generate_series(1, 3)\n      results: 3\n'),
    expected: 'pass',
  },
  {
    name: 'postgres results: 4 not met',
    needs: 'postgres',
    yaml: (e) => sql('postgres', pgUrl(e), '      query: SELECT generate_series(1, 3)\n      results: 4\n'),
    expected: 'fail',
  },
  {
    name: 'postgres markFailOnEmpty',
    needs: 'postgres',
    yaml: (e) => sql('postgres', pgUrl(e), '      query: SELECT 1 WHERE false\n      markFailOnEmpty: true\n'),
    expected: 'fail',
  },
  {
    name: 'postgres results in test',
    needs: 'postgres',
    yaml: (e) =>
      sql(
        'postgres',
        pgUrl(e),
        `      query: SELECT 'x' AS v\n${test("results.count == 1 && results.rows[0].v == 'x'")}`,
      ),
    expected: 'pass',
  },
  {
    name: 'postgres bad query fails',
    needs: 'postgres',
    yaml: (e) => sql('postgres', pgUrl(e), '      query: SELECT * FROM no_such_table_here\n'),
    expected: 'fail',
  },
  // folder: glob paths, counts, ages, sizes, filter, a path that does not exist (zero files, as canary-checker).
  { name: 'folder minCount 3', yaml: (e) => folder(`${e.dir}/logs`, '      minCount: 3\n'), expected: 'pass' },
  { name: 'folder maxCount 2 exceeded', yaml: (e) => folder(`${e.dir}/logs`, '      maxCount: 2\n'), expected: 'fail' },
  {
    name: 'folder glob *.log',
    yaml: (e) => folder(`${e.dir}/logs/*.log`, '      minCount: 2\n      maxCount: 2\n'),
    expected: 'pass',
  },
  {
    name: 'folder glob *',
    yaml: (e) => folder(`${e.dir}/logs/*`, '      minCount: 3\n      maxCount: 3\n'),
    expected: 'pass',
  },
  {
    name: 'folder glob **/*.log',
    yaml: (e) => folder(`${e.dir}/**/*.log`, '      minCount: 3\n      maxCount: 3\n'),
    expected: 'pass',
  },
  {
    name: 'folder glob dir/**',
    yaml: (e) => folder(`${e.dir}/logs/**`, '      minCount: 4\n      maxCount: 4\n'),
    expected: 'pass',
  },
  {
    name: 'folder glob without match',
    yaml: (e) => folder(`${e.dir}/logs/*.gz`, '      minCount: 1\n'),
    expected: 'fail',
  },
  {
    name: 'folder filter.regex',
    yaml: (e) =>
      folder(`${e.dir}/logs`, '      filter:\n        regex: "\\\\.log$"\n      minCount: 2\n      maxCount: 2\n'),
    expected: 'pass',
  },
  { name: 'folder maxAge exceeded', yaml: (e) => folder(`${e.dir}/logs`, '      maxAge: 1d\n'), expected: 'fail' },
  {
    name: 'folder maxAge with filter',
    yaml: (e) => folder(`${e.dir}/logs`, '      filter:\n        regex: "^b"\n      maxAge: 1d\n'),
    expected: 'pass',
  },
  { name: 'folder minAge not reached', yaml: (e) => folder(`${e.dir}/logs`, '      minAge: 1h\n'), expected: 'fail' },
  {
    name: 'folder minAge with filter',
    yaml: (e) => folder(`${e.dir}/logs`, '      filter:\n        regex: "^a"\n      minAge: 1d\n'),
    expected: 'pass',
  },
  { name: 'folder minSize not met', yaml: (e) => folder(`${e.dir}/logs`, '      minSize: 50\n'), expected: 'fail' },
  { name: 'folder maxSize exceeded', yaml: (e) => folder(`${e.dir}/logs`, '      maxSize: 1000\n'), expected: 'fail' },
  { name: 'folder maxSize met', yaml: (e) => folder(`${e.dir}/logs`, '      maxSize: 5KB\n'), expected: 'pass' },
  {
    name: 'folder filter.minSize',
    yaml: (e) => folder(`${e.dir}/logs`, '      filter:\n        minSize: 100\n      minCount: 2\n      maxCount: 2\n'),
    expected: 'pass',
  },
  {
    name: 'folder recursive',
    yaml: (e) => folder(e.dir, '      recursive: true\n      minCount: 4\n      maxCount: 4\n'),
    expected: 'pass',
  },
  {
    name: 'folder results in test',
    yaml: (e) => folder(`${e.dir}/logs/*.log`, test('results.count == 2 && size(results.files) == 2')),
    expected: 'pass',
  },
  {
    // canary-checker binds the folder's files only under results (nothing at the top level).
    name: 'folder results.files and results.count in test',
    yaml: (e) => folder(`${e.dir}/logs`, test("results.count == 3 && results.files.exists(f, f.name == 'c.txt')")),
    expected: 'pass',
  },
  {
    name: 'folder missing path passes',
    yaml: (e) => folder(`${e.dir}/nope`, '      maxCount: 10\n'),
    expected: 'pass',
  },
  {
    name: 'folder missing path with minCount',
    yaml: (e) => folder(`${e.dir}/nope`, '      minCount: 1\n'),
    expected: 'fail',
  },
  {
    name: 'folder empty with minCount',
    yaml: (e) => folder(`${e.dir}/empty`, '      minCount: 1\n'),
    expected: 'fail',
  },
  {
    name: 'folder empty with maxCount 0',
    yaml: (e) => folder(`${e.dir}/empty`, '      maxCount: 0\n'),
    expected: 'pass',
  },
  // dependsOn/outputs, apply-time refusals, transform, metrics[], common variables, TLS.
  ...depsCases,
  // CEL extension functions (strings, collections, math, data, time, matchQuery, k8s, fold, ...) and
  // scripts refused at apply (CEL syntax, unknown functions, templates, JavaScript).
  ...celCases,
  ...celRefusals.map((r) => ({
    name: `refused: ${r.name}`,
    yaml: () => r.yaml,
    expected: 'refused' as const,
    refusedAt: r.path,
  })),
];

describe('canary-checker compatibility', () => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let server: CompatServer;
  let tls: TlsServer;
  let env: Env;
  let asExpected = 0;
  let counted = 0;

  beforeAll(async () => {
    server = await startCompatServer();
    tls = await startTlsServer(30);
    test = await openTestDatabase('pglite');
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'canary-compat-'));
    await makeFiles(dir);
    await makeDepsFiles(dir);
    env = {
      url: server.url,
      dir,
      mysql: dbParts(process.env.TEST_MYSQL_URL),
      postgres: dbParts(process.env.TEST_DATABASE_URL),
      tls: { url: tls.url, cert: tls.cert },
    };
  });

  afterAll(async () => {
    console.log(`canary compatibility: ${asExpected}/${counted} as expected`);
    await app?.close();
    await test?.close();
    await server?.close();
    await tls?.close();
    if (env?.dir) await rm(env.dir, { recursive: true, force: true });
    if (env?.dir) await rm(`${env.dir}-junit`, { recursive: true, force: true });
  });

  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${app.url}${p}`, { ...init, headers: { ...admin.headers, ...(init.headers as Record<string, string>) } });

  /** Runs every check of the canary (as its schedule would) and reads the named check's result. */
  const runWhole = async (canary: string, judge: string) => {
    const { rows: ids } = await test.db.query<{ id: string }>(`SELECT id FROM canaries WHERE name = $1`, [canary]);
    expect(await app.ctx.health.runNow(ids[0]!.id)).toBeUndefined();
    const { rows } = await test.db.query<{ status: boolean; error: string | null; message: string | null }>(
      `SELECT s.status, s.error, s.message FROM check_statuses s JOIN checks c ON c.id = s.check_id
        WHERE c.canary_id = $1 AND c.name = $2 AND c.deleted_at IS NULL ORDER BY s.time DESC LIMIT 1`,
      [ids[0]!.id, judge],
    );
    expect(rows, `no result for ${judge}`).toHaveLength(1);
    return { pass: rows[0]!.status, error: rows[0]!.error, message: rows[0]!.message };
  };

  it.each(cases.map((c, i) => [c.name, c, i] as const))('%s', async (_name, c, i) => {
    if (c.needs === 'mysql' && !process.env.TEST_MYSQL_URL) return;
    if (c.needs === 'postgres' && !process.env.TEST_DATABASE_URL) return;
    const yaml = `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata:\n  name: compat-${i}\nspec:\n  schedule: "@every 1h"\n${c.yaml(env)}`;
    const applied = await api('/api/canary', {
      method: 'POST',
      body: yaml,
      headers: { 'content-type': 'application/yaml' },
    });
    counted++;
    if (c.expected === 'refused') {
      const body = (await applied.json()) as { errors?: { path?: string; line?: number; column?: number }[] };
      expect(applied.status, `${JSON.stringify(body)}\n${yaml}`).toBe(400);
      expect(
        body.errors?.find((e) => e.path === c.refusedAt),
        JSON.stringify(body),
      ).toMatchObject({
        line: expect.any(Number),
        column: expect.any(Number),
      });
      asExpected++;
      return;
    }
    expect(applied.status, `${await applied.clone().text()}\n${yaml}`).toBe(201);
    if (c.judge) {
      const got = await runWhole(`compat-${i}`, c.judge);
      expect(got.pass ? 'pass' : 'fail', `${c.name}: ${got.error ?? got.message ?? ''}\n${yaml}`).toBe(c.expected);
      asExpected++;
      return;
    }
    const { rows } = await test.db.query<{ id: string }>(
      `SELECT c.id FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE k.name = $1 AND c.deleted_at IS NULL`,
      [`compat-${i}`],
    );
    expect(rows).toHaveLength(1);
    const run = await api(`/api/canary/run/check/${rows[0]!.id}`, { method: 'POST' });
    expect(run.status).toBe(200);
    const result = (await run.json()) as { pass: boolean; error?: string | null; message?: string | null };
    const got = result.pass ? 'pass' : 'fail';
    expect(got, `${c.name}: ${result.error ?? result.message ?? ''}\n${yaml}`).toBe(c.expected);
    asExpected++;
  });
});

/** host/port/user/password/db of a test database URL (empty when not configured). */
function dbParts(raw: string | undefined): Env['mysql'] {
  if (!raw) return { host: '', port: '', user: '', password: '', db: '' };
  const u = new URL(raw);
  return {
    host: u.hostname,
    port: u.port,
    user: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    db: u.pathname.replace(/^\//, ''),
  };
}

/** Files for the folder cases: dir/logs/{a,b,c}.log (old, recent), dir/logs/deep/x/y.log, dir/empty/. */
async function makeFiles(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'logs', 'deep', 'x'), { recursive: true });
  await mkdir(path.join(dir, 'empty'), { recursive: true });
  const old = new Date(Date.now() - 3 * 86_400_000);
  for (const [name, size, mtime] of [
    ['a.log', 10, old],
    ['b.log', 2000, new Date()],
    ['c.txt', 100, new Date()],
  ] as const) {
    const f = path.join(dir, 'logs', name);
    await writeFile(f, 'x'.repeat(size));
    await utimes(f, mtime, mtime);
  }
  await writeFile(path.join(dir, 'logs', 'deep', 'x', 'y.log'), 'y'.repeat(50));
}
