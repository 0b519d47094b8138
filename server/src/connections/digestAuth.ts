// HTTP digest authentication (RFC 7616, and RFC 2617 servers that send no qop): reads a 401's
// `WWW-Authenticate: Digest ...` challenge and builds the Authorization header answering it, with
// MD5, SHA-256 (and their -sess variants), qop=auth or no qop. Used by connections/httpRequest.ts
// when a spec says `digest: true`.
import { createHash, randomBytes } from 'node:crypto';

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  algorithm: string;
  /** `auth` when the server offers it; undefined for an RFC 2069/2617 server without qop. */
  qop?: 'auth';
}

/** The digest challenge in a WWW-Authenticate header value, or undefined when it has none. */
export function parseDigestChallenge(header: string | undefined): DigestChallenge | undefined {
  if (!header) return undefined;
  const at = header.search(/\bDigest\s/i);
  if (at < 0) return undefined;
  const fields: Record<string, string> = {};
  for (const m of header.slice(at + 7).matchAll(/([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g)) {
    const key = m[1]!.toLowerCase();
    if (key in fields) break; // the next challenge's fields
    fields[key] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '');
  }
  if (!fields.nonce) return undefined;
  const qops = (fields.qop ?? '').split(',').map((q) => q.trim().toLowerCase());
  return {
    realm: fields.realm ?? '',
    nonce: fields.nonce,
    opaque: fields.opaque,
    algorithm: fields.algorithm || 'MD5',
    qop: qops.includes('auth') ? 'auth' : undefined,
  };
}

function hasher(algorithm: string): ((s: string) => string) | undefined {
  const base = algorithm.toUpperCase().replace(/-SESS$/, '');
  const name = base === 'MD5' ? 'md5' : base === 'SHA-256' ? 'sha256' : base === 'SHA-512-256' ? 'sha512-256' : '';
  if (!name) return undefined;
  return (s) => createHash(name).update(s).digest('hex');
}

const quoted = (s: string) => `"${s.replace(/["\\]/g, '\\$&')}"`;

/**
 * The Authorization header answering `challenge` for `method` on `uri` (path and query), or an Error
 * naming an algorithm this client does not speak.
 */
export function digestAuthorization(
  challenge: DigestChallenge,
  username: string,
  password: string,
  method: string,
  uri: string,
  cnonce = randomBytes(8).toString('hex'),
  nc = 1,
): string {
  const h = hasher(challenge.algorithm);
  if (!h) throw new Error(`digest authentication: algorithm ${challenge.algorithm} is not supported (MD5, SHA-256)`);
  const count = nc.toString(16).padStart(8, '0');
  let ha1 = h(`${username}:${challenge.realm}:${password}`);
  if (/-sess$/i.test(challenge.algorithm)) ha1 = h(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = h(`${method}:${uri}`);
  const response = challenge.qop
    ? h(`${ha1}:${challenge.nonce}:${count}:${cnonce}:${challenge.qop}:${ha2}`)
    : h(`${ha1}:${challenge.nonce}:${ha2}`);
  const parts = [
    `username=${quoted(username)}`,
    `realm=${quoted(challenge.realm)}`,
    `nonce=${quoted(challenge.nonce)}`,
    `uri=${quoted(uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quoted(response)}`,
  ];
  if (challenge.opaque !== undefined) parts.push(`opaque=${quoted(challenge.opaque)}`);
  if (challenge.qop) parts.push(`qop=${challenge.qop}`, `nc=${count}`, `cnonce=${quoted(cnonce)}`);
  return `Digest ${parts.join(', ')}`;
}
