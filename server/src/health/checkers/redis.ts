// The `redis` check (canary-checker): connects with `ioredis` to `addr` (host:port, deprecated) or `url`
// (redis:// / rediss:// or host:port) or a connection, selects `db`, authenticates with
// username/password, and expects PING to answer PONG. Data: `result` (the PING reply), `db`.
import type { RedisOptions } from 'ioredis';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid } from './common.js';
import { connectFailure, SpecError } from '../../connections/errors.js';
import { connectRedis, RedisConnectError, type RedisSession } from '../../connections/redisClient.js';
import { connectionFields, resolveTarget, sanitizeUrl } from '../../connections/resolve.js';

const schema = z.looseObject({
  ...commonFields,
  ...connectionFields,
  addr: z.string().optional(),
  db: z.number().int().nonnegative().optional(),
});
export type RedisSpec = z.infer<typeof schema>;

/** Host, port and URL-carried options from `redis://[user:pass@]host:port[/db]` or `host:port`. */
export function parseRedisAddress(address: string): RedisOptions & { host: string; port: number } {
  if (/^rediss?:\/\//i.test(address)) {
    const u = new URL(address);
    const db = u.pathname.replace(/^\//, '');
    if (db && !/^\d+$/.test(db)) throw new SpecError(`redis url database must be a number (got "${db}")`);
    return {
      host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
      port: u.port ? Number(u.port) : 6379,
      username: u.username ? decodeURIComponent(u.username) : undefined,
      password: u.password ? decodeURIComponent(u.password) : undefined,
      db: db ? Number(db) : undefined,
      tls: u.protocol === 'rediss:' ? {} : undefined,
    };
  }
  const m = /^\[?([^\]\s/]*?)\]?(?::(\d+))?$/.exec(address.trim());
  if (!m || !m[1])
    throw new SpecError(`redis address must be host:port or redis://host:port (got ${JSON.stringify(address)})`);
  return { host: m[1], port: m[2] ? Number(m[2]) : 6379 };
}

function endpoint(spec: RedisSpec): string {
  return spec.addr || (spec.url ? sanitizeUrl(spec.url) : '') || spec.connection || '';
}

async function run(spec: RedisSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = endpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const resolved = await resolveTarget(spec, ctx);
      const address = spec.addr || resolved.url;
      if (!address) return invalid('redis check needs addr, url or a connection');
      const opts = parseRedisAddress(address);
      where = `${opts.host}:${opts.port}`;
      const db = spec.db ?? opts.db ?? 0;
      let redis: RedisSession;
      try {
        redis = await connectRedis(
          {
            host: opts.host,
            port: opts.port,
            username: resolved.username ?? opts.username,
            password: resolved.password ?? opts.password,
            tls: !!opts.tls,
            insecureTls: resolved.insecureTls,
          },
          ctx,
        );
      } catch (e) {
        if (e instanceof RedisConnectError) return fail(connectFailure(e.cause, where));
        throw e;
      }
      const { client } = redis;
      try {
        let reply: string;
        try {
          if (db !== 0) await client.select(db);
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          return fail(`SELECT ${db} failed on ${where}: ${(e as Error).message}`);
        }
        try {
          reply = await client.ping();
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          return fail(`PING failed on ${where}: ${(e as Error).message}`);
        }
        const data = { result: reply, db };
        if (reply !== 'PONG') return fail(`expected PONG from ${where}, got ${reply}`, data);
        return { pass: true, message: `PONG from ${where} (db ${db})`, data };
      } finally {
        redis.close();
      }
    },
  );
}

export const redisChecker: Checker<RedisSpec> = {
  type: 'redis',
  schema,
  endpoint: (spec) => endpoint(spec) || spec.name,
  run,
};

export default redisChecker;
