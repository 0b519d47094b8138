// Runs one connection Test: the type's tester under the time limit (15 s, aborted properly), its
// outcome as the API answers it (200 ok / 400 the cause / 501 not supported), and every secret of the
// connection masked out of what is said, whatever a client library put in its messages.
import { CONNECTION_TEST_UNSUPPORTED } from '@opsdeck/common';
import { describeError, SpecError } from '../errors.js';
import { sanitizeUrl, type ResolvedConnection } from '../resolve.js';
import { SqlError } from '../sql.js';
import { prop, TestFailure, type ConnectionTester } from './tester.js';

export const TEST_TIMEOUT_MS = 15_000;
export const NOT_SUPPORTED = CONNECTION_TEST_UNSUPPORTED;

export type TestAnswer =
  | { status: 200; body: { message: 'ok'; details: string; duration_ms: number } }
  | { status: 400 | 501; body: { error: string; message: string; duration_ms?: number } };

/** Where a connection points, for a timeout message: host:port of its URL or of its host property. */
function addressOf(conn: ResolvedConnection): string {
  const host = prop(conn, 'host');
  if (host) return `${host}${prop(conn, 'port') ? `:${prop(conn, 'port')}` : ''}`;
  if (conn.url) {
    try {
      const u = new URL(conn.url);
      if (u.host) return u.host;
    } catch {
      // not a URL: shown without credentials below
    }
    return sanitizeUrl(conn.url);
  }
  return conn.type;
}

/** Every way a secret of the connection could be written in a message. */
function secretsOf(conn: ResolvedConnection): string[] {
  const out = new Set<string>();
  for (const s of [conn.password, conn.certificate]) {
    if (!s || s.length < 3) continue;
    out.add(s);
    out.add(encodeURIComponent(s));
    out.add(Buffer.from(s).toString('base64'));
  }
  return [...out].sort((a, b) => b.length - a.length);
}

export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) out = out.split(s).join('***');
  return out;
}

/** The cause of a failed test in words: the tester's own, or the client error described. */
function causeOf(e: unknown, conn: ResolvedConnection, aborted: boolean, timeoutMs: number): string {
  if (aborted) return `timed out after ${timeoutMs} ms waiting for ${addressOf(conn)}`;
  if (e instanceof TestFailure || e instanceof SpecError || e instanceof SqlError) return e.message;
  return describeError(e, addressOf(conn));
}

/** Tests `conn` with `tester` (undefined: 501), within `timeoutMs`. Never throws for a remote failure. */
export async function runConnectionTest(
  conn: ResolvedConnection,
  tester: ConnectionTester | undefined,
  timeoutMs = TEST_TIMEOUT_MS,
): Promise<TestAnswer> {
  if (!tester) return { status: 501, body: { error: NOT_SUPPORTED, message: NOT_SUPPORTED } };
  const secrets = secretsOf(conn);
  const started = performance.now();
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // The answer comes at the limit even from a client that ignores the signal.
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${timeoutMs} ms`));
      reject(new Error('timed out'));
    }, timeoutMs);
  });
  try {
    const run = tester.test(conn, { signal: controller.signal, timeoutMs });
    run.catch(() => undefined);
    const { details } = await Promise.race([run, limit]);
    return {
      status: 200,
      body: { message: 'ok', details: redact(details, secrets), duration_ms: Math.round(performance.now() - started) },
    };
  } catch (e) {
    const cause = redact(causeOf(e, conn, controller.signal.aborted, timeoutMs), secrets);
    return {
      status: 400,
      body: { error: cause, message: cause, duration_ms: Math.round(performance.now() - started) },
    };
  } finally {
    clearTimeout(timer);
    if (!controller.signal.aborted) controller.abort(new Error('test finished'));
  }
}
