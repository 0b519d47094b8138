// Flap damping (Opsdeck): a resource whose state changes more than `flaps` times within `window`
// (rule spec `flapping`, default 5 in 10m) gets one "flapping" message; further changes are held
// (`cancelled`, reason flapping) until it has been calm for the window, and then one "settled" message
// goes out. State changes are counted per resource (notification_resource_flips), notices per rule.
import type { Queryable } from '../db/database.js';
import type { EventResource } from './context.js';
import type { Rule } from './rules.js';

/** The most recent changes kept per resource (more than any sensible `flaps`). */
const KEEP_COUNT = 100;

export type FlapDecision =
  | { kind: 'none' }
  | { kind: 'flapping'; changes: number }
  | { kind: 'held'; changes: number; since: Date }
  | { kind: 'settled'; since: Date };

/** Whether an event announces a state change of its resource (the ones flap damping counts). */
export function isStateChange(eventName: string): boolean {
  return /^(check\.(passed|failed)|component\.\w+|config\.(healthy|unhealthy|warning|unknown))$/.test(eventName);
}

/** The resource's recent change times (oldest first) and whether any rule holds a flapping notice on it. */
export interface Changes {
  times: Date[];
  noticed: boolean;
}

/** Records this event's state change (the last KEEP_COUNT are kept); returns the recent changes. */
export async function recordChange(tx: Queryable, r: EventResource, eventName: string, at: Date): Promise<Changes> {
  // The state is kept as the event that announced it (check.failed), to replay it when the flapping settles.
  const { rows } = await tx.query<{ changes: Date[]; noticed: boolean }>(
    `INSERT INTO notification_resource_flips AS f (resource_id, changes, last_state, updated_at)
     VALUES ($1, ARRAY[$2::timestamptz], $3, now())
     ON CONFLICT (resource_id) DO UPDATE SET
       changes = CASE WHEN f.last_state IS NOT DISTINCT FROM EXCLUDED.last_state THEN f.changes
                 ELSE (f.changes || EXCLUDED.changes)[greatest(1, cardinality(f.changes) + 2 - $4):] END,
       last_state = EXCLUDED.last_state, updated_at = now()
     RETURNING changes, EXISTS (SELECT 1 FROM notification_flap_notices n WHERE n.resource_id = $1) AS noticed`,
    [r.id, at, eventName, KEEP_COUNT],
  );
  return { times: (rows[0]?.changes ?? []).map((d) => new Date(d)), noticed: rows[0]?.noticed ?? false };
}

/** What flap damping says about this event for this rule (and records the notice it starts or ends). */
export async function flapDecision(
  tx: Queryable,
  rule: Rule,
  r: EventResource,
  { times: changes, noticed }: Changes,
  at: Date,
): Promise<FlapDecision> {
  const { flaps, windowMs } = rule.flapping;
  const from = at.getTime() - windowMs;
  const recent = changes.filter((d) => d.getTime() > from).length;
  if (!noticed && recent <= flaps) return { kind: 'none' };
  const { rows } = await tx.query<{ since: Date }>(
    'SELECT since FROM notification_flap_notices WHERE notification_id = $1 AND resource_id = $2 FOR UPDATE',
    [rule.id, r.id],
  );
  const notice = rows[0];
  if (notice) {
    // Calm for the whole window before this change: it settled.
    const previous = changes.filter((d) => d.getTime() < at.getTime()).pop();
    if (!previous || previous.getTime() <= from) {
      await tx.query('DELETE FROM notification_flap_notices WHERE notification_id = $1 AND resource_id = $2', [
        rule.id,
        r.id,
      ]);
      return { kind: 'settled', since: new Date(notice.since) };
    }
    return { kind: 'held', changes: recent, since: new Date(notice.since) };
  }
  if (recent > flaps) {
    await tx.query(
      `INSERT INTO notification_flap_notices (notification_id, resource_id, since) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING`,
      [rule.id, r.id, at],
    );
    return { kind: 'flapping', changes: recent };
  }
  return { kind: 'none' };
}

/** A flapping notice whose resource has been calm since `last` (its state announced by `event`). */
export interface QuietNotice {
  notificationId: string;
  resourceId: string;
  since: Date;
  last: Date;
  event: string;
}

/** Flapping notices whose resource has not changed for `windowMs(rule)`; deleted as they are returned. */
export async function takeQuietNotices(
  tx: Queryable,
  windowMs: (notificationId: string) => number | undefined,
  limit = 100,
): Promise<QuietNotice[]> {
  const { rows } = await tx.query<{
    notification_id: string;
    resource_id: string;
    since: Date;
    last: Date;
    event: string;
  }>(
    `SELECT n.notification_id, n.resource_id, n.since, f.changes[cardinality(f.changes)] AS last, f.last_state AS event
     FROM notification_flap_notices n JOIN notification_resource_flips f ON f.resource_id = n.resource_id
     WHERE cardinality(f.changes) > 0 AND f.changes[cardinality(f.changes)] < now() - interval '1 second'
     ORDER BY f.changes[cardinality(f.changes)] LIMIT $1
     FOR UPDATE OF n SKIP LOCKED`,
    [limit],
  );
  const now = Date.now();
  const quiet: QuietNotice[] = [];
  for (const r of rows) {
    const w = windowMs(r.notification_id);
    if (w === undefined || new Date(r.last).getTime() > now - w) continue;
    await tx.query('DELETE FROM notification_flap_notices WHERE notification_id = $1 AND resource_id = $2', [
      r.notification_id,
      r.resource_id,
    ]);
    quiet.push({
      notificationId: r.notification_id,
      resourceId: r.resource_id,
      since: new Date(r.since),
      last: new Date(r.last),
      event: r.event,
    });
  }
  return quiet;
}
