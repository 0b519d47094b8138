// Pieces shared by the checkers: the fields every check accepts, results (fail/invalid), checker bodies
// guarded so nothing escapes `run`, deadlines that follow the check's abort signal, and network errors
// worded for a person. The connection plumbing itself lives in server/src/connections.
import { z } from 'zod';
import type { EnvValue } from '../../connections/envValue.js';
import { describeError, errorText, SpecError } from '../../connections/errors.js';
import { formatDuration } from '../../connections/duration.js';
import type { CheckContext, CheckResult } from '../checker.js';
import { metricSpecSchema } from '../customMetrics.js';

// Checkers throw SpecError from the spec-reading code and word errors with these; they live in the
// connection plumbing (connections/errors.ts) and are re-exported so checkers keep importing them from here.
export { describeNetworkError, errorText, SpecError } from '../../connections/errors.js';

const scriptSchema = z.looseObject({
  expr: z.string().optional(),
  template: z.string().optional(),
  javascript: z.string().optional(),
  jsonPath: z.string().optional(),
});

/** Fields every check type accepts (canary-checker's Description + Templatable), kept loosely. */
export const commonFields = {
  name: z.string({ error: 'name is required' }).min(1, 'name is required'),
  description: z.string().optional(),
  icon: z.string().optional(),
  labels: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  // canary-checker once took a resource selector here; a plain string is what it means today.
  namespace: z.union([z.string(), z.looseObject({})]).optional(),
  owner: z.string().optional(),
  severity: z.string().optional(),
  test: scriptSchema.optional(),
  display: scriptSchema.optional(),
  transform: scriptSchema.optional(),
  /** canary-checker's custom metrics, exported on /metrics (health/customMetrics.ts). */
  metrics: z.array(metricSpecSchema).optional(),
  /** Names of checks of the same canary that run first; their results are `outputs` (health/dependsOn.ts). */
  dependsOn: z.array(z.string().min(1, 'a dependsOn entry is the name of a check')).optional(),
  transformDeleteStrategy: z.string().optional(),
  /** canary-checker: a check whose query/search finds nothing fails (SQL checks honour it). */
  markFailOnEmpty: z.boolean().optional(),
};

/** Resolves one EnvValue, turning a reference that cannot be resolved into an Error naming the field. */
export async function resolveValue(
  ctx: CheckContext,
  value: EnvValue | undefined,
  field: string,
): Promise<string | undefined> {
  try {
    return await ctx.resolve(value);
  } catch (e) {
    throw new SpecError(`${field}: ${errorText(e)}`);
  }
}

/** A failed result; `invalid` when the spec itself is at fault. */
export function fail(error: string, data: Record<string, unknown> = {}, extra: Partial<CheckResult> = {}): CheckResult {
  return { pass: false, error, data, ...extra };
}

export function invalid(error: string, data: Record<string, unknown> = {}): CheckResult {
  return { pass: false, invalid: true, error, data };
}

/** Why `signal` aborted, for a person: "timed out after 30 s" or "the check was cancelled". */
export function abortMessage(signal: AbortSignal, ctx: CheckContext): string {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && /^timed out/i.test(reason.message)) return reason.message;
  if (reason instanceof Error && reason.name === 'TimeoutError')
    return `timed out after ${formatDuration(ctx.timeoutMs)}`;
  return 'the check was cancelled before it finished';
}

/**
 * A signal that aborts with ctx.signal or after `ms` (when given), whichever comes first; the
 * timeout's reason says "timed out after <ms>" so abortMessage can word it.
 */
export function deadline(ctx: CheckContext, ms?: number): AbortSignal {
  if (ms === undefined || !(ms > 0)) return ctx.signal;
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(new Error(`timed out after ${formatDuration(ms)}`)), ms);
  timer.unref?.();
  const signal = AbortSignal.any([ctx.signal, own.signal]);
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  return signal;
}

/**
 * Runs a checker body so nothing escapes `run`: SpecError becomes invalid, anything else a failure
 * described by `describeError`; an aborted signal is reported as a timeout.
 */
export async function guarded(
  ctx: CheckContext,
  target: () => string,
  body: () => Promise<CheckResult>,
): Promise<CheckResult> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof SpecError) return invalid(e.message);
    if (ctx.signal.aborted)
      return fail(`timed out after ${ctx.timeoutMs} ms${target() ? ` waiting for ${target()}` : ''}`);
    return fail(describeError(e, target() || undefined));
  }
}

/** A number of things with its noun: "1 row", "2 rows". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}
