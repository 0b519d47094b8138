// What a person sees after pressing Test (spec/3 §8).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client';
import { fieldErrorsOf, isTestSuccess, TEST_FAILED, TEST_UNSUPPORTED, testFailureMessage } from './connectionTest';

const answer = (status: number, body: unknown) => new ApiError('x', status, undefined, undefined, body);

describe('connection test outcome', () => {
  it("succeeds only on a 200 whose message is 'ok'", () => {
    expect(isTestSuccess(200, { message: 'ok' })).toBe(true);
    expect(isTestSuccess(200, { message: 'degraded' })).toBe(false);
    expect(isTestSuccess(201, { message: 'ok' })).toBe(false);
    expect(isTestSuccess(200, undefined)).toBe(false);
  });

  it("shows a bad request's error, formatted when it is JSON", () => {
    expect(testFailureMessage(answer(400, { error: 'connection refused: 127.0.0.1:1', message: 'failed' }))).toBe(
      'connection refused: 127.0.0.1:1',
    );
    expect(testFailureMessage(answer(400, { error: { code: 28000, detail: 'no' } }))).toBe(
      '{\n  "code": 28000,\n  "detail": "no"\n}',
    );
    expect(testFailureMessage(answer(400, { error: '{"reason":"denied"}' }))).toBe('{\n  "reason": "denied"\n}');
  });

  it('says when a type cannot be tested', () => {
    expect(testFailureMessage(answer(501, { error: 'not implemented' }))).toBe(TEST_UNSUPPORTED);
  });

  it("otherwise shows the error text, or 'Testing connection failed!'", () => {
    expect(testFailureMessage(answer(404, { error: 'connection not found' }))).toBe('connection not found');
    expect(testFailureMessage(answer(500, undefined))).toBe(TEST_FAILED);
    expect(testFailureMessage(answer(502, '<html>bad gateway</html>'))).toBe(TEST_FAILED);
    expect(testFailureMessage(new ApiError('Request timed out. Please try again.', 0, 'TIMEOUT'))).toBe(
      'Request timed out. Please try again.',
    );
  });

  it("reads the fields of an invalid form's 400", () => {
    const invalid = answer(400, {
      code: 'INVALID_CONNECTION',
      message: 'invalid connection',
      details: [{ field: 'url', message: 'URL has no host' }, { bad: true }],
    });
    expect(fieldErrorsOf(invalid)).toEqual([{ field: 'url', message: 'URL has no host' }]);
    expect(fieldErrorsOf(answer(500, { details: [{ field: 'url', message: 'm' }] }))).toEqual([]);
  });
});
