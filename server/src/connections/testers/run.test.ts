// Running a connection test: the answer's shape, the time limit even for a tester that ignores its
// signal, and secrets masked out of whatever a tester or client library says.
import { describe, expect, it } from 'vitest';
import type { ResolvedConnection } from '../resolve.js';
import { testerFor } from './index.js';
import { NOT_SUPPORTED, redact, runConnectionTest } from './run.js';
import { TestFailure, type ConnectionTester } from './tester.js';

const conn = (extra: Partial<ResolvedConnection> = {}): ResolvedConnection => ({
  name: 'c',
  type: 'http',
  url: 'http://db.internal:8080/x',
  username: 'app',
  password: 'p@ss word',
  certificate: null,
  insecureTls: false,
  properties: {},
  ...extra,
});

const tester = (test: ConnectionTester['test']): ConnectionTester => ({ types: ['http'], test });

describe('runConnectionTest', () => {
  it('answers ok with details and the time taken', async () => {
    const answer = await runConnectionTest(
      conn(),
      tester(async () => ({ details: 'GET answered 200' })),
    );
    expect(answer).toMatchObject({ status: 200, body: { message: 'ok', details: 'GET answered 200' } });
    expect(answer.body.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('answers 501 without a tester', async () => {
    expect(await runConnectionTest(conn(), undefined)).toEqual({
      status: 501,
      body: { error: NOT_SUPPORTED, message: NOT_SUPPORTED },
    });
  });

  it('gives up at the limit even when the tester ignores its signal, and aborts it', async () => {
    let aborted = false;
    const started = Date.now();
    const answer = await runConnectionTest(
      conn(),
      tester(async (_c, ctx) => {
        ctx.signal.addEventListener('abort', () => (aborted = true));
        return new Promise(() => undefined);
      }),
      200,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(answer).toMatchObject({
      status: 400,
      body: { error: 'timed out after 200 ms waiting for db.internal:8080' },
    });
    expect(aborted).toBe(true);
  });

  it('masks the secrets, plain and URL-encoded, in failures and details', async () => {
    const leaky = await runConnectionTest(
      conn(),
      tester(async () => {
        throw new TestFailure('refused http://app:p%40ss%20word@db.internal (p@ss word)');
      }),
    );
    expect(leaky.body).toMatchObject({ error: 'refused http://app:***@db.internal (***)' });
    const other = await runConnectionTest(
      conn({ certificate: '-----KEY-----' }),
      tester(async () => {
        throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', address: '10.0.0.1', port: 1 });
      }),
    );
    expect(other.body).toMatchObject({ error: 'connection refused: 10.0.0.1:1' });
    expect(redact('a -----KEY----- b', ['-----KEY-----'])).toBe('a *** b');
  });
});

describe('testerFor', () => {
  it('finds testers by any spelling of the type, none for PagerDuty', () => {
    expect(testerFor('postgresql')?.types).toEqual(['postgres']);
    expect(testerFor('SMTP')?.types).toEqual(['email']);
    expect(testerFor('pagerduty')).toBeUndefined();
    expect(testerFor('windows')?.types).toEqual(['smb']);
    expect(testerFor('nope')).toBeUndefined();
  });
});
