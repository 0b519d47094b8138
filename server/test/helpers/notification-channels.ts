// Shared setup of the notification channel tests: a loopback receiver per test file, the send
// context, a connection factory and an assertion that a send fails with a SenderError.
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import type { ResolvedConnection } from '../../src/connections/resolve.js';
import { SenderError, type SendContext } from '../../src/notifications/senders/index.js';
import { startHttpReceiver, type HttpReceiver } from './http-receiver.js';

/**
 * One receiver for the calling file's tests, started before them and closed after; before each
 * test its requests are cleared and it answers 200 with an empty JSON object.
 */
export function useHttpReceiver(): HttpReceiver {
  // Filled in by beforeAll: the receiver's methods are closures, so copying them is enough.
  const receiver = {} as HttpReceiver;
  beforeAll(async () => {
    Object.assign(receiver, await startHttpReceiver());
  });
  afterAll(() => receiver.close());
  beforeEach(() => {
    receiver.requests.length = 0;
    receiver.reply({ status: 200, body: {} });
  });
  return receiver;
}

export const sendContext = (timeoutMs = 5000): SendContext => ({
  signal: AbortSignal.timeout(timeoutMs),
  timeoutMs,
  smtp: { url: undefined, from: 'ops@example.com' },
});

/** A resolved connection of `type` with nothing set but what `c` gives. */
export const testConnection = (c: Partial<ResolvedConnection> & { type: string }): ResolvedConnection => ({
  name: `${c.type}-test`,
  url: null,
  username: null,
  password: null,
  certificate: null,
  insecureTls: false,
  properties: {},
  ...c,
});

/** The SenderError a send rejects with; fails the test when it resolves or throws something else. */
export async function sendFailure(p: Promise<unknown>): Promise<SenderError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SenderError);
    return e as SenderError;
  }
  throw new Error('expected the send to fail');
}
