// The environment a notification rule sees for one event: the event's resource loaded from the database
// (check + canary, component, config item, incident, playbook run + playbook, agent), `event_time` and a
// `permalink` into the console (PUBLIC_URL). It is the CEL filter's variables, the template's data and
// the `body_payload` of the send-history rows the consumer writes (see README.md).
import type { Queryable } from '../db/database.js';
import type { QueuedEvent } from '../jobs/eventQueue.js';
import { NO_AGENT } from '../db/agents.js';
import { UUID } from '../resources/routes.js';

export type ResourceKind = 'check' | 'component' | 'config' | 'incident' | 'playbook_run';

/** What every later stage needs to know about the event's resource. */
export interface EventResource {
  kind: ResourceKind;
  id: string;
  name: string;
  /** The resource's own type (check type, component type, config type...). */
  type: string | null;
  namespace: string | null;
  /** healthy / unhealthy / warning / unknown, when the resource has a health. */
  health: string | null;
  status: string | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  /** Ancestors, root first (components, configs: from `path`). */
  ancestors: string[];
  /** A check's canary and the components it belongs to. */
  canaryId: string | null;
  componentIds: string[];
  /** Snapshot stored in `notification_send_history.resource`. */
  snapshot: Record<string, unknown>;
}

export interface EventContext {
  resource: EventResource | undefined;
  /** The CEL / template environment (body_payload without the recipient). */
  env: Record<string, unknown>;
}

type Row = Record<string, unknown>;

const isId = (id: unknown): id is string => typeof id === 'string' && UUID.test(id);

async function one(tx: Queryable, sql: string, id: unknown): Promise<Row | undefined> {
  if (!isId(id)) return undefined;
  const { rows } = await tx.query<Row>(sql, [id]);
  return rows[0];
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : v == null ? null : String(v));
const record = (v: unknown): Record<string, string> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, string>) : {};
const pathIds = (v: unknown): string[] => (typeof v === 'string' && v ? v.split('.').filter(Boolean) : []);

/** Console links, by the web route table (web/src/app/routes.ts). */
export function permalinkOf(publicUrl: string, kind: ResourceKind, id: string): string {
  const base = publicUrl.replace(/\/+$/, '');
  switch (kind) {
    case 'check':
      return `${base}/health?checkId=${encodeURIComponent(id)}`;
    case 'component':
      return `${base}/topology/${id}`;
    case 'config':
      return `${base}/catalog/${id}`;
    case 'incident':
      return `${base}/incidents/${id}`;
    case 'playbook_run':
      return `${base}/playbooks/runs/${id}`;
  }
}

/** The kind of resource an event name is about. */
export function eventKind(name: string): ResourceKind | undefined {
  const head = name.split('.')[0];
  if (head === 'check' || head === 'component' || head === 'config' || head === 'incident') return head;
  // playbook.approval.inserted carries the waiting run's id, like the playbook.run.* events.
  if (name.startsWith('playbook.run.') || name === 'playbook.approval.inserted') return 'playbook_run';
  return undefined;
}

/** Loads the event's resource and builds the environment; an unknown or vanished resource gives none. */
export async function buildContext(tx: Queryable, event: QueuedEvent, publicUrl: string): Promise<EventContext> {
  const props = event.properties;
  const kind = eventKind(event.name);
  const env = baseEnv(event, publicUrl);
  const resource = kind ? await loadResource(tx, kind, event.name, props, env) : undefined;
  if (resource) {
    env.permalink = permalinkOf(publicUrl, kind!, resource.id);
    if (hasAgent(resource))
      env.agent =
        (await one(tx, 'SELECT id, name, hostname, version FROM agents WHERE id = $1', resource.snapshot.agent_id)) ??
        null;
  }
  return { resource, env };
}

const hasAgent = (r: EventResource): boolean => {
  const agentId = str(r.snapshot.agent_id);
  return !!agentId && agentId !== NO_AGENT;
};

function baseEnv(event: QueuedEvent, publicUrl: string): Record<string, unknown> {
  return {
    check: null,
    canary: null,
    component: null,
    config: null,
    incident: null,
    playbook: null,
    run: null,
    agent: null,
    event_time: event.created_at instanceof Date ? event.created_at.toISOString() : String(event.created_at),
    permalink: publicUrl,
    event: { name: event.name, properties: event.properties },
  };
}

