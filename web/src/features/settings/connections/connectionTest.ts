// What a connection test's answer means for the person who pressed Test (spec/3 §8): success is a 200
// with message 'ok'; a 400 shows the server's error (a JSON error formatted), a 501 says the type
// cannot be tested, anything else the error text or 'Testing connection failed!'.
import {
  CONNECTION_TEST_UNSUPPORTED,
  type ConnectionFieldError,
  type ConnectionTestResult,
} from '@opsdeck/common/connections';
import { ApiError } from '../../../api/client';

export const TEST_SUCCEEDED = 'Connection successful';
export const TEST_FAILED = 'Testing connection failed!';
export const TEST_UNSUPPORTED = CONNECTION_TEST_UNSUPPORTED;

export type TestOutcome = { ok: true; details?: string } | { ok: false; message: string };

export function isTestSuccess(status: number, body: ConnectionTestResult | undefined): boolean {
  return status === 200 && body?.message === 'ok';
}

/** Pretty-printed JSON when the text is a JSON object or array; the text itself otherwise. */
function formatJson(value: unknown): string {
  if (typeof value === 'string') {
    const text = value.trim();
    if (!/^[[{]/.test(text)) return value;
    try {
      return JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

function bodyOf(error: unknown): Record<string, unknown> {
  const body = error instanceof ApiError ? error.body : undefined;
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

/** The text to show for a failed test. */
export function testFailureMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error && error.message ? error.message : TEST_FAILED;
  if (error.status === 501) return TEST_UNSUPPORTED;
  const body = bodyOf(error);
  if (error.status === 400 && body.error !== undefined && body.error !== null && body.error !== '')
    return formatJson(body.error);
  if (nonEmpty(body.error)) return body.error;
  if (nonEmpty(body.message)) return body.message;
  // A transport failure (status 0) carries the client's message: timed out, network, offline.
  if (error.status === 0 && error.message) return error.message;
  return TEST_FAILED;
}

/** The per-field problems of a 400 (`details: [{field, message}]`), for messages under the fields. */
export function fieldErrorsOf(error: unknown): ConnectionFieldError[] {
  if (!(error instanceof ApiError) || error.status !== 400) return [];
  const details = bodyOf(error).details;
  if (!Array.isArray(details)) return [];
  return details.filter(
    (d): d is ConnectionFieldError =>
      !!d &&
      typeof d === 'object' &&
      nonEmpty((d as ConnectionFieldError).field) &&
      nonEmpty((d as ConnectionFieldError).message),
  );
}
