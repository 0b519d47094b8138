// Where a spec connects to: stored connections (the `connections` table, secrets decrypted), the
// inline `connection` / `url` + `username`/`password` fields as canary-checker spells them, and
// resolving them into one target with `$(username)` / `$(password)` substituted.
import { z } from 'zod';
import type { Queryable } from '../db/database.js';
import { envValueSchema, type EnvValue } from './envValue.js';
import { SpecError } from './errors.js';
import { openConnection, type StoredConnection } from './references.js';

/** A stored connection (the `connections` table), secrets decrypted and references read. */
export interface ResolvedConnection {
  name: string;
  type: string;
  url: string | null;
  username: string | null;
  password: string | null;
  certificate: string | null;
  insecureTls: boolean;
  properties: Record<string, string>;
}

/** What resolving a target needs: stored connections and EnvValues (a health CheckContext is one). */
export interface ConnectionContext {
  /** Resolves `connection://<type>/<name>`, `connection://<name>` or a bare name; undefined when unknown. */
  connection(ref: string): Promise<ResolvedConnection | undefined>;
  /** Resolves an EnvValue to its string; throws a clear error when a reference cannot be resolved. */
  resolve(value: EnvValue | undefined): Promise<string | undefined>;
}

/** A ConnectionContext under the time limit of what uses it: a check, a scrape, a playbook action. */
export interface TimedConnectionContext extends ConnectionContext {
  /** Aborted when the operation runs out of time or is cancelled. */
  signal: AbortSignal;
  timeoutMs: number;
}

const STORED_CONNECTION_COLUMNS =
  'name, namespace, type, url, username, password, certificate, insecure_tls, properties';

/**
 * How a reference names a stored connection, one reading for every engine (apply-time checks,
 * notification recipients, checks and actions): an id; `connection://<type>/<name>` or
 * `connection://<namespace>/<name>` (a type match is preferred); `connection://<name>`;
 * `<namespace>/<name>`; or a bare name. Gives the WHERE / ORDER BY text and its three parameters.
 */
function connectionMatch(ref: string): { where: string; order: string; params: (string | null)[] } {
  const trimmed = ref.trim();
  const m = /^connection:\/\/(?:([^/]+)\/)?(.+)$/.exec(trimmed);
  let scope = m?.[1] ?? null;
  let name = m?.[2] ?? trimmed;
  let namespaceOnly = false;
  const slash = m ? -1 : trimmed.indexOf('/');
  if (slash > 0) {
    [scope, name] = [trimmed.slice(0, slash), trimmed.slice(slash + 1)];
    namespaceOnly = true;
  }
  return {
    where: `deleted_at IS NULL AND (id::text = $1 OR (name = $1 AND ($2::text IS NULL
      OR ($3::text IS NULL AND lower(type) = lower($2)) OR namespace = $2)))`,
    order: `ORDER BY (lower(type) = lower(coalesce($2, ''))) DESC, created_at`,
    params: [name, scope, namespaceOnly ? 'namespace' : null],
  };
}

/** The id, name and type of the stored connection a reference names (see connectionMatch); undefined when none. */
export async function findConnectionRef(
  db: Queryable,
  ref: string,
): Promise<{ id: string; name: string; type: string } | undefined> {
  const q = connectionMatch(ref);
  const { rows } = await db.query<{ id: string; name: string; type: string }>(
    `SELECT id, name, type FROM connections WHERE ${q.where} ${q.order} LIMIT 1`,
    q.params,
  );
  return rows[0];
}

/** Looks stored connections up by reference in `db` (see connectionMatch), opened, for ConnectionContext.connection. */
export function connectionResolver(db: Queryable): (ref: string) => Promise<ResolvedConnection | undefined> {
  return async (ref) => {
    const q = connectionMatch(ref);
    const { rows } = await db.query<StoredConnection>(
      `SELECT ${STORED_CONNECTION_COLUMNS} FROM connections WHERE ${q.where} ${q.order} LIMIT 1`,
      q.params,
    );
    // Secrets decrypted; secret:// and configmap:// references read from Kubernetes (references.ts).
    const c = rows[0];
    return c && openConnection(c);
  };
}

