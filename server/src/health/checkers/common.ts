// Pieces shared by the checkers: the fields every check accepts, results (fail/invalid), checker bodies
// guarded so nothing escapes `run`, deadlines that follow the check's abort signal, and network errors
// worded for a person. The connection plumbing itself lives in server/src/connections.
import { z } from 'zod';
import type { EnvValue } from '../../connections/envValue.js';
import { describeError, SpecError } from '../../connections/errors.js';
import { formatDuration } from '../../connections/duration.js';
import type { CheckContext, CheckResult } from '../checker.js';

// Checkers throw SpecError from the spec-reading code; re-exported so they keep importing it from here.
export { SpecError } from '../../connections/errors.js';

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
  metrics: z.array(z.unknown()).optional(),
  transformDeleteStrategy: z.string().optional(),
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

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
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

interface NodeError extends Error {
  code?: string;
  syscall?: string;
  hostname?: string;
  address?: string;
  port?: number;
}

const TLS_UNTRUSTED = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);

/** A network error worded for a person, naming what was being reached ("connection refused: 127.0.0.1:1"). */
export function describeNetworkError(e: unknown, target: string): string {
  const err = e as NodeError;
  const code = err?.code ?? '';
  const host = target.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
  switch (code) {
    case 'ECONNREFUSED':
      return `connection refused: ${target}`;
    case 'ENOTFOUND':
      return `host not found: ${err.hostname ?? host} (DNS has no address for it)`;
    case 'EAI_AGAIN':
      return `could not resolve ${err.hostname ?? host}: the DNS server did not answer (temporary failure)`;
    case 'ECONNRESET':
      return `connection reset by ${target}`;
    case 'EPIPE':
      return `connection closed by ${target} while sending`;
    case 'ETIMEDOUT':
      return `connection to ${target} timed out`;
    case 'EHOSTUNREACH':
      return `host unreachable: ${target} (no route to host)`;
    case 'ENETUNREACH':
      return `network unreachable: ${target}`;
    case 'EADDRNOTAVAIL':
      return `cannot connect to ${target}: address not available`;
    case 'CERT_HAS_EXPIRED':
      return `the TLS certificate of ${target} has expired`;
    case 'CERT_NOT_YET_VALID':
      return `the TLS certificate of ${target} is not valid yet`;
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the TLS certificate of ${target} does not cover the host name ${host} (${err.message})`;
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'EPROTO':
      return `TLS handshake with ${target} failed: is the port serving TLS? (${err.message})`;
    default:
      if (TLS_UNTRUSTED.has(code)) {
        return `the TLS certificate of ${target} is not trusted (${err.message}): add its CA as tlsConfig.ca, or set tlsConfig.insecureSkipVerify: true`;
      }
      if (code.startsWith('HPE_')) return `${target} sent an invalid HTTP response (${err.message})`;
      return `${target}: ${errorText(e)}`;
  }
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
