// The SQL half of notification delivery: claiming due `pending` send-history rows under a lease
// (FOR UPDATE SKIP LOCKED, so replicas never hold the same row), reading the rule, the group members
// and the resource's current state, and recording what came of a send. Every write after the claim
// names the lease owner: a replica whose lease expired (it hung, another took the row over) records
// nothing. The worker is in delivery.ts.
import type { Database, Queryable } from '../db/database.js';
import type { Payload } from './render.js';

export interface PendingRow {
  id: string;
  notification_id: string;
  source_event: string;
  resource_id: string | null;
  resource_type: string | null;
  resource: Record<string, unknown> | null;
  resource_health: string | null;
  resource_status: string | null;
  person_id: string | null;
  team_id: string | null;
  connection_id: string | null;
  recipient: string | null;
  body_payload: Payload | null;
  attempts: number;
  group_id: string | null;
  parent_id: string | null;
  dedup_key: string | null;
}

const ROW_COLUMNS = `id, notification_id, source_event, resource_id, resource_type, resource, resource_health,
  resource_status, person_id, team_id, connection_id, recipient, body_payload, attempts, group_id, parent_id, dedup_key`;

export interface Rule {
  id: string;
  name: string;
  title: string | null;
  template: string | null;
  events: string[];
  properties: Record<string, string> | null;
  custom_services: { connection?: string; url?: string; properties?: Record<string, string> }[] | null;
  wait_for: number | null;
  /** `{to: {...recipient}, delay}` or mission-control's inline `{email: ..., delay}`; delay in ns. */
  fallback: Record<string, unknown> | null;
  deleted_at: string | null;
}

const secs = (ms: number) => ms / 1000;

/** A claimed row with its rule (read in the same statement). */
export type Claimed = PendingRow & { rule: Rule };

const RULE_JSON = `jsonb_build_object('id', n.id, 'name', n.name, 'title', n.title, 'template', n.template,
  'events', to_jsonb(n.events), 'properties', n.properties, 'custom_services', n.custom_services,
  'wait_for', n.wait_for, 'fallback', n.fallback, 'deleted_at', n.deleted_at)`;

/** Claims up to `limit` due pending rows for `owner` until now + leaseMs, each with its rule. */
export async function claimDue(db: Queryable, owner: string, limit: number, leaseMs: number): Promise<Claimed[]> {
  const { rows } = await db.query<Claimed>(
    `UPDATE notification_send_history h SET lease_owner = $1,
       lease_until = now() + make_interval(secs => $3::double precision)
     FROM notifications n
     WHERE n.id = h.notification_id AND h.id IN (
       SELECT id FROM notification_send_history
       WHERE status = 'pending' AND (not_before IS NULL OR not_before <= now())
         AND (lease_until IS NULL OR lease_until < now())
       ORDER BY not_before NULLS FIRST, created_at
       LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING ${ROW_COLUMNS.replace(/(^|,\s*)(\w+)/g, '$1h.$2')}, ${RULE_JSON} AS rule`,
    [owner, limit, secs(leaseMs)],
    { prepare: 'notification_claim' },
  );
  return rows;
}

/** The embedded database has one process: leases a previous run left are stale. */
export async function releaseStaleLeases(db: Queryable): Promise<void> {
  await db.query(
    `UPDATE notification_send_history SET lease_owner = NULL, lease_until = NULL
     WHERE status = 'pending' AND lease_owner IS NOT NULL`,
  );
}

/** The rows `grouped` under a leader, oldest first. */
export async function groupMembers(db: Queryable, leader: PendingRow): Promise<PendingRow[]> {
  const { rows } = await db.query<PendingRow>(
    `SELECT ${ROW_COLUMNS} FROM notification_send_history
     WHERE group_id = $1 AND id <> $1 AND status = 'grouped' ORDER BY created_at, id`,
    [leader.id],
  );
  return rows;
}

/**
 * The state a waitFor re-check compares with the one the event named: checks.status,
 * components.health, config_items.health or incidents.status now; `gone` when deleted.
 */
export async function currentState(
  db: Queryable,
  resourceType: string,
  id: string,
): Promise<{ state: string | null; gone: boolean } | undefined> {
  const sql: Record<string, string> = {
    check: 'SELECT status AS state, deleted_at IS NOT NULL AS gone FROM checks WHERE id = $1',
    component: 'SELECT health AS state, deleted_at IS NOT NULL AS gone FROM components WHERE id = $1',
    config: 'SELECT health AS state, deleted_at IS NOT NULL AS gone FROM config_items WHERE id = $1',
    incident: 'SELECT status AS state, false AS gone FROM incidents WHERE id = $1',
  };
  const query = sql[resourceType];
  if (!query) return undefined;
  const { rows } = await db.query<{ state: string | null; gone: boolean }>(query, [id]);
  return rows[0] ?? { state: null, gone: true };
}

