// The `mongodb` check (canary-checker): connects with the `mongodb` driver to `url` or a connection
// (mongodb:// or mongodb+srv://, `$(username)`/`$(password)` substituted) and runs `ping` on admin.
// Server selection, connect and socket timeouts are bounded by the check's timeout.
import type { MongoClient } from 'mongodb';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { commonFields, fail, guarded, invalid } from './common.js';
import { connectFailure, liftSocketError } from '../../connections/errors.js';
import { connectionEndpoint, connectionFields, resolveTarget } from '../../connections/resolve.js';

const schema = z.looseObject({ ...commonFields, ...connectionFields });
export type MongodbSpec = z.infer<typeof schema>;

/** The hosts of a mongodb:// URL, for messages ("db1:27017,db2:27017"). */
export function mongoHosts(url: string): string {
  const m = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/?]+)/i.exec(url);
  return m?.[1] ?? '';
}

/** The driver reports "connect ECONNREFUSED 127.0.0.1:27017" inside a server selection error: lift it out. */
function describeMongoError(e: unknown, where: string): string {
  const message = e instanceof Error ? e.message : String(e);
  const lifted = liftSocketError(message);
  if (lifted) return lifted;
  if (e instanceof Error && e.name === 'MongoServerSelectionError')
    return `no MongoDB server reachable at ${where}: ${message}`;
  return connectFailure(e, where);
}

async function run(spec: MongodbSpec, ctx: CheckContext): Promise<CheckResult> {
  let where = connectionEndpoint(spec);
  return guarded(
    ctx,
    () => where,
    async () => {
      const target = await resolveTarget(spec, ctx);
      if (!target.url) return invalid('mongodb check needs a url or a connection');
      if (!/^mongodb(\+srv)?:\/\//i.test(target.url))
        return invalid(`url must start with mongodb:// or mongodb+srv:// (got ${where || 'a url without a scheme'})`);
      where = mongoHosts(target.url) || where;
      // Leave a little of the check's time to report the failure itself.
      const budget = Math.max(500, ctx.timeoutMs - 250);
      // The driver loads on the first mongodb check, not when the server starts.
      const { MongoClient: Client } = await import('mongodb');
      let client: MongoClient;
      try {
        client = new Client(target.url, {
          serverSelectionTimeoutMS: budget,
          connectTimeoutMS: budget,
          socketTimeoutMS: budget,
          ...(target.username && !/^mongodb(\+srv)?:\/\/[^/]*@/i.test(target.url)
            ? { auth: { username: target.username, password: target.password } }
            : {}),
          ...(target.insecureTls ? { tlsAllowInvalidCertificates: true, tlsAllowInvalidHostnames: true } : {}),
          appName: 'opsdeck-check',
        });
      } catch (e) {
        // The driver validates the URL and its options synchronously.
        return invalid(`url is not a valid MongoDB connection string: ${(e as Error).message}`);
      }
      const onAbort = () => void client.close(true).catch(() => undefined);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        try {
          await client.connect();
          const reply = await client.db('admin').command({ ping: 1 }, { timeoutMS: budget });
          return { pass: true, message: `ping ok on ${where}`, data: { ok: reply.ok === 1 } };
        } catch (e) {
          if (ctx.signal.aborted) throw e;
          return fail(describeMongoError(e, where));
        }
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
        await client.close(true).catch(() => undefined);
      }
    },
  );
}

export const mongodbChecker: Checker<MongodbSpec> = {
  type: 'mongodb',
  schema,
  endpoint: (spec) => connectionEndpoint(spec) || spec.name,
  run,
};

export default mongodbChecker;
