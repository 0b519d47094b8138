// Which API requests are changes worth an audit entry, and what each one changed: resource applies
// (POST /api/<kind> answering {applied}), deletes of applied resources, /api/db writes, users and
// their roles, access tokens, agents, event-queue retries. Pure: the middleware (middleware.ts) gives
// it the request and the answer and stores what it returns. Values of a write are never put in an
// entry: only the names of the fields it set, and a few harmless values (a role, a state).
import { targetIds } from '../rest/writeGuards.js';
import type { AuditEntry } from './record.js';

export interface AuditRequest {
  method: string;
  /** The path without the query string, e.g. /api/db/connections. */
  path: string;
  query: [string, string][];
  /** The JSON body of the request, when it had one. */
  body: unknown;
  /** The JSON answer, when it was JSON. */
  response: unknown;
  /** Names of the rows a /api/db write named by id, looked up before the write. */
  names: Map<string, string>;
  /** X-Opsdeck-Source of an apply (`opsdeck apply` sends ConfigFile). */
  source: string | undefined;
}

export interface AuditRule {
  /** Whether this rule is about the request (method and path alone: decided before the handler runs). */
  matches(method: string, path: string): boolean;
  /** Whether entries() reads the request's body (read, then, before the handler runs). */
  readsBody: boolean;
  entries(req: AuditRequest): AuditEntry[];
}

const UUID = '[0-9a-fA-F-]{36}';

/** Where each kind of resource is applied (cliApply.ts sends them there), by path under /api. */
export const APPLY_KINDS: Record<string, string> = {
  canary: 'Canary',
  topology: 'Topology',
  catalog: 'ScrapeConfig',
  'incidents/rules': 'IncidentRule',
  playbook: 'Playbook',
  notification: 'Notification',
  'notification/silence': 'NotificationSilence',
  logging_backends: 'LoggingBackend',
};

const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);
const rowsOf = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map(obj) : v ? [obj(v)] : []);
/** The field names a write set, sorted (never their values). */
const fieldsOf = (body: unknown): string[] => [...new Set(rowsOf(body).flatMap((r) => Object.keys(r)))].sort();

/** The ids a PATCH/DELETE names with `id=eq.x` or `id=in.(x,y)` (the write guards' reading), at most 100. */
export const idsOfQuery = (query: [string, string][]): string[] => (targetIds(query) ?? []).slice(0, 100);

/** Filters of a /api/db write, without their values except ids (a filter could name a secret column's value). */
const filtersOf = (query: [string, string][]) =>
  query
    .filter(([k]) => !['select', 'order', 'limit', 'offset', 'on_conflict', 'columns'].includes(k))
    .map(([k, v]) => (k === 'id' ? `${k}=${v}` : k));

const applyRule: AuditRule = {
  // Bodies of applies are not read (they may be large; agents' pushes match the path too).
  readsBody: false,
  matches: (method, path) => method === 'POST' && /^\/api\/[a-z_]+(\/[a-z_]+)?$/.test(path),
  entries({ path, response, source }) {
    const applied = obj(response).applied;
    if (!Array.isArray(applied)) return [];
    const where = path.slice('/api/'.length);
    const kind = APPLY_KINDS[where] ?? where;
    return applied.map(obj).map((a) => ({
      action: 'apply',
      resourceType: kind,
      resourceId: str(a.id),
      resourceName: [str(a.namespace), str(a.name)].filter(Boolean).join('/') || null,
      details: { created: a.created === true, source: source ?? 'UI' },
    }));
  },
};

const deleteAppliedRule: AuditRule = {
  readsBody: false,
  matches: (method, path) =>
    method === 'DELETE' && new RegExp(`^/api/(${Object.keys(APPLY_KINDS).join('|')})/${UUID}$`).test(path),
  entries({ path }) {
    const m = new RegExp(`^/api/(.+)/(${UUID})$`).exec(path)!;
    return [{ action: 'delete', resourceType: APPLY_KINDS[m[1]!] ?? m[1]!, resourceId: m[2]! }];
  },
};

const DB_PATH = /^\/api\/db\/([a-z_][a-z0-9_]*)$/;
const DB_ACTIONS: Record<string, string> = { POST: 'create', PATCH: 'update', PUT: 'update', DELETE: 'delete' };

