// The consumer's decisions as send-history rows (the row contract in README.md), and the per-event
// look-ups behind them made in one statement each for every rule and recipient of the event: the
// advisory locks, earlier rows a new one repeats, and the pending leaders of groups.
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.js';
import type { QueuedEvent } from '../jobs/eventQueue.js';
import type { EventResource } from './context.js';
import type { FlapDecision } from './flapping.js';
import type { Destination, Unresolved } from './recipients.js';
import type { Rule } from './rules.js';

/** Fields of one history row; the rest come from the event. */
export interface Decision {
  status: 'pending' | 'silenced' | 'repeated' | 'inhibited' | 'grouped' | 'cancelled' | 'error' | 'sent';
  reason: string | null;
  delayMs?: number;
  error?: string;
  title?: string;
  silencedBy?: string;
  inhibitedBy?: string | null;
  parentId?: string;
  groupId?: string;
  groupKey?: string;
  id?: string;
  extra?: Record<string, unknown>;
}

/** A decided row: its rule, its recipient and what was decided. */
export interface Row {
  rule: Rule;
  d: Destination | Unresolved;
  decision: Decision;
}

export const duration = (ms: number): string => {
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
  ];
  for (const [size, unit] of units) if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return ms >= 1000 ? `${Math.round(ms / 1000)}s` : `${ms}ms`;
};
export const iso = (d: Date | string): string => new Date(d).toISOString();
export const describe = (r: EventResource | undefined): string => (r ? `${r.kind} ${r.name}` : 'the resource');

/** The row flap damping writes instead of the usual one, if any. */
export function flapRow(rule: Rule, r: EventResource | undefined, flap: FlapDecision): Decision | undefined {
  const window = duration(rule.flapping.windowMs);
  const what = describe(r);
  if (flap.kind === 'flapping')
    return {
      status: 'pending',
      title: `${what} is flapping`,
      reason: `${what} changed state ${flap.changes} times within ${window}: one "flapping" message; further changes are held until it is calm for ${window}`,
      extra: { flapping: 'flapping', flap_changes: flap.changes },
    };
  if (flap.kind === 'held')
    return {
      status: 'cancelled',
      reason: `flapping: ${what} has changed state ${flap.changes} times within ${window} (flapping since ${iso(flap.since)}); held until it is calm for ${window}`,
    };
  if (flap.kind === 'settled')
    return {
      status: 'pending',
      title: `${what} settled: ${r?.health ?? r?.status ?? 'stable'}`,
      reason: `${what} settled: no state change for ${window} after flapping since ${iso(flap.since)}`,
      extra: { flapping: 'settled' },
    };
  return undefined;
}

/** The `repeated` decision for an earlier row (sent, grouped or still pending) of the same message. */
export function repeatOf(prior: { id: string; status: string; created_at: Date }, repeatMs: number): Decision {
  const when = iso(prior.created_at);
  const reason =
    prior.status === 'pending'
      ? `Same notification already pending since ${when}`
      : `Repeat of the notification ${prior.status === 'grouped' ? 'grouped' : 'sent'} at ${when}; may be sent again after ${iso(new Date(new Date(prior.created_at).getTime() + repeatMs))} (repeatInterval ${duration(repeatMs)})`;
  return { status: 'repeated', reason, parentId: prior.id };
}

/** Serialises decisions on these keys across replicas for the rest of the transaction (sorted: no deadlock between two such calls). */
export async function lockKeys(tx: Queryable, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await tx.query('SELECT pg_advisory_xact_lock(hashtext(k)) FROM unnest($1::text[]) AS k', [[...new Set(keys)].sort()]);
}

/** Several one-row look-ups as one statement: `(<sql for ask 1>) UNION ALL (...)`, each tagged with its place. */
async function each<T>(
  tx: Queryable,
  count: number,
  shared: unknown[],
  sql: (p: (k: number) => string) => string,
  params: (i: number) => unknown[],
): Promise<((T & { i: number }) | undefined)[]> {
  const out = new Array<(T & { i: number }) | undefined>(count);
  if (!count) return out;
  const all = [...shared];
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const n = all.length;
    const mine = params(i);
    all.push(...mine);
    parts.push(
      `(SELECT ${i} AS i, x.* FROM (${sql((k) => (k <= shared.length ? `$${k}` : `$${n + k - shared.length}`))}) x)`,
    );
  }
  const { rows } = await tx.query<T & { i: number }>(parts.join(' UNION ALL '), all);
  for (const row of rows) out[Number(row.i)] = row;
  return out;
}

