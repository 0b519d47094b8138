// The `mysql` check (canary-checker): connects with `mysql2` (MySQL or MariaDB), runs `query` (default
// SELECT 1) and fails when `results` is set and fewer rows come back (canary-checker's rule). The url is a mysql:// URL or
// the Go driver DSN canary-checker files use (`user:pass@tcp(host:3306)/db?tls=skip-verify`).
// Data: `results` {rows, count}, every value as text (as canary-checker), NULL as null.
import mysql from 'mysql2/promise';
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
export type MysqlSpec = z.infer<typeof schema>;

export interface MysqlTarget {
  host: string;
  port: number;
  user?: string;
  password?: string;
  database?: string;
  socketPath?: string;
  /** undefined: plain; otherwise whether to verify the certificate. */
  tls?: { verify: boolean };
}

function tlsParam(value: string | null | undefined, insecure: boolean): MysqlTarget['tls'] {
  if (!value || value === 'false') return undefined;
  return { verify: !(value === 'skip-verify' || value === 'preferred' || insecure) };
}

/** Parses a mysql:// URL or a Go MySQL driver DSN (`[user[:pass]@][tcp[(host:port)]]/db[?params]`). */
export function parseMysqlUrl(url: string, insecureTls = false): MysqlTarget {
  if (/^(mysql|mariadb):\/\//i.test(url)) {
    const u = new URL(url.replace(/^mariadb:/i, 'mysql:'));
    return {
      host: u.hostname || 'localhost',
      port: u.port ? Number(u.port) : 3306,
      user: u.username ? decodeURIComponent(u.username) : undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      database: u.pathname.replace(/^\//, '') ? decodeURIComponent(u.pathname.slice(1)) : undefined,
      tls: tlsParam(u.searchParams.get('tls') ?? u.searchParams.get('ssl'), insecureTls),
    };
  }
  // Go DSN: the password may itself contain '@' and ':', so split on the last '@' before the address.
  const m = /^(?:(.*)@)?(?:(tcp|unix)(?:\(([^)]*)\))?)?\/([^?]*)(?:\?(.*))?$/.exec(url);
  if (!m)
    throw new SpecError(
      `url must be mysql://user:password@host:3306/db or user:password@tcp(host:3306)/db (got ${JSON.stringify(url)})`,
    );
  const [, auth, net, address, database, query] = m;
  const colon = auth?.indexOf(':') ?? -1;
  const params = new URLSearchParams(query ?? '');
  const target: MysqlTarget = {
    host: '127.0.0.1',
    port: 3306,
    user: auth === undefined ? undefined : colon >= 0 ? auth.slice(0, colon) : auth,
    password: auth !== undefined && colon >= 0 ? auth.slice(colon + 1) : undefined,
    database: database || undefined,
    tls: tlsParam(params.get('tls'), insecureTls),
  };
  if (net === 'unix') target.socketPath = address || '/tmp/mysql.sock';
  else if (address) {
    const hp = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(address);
    target.host = hp?.[1] || '127.0.0.1';
    if (hp?.[2]) target.port = Number(hp[2]);
  }
  return target;
}

async function run(spec: MysqlSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const resolved = await resolveTarget(spec, ctx);
      if (!resolved.url) return invalid('mysql check needs a url or a connection');
      const t = parseMysqlUrl(resolved.url, resolved.insecureTls);
      where = t.socketPath ?? `${t.host}:${t.port}`;
      let conn: mysql.Connection;
      try {
        conn = await mysql.createConnection({
          host: t.host,
          port: t.port,
          socketPath: t.socketPath,
          // Credentials given beside a url without them (username/password fields, or the connection's).
          user: t.user ?? resolved.username,
          password: t.password ?? resolved.password,
          database: t.database,
          ssl: t.tls ? { rejectUnauthorized: t.tls.verify } : undefined,
          connectTimeout: ctx.timeoutMs,
          // Every column as text, as canary-checker's database/sql scan into strings.
          typeCast: (field) => field.string(),
        });
      } catch (e) {
        if (ctx.signal.aborted) throw e;
        return fail(connectFailure(e, where));
      }
      conn.on('error', () => undefined);
      const onAbort = () => conn.destroy();
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const query = spec.query?.trim() ? spec.query : 'SELECT 1';
        let rows: Record<string, string | null>[];
        try {
          const [result] = await conn.query({ sql: query, timeout: ctx.timeoutMs });
          rows = Array.isArray(result) ? (result as Record<string, string | null>[]) : [];
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          return fail(`query failed: ${(e as Error).message}`);
        }
        const data = { results: { rows, count: rows.length } };
        if (spec.results !== undefined && rows.length < spec.results) {
          return fail(`expected at least ${plural(spec.results, 'row')}, got ${rows.length}`, data);
        }
        return { pass: true, message: `query returned ${plural(rows.length, 'row')}`, data };
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
        await conn.end().catch(() => conn.destroy());
      }
    },
  );
}

export const mysqlChecker: Checker<MysqlSpec> = {
  type: 'mysql',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default mysqlChecker;
