// Who is calling: the signed-in person (session cookie) or a token's person with their roles, and the
// features that are switched off. On PostgreSQL a replica remembers what a session or token resolved
// to (principalCache.ts), and is told of every change to it (0034: LISTEN opsdeck_auth); each request
// first waits for the notifications committed before it (one shared round trip on the listening
// connection), so a change to roles, state, sessions or tokens applies to the next request on every
// replica, as if read fresh (spec/1 §6). Without that connection, every request looks its caller up.
import crypto from 'node:crypto';
import { disabledFeatures, effectiveRoles, type Feature, type Role } from '@opsdeck/common';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { createBetterAuth, sessionCookieNames, type BetterAuth } from './betterAuth.js';
import { createMailer, type Mailer } from './mailer.js';
import { PrincipalCache, type CachedCaller } from './principalCache.js';
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
/** Announced by the triggers of migration 0034 with the person's id. */
export const AUTH_CHANNEL = 'opsdeck_auth';
const TOKEN_USE_RECORD_MS = 60_000;

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
  (extract(epoch FROM t.expires_at) * 1000)::float8 AS expires_ms,
  coalesce(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
FROM access_tokens t
JOIN people p ON p.id = t.person_id
LEFT JOIN person_roles r ON r.person_id = p.id
WHERE t.value = $1 AND p.deleted_at IS NULL AND p.state = 'active' AND (t.expires_at IS NULL OR t.expires_at > now())
GROUP BY p.id, t.id`;

const PERSON_BY_SESSION = `
SELECT p.id, p.name, p.email, p.avatar, p.two_factor_enabled,
  (extract(epoch FROM s.expires_at) * 1000)::float8 AS expires_ms,
  coalesce(array_agg(r.role) FILTER (WHERE r.role IS NOT NULL), '{}') AS roles
FROM auth_sessions s
JOIN people p ON p.id = s.person_id
LEFT JOIN person_roles r ON r.person_id = p.id
WHERE s.token = $1 AND s.expires_at > now() AND p.deleted_at IS NULL AND p.state = 'active'
GROUP BY p.id, s.expires_at`;

/**
 * The signed session cookie's value ("token.signature", as better-auth writes it), decoded but not
 * verified, or undefined when absent or malformed. Only the first session cookie counts.
 */
export function sessionCookieValue(cookieHeader: string | null): string | undefined {
  if (!cookieHeader) return undefined;
  for (const part of cookieHeader.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || !sessionCookieNames.includes(part.slice(0, eq).trim())) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The session token in a signed cookie value when its HMAC-SHA256 with the auth secret matches, else undefined. */
export function verifiedSessionToken(value: string, secret: string): string | undefined {
  const dot = value.lastIndexOf('.');
  if (dot < 1) return undefined;
  const token = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = crypto.createHmac('sha256', secret).update(token).digest();
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? token : undefined;
}

/** The session token from the signed session cookie, or undefined when absent or forged. */
export function sessionTokenFromCookie(cookieHeader: string | null, secret: string): string | undefined {
  const value = sessionCookieValue(cookieHeader);
  return value === undefined ? undefined : verifiedSessionToken(value, secret);
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
  /** The session's or token's expiry in ms since epoch (null: a token that never expires). */
  expires_ms: number | string | null;
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
  const callers = new PrincipalCache(config.authCacheMs ?? 0);
  const listener =
    callers.ttlMs > 0 && db.listen
      ? db.listen(AUTH_CHANNEL, { notify: (personId) => callers.forgetPerson(personId), lost: () => callers.clear() })
      : undefined;

  /** The remembered caller, once every change committed before this request has been heard of. */
  async function remembered(key: string): Promise<CachedCaller | undefined> {
    if (!listener?.ready || !callers.get(key)) return undefined;
    try {
      await listener.sync();
    } catch {
      return undefined;
    }
    return callers.get(key);
  }

  /** Looks the caller up and remembers it (unless a notification arrived meanwhile). */
  async function lookUp(key: string, sql: string, value: string, via: Principal['via']) {
    const generation = callers.generation;
    const { rows } = await db.query<PersonRow>(sql, [value], { prepare: `opsdeck_person_by_${via}` });
    const row = rows[0];
    if (!row) return undefined;
    const now = Date.now();
    const expires = row.expires_ms === null ? Infinity : Number(row.expires_ms);
    const entry: CachedCaller = {
      principal: toPrincipal(row, via),
      until: Math.min(now + callers.ttlMs, expires),
      ...(row.token_id ? { tokenId: row.token_id, lastUsed: row.last_used_at ? Date.parse(row.last_used_at) : 0 } : {}),
    };
    if (listener?.ready) callers.set(key, entry, generation);
    return entry;
  }

  /** Callers get their own copy: the remembered one serves later requests. */
  const copy = (p: Principal): Principal => ({ ...p, roles: [...p.roles] });

  return {
    auth() {
      auth ??= createBetterAuth({ config, db, secret, mailer });
      return auth;
    },
    mailer,
    async authenticate(headers) {
      const token = tokenFromAuthorization(headers.get('authorization'));
      if (token) {
        const hash = hashToken(token);
        const entry =
          (await remembered(`token:${hash}`)) ?? (await lookUp(`token:${hash}`, PERSON_BY_TOKEN, hash, 'token'));
        if (!entry) return null;
        // Record use at most once a minute, off the request's path.
        const now = Date.now();
        if (entry.tokenId && !(now - (entry.lastUsed ?? 0) <= TOKEN_USE_RECORD_MS)) {
          entry.lastUsed = now;
          db.query(TOKEN_USED_SQL, [entry.tokenId]).catch(() => undefined);
        }
        return copy(entry.principal);
      }
      // Sessions are checked here in one statement; better-auth's own session endpoint (which the web
      // calls to keep a session alive) refreshes expiry and cookies.
      const signed = sessionCookieValue(headers.get('cookie'));
      if (!signed) return null;
      // Remembered under the whole signed value, so a cookie found here was verified when it was
      // stored and needs no HMAC again (another signature is another key: checked, and refused).
      const key = `session:${signed}`;
      let entry = await remembered(key);
      if (!entry) {
        const sessionToken = verifiedSessionToken(signed, secret);
        if (!sessionToken) return null;
        entry = await lookUp(key, PERSON_BY_SESSION, sessionToken, 'session');
      }
      return entry ? copy(entry.principal) : null;
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
