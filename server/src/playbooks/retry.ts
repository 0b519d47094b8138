// An action's `retry: {limit, duration, exponent: {multiplier}, jitter}` (mission-control's
// PlaybookActionRetry): its schema, the wait before each retry (pure), and the loop the runner puts
// around one action — a failed attempt is retried up to `limit` times (limit 3 = at most 4
// attempts), sleeping `duration × multiplier^(n-1)` (± jitter %) before retry n.
import { z } from 'zod';
import { isDuration, parseDuration } from '../connections/duration.js';
import type { Queryable } from '../db/database.js';

/** The longest a single wait may be, whatever the multiplier says. */
export const MAX_RETRY_WAIT_MS = 60 * 60_000;
export const MAX_RETRY_LIMIT = 100;

export const retrySchema = z.strictObject(
  {
    limit: z
      .number({ error: 'limit is required: how many times a failed action is tried again' })
      .int('limit must be a whole number')
      .min(0, 'limit must be 0 or more')
      .max(MAX_RETRY_LIMIT, `limit must be at most ${MAX_RETRY_LIMIT}`),
    duration: z
      .union([
        z.string(),
        z
          .number()
          .nonnegative()
          .transform((n) => `${n}s`),
      ])
      .refine((s) => isDuration(s), { message: 'not a duration (examples: 10s, 1m)' })
      .optional(),
    exponent: z
      .strictObject({ multiplier: z.number().min(0, 'multiplier must be 0 or more').max(100).optional() })
      .optional(),
    jitter: z
      .number()
      .min(0, 'jitter is a percentage: 0 to 100')
      .max(100, 'jitter is a percentage: 0 to 100')
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `${issue.keys.join(', ')}: not a retry field (limit, duration, exponent, jitter)`
        : undefined,
  },
);
export type RetrySpec = z.infer<typeof retrySchema>;

/**
 * The wait before retry `n` (1 for the first retry), in ms: duration × multiplier^(n-1), scaled by a
 * random factor in [1 - jitter%, 1 + jitter%]. No multiplier (or 1) keeps the wait constant; `random`
 * is injectable for tests.
 */
export function retryWaitMs(retry: RetrySpec, n: number, random: () => number = Math.random): number {
  const base = retry.duration ? parseDuration(retry.duration) : 0;
  const multiplier = retry.exponent?.multiplier ?? 1;
  const exponential = base * Math.pow(multiplier, Math.max(0, n - 1));
  const jitter = (retry.jitter ?? 0) / 100;
  const factor = 1 + (random() * 2 - 1) * jitter;
  return Math.round(Math.min(MAX_RETRY_WAIT_MS, Math.max(0, exponential * factor)));
}

export interface AttemptOutcome {
  result: Record<string, unknown> | null;
  error?: string;
}

/**
 * Runs `attempt` (given the wait before it: the action's delay first, then the backoff) until it
 * succeeds, the retries are used up or `stopped()` says the run is over. `beforeRetry` records the
 * retry (count, wait, the error that caused it) before the wait starts.
 */
export async function withRetries(
  retry: RetrySpec | undefined,
  firstDelayMs: number,
  attempt: (waitMs: number) => Promise<AttemptOutcome>,
  beforeRetry: (n: number, waitMs: number, error: string) => Promise<void>,
  stopped: () => boolean,
): Promise<AttemptOutcome & { retries: number }> {
  let outcome = await attempt(firstDelayMs);
  let n = 0;
  while (outcome.error !== undefined && retry && n < retry.limit && !stopped()) {
    n++;
    const wait = retryWaitMs(retry, n);
    await beforeRetry(n, wait, outcome.error);
    outcome = await attempt(wait);
  }
  return { ...outcome, retries: n };
}

/** Records retry `n` on the action row: its count, the error that caused it, sleeping while it waits. */
export async function recordRetry(db: Queryable, actionId: string, n: number, waitMs: number, error: string) {
  await db.query(
    `UPDATE playbook_run_actions SET retry_count = $2, error = $4,
       status = CASE WHEN $3::double precision > 0 THEN 'sleeping' ELSE 'running' END,
       scheduled_time = now() + make_interval(secs => $3::double precision / 1000)
     WHERE id = $1`,
    [actionId, n, waitMs, error],
  );
}
