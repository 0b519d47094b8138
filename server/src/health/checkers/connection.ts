// Shared by the connection-based checkers: the common check fields, EnvValue and connection fields as
// canary-checker spells them, resolving `connection` / `url` + `username`/`password` into one target
// (with `$(username)` / `$(password)` substituted), and turning failures into results people can act on.
import { z } from 'zod';
import type { CheckContext, CheckResult, EnvValue, ResolvedConnection } from '../checker.js';
import { envValueSchema, fail, invalid, SpecError } from './common.js';

// The common frame (fields, EnvValue, SpecError, fail/invalid) lives in common.ts, shared with the other
// checkers; re-exported so the connection-based checkers import from one place.
export { commonFields, envValueSchema, fail, invalid, SpecError } from './common.js';

/** canary-checker's inline `Connection`: a connection reference, or a URL and credentials. */
export const connectionFields = {
  connection: z.string().optional(),
  url: z.string().optional(),
  username: envValueSchema.optional(),
  password: envValueSchema.optional(),
};

/** The connection fields of a check spec, as parsed. */
export interface ConnectionSpec {
  connection?: string;
  url?: string;
  username?: EnvValue;
  password?: EnvValue;
}

/** Where a check connects to, after the connection and secrets are resolved. */
export interface Target {
  /** The URL with `$(username)` / `$(password)` substituted; '' when neither check nor connection gave one. */
  url: string;
  username?: string;
  password?: string;
  /** The stored connection, when the check referenced one. */
  connection?: ResolvedConnection;
  insecureTls: boolean;
  certificate?: string;
  properties: Record<string, string>;
}

/** Substitutes `$(username)` / `$(password)`; URL-encoded when the text is a URL, verbatim in a DSN. */
export function interpolateCredentials(url: string, username?: string, password?: string): string {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
  const enc = (v: string | undefined) => (isUrl ? encodeURIComponent(v ?? '') : (v ?? ''));
  return url.replaceAll('$(username)', enc(username)).replaceAll('$(password)', enc(password));
}

