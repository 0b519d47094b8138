// A Redis client for one round trip (the redis connection test and health check): one connect
// attempt with no retries or offline queue, bounded by the caller's timeout and abort signal.
import { Redis } from 'ioredis';

export interface RedisTarget {
  host: string;
  port: number;
  username?: string;
  password?: string;
  /** rediss:// */
  tls: boolean;
  insecureTls: boolean;
}

export interface RedisSession {
  client: Redis;
  /** Stops listening to the abort signal and drops the connection. */
  close(): void;
}

/** Connecting failed; `cause` is the socket or auth error ioredis reported, not its "Connection is closed.". */
export class RedisConnectError extends Error {
  constructor(override readonly cause: unknown) {
    super((cause as Error)?.message ?? String(cause));
  }
}

/**
 * Connects to db 0 (the caller SELECTs: ioredis only emits an event when its own SELECT fails, then
 * PINGs db 0). Returns the client and `close`, which the caller must call; a failed connect is a
 * RedisConnectError, or the original error when `signal` aborted it.
 */
export async function connectRedis(
  target: RedisTarget,
  ctx: { timeoutMs: number; signal: AbortSignal },
): Promise<RedisSession> {
  const client = new Redis({
    host: target.host,
    port: target.port,
    username: target.username,
    password: target.password,
    db: 0,
    tls: target.tls ? { rejectUnauthorized: !target.insecureTls } : undefined,
    lazyConnect: true,
    connectTimeout: ctx.timeoutMs,
    commandTimeout: ctx.timeoutMs,
    // One attempt: a test or a health check reports the failure instead of retrying it away.
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    enableReadyCheck: false,
  });
  let lastError: unknown;
  client.on('error', (e: unknown) => (lastError = e));
  const onAbort = () => client.disconnect();
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const close = () => {
    ctx.signal.removeEventListener('abort', onAbort);
    client.disconnect();
  };
  try {
    await client.connect();
  } catch (e) {
    close();
    if (ctx.signal.aborted) throw e;
    // ioredis rejects with "Connection is closed." after the socket error it already emitted.
    throw new RedisConnectError(lastError ?? e);
  }
  return { client, close };
}