/** The latest row each (rule, recipient) repeats: still pending, or sent/grouped within its repeatInterval. */
export function findRepeats(
  tx: Queryable,
  event: QueuedEvent,
  r: EventResource,
  asks: { ruleId: string; recipient: string; repeatMs: number }[],
): Promise<({ id: string; status: string; created_at: Date } | undefined)[]> {
  return each<{ id: string; status: string; created_at: Date }>(
    tx,
    asks.length,
    [r.id, event.name],
    (p) => `SELECT id, status, created_at FROM notification_send_history
       WHERE resource_id = ${p(1)} AND notification_id = ${p(3)} AND source_event = ${p(2)}
         AND recipient IS NOT DISTINCT FROM ${p(4)}
         AND (status = 'pending' OR (status IN ('sent', 'grouped')
              AND created_at > now() - make_interval(secs => ${p(5)}::double precision / 1000)))
       ORDER BY created_at DESC LIMIT 1`,
    (i) => [asks[i]!.ruleId, asks[i]!.recipient, asks[i]!.repeatMs],
  );
}

/** The pending leader of each (rule, group key) within its interval, if any. */
export function findLeaders(
  tx: Queryable,
  asks: { ruleId: string; key: string; intervalMs: number }[],
): Promise<({ id: string; not_before: Date } | undefined)[]> {
  return each<{ id: string; not_before: Date }>(
    tx,
    asks.length,
    [],
    (p) => `SELECT id, not_before FROM notification_send_history
       WHERE notification_id = ${p(1)} AND group_key = ${p(2)} AND status = 'pending' AND group_id = id
         AND created_at > now() - make_interval(secs => ${p(3)}::double precision / 1000)
       ORDER BY created_at LIMIT 1`,
    (i) => [asks[i]!.ruleId, asks[i]!.key, asks[i]!.intervalMs],
  );
}

/**
 * Writes decided rows with one INSERT, in order: created_at is the clock time plus the row's place in
 * microseconds, so rows keep the order they were decided in.
 */
export async function insertRows(
  tx: Queryable,
  event: QueuedEvent,
  r: EventResource | undefined,
  env: Record<string, unknown>,
  rows: Row[],
): Promise<void> {
  if (!rows.length) return;
  const params: unknown[] = [];
  const values: string[] = [];
  rows.forEach(({ rule, d, decision }, i) => {
    const dest = 'error' in d ? undefined : d;
    const payload = {
      ...env,
      recipient: dest ? { kind: dest.kind, value: dest.value, properties: dest.properties } : null,
      ...decision.extra,
    };
    const n = params.length;
    const p = (k: number) => `$${n + k}`;
    params.push(
      decision.id ?? crypto.randomUUID(),
      rule.id,
      decision.status,
      event.name,
      r?.id ?? null,
      r?.kind ?? null,
      r ? JSON.stringify(r.snapshot) : null,
      r?.health ?? null,
      r?.status ?? null,
      d.personId,
      d.teamId,
      dest?.connectionId ?? null,
      d.display,
      decision.title ?? null,
      JSON.stringify(payload),
      decision.error ?? null,
      decision.delayMs ?? 0,
      decision.silencedBy ?? null,
      decision.inhibitedBy ?? null,
      decision.groupId ?? null,
      decision.groupKey ?? null,
      decision.parentId ?? null,
      decision.reason,
      r ? `${rule.id}:${r.id}` : rule.id,
    );
    const at = `clock_timestamp() + interval '${i} microseconds'`;
    values.push(
      `(${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}, ${p(4)}, ${p(5)}::uuid, ${p(6)}, ${p(7)}::jsonb, ${p(8)}, ${p(9)},
        ${p(10)}::uuid, ${p(11)}::uuid, ${p(12)}::uuid, ${p(13)}, ${p(14)}, ${p(15)}::jsonb, ${p(16)},
        CASE WHEN ${p(3)} = 'pending' THEN ${at} + make_interval(secs => ${p(17)}::double precision / 1000) END,
        ${p(18)}::uuid, ${p(19)}::uuid, ${p(20)}::uuid, ${p(21)}, ${p(22)}::uuid, ${p(23)}, ${p(24)}, ${at}, ${at}, ${at})`,
    );
  });
  await tx.query(
    `INSERT INTO notification_send_history (id, notification_id, status, source_event, resource_id, resource_type,
       resource, resource_health, resource_status, person_id, team_id, connection_id, recipient, title, body_payload,
       error, not_before, silenced_by, inhibited_by, group_id, group_key, parent_id, reason, dedup_key, created_at,
       first_observed, updated_at)
     VALUES ${values.join(',\n')}`,
    params,
  );
}
