// Small factories for the notification consumer tests: canaries and checks, component trees, people and
// teams, rules and silences as rows, events queued the way the engines write them, and a fresh
// consumer on a cleared database.
import type { Database, Queryable } from '../../src/db/database.js';
import { EventRouter } from '../../src/jobs/eventQueue.js';
import { NotificationConsumer } from '../../src/notifications/consumer.js';
import { RuleCache } from '../../src/notifications/rules.js';

let serial = 0;

/** A canary; names get a serial suffix unless given, so tests sharing a database never collide. */
export async function canary(db: Queryable, name = `web-${++serial}`): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO canaries (name, namespace, spec) VALUES ($1 || CASE WHEN EXISTS (SELECT 1 FROM canaries WHERE name = $1)
       THEN '-' || gen_random_uuid()::text ELSE '' END, 'prod', '{}') RETURNING id`,
    [name],
  );
  return rows[0]!.id;
}

export async function check(
  db: Queryable,
  canaryId: string,
  name: string,
  opts: { labels?: Record<string, string>; status?: string; componentId?: string } = {},
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO checks (canary_id, type, name, namespace, labels, status) VALUES ($1, 'http', $2, 'prod', $3, $4) RETURNING id`,
    [canaryId, name, JSON.stringify(opts.labels ?? {}), opts.status ?? null],
  );
  const id = rows[0]!.id;
  if (opts.componentId)
    await db.query(
      `INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id) VALUES ($1, $2, $3, 'manual')`,
      [id, opts.componentId, canaryId],
    );
  return id;
}

/** A component under `parentId` (path = the parent's path + the parent). */
export async function component(
  db: Queryable,
  name: string,
  opts: { parentId?: string; health?: string; type?: string } = {},
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO components (name, type, parent_id, health, path)
     VALUES ($1, $2, $3::uuid, $4, coalesce((SELECT nullif(concat_ws('.', nullif(path, ''), id::text), '')
                                          FROM components WHERE id = $3::uuid), ''))
     RETURNING id`,
    [name, opts.type ?? 'service', opts.parentId ?? null, opts.health ?? 'unknown'],
  );
  return rows[0]!.id;
}

export async function person(db: Queryable, name: string, email: string | null): Promise<string> {
  const { rows } = await db.query<{ id: string }>('INSERT INTO people (name, email) VALUES ($1, $2) RETURNING id', [
    name,
    email,
  ]);
  return rows[0]!.id;
}

export async function team(db: Queryable, name: string, members: string[]): Promise<string> {
  const { rows } = await db.query<{ id: string }>('INSERT INTO teams (name) VALUES ($1) RETURNING id', [name]);
  for (const m of members)
    await db.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [rows[0]!.id, m]);
  return rows[0]!.id;
}

export interface RuleFields {
  name: string;
  events: string[];
  filter?: string;
  person_id?: string;
  team_id?: string;
  custom_services?: unknown[];
  playbook_id?: string;
  repeat_interval_ms?: number;
  wait_for_ms?: number;
  group_by?: string[];
  inhibitions?: unknown[];
  spec?: unknown;
}

export async function rule(db: Queryable, f: RuleFields): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO notifications (name, events, filter, person_id, team_id, custom_services, playbook_id, repeat_interval,
       wait_for, group_by, inhibitions, spec)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      f.name,
      f.events,
      f.filter ?? null,
      f.person_id ?? null,
      f.team_id ?? null,
      f.custom_services ? JSON.stringify(f.custom_services) : null,
      f.playbook_id ?? null,
      f.repeat_interval_ms ? f.repeat_interval_ms * 1e6 : null,
      f.wait_for_ms ? f.wait_for_ms * 1e6 : null,
      f.group_by ?? null,
      f.inhibitions ? JSON.stringify(f.inhibitions) : null,
      f.spec ? JSON.stringify(f.spec) : null,
    ],
  );
  return rows[0]!.id;
}

export async function silence(
  db: Queryable,
  f: {
    description: string;
    check_id?: string;
    component_id?: string;
    recursive?: boolean;
    filter?: string;
    expired?: boolean;
  },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO notification_silences (description, check_id, component_id, recursive, filter, "from", until)
     VALUES ($1, $2, $3, $4, $5, now() - interval '2 hours', CASE WHEN $6 THEN now() - interval '1 minute' ELSE now() + interval '1 hour' END)
     RETURNING id`,
    [
      f.description,
      f.check_id ?? null,
      f.component_id ?? null,
      f.recursive ?? false,
      f.filter ?? null,
      f.expired ?? false,
    ],
  );
  return rows[0]!.id;
}

/** Queues an event as an engine would. */
export async function emit(db: Queryable, name: string, properties: Record<string, unknown>): Promise<void> {
  await db.query('INSERT INTO event_queue (name, properties) VALUES ($1, $2)', [name, JSON.stringify(properties)]);
}

export const checkFailed = (db: Queryable, id: string) => emit(db, 'check.failed', { id, status: 'unhealthy' });
export const checkPassed = (db: Queryable, id: string) => emit(db, 'check.passed', { id, status: 'healthy' });

/** Clears what consumer tests write (history, flap state, silences, runs, rules, the queue) and answers
 * an event router with a fresh NotificationConsumer (rules read on every event). */
export async function freshConsumer(db: Database): Promise<EventRouter> {
  await db.exec(`DELETE FROM notification_send_history; DELETE FROM notification_flap_notices;
      DELETE FROM notification_resource_flips; DELETE FROM notification_silences; DELETE FROM playbook_runs;
      DELETE FROM notifications; DELETE FROM event_queue`);
  const router = new EventRouter(db);
  router.register(new NotificationConsumer({ publicUrl: 'https://opsdeck.example.com', rules: new RuleCache(0) }));
  return router;
}
