// SQL clients for a resolved target: PostgreSQL (`pg`) and MySQL/MariaDB (`mysql2`), reached by a
// URL or DSN as canary-checker files write them; one query run under a timeout and an abort signal,
// every value returned as the database's text (NULL as null). Used by the postgres/mysql checks and
// the playbook `sql` action.
import pg from 'pg';
import mysql from 'mysql2/promise';
import { connectFailure, SpecError } from './errors.js';

export type SqlDriver = 'postgres' | 'mysql';

/** One row, every column as text (as canary-checker's database/sql scan into strings), NULL as null. */
export type SqlRow = Record<string, string | null>;

/** What a query connects to: a resolved Target fits (the URL with credentials substituted). */
export interface SqlTarget {
  url: string;
  /** Used by MySQL when the URL carries no credentials. */
  username?: string;
  password?: string;
  insecureTls?: boolean;
}

export interface SqlQueryOptions {
  /** Connect, query and statement timeout. */
  timeoutMs: number;
  /** Aborting closes the connection; the error then thrown is the client's own. */
  signal: AbortSignal;
  /** What connect failures name when the URL does not say (e.g. the spec's connection). */
  where?: string;
}

/** The server refused or could not be reached (stage connect), or the query failed (stage query). */
export class SqlError extends Error {
  override name = 'SqlError';
  constructor(
    message: string,
    readonly stage: 'connect' | 'query',
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

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
  // `mysql://user:pass@tcp(host:3306)/db`: a Go DSN behind a URL scheme (credentials may be URL-encoded
  // by `$(password)` interpolation, so they are decoded).
  const prefixed = /^(?:mysql|mariadb):\/\/(?:(.*)@)?((?:tcp|unix)(?:\([^)]*\))?\/.*)$/is.exec(url);
  if (prefixed) {
    const auth = prefixed[1];
    const decode = (v: string) => {
      try {
        return decodeURIComponent(v);
      } catch {
        return v;
      }
    };
    const colon = auth?.indexOf(':') ?? -1;
    const user = auth === undefined ? undefined : decode(colon >= 0 ? auth.slice(0, colon) : auth);
    const pass = auth !== undefined && colon >= 0 ? decode(auth.slice(colon + 1)) : undefined;
    const t = parseMysqlUrl(prefixed[2]!, insecureTls);
    return { ...t, user, password: pass };
  }
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

/**
 * Where a query on `target` connects, for messages: host:port or a socket path ('' when the URL does
 * not say). Throws SpecError when the URL cannot be read.
 */
export function sqlEndpoint(driver: SqlDriver, target: SqlTarget): string {
  if (driver === 'postgres') return hostOf(clientConfig(target.url, 0, target.insecureTls ?? false));
  const t = parseMysqlUrl(target.url, target.insecureTls ?? false);
  return t.socketPath ?? `${t.host}:${t.port}`;
}

/**
 * Connects to `target`, runs `query` and returns its rows (with several statements, the last one's,
 * as database/sql). Throws SqlError worded for a person when the server cannot be reached or refuses
 * the query, SpecError when the URL cannot be read, and the client's own error once `signal` aborted.
 */
export function runSqlQuery(
  driver: SqlDriver,
  target: SqlTarget,
  query: string,
  opts: SqlQueryOptions,
): Promise<SqlRow[]> {
  return driver === 'postgres' ? queryPostgres(target, query, opts) : queryMysql(target, query, opts);
}

async function queryPostgres(target: SqlTarget, query: string, opts: SqlQueryOptions): Promise<SqlRow[]> {
  const { signal } = opts;
  const cfg = clientConfig(target.url, opts.timeoutMs, target.insecureTls ?? false);
  const where = hostOf(cfg) || opts.where || '';
  const client = new pg.Client(cfg);
  // A server that drops the connection mid-query emits 'error' on the client; the query rejects too.
  client.on('error', () => undefined);
  const onAbort = () => void client.end().catch(() => undefined);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    try {
      await client.connect();
    } catch (e) {
      if (signal.aborted) throw e;
      throw new SqlError(connectFailure(e, where), 'connect', { cause: e });
    }
    let res: pg.QueryResult | pg.QueryResult[];
    try {
      res = (await client.query(query)) as pg.QueryResult | pg.QueryResult[];
    } catch (e) {
      if (signal.aborted) throw e;
      throw new SqlError(`query failed: ${(e as Error).message}`, 'query', { cause: e });
    }
    // Several statements return one result each; the last one is the answer (as database/sql).
    const last = Array.isArray(res) ? res[res.length - 1] : res;
    return (last?.rows ?? []) as SqlRow[];
  } finally {
    signal.removeEventListener('abort', onAbort);
    await client.end().catch(() => undefined);
  }
}

async function queryMysql(target: SqlTarget, query: string, opts: SqlQueryOptions): Promise<SqlRow[]> {
  const { signal } = opts;
  const t = parseMysqlUrl(target.url, target.insecureTls ?? false);
  const where = t.socketPath ?? `${t.host}:${t.port}`;
  let conn: mysql.Connection;
  try {
    conn = await mysql.createConnection({
      host: t.host,
      port: t.port,
      socketPath: t.socketPath,
      // Credentials given beside a url without them (username/password fields, or the connection's).
      user: t.user ?? target.username,
      password: t.password ?? target.password,
      database: t.database,
      ssl: t.tls ? { rejectUnauthorized: t.tls.verify } : undefined,
      connectTimeout: opts.timeoutMs,
      // Every column as text, as canary-checker's database/sql scan into strings.
      typeCast: (field) => field.string(),
    });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new SqlError(connectFailure(e, where), 'connect', { cause: e });
  }
  conn.on('error', () => undefined);
  const onAbort = () => conn.destroy();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const [result] = await conn.query({ sql: query, timeout: opts.timeoutMs });
    return Array.isArray(result) ? (result as SqlRow[]) : [];
  } catch (e) {
    if (signal.aborted) throw e;
    throw new SqlError(`query failed: ${(e as Error).message}`, 'query', { cause: e });
  } finally {
    signal.removeEventListener('abort', onAbort);
    await conn.end().catch(() => conn.destroy());
  }
}
