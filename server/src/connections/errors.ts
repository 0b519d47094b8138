// Errors met while reaching other systems, worded for a person: network and client failures
// ("connection refused: host:port"), specs that cannot be run (SpecError), and racing a promise
// against an abort signal for clients that cannot be cancelled.

/** The message of an error (its name when it has none), or the thrown value as text. */
export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message || e.name;
  return String(e);
}

/** The spec cannot be run as written (reported as invalid rather than as a target failure). */
export class SpecError extends Error {
  override name = 'SpecError';
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
 * A Kubernetes API failure as a person reads it: the API server's message and status ("pods is
 * forbidden: ... (HTTP 403)"), the start of a body that is not JSON, or the lifted socket error.
 */
export function describeKubeError(e: unknown): string {
  const err = e as { code?: unknown; body?: unknown; message?: string };
  if (typeof err.code === 'number') {
    let message = '';
    try {
      const body =
        typeof err.body === 'string'
          ? (JSON.parse(err.body) as { message?: string })
          : (err.body as { message?: string } | undefined);
      message = body?.message ?? '';
    } catch {
      message = typeof err.body === 'string' ? err.body.slice(0, 200) : '';
    }
    return `${message || 'request failed'} (HTTP ${err.code})`;
  }
  const message = err.message ?? String(e);
  return liftSocketError(message) ?? message;
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

/** A network error worded for a person (http and socket checks, the http request), naming what was being reached ("connection refused: 127.0.0.1:1"). */
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
