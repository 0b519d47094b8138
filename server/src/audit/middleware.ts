// The one place changes are audited: a middleware on /api/* (after authentication) that, for a
// request a rule in classify.ts is about, keeps the request's JSON body, lets the handler run, and,
// when the answer is a success, writes what changed to audit_log with the caller (person, token or
// agent), the client address and the user agent. A write that failed is not audited; an audit
// insert that fails is logged and does not change the answer the caller gets.
import type { Context, MiddlewareHandler, Next } from 'hono';
import type { AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import type { SchemaCache } from '../db/introspect.js';
import type { ExposureRegistry } from '../rest/registry.js';
import { auditRuleFor, idsOfQuery } from './classify.js';
import { AUDIT_INSERT, recordAudit, type ActorKind, type AuditActor } from './record.js';
import { logger } from '../log.js';

const log = logger('audit');

export interface AuditDeps {
  db: Database;
  /** The current schema (names of the rows a /api/db write names are looked up where there is a name column). */
  schema: () => SchemaCache;
  /** Only relations /api/db exposes are looked up. */
  registry: ExposureRegistry;
  trustProxy: boolean;
}

const AGENT_PERSON = 'SELECT 1 FROM agents WHERE person_id = $1 LIMIT 1';

/** The middleware's fixed statements (the /api/db fuzz test's SQL audit knows them). */
export const AUDIT_STATEMENTS: readonly string[] = [AUDIT_INSERT, AGENT_PERSON];

/** Bodies larger than this are not read for field names (the entry is still written). */
const MAX_BODY = 1_000_000;

async function jsonOf(read: () => Promise<string>): Promise<unknown> {
  try {
    const text = await read();
    return text && text.length <= MAX_BODY ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/** The client address: the socket's, or X-Forwarded-For's first when the proxy is trusted. */
export function clientIp(env: unknown, forwardedFor: string | undefined, trustProxy: boolean): string | null {
  const forwarded = trustProxy ? forwardedFor?.split(',')[0]?.trim() : undefined;
  const socket = (env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket;
  const ip = forwarded || socket?.remoteAddress || null;
  return ip?.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
}

/** Sign-in endpoints (better-auth's; no principal yet): a success answers the person signed in. */
const SIGN_IN_PATHS = new Map([
  ['/api/auth/sign-in/email', 'password'],
  ['/api/auth/two-factor/verify-totp', 'password and one-time code'],
]);

export function auditTrail(deps: AuditDeps): MiddlewareHandler<AuthEnv> {
  /** A successful sign-in: the person the answer names is the actor (its session token is not read). */
  const signIn = async (c: Context<AuthEnv>, next: Next) => {
    await next();
    if (c.res.status !== 200) return;
    try {
      const answer = (await jsonOf(() => c.res.clone().text())) as { user?: Record<string, unknown> } | undefined;
      const user = answer?.user;
      if (!user || typeof user.id !== 'string') return;
      const email = typeof user.email === 'string' ? user.email : null;
      const name = typeof user.name === 'string' ? user.name : null;
      await recordAudit(
        deps.db,
        { id: user.id, email, name, kind: 'person' },
        {
          ip: clientIp(c.env, c.req.header('x-forwarded-for'), deps.trustProxy),
          userAgent: c.req.header('user-agent') ?? null,
        },
        [
          {
            action: 'sign_in',
            resourceType: 'person',
            resourceId: user.id,
            resourceName: email,
            details: { with: SIGN_IN_PATHS.get(c.req.path) },
          },
        ],
      );
    } catch (e) {
      log.error(`audit: sign-in: ${(e as Error).message}`);
    }
  };

  const agentPeople = new Map<string, boolean>();
  const actorKind = async (personId: string, via: 'session' | 'token'): Promise<ActorKind> => {
    if (via === 'session') return 'person';
    let agent = agentPeople.get(personId);
    if (agent === undefined) {
      const { rows } = await deps.db.query(AGENT_PERSON, [personId]);
      agent = rows.length > 0;
      if (agentPeople.size > 1000) agentPeople.clear();
      agentPeople.set(personId, agent);
    }
    return agent ? 'agent' : 'token';
  };

  return async (c, next) => {
    const method = c.req.method;
    const path = c.req.path;
    if (method === 'POST' && SIGN_IN_PATHS.has(path)) return signIn(c, next);
    const rule = auditRuleFor(method, path);
    const principal = c.get('principal');
    if (!rule || !principal) return next();
    const url = new URL(c.req.url);
    const query = [...url.searchParams.entries()];
    const body =
      !rule.readsBody || method === 'GET' || method === 'HEAD'
        ? undefined
        : await jsonOf(() => c.req.raw.clone().text());
    // The rows a /api/db write names by id (and their names), looked up before it changes or deletes them.
    const names = new Map<string, string>();
    const relation = /^\/api\/db\/([a-z_][a-z0-9_]*)$/.exec(path)?.[1];
    const ids = relation ? idsOfQuery(query) : [];
    const cache = deps.schema();
    const table = relation && deps.registry.relations.has(relation) ? cache.relations.get(relation) : undefined;
    let found: number | undefined;
    if (ids.length && table?.columnsByName.has('id')) {
      // Identifiers quoted, as the REST layer writes them (the relation is an exposed one).
      const name = table.columnsByName.has('name') ? '"name"' : 'NULL::text';
      const { rows } = await deps.db
        .query<{
          id: string;
          name: string | null;
        }>(
          `SELECT "id"::text AS "id", ${name} AS "name" FROM "${cache.schema}"."${relation}" WHERE "id"::text = ANY($1)`,
          [ids],
        )
        .catch(() => ({ rows: undefined }));
      found = rows?.length;
      for (const r of rows ?? []) if (r.name) names.set(r.id, r.name);
    }

    await next();

    if (c.res.status < 200 || c.res.status >= 300) return;
    // A /api/db update or delete that matched no row changed nothing: no entry.
    const range = c.res.headers.get('content-range');
    if (relation && method === 'PATCH' && range?.startsWith('*/')) return;
    if (relation && (method === 'DELETE' || method === 'PATCH') && found === 0) return;
    try {
      const type = c.res.headers.get('content-type') ?? '';
      const response = type.includes('json') ? await jsonOf(() => c.res.clone().text()) : undefined;
      const entries = rule.entries({
        method,
        path,
        query,
        body,
        response,
        names,
        source: c.req.header('x-opsdeck-source')?.trim() || undefined,
      });
      if (!entries.length) return;
      const actor: AuditActor = {
        id: principal.id,
        email: principal.email,
        name: principal.name,
        kind: await actorKind(principal.id, principal.via),
      };
      const source = {
        ip: clientIp(c.env, c.req.header('x-forwarded-for'), deps.trustProxy),
        userAgent: c.req.header('user-agent') ?? null,
      };
      await recordAudit(deps.db, actor, source, entries);
    } catch (e) {
      log.error(`audit: ${method} ${path}: ${(e as Error).message}`);
    }
  };
}
