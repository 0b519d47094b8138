// The redis checker against the real Redis server named by TEST_REDIS_URL (skipped when unset).
import { describe, expect, it } from 'vitest';
import { parseRedisAddress, redisChecker } from '../../src/health/checkers/redis.js';
import { testCheckContext } from '../helpers/checkContext.js';
import { closedPort } from './ports.js';

const url = process.env.TEST_REDIS_URL;
if (!url) console.warn('redis checker tests skipped: set TEST_REDIS_URL (e.g. redis://127.0.0.1:6379)');

function spec(fields: Record<string, unknown>) {
  return redisChecker.schema.parse({ name: 'redis', ...fields });
}

describe('redis spec', () => {
  it('parses addr and url forms', () => {
    expect(parseRedisAddress('cache:6380')).toEqual({ host: 'cache', port: 6380 });
    expect(parseRedisAddress('cache')).toEqual({ host: 'cache', port: 6379 });
    expect(parseRedisAddress('rediss://u:p%40@cache:6390/2')).toMatchObject({
      host: 'cache',
      port: 6390,
      username: 'u',
      password: 'p@',
      db: 2,
      tls: {},
    });
    expect(() => parseRedisAddress('redis://cache/x')).toThrow(/database must be a number/);
    expect(redisChecker.endpoint(spec({ url: 'redis://:secret@cache:6379' }))).toBe('redis://cache:6379');
  });

  it('is invalid without an address', async () => {
    expect(await redisChecker.run(spec({}), testCheckContext())).toMatchObject({
      pass: false,
      invalid: true,
      error: 'redis check needs addr, url or a connection',
    });
  });

  it('fails clearly on a closed port', async () => {
    const port = await closedPort();
    const r = await redisChecker.run(spec({ addr: `127.0.0.1:${port}` }), testCheckContext());
    expect(r).toMatchObject({ pass: false, error: `connection refused: 127.0.0.1:${port}` });
  });
});

describe.skipIf(!url)('redis against a real server', () => {
  const u = new URL(url ?? 'redis://127.0.0.1:6379');
  const addr = `${u.hostname}:${u.port || 6379}`;

  it('PING answers PONG via url', async () => {
    const r = await redisChecker.run(spec({ url }), testCheckContext());
    expect(r).toMatchObject({ pass: true, data: { result: 'PONG', db: 0 } });
  });

  it('PING answers PONG via the deprecated addr with a db', async () => {
    const r = await redisChecker.run(spec({ addr, db: 3 }), testCheckContext());
    expect(r).toMatchObject({ pass: true, message: `PONG from ${addr} (db 3)`, data: { db: 3 } });
  });

  it('resolves a connection', async () => {
    const ctx = testCheckContext({ connections: { cache: { type: 'redis', url: `redis://${addr}` } } });
    const r = await redisChecker.run(spec({ connection: 'connection://redis/cache' }), ctx);
    expect(r.pass).toBe(true);
  });

  it('a database out of range fails', async () => {
    const r = await redisChecker.run(spec({ addr, db: 100000 }), testCheckContext());
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/DB index is out of range/);
  });

  it('credentials the server rejects fail', async () => {
    const r = await redisChecker.run(
      spec({ addr, username: 'nobody', password: { value: 'wrong' } }),
      testCheckContext(),
    );
    expect(r.pass).toBe(false);
    expect(r.error).toMatch(/WRONGPASS|AUTH|invalid username-password/i);
  });
});
