// Retry backoff: duration × multiplier^(n-1), jitter within ±jitter %, capped; the loop's count.
import { describe, expect, it } from 'vitest';
import { MAX_RETRY_WAIT_MS, retrySchema, retryWaitMs, withRetries } from './retry.js';

describe('retry backoff', () => {
  it('waits duration × multiplier^(n-1) before retry n, constant without a multiplier', () => {
    const retry = { limit: 4, duration: '2s', exponent: { multiplier: 3 } };
    expect([1, 2, 3, 4].map((n) => retryWaitMs(retry, n))).toEqual([2_000, 6_000, 18_000, 54_000]);
    expect([1, 2, 3].map((n) => retryWaitMs({ limit: 3, duration: '500ms' }, n))).toEqual([500, 500, 500]);
    expect(retryWaitMs({ limit: 1 }, 1)).toBe(0);
    expect(retryWaitMs({ limit: 50, duration: '1m', exponent: { multiplier: 10 } }, 40)).toBe(MAX_RETRY_WAIT_MS);
  });

  it('spreads the wait by jitter percent either way', () => {
    const retry = { limit: 1, duration: '10s', jitter: 20 };
    expect(retryWaitMs(retry, 1, () => 0)).toBe(8_000);
    expect(retryWaitMs(retry, 1, () => 0.5)).toBe(10_000);
    expect(retryWaitMs(retry, 1, () => 0.999999)).toBe(12_000);
  });

  it('validates the spec as mission-control spells it', () => {
    expect(retrySchema.parse({ limit: 3, duration: '10s', exponent: { multiplier: 2 }, jitter: 10 })).toEqual({
      limit: 3,
      duration: '10s',
      exponent: { multiplier: 2 },
      jitter: 10,
    });
    expect(retrySchema.safeParse({ limit: 3, duration: 'soon' }).success).toBe(false);
    expect(retrySchema.safeParse({ limit: -1 }).success).toBe(false);
    expect(retrySchema.safeParse({ limit: 1, jitter: 101 }).success).toBe(false);
    expect(retrySchema.safeParse({ limit: 1, backoff: 2 }).error?.issues[0]?.message).toMatch(
      /backoff: not a retry field/,
    );
  });

  it('retries a failing attempt up to the limit, recording each retry with its wait', async () => {
    const waits: number[] = [];
    const recorded: [number, number, string][] = [];
    let calls = 0;
    const out = await withRetries(
      { limit: 3, duration: '1s', exponent: { multiplier: 2 } },
      0,
      async (wait) => {
        waits.push(wait);
        calls++;
        return calls < 3 ? { result: null, error: `failed ${calls}` } : { result: { ok: true } };
      },
      async (n, wait, error) => void recorded.push([n, wait, error]),
      () => false,
    );
    expect(out).toEqual({ result: { ok: true }, retries: 2 });
    expect(waits).toEqual([0, 1_000, 2_000]);
    expect(recorded).toEqual([
      [1, 1_000, 'failed 1'],
      [2, 2_000, 'failed 2'],
    ]);
    const exhausted = await withRetries(
      { limit: 2 },
      0,
      async () => ({ result: null, error: 'no' }),
      async () => undefined,
      () => false,
    );
    expect(exhausted).toEqual({ result: null, error: 'no', retries: 2 });
    const stopped = await withRetries(
      { limit: 5 },
      0,
      async () => ({ result: null, error: 'no' }),
      async () => undefined,
      () => true,
    );
    expect(stopped.retries).toBe(0);
  });
});