async function loadResource(
  tx: Queryable,
  kind: ResourceKind,
  eventName: string,
  props: Record<string, unknown>,
  env: Record<string, unknown>,
): Promise<EventResource | undefined> {
  const id = props.id;
  if (kind === 'check') {
    const row = await one(tx, `${CHECK_SQL} WHERE c.id = $1`, id);
    return row && checkResource(row, props, env);
  }
  return loadOther(tx, kind, eventName, props, env);
}

/** One round trip: the check, its canary and the components it belongs to. */
const CHECK_SQL = `SELECT c.id, c.canary_id, c.agent_id, c.type, c.name, c.namespace, c.description, c.icon, c.labels,
         c.owner, c.severity, c.endpoint, c.status, c.last_runtime, c.last_transition_time, c.created_at, c.updated_at,
         c.deleted_at,
         (SELECT jsonb_build_object('id', k.id, 'name', k.name, 'namespace', k.namespace, 'labels', k.labels,
                   'agent_id', k.agent_id) FROM canaries k WHERE k.id = c.canary_id) AS canary_row,
         ARRAY(SELECT DISTINCT r.component_id::text FROM check_component_relationships r
               WHERE r.check_id = c.id AND r.deleted_at IS NULL) AS component_ids
  FROM checks c`;

/**
 * The contexts of a batch's check events (by event id) with one query for all their checks; other
 * events, and checks with an agent, are left to buildContext.
 */
export async function prefetchContexts(
  tx: Queryable,
  events: QueuedEvent[],
  publicUrl: string,
): Promise<Map<string, EventContext>> {
  const out = new Map<string, EventContext>();
  const checks = events.filter((e) => eventKind(e.name) === 'check' && isId(e.properties.id));
  if (!checks.length) return out;
  const ids = [...new Set(checks.map((e) => e.properties.id as string))];
  const { rows } = await tx.query<Row>(`${CHECK_SQL} WHERE c.id = ANY($1::uuid[])`, [ids]);
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  for (const event of checks) {
    const row = byId.get(String(event.properties.id).toLowerCase());
    const env = baseEnv(event, publicUrl);
    const resource = row && checkResource({ ...row }, event.properties, env);
    if (resource && hasAgent(resource)) continue;
    if (resource) env.permalink = permalinkOf(publicUrl, 'check', resource.id);
    out.set(event.id, { resource, env });
  }
  return out;
}

function checkResource(row: Row, props: Record<string, unknown>, env: Record<string, unknown>): EventResource {
  const kind = 'check';
  const { canary_row, component_ids, ...check } = row;
  const canary = (canary_row as Row | null) ?? undefined;
  env.check = check;
  env.canary = canary ?? null;
  // The event's status is the state it announced (the check may have moved since).
  const health = str(props.status) ?? str(check.status);
  return {
    kind,
    id: String(check.id),
    name: String(check.name),
    type: str(check.type),
    namespace: str(check.namespace),
    health,
    status: health,
    labels: { ...record(canary?.labels), ...record(check.labels) },
    tags: {},
    ancestors: [],
    canaryId: str(check.canary_id),
    componentIds: component_ids as string[],
    snapshot: pick(check, ['id', 'name', 'type', 'namespace', 'canary_id', 'agent_id', 'labels', 'severity'], {
      status: health,
      health,
      canary_name: canary?.name ?? null,
    }),
  };
}

