// PostgREST-compatible errors: HTTP status plus the {code, message, details, hint} body.
import type { PgError } from '../db/database.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    readonly hint: string | null = null,
  ) {
    super(message);
  }

  /** Extra response headers (e.g. Content-Range on a 416). */
  headers: Record<string, string> = {};

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  body(): { code: string; details: unknown; hint: string | null; message: string } {
    return { code: this.code, details: this.details, hint: this.hint, message: this.message };
  }
}

/** A malformed query string (PGRST100), with the parser's position like PostgREST prints it. */
export function parseError(what: string, input: string, column: number, details: string): ApiError {
  return new ApiError(400, 'PGRST100', `"failed to parse ${what} (${input})" (line 1, column ${column})`, details);
}

/** The HTTP status PostgREST gives a PostgreSQL error, by SQLSTATE. */
export function statusForSqlState(code: string): number {
  if (code === '23503' || code === '23505') return 409;
  if (code === '25006') return 405;
  if (code === '42883' || code === '42P01') return 404;
  if (code === '42501') return 403;
  if (code === 'P0001') return 400;
  if (code === '57014') return 504; // statement timeout: the request took too long, not a server fault
  const cls = code.slice(0, 2);
  if (cls === '08' || cls === '53') return 503;
  if (cls === '54') return 413;
  // Object not in prerequisite state, lock not available, object in use: a conflict, not a server fault.
  if (cls === '55') return 409;
  if (cls === '0L' || cls === '0P' || cls === '28') return 403;
  if (['09', '25', '2D', '38', '39', '3B', '40', '57', '58', 'F0', 'HV', 'P0', 'XX'].includes(cls)) return 500;
  if (code === '42P17') return 500;
  return 400;
}

export function fromPgError(e: PgError & { code: string }): ApiError {
  return new ApiError(statusForSqlState(e.code), e.code, e.message, e.detail ?? null, e.hint ?? null);
}
