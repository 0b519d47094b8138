// Tests of databases by a real round trip: PostgreSQL and MySQL/MariaDB `SELECT 1` (connections/sql.ts),
// Redis AUTH + SELECT + PING (ioredis), MongoDB `ping` (the official driver).
import { MongoClient } from 'mongodb';
import { abortable, connectFailure, describeError } from '../errors.js';
import { connectRedis, RedisConnectError } from '../redisClient.js';
import { interpolateCredentials, sanitizeUrl, type ResolvedConnection } from '../resolve.js';
import { runSqlQuery, sqlEndpoint, type SqlDriver } from '../sql.js';
import { prop, required, TestFailure, type ConnectionTester } from './tester.js';

/** The URL with $(username)/$(password) substituted; credentials added when a URL has none. */
function databaseUrl(conn: ResolvedConnection): string {
  const raw = interpolateCredentials(required(conn.url, 'URL'), conn.username ?? '', conn.password ?? '');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) || !conn.username) return raw;
  try {
    const u = new URL(raw);
    if (u.username) return raw;
    u.username = encodeURIComponent(conn.username);
    if (conn.password) u.password = encodeURIComponent(conn.password);
    return u.href;
  } catch {
    return raw;
  }
}

function sqlTester(driver: SqlDriver): ConnectionTester['test'] {
  return async (conn, ctx) => {
    const target = {
      url: databaseUrl(conn),
      username: conn.username ?? undefined,
      password: conn.password ?? undefined,
      insecureTls: conn.insecureTls,
    };
    let where: string;
    try {
      where = sqlEndpoint(driver, target);
    } catch (e) {
      throw new TestFailure((e as Error).message);
    }
    await runSqlQuery(driver, target, 'SELECT 1', { timeoutMs: ctx.timeoutMs, signal: ctx.signal, where });
    const db = /^[a-z]+:\/\/[^/]*\/([^?]+)/i.exec(target.url)?.[1];
    return { details: `SELECT 1 on ${where}${db ? `/${decodeURIComponent(db)}` : ''} answered` };
  };
}

export const postgresTester: ConnectionTester = { types: ['postgres'], test: sqlTester('postgres') };
export const mysqlTester: ConnectionTester = { types: ['mysql'], test: sqlTester('mysql') };

/** host, port, credentials, db and TLS of a redis:// / rediss:// URL or host:port. */
function redisAddress(conn: ResolvedConnection) {
  const raw = required(conn.url, 'URL').trim();
  if (/^rediss?:\/\//i.test(raw)) {
    const u = new URL(raw);
    return {
      host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: u.port ? Number(u.port) : 6379,
      username: u.username ? decodeURIComponent(u.username) : undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      db: u.pathname.replace(/^\//, ''),
      tls: u.protocol === 'rediss:',
    };
  }
  const m = /^\[?([^\]\s/]*?)\]?(?::(\d+))?$/.exec(raw);
  if (!m?.[1]) throw new TestFailure(`URL must be redis://host:port or host:port (got "${raw}")`);
  return { host: m[1], port: m[2] ? Number(m[2]) : 6379, username: undefined, password: undefined, db: '', tls: false };
}

export const redisTester: ConnectionTester = {
  types: ['redis'],
  async test(conn, ctx) {
    const addr = redisAddress(conn);
    const where = `${addr.host}:${addr.port}`;
    const dbText = prop(conn, 'db') || addr.db || '0';
    if (!/^\d+$/.test(dbText)) throw new TestFailure(`Database must be a number (got "${dbText}")`);
    const db = Number(dbText);
    const redis = await connectRedis(
      {
        host: addr.host,
        port: addr.port,
        username: conn.username || addr.username,
        password: conn.password || addr.password,
        tls: addr.tls,
        insecureTls: conn.insecureTls,
      },
      ctx,
    ).catch((e: unknown) => {
      if (!(e instanceof RedisConnectError)) throw e;
      const message = (e.cause as Error).message ?? '';
      if (/WRONGPASS|NOAUTH|invalid password|invalid username/i.test(message))
        throw new TestFailure(`Redis at ${where} refused the credentials: ${message}`);
      throw new TestFailure(connectFailure(e.cause, where));
    });
    const { client } = redis;
    try {
      if (db !== 0)
        await client.select(db).catch((e: Error) => {
          throw new TestFailure(`SELECT ${db} failed on ${where}: ${e.message}`);
        });
      const reply = await client.ping().catch((e: Error) => {
        if (ctx.signal.aborted) throw e;
        throw new TestFailure(`PING failed on ${where}: ${e.message}`);
      });
      if (reply !== 'PONG') throw new TestFailure(`expected PONG from ${where}, got ${reply}`);
      return { details: `PING on ${where} (db ${db}) answered PONG` };
    } finally {
      redis.close();
    }
  },
};

export const mongoTester: ConnectionTester = {
  types: ['mongo'],
  async test(conn, ctx) {
    const url = databaseUrl(conn);
    const where = sanitizeUrl(url);
    let client: MongoClient;
    try {
      client = new MongoClient(url, {
        serverSelectionTimeoutMS: ctx.timeoutMs,
        connectTimeoutMS: ctx.timeoutMs,
        socketTimeoutMS: ctx.timeoutMs,
        tlsAllowInvalidCertificates: conn.insecureTls || undefined,
      });
    } catch (e) {
      throw new TestFailure(`URL must be mongodb://host:27017 (${(e as Error).message})`);
    }
    const onAbort = () => void client.close(true).catch(() => undefined);
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    try {
      await abortable(ctx.signal, client.db('admin').command({ ping: 1 }));
      return { details: `ping on ${where} answered ok` };
    } catch (e) {
      if (ctx.signal.aborted) throw e;
      const err = e as Error & { reason?: { servers?: Map<string, { error?: unknown }> } };
      // Server selection failures keep the socket error per server.
      const inner = [...(err.reason?.servers?.values() ?? [])].map((s) => s.error).find(Boolean);
      if (/Authentication failed/i.test(err.message))
        throw new TestFailure(`MongoDB at ${where} refused the credentials: ${err.message}`);
      throw new TestFailure(inner ? describeError(inner, where) : connectFailure(e, where));
    } finally {
      ctx.signal.removeEventListener('abort', onAbort);
      await client.close(true).catch(() => undefined);
    }
  },
};
