// The `postgres` check (canary-checker): connects with `pg`, runs `query` (default SELECT 1) and fails
// when `results` is set and fewer rows come back (canary-checker's rule). Data: `results` {rows, count}; values are the text
// PostgreSQL sends (as canary-checker scans every column into a string), NULL stays null.
import pg from 'pg';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid, plural } from './common.js';
import { connectFailure, SpecError } from '../../connections/errors.js';
import { connectionEndpoint, connectionFields, resolveTarget } from '../../connections/resolve.js';

const schema = z.looseObject({
  ...commonFields,
  ...connectionFields,
  query: z.string().optional(),
  results: z.number().int().nonnegative().optional(),
});
export type PostgresSpec = z.infer<typeof schema>;

/** Every column as PostgreSQL's text form: no Date/number conversions, exactly what canary-checker exposes. */
const textTypes = { getTypeParser: () => (value: string) => value };

/** Parses a libpq keyword DSN ("host=db port=5432 user=app password='x y' dbname=app sslmode=disable"). */
export function parseKeywordDsn(dsn: string): pg.ClientConfig {
  const out: Record<string, string> = {};
  const re = /\s*([a-zA-Z_]+)\s*=\s*(?:'((?:\\.|[^'\\])*)'|(\S*))/gy;
  let consumed = 0;
  for (let m = re.exec(dsn); m; m = re.exec(dsn)) {
    out[m[1]!.toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
    consumed = re.lastIndex;
  }
  if (dsn.slice(consumed).trim())
    throw new SpecError(`cannot parse the connection string near "${dsn.slice(consumed).trim().slice(0, 20)}"`);
  const sslmode = out.sslmode;
  return {
    host: out.host ?? out.hostaddr,
    port: out.port ? Number(out.port) : undefined,
    user: out.user,
    password: out.password,
    database: out.dbname,
    application_name: out.application_name,
    ssl:
      sslmode === undefined || sslmode === 'disable'
        ? undefined
        : { rejectUnauthorized: sslmode === 'verify-ca' || sslmode === 'verify-full' },
  };
}

function clientConfig(url: string, timeoutMs: number, insecureTls: boolean): pg.ClientConfig {
  const base: pg.ClientConfig = /^postgres(ql)?:\/\//i.test(url)
    ? { connectionString: url }
    : url.includes('=')
      ? parseKeywordDsn(url)
      : {};
  if (!base.connectionString && !base.host)
    throw new SpecError(
      `url must be postgres://user:password@host:5432/db or "host=... dbname=..." (got ${JSON.stringify(url)})`,
    );
  return {
    ...base,
    ...(insecureTls && base.connectionString && /sslmode=(require|prefer)/.test(url)
      ? { ssl: { rejectUnauthorized: false } }
      : {}),
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    statement_timeout: timeoutMs,
    application_name: base.application_name ?? 'opsdeck-check',
    types: textTypes,
  };
}

/** Where a pg config connects, for messages: host:port. */
function hostOf(cfg: pg.ClientConfig): string {
  if (cfg.connectionString) {
    try {
      const u = new URL(cfg.connectionString);
      return `${u.hostname || 'localhost'}:${u.port || 5432}`;
    } catch {
      return '';
    }
  }
  return `${cfg.host ?? 'localhost'}:${cfg.port ?? 5432}`;
}

async function run(spec: PostgresSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const target = await resolveTarget(spec, ctx);
      if (!target.url) return invalid('postgres check needs a url or a connection');
      const cfg = clientConfig(target.url, ctx.timeoutMs, target.insecureTls);
      where = hostOf(cfg) || where;
      const client = new pg.Client(cfg);
      // A server that drops the connection mid-check emits 'error' on the client; the query rejects too.
      client.on('error', () => undefined);
      const onAbort = () => void client.end().catch(() => undefined);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        try {
          await client.connect();
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          return fail(connectFailure(e, where));
        }
        const query = spec.query?.trim() ? spec.query : 'SELECT 1';
        let res: pg.QueryResult | pg.QueryResult[];
        try {
          res = (await client.query(query)) as pg.QueryResult | pg.QueryResult[];
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          return fail(`query failed: ${(e as Error).message}`);
        }
        // Several statements return one result each; the last one is the answer (as database/sql).
        const last = Array.isArray(res) ? res[res.length - 1] : res;
        const rows = (last?.rows ?? []) as Record<string, string | null>[];
        const data = { results: { rows, count: rows.length } };
        if (spec.results !== undefined && rows.length < spec.results) {
          return fail(`expected at least ${plural(spec.results, 'row')}, got ${rows.length}`, data);
        }
        return { pass: true, message: `query returned ${plural(rows.length, 'row')}`, data };
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
        await client.end().catch(() => undefined);
      }
    },
  );
}

export const postgresChecker: Checker<PostgresSpec> = {
  type: 'postgres',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default postgresChecker;