export interface SentRecord {
  title: string;
  body: string;
  durationMs: number;
  /** Members delivered in the leader's message. */
  memberIds: string[];
}

/** Records a delivered row (and its group members); false when this replica lost the lease. */
export async function recordSent(db: Database, row: PendingRow, owner: string, sent: SentRecord): Promise<boolean> {
  const sentSql = `UPDATE notification_send_history SET status = 'sent', title = $3, body = $4, duration_millis = $5,
      error = NULL, attempts = attempts + 1, lease_owner = NULL, lease_until = NULL, updated_at = now()
    WHERE id = $1 AND lease_owner = $2 AND status = 'pending'`;
  const sentParams = [row.id, owner, sent.title, sent.body, Math.round(sent.durationMs)];
  // Most rows lead no group: one statement.
  if (row.group_id !== row.id)
    return !!(await db.query(sentSql, sentParams, { prepare: 'notification_sent' })).affectedRows;
  return db.transaction(async (tx) => {
    const r = await tx.query(sentSql, sentParams);
    if (!r.affectedRows) return false;
    if (sent.memberIds.length)
      await tx.query(
        `UPDATE notification_send_history SET title = $2, body = $3, updated_at = now(),
           reason = coalesce(reason, 'grouped') || ' — delivered in the group''s message'
         WHERE id = ANY($1::uuid[]) AND status = 'grouped'`,
        [sent.memberIds, sent.title, sent.body],
      );
    // Members that joined while the message was on its way were not in it: they form a group of their
    // own, led by the oldest of them and due at once, rather than never being told.
    const { rows: late } = await tx.query<{ id: string }>(
      `SELECT id FROM notification_send_history
       WHERE group_id = $1 AND id <> $1 AND status = 'grouped' AND NOT (id = ANY($2::uuid[]))
       ORDER BY created_at, id`,
      [row.id, sent.memberIds],
    );
    if (late.length)
      await promoteLeader(
        tx,
        late[0]!.id,
        late.slice(1).map((l) => l.id),
        "leads the group: it joined after the previous leader's message was sent",
      );
    return true;
  });
}

export interface FailureRecord {
  error: string;
  title?: string;
  body?: string;
  durationMs?: number;
  /** Another attempt is allowed (the error is retryable and attempts remain). */
  retryInMs: number | undefined;
}

/** Records a failed attempt: pending again after a backoff, or `error`. Returns the new status. */
export async function recordFailure(
  tx: Queryable,
  row: PendingRow,
  owner: string,
  f: FailureRecord,
): Promise<'pending' | 'error' | 'lost'> {
  const status = f.retryInMs === undefined ? 'error' : 'pending';
  const r = await tx.query(
    `UPDATE notification_send_history SET status = $3, error = $4, attempts = attempts + 1,
       not_before = CASE WHEN $3 = 'pending' THEN now() + make_interval(secs => $5::double precision) ELSE not_before END,
       title = coalesce($6, title), body = coalesce($7, body), duration_millis = coalesce($8, duration_millis),
       lease_owner = NULL, lease_until = NULL, updated_at = now()
     WHERE id = $1 AND lease_owner = $2 AND status = 'pending'`,
    [
      row.id,
      owner,
      status,
      f.error.slice(0, 4000),
      secs(f.retryInMs ?? 0),
      f.title ?? null,
      f.body ?? null,
      f.durationMs === undefined ? null : Math.round(f.durationMs),
    ],
  );
  return r.affectedRows ? status : 'lost';
}

/** Ends a row without sending: `cancelled` with the reason (waitFor saw the resource recover). */
export async function recordCancelled(db: Queryable, row: PendingRow, owner: string, reason: string): Promise<boolean> {
  const r = await db.query(
    `UPDATE notification_send_history SET status = 'cancelled', reason = $3, lease_owner = NULL,
       lease_until = NULL, updated_at = now()
     WHERE id = $1 AND lease_owner = $2 AND status = 'pending'`,
    [row.id, owner, reason],
  );
  return !!r.affectedRows;
}