const restRule: AuditRule = {
  readsBody: true,
  matches: (method, path) => method in DB_ACTIONS && DB_PATH.test(path) && !path.startsWith('/api/db/rpc'),
  entries({ method, path, query, body, response, names }) {
    const relation = DB_PATH.exec(path)![1]!;
    const action = relation === 'person_roles' ? 'role_change' : DB_ACTIONS[method]!;
    const fields = method === 'DELETE' ? undefined : fieldsOf(body);
    const details: Record<string, unknown> = { method, filters: filtersOf(query) };
    if (fields) details.fields = fields;
    // Roles are not secrets: a role change says which.
    if (relation === 'person_roles') details.roles = rowsOf(body).map((r) => r.role);
    const bodyRows = rowsOf(body);
    const returned = rowsOf(response);
    let targets = idsOfQuery(query);
    if (!targets.length) targets = [...returned, ...bodyRows].map((r) => str(r.id) ?? '').filter(Boolean);
    targets = [...new Set(targets)];
    const nameOf = (id: string | null) =>
      (id && names.get(id)) ??
      str(returned.find((r) => r.id === id)?.name) ??
      str(bodyRows.find((r) => r.id === id)?.name) ??
      (bodyRows.length === 1 ? str(bodyRows[0]!.name) : null);
    if (!targets.length) return [{ action, resourceType: relation, resourceName: nameOf(null), details }];
    return targets.map((id) => ({ action, resourceType: relation, resourceId: id, resourceName: nameOf(id), details }));
  },
};

/** Specific endpoints of identity, tokens, agents and the event queue. */
const endpointRules: { method: string; path: RegExp; entry: (m: RegExpExecArray, req: AuditRequest) => AuditEntry }[] =
  [
    {
      method: 'POST',
      path: /^\/api\/users\/invite$/,
      entry: (_, { body, response }) => ({
        action: 'create',
        resourceType: 'person',
        resourceId: str(obj(response).id),
        resourceName: str(obj(body).email),
        details: { role: obj(body).role ?? null },
      }),
    },
    {
      method: 'PATCH',
      path: new RegExp(`^/api/users/(${UUID})$`),
      entry: (m, { body }) => {
        const b = obj(body);
        const details: Record<string, unknown> = { fields: fieldsOf(b) };
        if (b.role !== undefined) details.role = b.role;
        if (b.state !== undefined) details.state = b.state;
        return {
          action: b.role !== undefined ? 'role_change' : 'update',
          resourceType: 'person',
          resourceId: m[1]!,
          details,
        };
      },
    },
    {
      method: 'DELETE',
      path: new RegExp(`^/api/users/(${UUID})$`),
      entry: (m) => ({ action: 'delete', resourceType: 'person', resourceId: m[1]! }),
    },
    {
      method: 'POST',
      path: /^\/api\/tokens$/,
      entry: (_, { body, response }) => ({
        action: 'token_create',
        resourceType: 'access_token',
        resourceId: str(obj(response).id),
        resourceName: str(obj(body).name),
        details: { person_id: obj(body).personId ?? null, expires_at: obj(body).expiresAt ?? null },
      }),
    },
    {
      method: 'DELETE',
      path: new RegExp(`^/api/tokens/(${UUID})$`),
      entry: (m) => ({ action: 'token_revoke', resourceType: 'access_token', resourceId: m[1]! }),
    },
    {
      // A kubeconfig carries a fresh token of the caller.
      method: 'GET',
      path: /^\/api\/kubeconfig$/,
      entry: () => ({ action: 'token_create', resourceType: 'access_token', resourceName: 'kubeconfig' }),
    },
    {
      method: 'POST',
      path: /^\/api\/agent\/generate$/,
      entry: (_, { body, response }) => ({
        action: 'create',
        resourceType: 'agent',
        resourceId: str(obj(response).id),
        resourceName: str(obj(body).name),
        details: { fields: fieldsOf(body) },
      }),
    },
    {
      method: 'POST',
      path: new RegExp(`^/api/agent/(${UUID})/token$`),
      entry: (m) => ({ action: 'token_create', resourceType: 'agent', resourceId: m[1]! }),
    },
    {
      method: 'DELETE',
      path: new RegExp(`^/api/agent/(${UUID})$`),
      entry: (m, { query }) => ({
        action: 'delete',
        resourceType: 'agent',
        resourceId: m[1]!,
        details: { cleanup: query.some(([k, v]) => k === 'cleanup' && v === 'true') },
      }),
    },
    {
      method: 'POST',
      path: /^\/api\/event-queue\/(retry|discard)$/,
      entry: (m, { body }) => ({
        action: m[1]!,
        resourceType: 'event_queue',
        resourceName: str(obj(body).name),
      }),
    },
  ];

const endpointRule: AuditRule = {
  readsBody: true,
  matches: (method, path) => endpointRules.some((r) => r.method === method && r.path.test(path)),
  entries(req) {
    for (const r of endpointRules) {
      const m = r.method === req.method ? r.path.exec(req.path) : null;
      if (m) return [r.entry(m, req)];
    }
    return [];
  },
};

/** The rule about this request, if any (most specific first). */
export function auditRuleFor(method: string, path: string): AuditRule | undefined {
  return [endpointRule, restRule, deleteAppliedRule, applyRule].find((r) => r.matches(method, path));
}
