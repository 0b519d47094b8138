// The server's logger: JSON lines on stdout (pino), the level from LOG_LEVEL, and the id of the HTTP
// request being served on every line written while serving it (AsyncLocalStorage, set by the
// request middleware in metrics/http.ts). Secrets never reach a line: credentials in headers
// and fields named like passwords or tokens are replaced by pino's redaction.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { pino, type DestinationStream, type Logger } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** What every line logged while serving one request carries. */
interface RequestScope {
  requestId: string;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/** Field paths whose values never appear in a log line. */
export const REDACTED_PATHS = [
  'authorization',
  'cookie',
  'password',
  'token',
  'secret',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'headers["x-api-key"]',
  '*.authorization',
  '*.cookie',
  '*.password',
  '*.token',
  '*.secret',
  '*.clientSecret',
  '*.client_secret',
  '*.headers.authorization',
  '*.headers.cookie',
];

function initialLevel(): LogLevel {
  const raw = process.env.LOG_LEVEL;
  // config.ts refuses a bad LOG_LEVEL at start with a message; until then, info.
  return raw === 'debug' || raw === 'info' || raw === 'warn' || raw === 'error' ? raw : 'info';
}

/** A logger with the server's format, level and redaction, writing to `destination`. */
export function createLogger(level: LogLevel, destination: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Level names rather than numbers: `"level":"info"` reads better and filters the same.
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin() {
        const scope = requestScope.getStore();
        return scope ? { request_id: scope.requestId } : {};
      },
    },
    destination,
  );
}

// process.stdout: written as they come on Linux (files and pipes are synchronous there), so the last
// lines before process.exit are not lost, and what tests capture of stdout includes the log.
export const log: Logger = createLogger(initialLevel(), process.stdout);

/** A logger whose lines name the part of the server that wrote them (`"component":"health"`). */
export const logger = (component: string): Logger => log.child({ component });

export function setLogLevel(level: LogLevel): void {
  log.level = level;
}

/** Runs fn with `requestId` on every line it (and what it awaits) logs. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return requestScope.run({ requestId }, fn);
}

/** The id of the request being served here, if any. */
export const currentRequestId = (): string | undefined => requestScope.getStore()?.requestId;

/** An X-Request-Id worth echoing: printable, short; anything else is replaced by a fresh id. */
export function requestIdFrom(header: string | undefined | null): string {
  return header && /^[\w.:@/+=-]{1,128}$/.test(header) ? header : randomUUID();
}

/** The message of something thrown, for a log line. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