/** A URL fit for display and metric labels: credentials removed (canary-checker `SanitizeEndpoints`). */
export function sanitizeUrl(url: string): string {
  let out: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    // scheme://user:pass@host → scheme://host (the userinfo ends at the last '@' before the path).
    out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)(?:[^/?#]*@)/i, '$1');
  } else {
    // A DSN such as `user:pass@tcp(host)/db`: drop anything before the last `@` ahead of the address.
    out = url.replace(/^.*@(?=(?:tcp|unix)\(|\/)/s, '');
  }
  return out.replace(/password=([^;&\s]*)/gi, 'password=###');
}

/** What a connection-based check points at, for display: its URL without secrets, or its connection. */
export function connectionEndpoint(spec: ConnectionSpec): string {
  if (spec.url) return sanitizeUrl(spec.url);
  return spec.connection ?? '';
}

/**
 * Resolves a check's `connection` and/or `url` + `username`/`password`. The check's own values override
 * the connection's (as canary-checker does). A `connection` that is not `connection://...` and names no
 * stored connection is taken as the URL itself when it looks like one (older canary-checker SQL files).
 * Throws SpecError when a referenced connection does not exist or a secret cannot be resolved.
 */
export async function resolveTarget(spec: ConnectionSpec, ctx: CheckContext): Promise<Target> {
  let connection: ResolvedConnection | undefined;
  let legacyUrl: string | undefined;
  if (spec.connection) {
    connection = await ctx.connection(spec.connection);
    if (!connection) {
      const looksLikeUrl = /:\/\/|@|=/.test(spec.connection) && !spec.connection.startsWith('connection://');
      if (!looksLikeUrl) throw new SpecError(`connection ${spec.connection} was not found`);
      legacyUrl = spec.connection;
    }
  }
  let username: string | undefined;
  let password: string | undefined;
  try {
    username = (await ctx.resolve(spec.username)) || connection?.username || undefined;
    password = (await ctx.resolve(spec.password)) || connection?.password || undefined;
  } catch (e) {
    throw new SpecError(`credentials could not be resolved: ${errorMessage(e)}`);
  }
  const raw = spec.url || legacyUrl || connection?.url || '';
  return {
    url: interpolateCredentials(raw, username, password),
    username,
    password,
    connection,
    insecureTls: connection?.insecureTls ?? false,
    certificate: connection?.certificate ?? undefined,
    properties: connection?.properties ?? {},
  };
}

/** Resolves an EnvValue, turning an unresolvable reference into a SpecError naming the field. */
export async function resolveField(ctx: CheckContext, field: string, value: Parameters<CheckContext['resolve']>[0]) {
  try {
    return await ctx.resolve(value);
  } catch (e) {
    throw new SpecError(`${field} could not be resolved: ${errorMessage(e)}`);
  }
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface NodeNetError extends Error {
  code?: string;
  address?: string;
  port?: number;
  hostname?: string;
  errors?: unknown[];
  cause?: unknown;
}

/**
 * Turns a network or client error into one line a person can act on: "connection refused:
 * 127.0.0.1:5433", "host not found: db.example", "timed out after 5000 ms", else the error's message.
 * `target` (host:port or URL) names the far end when the error itself does not.
 */
export function describeError(err: unknown, target?: string): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as NodeNetError;
  // Node's happy-eyeballs connect reports each address tried in an AggregateError with no message.
  if (e.errors?.length && !e.code) return describeError(e.errors[0], target);
  if (e.errors?.length && e.code && !e.address) {
    const first = e.errors[0] as NodeNetError;
    if (first?.address) return describeError(first, target);
  }
  const where = e.address ? (e.port ? `${e.address}:${e.port}` : e.address) : target;
  const at = where ? `: ${where}` : '';
  switch (e.code) {
    case 'ECONNREFUSED':
      return `connection refused${at}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `host not found: ${e.hostname ?? where ?? 'unknown host'}`;
    case 'ETIMEDOUT':
    case 'ETIMEOUT':
      return `timed out connecting${at ? ` to ${where}` : ''}`;
    case 'ECONNRESET':
      return `connection reset by the server${at}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `host unreachable${at}`;
    case 'EPIPE':
      return `connection closed by the server${at}`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `TLS certificate rejected${at}: ${e.message} (set skipTLSVerify / insecure_tls to accept it)`;
  }
  if (e.name === 'AbortError' || e.name === 'TimeoutError')
    return e.message.startsWith('timed out') ? e.message : `timed out${at ? ` waiting for ${where}` : ''}`;
  if (e.cause instanceof Error && (!e.message || e.message === 'fetch failed')) return describeError(e.cause, target);
  return e.message || e.name;
}

/** A failure to connect or authenticate: network errors as `describeError`, server refusals prefixed with where. */
export function connectFailure(err: unknown, where: string): string {
  const described = describeError(err, where || undefined);
  const message = err instanceof Error ? err.message : String(err);
  return described === message && where ? `cannot connect to ${where}: ${message}` : described;
}

/**
 * Clients that wrap socket errors into their own text ("request to ... failed, reason: connect
 * ECONNREFUSED 127.0.0.1:6443"): lifts the cause out as "connection refused: 127.0.0.1:6443".
 */
export function liftSocketError(message: string): string | undefined {
  const refused = /ECONNREFUSED ([^\s,;)]+)/.exec(message);
  if (refused) return `connection refused: ${refused[1]}`;
  const notFound = /(?:ENOTFOUND|EAI_AGAIN) ([^\s,;)]+)/.exec(message);
  if (notFound) return `host not found: ${notFound[1]}`;
  const reset = /ECONNRESET/.test(message);
  if (reset) return 'connection reset by the server';
  return undefined;
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

/** Rejects when `signal` aborts, so a client without signal support cannot outlive the check's timeout. */
export function abortable<T>(signal: AbortSignal, promise: Promise<T>): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** A number of things with its noun: "1 row", "2 rows". */
export function plural(n: number, noun: string, nouns = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : nouns}`;
}
