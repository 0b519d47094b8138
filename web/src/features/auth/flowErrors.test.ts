import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client';
import { FLOW_EXPIRED, FLOW_SECURITY_VIOLATION, flowErrorMessage, flowMessageForCode } from './flowErrors';
import { RETURN_TO_FORBIDDEN } from './returnTo';

describe('identity flow errors', () => {
  it('says the interaction expired for expired or invalid tokens', () => {
    expect(flowErrorMessage(new ApiError('Invalid token', 400, 'INVALID_TOKEN'))).toBe(FLOW_EXPIRED);
    expect(flowErrorMessage(new ApiError('gone', 410))).toBe(FLOW_EXPIRED);
    expect(flowMessageForCode('self_service_flow_expired')).toBe(FLOW_EXPIRED);
    expect(flowMessageForCode('invalid_token')).toBe(FLOW_EXPIRED);
    expect(FLOW_EXPIRED).toBe('Your interaction expired, please fill out the form again.');
  });

  it('reports a security violation for CSRF and origin refusals', () => {
    expect(flowErrorMessage(new ApiError('Forbidden', 403, 'CSRF'))).toBe(FLOW_SECURITY_VIOLATION);
    expect(flowMessageForCode('security_csrf_violation')).toBe(FLOW_SECURITY_VIOLATION);
    expect(FLOW_SECURITY_VIOLATION).toBe('A security violation was detected, please fill out the form again.');
  });

  it('maps a forbidden return_to', () => {
    expect(flowMessageForCode('self_service_flow_return_to_forbidden')).toBe(RETURN_TO_FORBIDDEN);
  });

  it("shows the server's message otherwise", () => {
    expect(flowErrorMessage(new ApiError('Invalid email or password', 401, 'INVALID_EMAIL_OR_PASSWORD'))).toBe(
      'Invalid email or password',
    );
    expect(flowErrorMessage(new Error('boom'))).toBe('boom');
    expect(flowErrorMessage(undefined)).toBe('An error occurred');
  });
});
