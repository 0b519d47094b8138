// Who is calling: the signed-in person (session cookie) or a token's person, with roles read fresh
// on every request (spec/1 §6: roles are never cached), and the features that are switched off.
import crypto from 'node:crypto';
import { disabledFeatures, effectiveRoles, type Feature, type Role } from '@opsdeck/common';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { createBetterAuth, sessionCookieNames, type BetterAuth } from './betterAuth.js';
import { createMailer, type Mailer } from './mailer.js';
import { hashToken, tokenFromAuthorization } from './tokens.js';

export interface Principal {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
  roles: Role[];
  via: 'session' | 'token';
  twoFactorEnabled: boolean;
}

export interface Identity {
  /** better-auth, loaded on first use. */
  auth(): Promise<BetterAuth>;
  mailer: Mailer;
  authenticate(headers: Headers): Promise<Principal | null>;
  /** Features switched off by properties; read at most every few seconds. */
  disabledFeatures(): Promise<Set<Feature>>;
  /** Forget the cached feature flags (after a write to properties). */
  featuresChanged(): void;
}

const FEATURE_CACHE_MS = 2_000;
const FEATURE_FLAGS_SQL = "SELECT name, value FROM properties WHERE name LIKE '%.disable'";
const TOKEN_USED_SQL = 'UPDATE access_tokens SET last_used_at = now() WHERE id = $1';

/** A value generated once and shared by every replica through the database. */
export async function serverSecret(db: Database, name: string): Promise<string> {
  await db.query('INSERT INTO server_settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    crypto.randomBytes(32).toString('base64url'),
  ]);
  const { rows } = await db.query<{ value: string }>('SELECT value FROM server_settings WHERE name = $1', [name]);
  return rows[0]!.value;
}

const PERSON_BY_TOKEN = `
SELECT p.id, p.name, p.email, p.avatar, p.two_factor_enabled, t.id AS token_id, t.last_used_at,
  coalesce(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
FROM access_tokens t
JOIN people p ON p.id = t.person_id
LEFT JOIN person_roles r ON r.person_id = p.id
WHERE t.value = $1 AND p.deleted_at IS NULL AND p.state = 'active' AND (t.expires_at IS NULL OR t.expires_at > now())
GROUP BY p.id, t.id`;

const PERSON_BY_SESSION = `
SELECT p.id, p.name, p.email, p.avatar, p.two_factor_enabled,
  coalesce(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
FROM auth_sessions s
JOIN people p ON p.id = s.person_id
LEFT JOIN person_roles r ON r.person_id = p.id
WHERE s.token = $1 AND s.expires_at > now() AND p.deleted_at IS NULL AND p.state = 'active'
GROUP BY p.id`;

/**
 * The session token from the signed session cookie ("token.signature", HMAC-SHA256 with the auth
 * secret, as better-auth writes it), or undefined when absent or forged.
 */
export function sessionTokenFromCookie(cookieHeader: string | null, secret: string): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || !sessionCookieNames.includes(part.slice(0, eq).trim())) continue;
    let value: string;
    try {
      value = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
    const dot = value.lastIndexOf('.');
    if (dot < 1) return undefined;
    const token = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1), 'base64');
    const expected = crypto.createHmac('sha256', secret).update(token).digest();
    return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? token : undefined;
  }
  return undefined;
}

/** Every statement this module runs per request: fixed text, values only as parameters. */
export const IDENTITY_STATEMENTS: readonly string[] = [
  PERSON_BY_TOKEN,
  PERSON_BY_SESSION,
  FEATURE_FLAGS_SQL,
  TOKEN_USED_SQL,
];

interface PersonRow {
  id: string;
  name: string;
  email: string | null;
  avatar: string | null;
  two_factor_enabled: boolean;
  roles: string[] | string;
  token_id?: string;
  last_used_at?: string | null;
}

function pgTextArray(v: string[] | string): string[] {
  return Array.isArray(v)
    ? v
    : v
        .replace(/^\{|\}$/g, '')
        .split(',')
        .filter(Boolean);
}

function toPrincipal(row: PersonRow, via: Principal['via']): Principal {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    avatar: row.avatar,
    roles: effectiveRoles(pgTextArray(row.roles)),
    via,
    twoFactorEnabled: row.two_factor_enabled,
  };
}

export async function createIdentity(config: Config, db: Database): Promise<Identity> {
  const secret = config.authSecret ?? (await serverSecret(db, 'auth_secret'));
  const mailer = createMailer(config.smtpUrl, config.smtpFrom);
  let auth: Promise<BetterAuth> | undefined;
  let features: { at: number; value: Promise<Set<Feature>> } | undefined;

  return {
    auth() {
      auth ??= createBetterAuth({ config, db, secret, mailer });
      return auth;
    },
    mailer,
    async authenticate(headers) {
      const token = tokenFromAuthorization(headers.get('authorization'));
      if (token) {
        const { rows } = await db.query<PersonRow>(PERSON_BY_TOKEN, [hashToken(token)], {
          prepare: 'opsdeck_person_by_token',
        });
        const row = rows[0];
        if (!row) return null;
        // Record use at most once a minute, off the request's path.
        if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
          db.query(TOKEN_USED_SQL, [row.token_id]).catch(() => undefined);
        }
        return toPrincipal(row, 'token');
      }
      // Sessions are checked here in one statement; better-auth's own session endpoint (which the web
      // calls to keep a session alive) refreshes expiry and cookies.
      const sessionToken = sessionTokenFromCookie(headers.get('cookie'), secret);
      if (!sessionToken) return null;
      const { rows } = await db.query<PersonRow>(PERSON_BY_SESSION, [sessionToken], {
        prepare: 'opsdeck_person_by_session',
      });
      return rows[0] ? toPrincipal(rows[0], 'session') : null;
    },
    disabledFeatures() {
      if (!features || Date.now() - features.at > FEATURE_CACHE_MS) {
        const value = db
          .query<{ name: string; value: string }>(FEATURE_FLAGS_SQL)
          .then((r) => disabledFeatures(r.rows));
        value.catch(() => (features = undefined));
        features = { at: Date.now(), value };
      }
      return features.value;
    },
    featuresChanged() {
      features = undefined;
    },
  };
}
