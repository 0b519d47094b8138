// The mysql checker against the real MySQL/MariaDB server named by TEST_MYSQL_URL (skipped when unset).
import { describe, expect, it } from 'vitest';
import { parseMysqlUrl } from '../../src/connections/sql.js';
import { mysqlChecker } from '../../src/health/checkers/mysql.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort } from './ports.js';

const url = process.env.TEST_MYSQL_URL;
if (!url) console.warn('mysql checker tests skipped: set TEST_MYSQL_URL (e.g. mysql://root@127.0.0.1:3306/test)');

function spec(fields: Record<string, unknown>) {
  return mysqlChecker.schema.parse({ name: 'mysql', ...fields });
}

describe('mysql spec', () => {
  it('parses mysql:// URLs and Go driver DSNs as canary-checker files write them', () => {
    expect(parseMysqlUrl('mysql://root:p%40ss@db:3307/app')).toMatchObject({
      host: 'db',
      port: 3307,
      user: 'root',
      password: 'p@ss',
      database: 'app',
      tls: undefined,
    });
    expect(parseMysqlUrl('app:se:cr@t@tcp(mysql.svc:3306)/mysqldb?tls=skip-verify')).toMatchObject({
      host: 'mysql.svc',
      port: 3306,
      user: 'app',
      password: 'se:cr@t',
      database: 'mysqldb',
      tls: { verify: false },
    });
    expect(parseMysqlUrl('root@tcp([::1]:3310)/')).toMatchObject({
      host: '::1',
      port: 3310,
      user: 'root',
      database: undefined,
    });
    expect(parseMysqlUrl('u@unix(/run/mysqld.sock)/db')).toMatchObject({
      socketPath: '/run/mysqld.sock',
      database: 'db',
    });
    expect(() => parseMysqlUrl('db.example:3306')).toThrow(/url must be/);
  });

  it('a malformed url is invalid, a refused connection names host and port', async () => {
    const bad = await mysqlChecker.run(spec({ url: 'db.example:3306' }), testCheckContext());
    expect(bad).toMatchObject({ pass: false, invalid: true });
    const port = await closedPort();
    const r = await mysqlChecker.run(spec({ url: `root@tcp(127.0.0.1:${port})/test` }), testCheckContext());
    expect(r).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
  });
});

describe.skipIf(!url)('mysql against a real server', () => {
  it('passes SELECT 1 by default', async () => {
    const r = await mysqlChecker.run(spec({ url }), testCheckContext());
    expect(r).toMatchObject({
      pass: true,
      message: 'query returned 1 row',
      results: { count: 1, rows: [{ 1: '1' }] },
    });
  });

  it('exposes rows as text and checks the expected count', async () => {
    const q = "SELECT 7 AS n, 'x' AS s, NULL AS z FROM (SELECT 1 UNION ALL SELECT 2) t";
    const ok = await mysqlChecker.run(spec({ url, query: q, results: 2 }), testCheckContext());
    expect(ok).toMatchObject({
      pass: true,
      results: {
        count: 2,
        rows: [
          { n: '7', s: 'x', z: null },
          { n: '7', s: 'x', z: null },
        ],
      },
    });
    // canary-checker's rule: more rows than `results` pass, fewer fail.
    expect((await mysqlChecker.run(spec({ url, query: q, results: 1 }), testCheckContext())).pass).toBe(true);
    const bad = await mysqlChecker.run(spec({ url, query: q, results: 3 }), testCheckContext());
    expect(bad).toMatchObject({ pass: false, error: 'expected at least 3 rows, got 2' });
  });

  it('accepts the Go DSN form with $(username) / $(password) from the check', async () => {
    const u = new URL(url!);
    const dsn = `$(username):$(password)@tcp(${u.hostname}:${u.port || 3306})${u.pathname}`;
    const r = await mysqlChecker.run(
      spec({
        url: dsn,
        username: { value: decodeURIComponent(u.username) || 'root' },
        password: { value: decodeURIComponent(u.password) },
        query: 'SELECT DATABASE() AS db',
      }),
      testCheckContext(),
    );
    expect(r).toMatchObject({ pass: true, results: { rows: [{ db: u.pathname.slice(1) }] } });
  });

  it('fails with the server message for a bad query', async () => {
    const r = await mysqlChecker.run(spec({ url, query: 'SELECT * FROM no_such_table_here' }), testCheckContext());
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/^query failed: Table '.*no_such_table_here' doesn't exist$/);
  });

  it('a wrong password is a clear failure naming the server', async () => {
    const u = new URL(url!);
    u.password = 'definitely-wrong';
    const ctx = testCheckContext({ connections: { maria: { type: 'mysql', url: u.toString() } } });
    const r = await mysqlChecker.run(spec({ connection: 'connection://mysql/maria' }), ctx);
    expect(r.pass).toBe(false);
    expect(r.invalid).toBeFalsy();
    expect(r.error).toMatch(new RegExp(`^cannot connect to ${u.hostname}:${u.port || 3306}: Access denied for user`));
  });

  it('times out a slow query within the check timeout', async () => {
    const started = Date.now();
    const r = await mysqlChecker.run(spec({ url, query: 'SELECT SLEEP(10)' }), testCheckContext({ timeoutMs: 1000 }));
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/timed out|timeout/i);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
