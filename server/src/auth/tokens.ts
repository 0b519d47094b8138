// Access tokens for scripts and agents: shown once, stored as a SHA-256 hash, presented as
// `Authorization: Bearer <token>` or HTTP Basic with user `token`.
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.js';

const PREFIX = 'odk_';

export function generateToken(): string {
  return PREFIX + crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** The token in an Authorization header (Bearer, or Basic with user "token"), if any. */
export function tokenFromAuthorization(header: string | undefined | null): string | undefined {
  if (!header) return undefined;
  const [scheme, value] = header.trim().split(/\s+/, 2);
  if (!scheme || !value) return undefined;
  if (scheme.toLowerCase() === 'bearer') return value;
  if (scheme.toLowerCase() === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon > 0 && decoded.slice(0, colon) === 'token') return decoded.slice(colon + 1);
  }
  return undefined;
}

export interface NewToken {
  name: string;
  personId: string;
  createdBy: string | null;
  expiresAt?: Date | null;
}

export async function createToken(db: Queryable, t: NewToken): Promise<{ id: string; token: string }> {
  const token = generateToken();
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO access_tokens (name, value, person_id, created_by, expires_at) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [t.name, hashToken(token), t.personId, t.createdBy, t.expiresAt ?? null],
  );
  return { id: rows[0]!.id, token };
}
