// Digest authentication against the published examples (RFC 2617 §3.5, MD5 with qop=auth) and challenge parsing.
import { describe, expect, it } from 'vitest';
import { digestAuthorization, parseDigestChallenge } from './digestAuth.js';

describe('digest authentication', () => {
  it('reads a challenge, with its qop choices and quoted fields', () => {
    const c = parseDigestChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    expect(c).toEqual({
      realm: 'testrealm@host.com',
      nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
      opaque: '5ccc069c403ebaf9f0171e9517f40e41',
      algorithm: 'MD5',
      qop: 'auth',
    });
    expect(parseDigestChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseDigestChallenge(undefined)).toBeUndefined();
  });

  it('answers the RFC 2617 example with its published response', () => {
    const c = parseDigestChallenge(
      'Digest realm="testrealm@host.com", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    )!;
    const header = digestAuthorization(c, 'Mufasa', 'Circle Of Life', 'GET', '/dir/index.html', '0a4f113b', 1);
    expect(header).toContain('response="6629fae49393a05397450978507c4ef1"');
    expect(header).toContain('nc=00000001');
    expect(header).toContain('opaque="5ccc069c403ebaf9f0171e9517f40e41"');
  });

  it('refuses an algorithm it does not speak, naming it', () => {
    const c = { realm: 'r', nonce: 'n', algorithm: 'SHA-1', qop: 'auth' as const };
    expect(() => digestAuthorization(c, 'u', 'p', 'GET', '/')).toThrow('algorithm SHA-1 is not supported');
  });
});
