// Identity flow errors (spec/3 §8) as the texts the identity pages show: server codes from
// docs/auth-api.md (and the names of spec/3) mapped to the spec's messages, else the server's own.
import { ApiError, GENERIC_ERROR_MESSAGE } from '../../api/client';
import { RETURN_TO_FORBIDDEN } from './returnTo';

export const FLOW_EXPIRED = 'Your interaction expired, please fill out the form again.';
export const FLOW_SECURITY_VIOLATION = 'A security violation was detected, please fill out the form again.';

const EXPIRED_CODES = new Set([
  'INVALID_TOKEN',
  'TOKEN_EXPIRED',
  'EXPIRED_TOKEN',
  'INVALID_TWO_FACTOR_COOKIE',
  'TWO_FACTOR_COOKIE_EXPIRED',
  'SELF_SERVICE_FLOW_EXPIRED',
]);
const SECURITY_CODES = new Set(['CSRF', 'INVALID_ORIGIN', 'SECURITY_CSRF_VIOLATION', 'MISSING_OR_NULL_ORIGIN']);

function normalise(code: string): string {
  return code
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_');
}

/** The message for a flow error code (as in ?error=… redirects), or undefined for unknown codes. */
export function flowMessageForCode(code: string | null | undefined): string | undefined {
  if (!code) return undefined;
  const c = normalise(code);
  if (EXPIRED_CODES.has(c) || c.endsWith('_EXPIRED')) return FLOW_EXPIRED;
  if (SECURITY_CODES.has(c)) return FLOW_SECURITY_VIOLATION;
  if (c === 'SELF_SERVICE_FLOW_RETURN_TO_FORBIDDEN') return RETURN_TO_FORBIDDEN;
  return undefined;
}

/** What an identity page says for a failed call. */
export function flowErrorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const mapped = flowMessageForCode(error.code);
    if (mapped) return mapped;
    if (error.status === 410) return FLOW_EXPIRED;
    if (error.status === 429) return 'Too many attempts. Please wait a moment and try again.';
    return error.message || GENERIC_ERROR_MESSAGE;
  }
  return error instanceof Error && error.message ? error.message : GENERIC_ERROR_MESSAGE;
}
