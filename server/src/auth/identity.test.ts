import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sessionTokenFromCookie } from './identity.js';
import { tokenFromAuthorization } from './tokens.js';

const secret = 'test-secret';
const sign = (token: string) =>
  encodeURIComponent(`${token}.${crypto.createHmac('sha256', secret).update(token).digest('base64')}`);

describe('session cookies', () => {
  it('accepts a session token signed with the secret, under either cookie name', () => {
    expect(sessionTokenFromCookie(`a=b; opsdeck.session_token=${sign('abc123')}; c=d`, secret)).toBe('abc123');
    expect(sessionTokenFromCookie(`__Secure-opsdeck.session_token=${sign('xyz')}`, secret)).toBe('xyz');
  });

  it('refuses forged, truncated and foreign cookies', () => {
    const good = sign('abc123');
    expect(sessionTokenFromCookie(`opsdeck.session_token=${good.replace('abc123', 'abc124')}`, secret)).toBeUndefined();
    expect(sessionTokenFromCookie(`opsdeck.session_token=${sign('abc123')}`, 'other-secret')).toBeUndefined();
    expect(sessionTokenFromCookie('opsdeck.session_token=abc123', secret)).toBeUndefined();
    expect(sessionTokenFromCookie('opsdeck.session_token=%E0%A4%A', secret)).toBeUndefined();
    expect(sessionTokenFromCookie(`other.session_token=${good}`, secret)).toBeUndefined();
    expect(sessionTokenFromCookie(null, secret)).toBeUndefined();
  });
});

describe('access tokens in the Authorization header', () => {
  it('reads Bearer and Basic with the user "token" only', () => {
    expect(tokenFromAuthorization('Bearer odk_abc')).toBe('odk_abc');
    expect(tokenFromAuthorization(`Basic ${Buffer.from('token:odk_abc').toString('base64')}`)).toBe('odk_abc');
    expect(tokenFromAuthorization(`Basic ${Buffer.from('admin:odk_abc').toString('base64')}`)).toBeUndefined();
    expect(tokenFromAuthorization('Digest x')).toBeUndefined();
    expect(tokenFromAuthorization('Bearer')).toBeUndefined();
    expect(tokenFromAuthorization(undefined)).toBeUndefined();
  });
});