/**
 * waitForEvalPeriod: when waitFor has elapsed, the resource is asked to be looked at again now (its
 * canary, topology or scraper made due: whichever replica runs it next) and the row waits the eval
 * period before the state is compared, so the decision rests on a fresh result rather than a stale one.
 * Engines meet through rows: this only moves `next_runtime`.
 */
export async function deferForEvaluation(
  db: Queryable,
  row: PendingRow,
  owner: string,
  evalPeriodMs: number,
): Promise<boolean> {
  const id = row.resource_id;
  if (id) {
    if (row.resource_type === 'check')
      await db.query(
        `UPDATE canaries SET next_runtime = now() WHERE id = (SELECT canary_id FROM checks WHERE id = $1)`,
        [id],
      );
    else if (row.resource_type === 'component')
      await db.query(
        `UPDATE topologies SET next_runtime = now() WHERE id = (SELECT topology_id FROM components WHERE id = $1)`,
        [id],
      );
    else if (row.resource_type === 'config')
      await db.query(
        `UPDATE config_scrapers SET next_runtime = now() WHERE id = (SELECT scraper_id FROM config_items WHERE id = $1)`,
        [id],
      );
  }
  const r = await db.query(
    `UPDATE notification_send_history
     SET not_before = now() + make_interval(secs => $3::double precision / 1000),
         body_payload = jsonb_set(body_payload, '{wait_for,evaluated}', 'true'::jsonb),
         lease_owner = NULL, lease_until = NULL, updated_at = now()
     WHERE id = $1 AND lease_owner = $2 AND status = 'pending'`,
    [row.id, owner, evalPeriodMs],
  );
  return !!r.affectedRows;
}

/** Group members that recovered before waitFor elapsed: cancelled with the reason. */
export async function cancelMembers(db: Queryable, ids: string[], reason: string): Promise<void> {
  if (!ids.length) return;
  await db.query(
    `UPDATE notification_send_history SET status = 'cancelled', reason = $2, updated_at = now()
     WHERE id = ANY($1::uuid[]) AND status = 'grouped'`,
    [ids, reason],
  );
}

/**
 * The leader recovered but members did not: the oldest remaining member leads the group now (pending,
 * due at once), the others point at it.
 */
export async function promoteLeader(
  db: Queryable,
  newLeaderId: string,
  memberIds: string[],
  reason = 'leads the group: its first resource recovered before waitFor elapsed',
): Promise<void> {
  await db.query(
    `UPDATE notification_send_history SET group_id = $1, updated_at = now(),
       status = CASE WHEN id = $1 THEN 'pending' ELSE status END,
       not_before = CASE WHEN id = $1 THEN now() ELSE not_before END,
       reason = CASE WHEN id = $1 THEN $3 ELSE reason END
     WHERE id = ANY($2::uuid[]) AND status = 'grouped'`,
    [newLeaderId, [newLeaderId, ...memberIds], reason],
  );
}

/** A fallback recipient's row (see deliveryTargets.fallbackRecipients). */
export interface FallbackRecipient {
  kind: 'email' | 'connection' | 'url';
  value: string;
  display: string;
  personId?: string;
  teamId?: string;
  connectionId?: string;
}

/** Pending rows for the rule's fallback recipients, due after `delayMs`, parent_id = the failed row. */
export async function insertFallbacks(
  tx: Queryable,
  failed: PendingRow,
  recipients: FallbackRecipient[],
  delayMs: number,
): Promise<void> {
  for (const to of recipients) {
    const payload = { ...(failed.body_payload ?? {}), recipient: { kind: to.kind, value: to.value }, fallback: true };
    await tx.query(
      `INSERT INTO notification_send_history (notification_id, status, source_event, resource_id, resource_type,
         resource, resource_health, resource_status, person_id, team_id, connection_id, recipient, body_payload,
         not_before, parent_id, dedup_key, reason)
       VALUES ($1, 'pending', $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12,
         now() + make_interval(secs => $13::double precision), $14, $15, $16)`,
      [
        failed.notification_id,
        failed.source_event,
        failed.resource_id,
        failed.resource_type,
        failed.resource === null ? null : JSON.stringify(failed.resource),
        failed.resource_health,
        failed.resource_status,
        to.personId ?? null,
        to.teamId ?? null,
        to.connectionId ?? null,
        to.display,
        JSON.stringify(payload),
        secs(delayMs),
        failed.id,
        failed.dedup_key,
        `fallback: delivery to ${failed.recipient ?? 'the recipient'} failed`,
      ],
    );
  }
}