/** The first stored connection of one of `types` (by namespace, then name), opened; undefined when none. */
export async function firstConnectionOfType(db: Queryable, types: string[]): Promise<ResolvedConnection | undefined> {
  const { rows } = await db.query<StoredConnection>(
    `SELECT ${STORED_CONNECTION_COLUMNS} FROM connections WHERE deleted_at IS NULL AND lower(type) = ANY($1)
     ORDER BY namespace, name LIMIT 1`,
    [types.map((t) => t.toLowerCase())],
  );
  const c = rows[0];
  return c && openConnection(c);
}

/** canary-checker's inline `Connection`: a connection reference, or a URL and credentials. */
export const connectionFields = {
  connection: z.string().optional(),
  url: z.string().optional(),
  username: envValueSchema.optional(),
  password: envValueSchema.optional(),
};

/** The connection fields of a spec (check, scraper, action), as parsed. */
export interface ConnectionSpec {
  connection?: string;
  url?: string;
  username?: EnvValue;
  password?: EnvValue;
}

/** Where a spec connects to, after the connection and secrets are resolved. */
export interface Target {
  /** The URL with `$(username)` / `$(password)` substituted; '' when neither check nor connection gave one. */
  url: string;
  username?: string;
  password?: string;
  /** The stored connection, when the check referenced one. */
  connection?: ResolvedConnection;
  insecureTls: boolean;
  certificate?: string;
  properties: Record<string, string>;
}

/** Substitutes `$(username)` / `$(password)`; URL-encoded when the text is a URL, verbatim in a DSN. */
export function interpolateCredentials(url: string, username?: string, password?: string): string {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(url);
  const enc = (v: string | undefined) => (isUrl ? encodeURIComponent(v ?? '') : (v ?? ''));
  return url.replaceAll('$(username)', enc(username)).replaceAll('$(password)', enc(password));
}

/** A URL fit for display and metric labels: credentials removed (canary-checker `SanitizeEndpoints`). */
export function sanitizeUrl(url: string): string {
  let out: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    // scheme://user:pass@host → scheme://host (the userinfo ends at the last '@' before the path).
    out = url.replace(/^([a-z][a-z0-9+.-]*:\/\/)(?:[^/?#]*@)/i, '$1');
  } else {
    // A DSN such as `user:pass@tcp(host)/db`: drop anything before the last `@` ahead of the address.
    out = url.replace(/^.*@(?=(?:tcp|unix)\(|\/)/s, '');
  }
  return out.replace(/password=([^;&\s]*)/gi, 'password=###');
}

/** What a connection-based spec points at, for display: its URL without secrets, or its connection. */
export function connectionEndpoint(spec: ConnectionSpec): string {
  if (spec.url) return sanitizeUrl(spec.url);
  return spec.connection ?? '';
}

/**
 * Resolves a spec's `connection` and/or `url` + `username`/`password`. The spec's own values override
 * the connection's (as canary-checker does). A `connection` that is not `connection://...` and names no
 * stored connection is taken as the URL itself when it looks like one (older canary-checker SQL files).
 * Throws SpecError when a referenced connection does not exist or a secret cannot be resolved.
 */
export async function resolveTarget(spec: ConnectionSpec, ctx: ConnectionContext): Promise<Target> {
  let connection: ResolvedConnection | undefined;
  let legacyUrl: string | undefined;
  if (spec.connection) {
    connection = await ctx.connection(spec.connection);
    if (!connection) {
      const looksLikeUrl = /:\/\/|@|=/.test(spec.connection) && !spec.connection.startsWith('connection://');
      if (!looksLikeUrl) throw new SpecError(`connection ${spec.connection} was not found`);
      legacyUrl = spec.connection;
    }
  }
  let username: string | undefined;
  let password: string | undefined;
  try {
    username = (await ctx.resolve(spec.username)) || connection?.username || undefined;
    password = (await ctx.resolve(spec.password)) || connection?.password || undefined;
  } catch (e) {
    throw new SpecError(`credentials could not be resolved: ${errorMessage(e)}`);
  }
  const raw = spec.url || legacyUrl || connection?.url || '';
  return {
    url: interpolateCredentials(raw, username, password),
    username,
    password,
    connection,
    insecureTls: connection?.insecureTls ?? false,
    certificate: connection?.certificate ?? undefined,
    properties: connection?.properties ?? {},
  };
}

/** Resolves an EnvValue, turning an unresolvable reference into a SpecError naming the field. */
export async function resolveField(ctx: ConnectionContext, field: string, value: EnvValue | undefined) {
  try {
    return await ctx.resolve(value);
  } catch (e) {
    throw new SpecError(`${field} could not be resolved: ${errorMessage(e)}`);
  }
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