async function loadOther(
  tx: Queryable,
  kind: Exclude<ResourceKind, 'check'>,
  eventName: string,
  props: Record<string, unknown>,
  env: Record<string, unknown>,
): Promise<EventResource | undefined> {
  const id = props.id;
  if (kind === 'component') {
    const c = await one(
      tx,
      `SELECT c.id, c.topology_id, c.parent_id, c.agent_id, c.name, c.text, c.type, c.icon, c.labels, c.properties,
              c.health, c.status, c.status_reason, c.path, c.owner, c.summary, c.created_at, c.updated_at, c.deleted_at,
              t.namespace
       FROM components c LEFT JOIN topologies t ON t.id = c.topology_id WHERE c.id = $1`,
      id,
    );
    if (!c) return undefined;
    env.component = c;
    const health = event2health(eventName, c.health);
    return {
      kind,
      id: String(c.id),
      name: String(c.name),
      type: str(c.type),
      namespace: str(c.namespace),
      health,
      status: str(c.status) ?? health,
      labels: record(c.labels),
      tags: {},
      ancestors: pathIds(c.path),
      canaryId: null,
      componentIds: [String(c.id)],
      snapshot: pick(
        c,
        ['id', 'name', 'type', 'namespace', 'parent_id', 'topology_id', 'agent_id', 'labels', 'status'],
        {
          health,
        },
      ),
    };
  }
  if (kind === 'config') {
    const c = await one(
      tx,
      `SELECT id, scraper_id, agent_id, external_id, type, config_class, name, description, status, health, ready,
              labels, tags, parent_id, path, created_at, updated_at, deleted_at FROM config_items WHERE id = $1`,
      id,
    );
    if (!c) return undefined;
    env.config = c;
    const tags = record(c.tags);
    const health = event2health(eventName, c.health);
    return {
      kind,
      id: String(c.id),
      name: str(c.name) ?? String(c.external_id),
      type: str(c.type),
      namespace: tags.namespace ?? null,
      health,
      status: str(c.status),
      labels: record(c.labels),
      tags,
      ancestors: pathIds(c.path),
      canaryId: null,
      componentIds: [],
      snapshot: pick(c, ['id', 'name', 'type', 'config_class', 'agent_id', 'labels', 'tags', 'status'], { health }),
    };
  }
  if (kind === 'incident') {
    const i = await one(
      tx,
      `SELECT id, incident_id, title, description, type, severity, status, component_id, commander_id, created_by,
              acknowledged, resolved, closed, created_at, updated_at FROM incidents WHERE id = $1`,
      id,
    );
    if (!i) return undefined;
    env.incident = i;
    return {
      kind,
      id: String(i.id),
      name: `${String(i.incident_id)}: ${String(i.title)}`,
      type: str(i.type),
      namespace: null,
      health: null,
      status: str(i.status),
      labels: {},
      tags: {},
      ancestors: [],
      canaryId: null,
      componentIds: i.component_id ? [String(i.component_id)] : [],
      snapshot: pick(i, ['id', 'incident_id', 'title', 'type', 'severity', 'status', 'component_id'], {
        name: i.title,
      }),
    };
  }
  const run = await one(
    tx,
    `SELECT r.id, r.playbook_id, r.status, r.error, r.parameters, r.config_id, r.component_id, r.check_id, r.agent_id,
            r.start_time, r.end_time, r.created_at, r.created_by, p.name AS playbook_name, p.namespace
     FROM playbook_runs r LEFT JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
    id,
  );
  if (!run) return undefined;
  env.run = run;
  env.playbook =
    (await one(
      tx,
      'SELECT id, name, namespace, title, description, category FROM playbooks WHERE id = $1',
      run.playbook_id,
    )) ?? null;
  return {
    kind,
    id: String(run.id),
    name: str(run.playbook_name) ?? String(run.id),
    type: 'playbook_run',
    namespace: str(run.namespace),
    health: null,
    status: str(run.status),
    labels: {},
    tags: {},
    ancestors: [],
    canaryId: null,
    componentIds: run.component_id ? [String(run.component_id)] : [],
    snapshot: pick(run, ['id', 'playbook_id', 'status', 'error', 'agent_id'], {
      name: run.playbook_name,
      type: 'playbook_run',
    }),
  };
}

const HEALTHS = new Set(['healthy', 'unhealthy', 'warning', 'unknown']);

/** A component/config event names the health it announces (component.unhealthy); else the current one. */
function event2health(eventName: string, current: unknown): string | null {
  const suffix = eventName.split('.')[1] ?? '';
  return HEALTHS.has(suffix) ? suffix : str(current);
}

function pick(row: Row, keys: string[], extra: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = row[k] ?? null;
  return { ...out, ...extra };
}
