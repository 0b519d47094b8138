// The postgres checker against the real PostgreSQL server named by TEST_DATABASE_URL (skipped when unset).
import { describe, expect, it } from 'vitest';
import { parseKeywordDsn } from '../../src/connections/sql.js';
import { postgresChecker } from '../../src/health/checkers/postgres.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort } from './ports.js';

const url = process.env.TEST_DATABASE_URL;
if (!url)
  console.warn('postgres checker tests skipped: set TEST_DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)');

function spec(fields: Record<string, unknown>) {
  return postgresChecker.schema.parse({ name: 'pg', ...fields });
}

describe('postgres spec', () => {
  it('accepts canary-checker fields and keeps unknown ones', () => {
    const s = spec({
      url: 'postgres://$(username):$(password)@db:5432/app',
      username: { value: 'u' },
      password: { valueFrom: { secretKeyRef: { name: 's', key: 'k' } } },
      query: 'SELECT 1',
      results: 1,
      test: { expr: 'results.count == 1' },
      extra: true,
    });
    expect(s.results).toBe(1);
    expect((s as Record<string, unknown>).extra).toBe(true);
    expect(postgresChecker.endpoint(s)).toBe('postgres://db:5432/app');
    expect(() => postgresChecker.schema.parse({ url: 'x' })).toThrow();
  });

  it('parses libpq keyword connection strings', () => {
    expect(parseKeywordDsn("host=db port=5433 user=app password='a b\\'c' dbname=prod sslmode=disable")).toMatchObject({
      host: 'db',
      port: 5433,
      user: 'app',
      password: "a b'c",
      database: 'prod',
      ssl: undefined,
    });
  });

  it('is invalid without a url or connection, and with an unknown connection', async () => {
    const none = await postgresChecker.run(spec({}), testCheckContext());
    expect(none).toMatchObject({ pass: false, invalid: true, error: 'postgres check needs a url or a connection' });
    const unknown = await postgresChecker.run(spec({ connection: 'connection://postgres/nope' }), testCheckContext());
    expect(unknown).toMatchObject({
      pass: false,
      invalid: true,
      error: 'connection connection://postgres/nope was not found',
    });
  });

  it('reports a refused connection with host and port', async () => {
    const port = await closedPort();
    const r = await postgresChecker.run(
      spec({ url: `postgres://postgres@127.0.0.1:${port}/test` }),
      testCheckContext(),
    );
    expect(r).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
    expect(r.invalid).toBeFalsy();
  });
});

describe.skipIf(!url)('postgres against a real server', () => {
  it('passes SELECT 1 by default', async () => {
    const r = await postgresChecker.run(spec({ url }), testCheckContext());
    expect(r).toMatchObject({
      pass: true,
      message: 'query returned 1 row',
      results: { count: 1, rows: [{ '?column?': '1' }] },
    });
  });

  it('exposes rows as text, nulls as null', async () => {
    const r = await postgresChecker.run(
      spec({
        url,
        query: "SELECT 42::int AS n, 'x' AS s, NULL AS z, true AS b FROM generate_series(1, 3)",
        results: 3,
      }),
      testCheckContext(),
    );
    expect(r.pass).toBe(true);
    expect(r.results).toEqual({ count: 3, rows: Array(3).fill({ n: '42', s: 'x', z: null, b: 't' }) });
  });

  it('fails when fewer rows than results come back, as canary-checker does', async () => {
    const r = await postgresChecker.run(spec({ url, query: 'SELECT 1', results: 2 }), testCheckContext());
    expect(r).toMatchObject({ pass: false, error: 'expected at least 2 rows, got 1', results: { count: 1 } });
    const more = await postgresChecker.run(
      spec({ url, query: 'SELECT generate_series(1, 3)', results: 2 }),
      testCheckContext(),
    );
    expect(more.pass).toBe(true);
  });

  it('fails with the server message for a bad query', async () => {
    const r = await postgresChecker.run(spec({ url, query: 'SELECT * FROM no_such_table_here' }), testCheckContext());
    expect(r).toMatchObject({ pass: false, error: 'query failed: relation "no_such_table_here" does not exist' });
  });

  it('resolves a connection and substitutes $(username) / $(password) (URL-encoded)', async () => {
    const u = new URL(url!);
    const ctx = testCheckContext({
      connections: {
        pg: {
          type: 'postgres',
          url: `postgres://$(username):$(password)@${u.host}${u.pathname}`,
          username: u.username || 'postgres',
          password: 'p@ss w/rd',
        },
      },
    });
    const r = await postgresChecker.run(
      spec({ connection: 'connection://postgres/pg', query: 'SELECT current_user AS who' }),
      ctx,
    );
    expect(r).toMatchObject({ pass: true, results: { rows: [{ who: u.username || 'postgres' }] } });
  });

  it('check username overrides the connection, and a refused login names the server', async () => {
    const u = new URL(url!);
    const ctx = testCheckContext({
      connections: { pg: { url: `postgres://$(username)@${u.host}${u.pathname}`, username: 'postgres' } },
    });
    const r = await postgresChecker.run(spec({ connection: 'pg', username: 'no_such_role_xyz' }), ctx);
    expect(r.pass).toBe(false);
    expect(r.error).toBe(`cannot connect to ${u.hostname}:${u.port || 5432}: role "no_such_role_xyz" does not exist`);
  });

  it('times out a slow query within the check timeout', async () => {
    const started = Date.now();
    const r = await postgresChecker.run(
      spec({ url, query: 'SELECT pg_sleep(10)' }),
      testCheckContext({ timeoutMs: 1000 }),
    );
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/timed out|timeout/i);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
