// The notification event consumer: inside the event router's transaction (jobs/eventQueue.ts), turns
// one event into decisions for every live rule naming it, each written as a notification_send_history
// row with a reason a person understands. Database reads and writes only; delivery (delivery.ts) sends
// the `pending` rows later under its own lease.
//
// Row contract (also in README.md), per (event, rule, recipient):
//   notification_id, status (pending | silenced | repeated | inhibited | grouped | cancelled | error |
//   sent for playbook recipients), source_event, resource_id, resource_type (check, component, config,
//   incident, playbook_run), resource (snapshot {id, name, type, namespace, status, health, ...}),
//   resource_health / resource_status (the state the event announced: delivery's waitFor re-check),
//   body_payload = the CEL/template environment {check, canary, component, config, incident, playbook,
//   run, agent, event_time, permalink, event: {name, properties}} + recipient {kind: email | connection |
//   url | playbook, value: the raw destination, secrets included} (+ flapping: 'flapping' | 'settled',
//   + wait_for: {state, eval_period_ms} when the rule waits, + group_by when it groups),
//   person_id / team_id / connection_id, recipient (display text, never a secret), not_before (now,
//   now + waitFor, or now + group wait for a group leader), dedup_key = `<rule id>:<resource id>`,
//   group_id (= the leader's id, on the leader and its `grouped` members), group_key, reason,
//   silenced_by, inhibited_by, parent_id (the row a `repeated` one repeats).
//
// Order of decisions per rule: filter → recipients → silence → flap damping → repeat → inhibition →
// grouping / waitFor. A filter that fails records the error on its rule and skips only that rule.
import crypto from 'node:crypto';
import type { Queryable } from '../db/database.js';
import type { EventConsumer, QueuedEvent } from '../jobs/eventQueue.js';
import { CelFilterEnv } from './celFilter.js';
import { buildContext, type EventResource } from './context.js';
import {
  flapDecision,
  isStateChange,
  recordChange,
  takeQuietNotices,
  type Changes,
  type FlapDecision,
} from './flapping.js';
import { DEFAULT_GROUP_INTERVAL_MS, DEFAULT_GROUP_WAIT_MS, findLeader, groupKey, lockKey } from './grouping.js';
import { findInhibitor, type Inhibitor } from './inhibitions.js';
import { queuePlaybookRun } from './playbookRecipient.js';
import { expandRecipients, type Destination, type Unresolved } from './recipients.js';
import { RuleCache, setRuleError, type Rule } from './rules.js';
import { findSilence, silenceReason, type Silence } from './silences.js';

export interface NotificationConsumerOptions {
  /** PUBLIC_URL: permalinks point into the console. */
  publicUrl: string;
  /** How long a group leader waits for the rest of its group (default 30 s, or the rule's waitFor). */
  groupWaitMs?: number;
  /** How often (at most) an event also looks for flapping resources that settled quietly (default 30 s). */
  settleEveryMs?: number;
  rules?: RuleCache;
}

/** Fields of one history row; the rest come from the event. */
interface Decision {
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

const duration = (ms: number): string => {
  const units: [number, string][] = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1000, 's'],
  ];
  for (const [size, unit] of units) if (ms >= size && ms % size === 0) return `${ms / size}${unit}`;
  return ms >= 1000 ? `${Math.round(ms / 1000)}s` : `${ms}ms`;
};
const iso = (d: Date | string): string => new Date(d).toISOString();
const describe = (r: EventResource | undefined): string => (r ? `${r.kind} ${r.name}` : 'the resource');

export class NotificationConsumer implements EventConsumer {
  readonly name = 'notifications';
  private readonly rules: RuleCache;
  private readonly groupWaitMs: number;
  private settledAt = 0;

  constructor(private readonly options: NotificationConsumerOptions) {
    this.rules = options.rules ?? new RuleCache();
    this.groupWaitMs = options.groupWaitMs ?? DEFAULT_GROUP_WAIT_MS;
  }

  /** Every event: flap damping counts state changes even of events no rule names. */
  accepts(): boolean {
    return true;
  }

  async handle(tx: Queryable, event: QueuedEvent): Promise<void> {
    if (Date.now() - this.settledAt >= (this.options.settleEveryMs ?? 30_000)) {
      this.settledAt = Date.now();
      await tx.query('SAVEPOINT notification_settle');
      try {
        await this.settleQuiet(tx);
        await tx.query('RELEASE SAVEPOINT notification_settle');
      } catch (e) {
        await tx.query('ROLLBACK TO SAVEPOINT notification_settle');
        console.error('notifications: settling flapping resources:', (e as Error).message);
      }
    }
    const all = await this.rules.forEvent(tx, event.name);
    const stateChange = isStateChange(event.name);
    if (!all.length && !(stateChange && (await this.rules.any(tx)))) return;
    const { resource, env } = await buildContext(tx, event, this.options.publicUrl);
    const at = new Date(event.created_at);
    const changes: Changes =
      stateChange && resource ? await recordChange(tx, resource, event.name, at) : { times: [], noticed: false };
    let silence: Silence | undefined | null = null;
    const cel = new CelFilterEnv(env);
    for (const rule of all) {
      // The filter is pure (its error is one UPDATE): only a rule that passes pays for a savepoint.
      if (!(await this.passesFilter(tx, rule, cel))) continue;
      await tx.query('SAVEPOINT notification_rule');
      try {
        if (silence === null) silence = await findSilence(tx, resource, cel);
        await this.decide(tx, event, rule, resource, env, { silence, changes, at, stateChange });
        await tx.query('RELEASE SAVEPOINT notification_rule');
      } catch (e) {
        // One broken rule does not hold the others (nor retry the event for them).
        await tx.query('ROLLBACK TO SAVEPOINT notification_rule');
        await setRuleError(tx, rule, `${event.name}: ${(e as Error).message}`);
      }
    }
  }

  /**
   * One "settled" message for each flapping resource that has been calm for its rule's window without a
   * further event (the change that would otherwise announce it never comes when it settles quietly).
   */
  async settleQuiet(tx: Queryable): Promise<number> {
    if (!(await this.rules.any(tx))) return 0;
    const windows = new Map<string, Rule>();
    const { rows: ids } = await tx.query<{ notification_id: string }>(
      'SELECT DISTINCT notification_id FROM notification_flap_notices',
    );
    for (const { notification_id } of ids) {
      const rule = await this.rules.byId(tx, notification_id);
      if (rule) windows.set(rule.id, rule);
    }
    const quiet = await takeQuietNotices(tx, (id) => windows.get(id)?.flapping.windowMs);
    for (const q of quiet) {
      const rule = windows.get(q.notificationId)!;
      const event: QueuedEvent = {
        id: q.resourceId,
        name: q.event,
        properties: { id: q.resourceId },
        attempts: 0,
        created_at: new Date(),
      };
      const { resource, env } = await buildContext(tx, event, this.options.publicUrl);
      if (!resource) continue;
      const silence = await findSilence(tx, resource, new CelFilterEnv(env));
      for (const d of await expandRecipients(tx, rule)) {
        if ('error' in d || d.kind === 'playbook') continue;
        const decision: Decision = silence
          ? { status: 'silenced', reason: silenceReason(silence), silencedBy: silence.id }
          : this.flapRow(rule, resource, { kind: 'settled', since: q.since })!;
        await this.insert(tx, event, rule, resource, d, env, decision);
      }
    }
    return quiet.length;
  }

  /** The rule's CEL filter; an error is recorded on the rule and skips it. */
  private async passesFilter(tx: Queryable, rule: Rule, cel: CelFilterEnv): Promise<boolean> {
    if (!rule.filter) return true;
    let result: unknown;
    try {
      result = cel.evaluate(rule.filter);
    } catch (e) {
      await setRuleError(tx, rule, `filter: ${(e as Error).message}`);
      return false;
    }
    if (typeof result !== 'boolean') {
      await setRuleError(tx, rule, `filter: must give true or false, got ${JSON.stringify(result)}`);
      return false;
    }
    await setRuleError(tx, rule, null);
    return result;
  }

  private async decide(
    tx: Queryable,
    event: QueuedEvent,
    rule: Rule,
    r: EventResource | undefined,
    env: Record<string, unknown>,
    s: { silence: Silence | undefined; changes: Changes; at: Date; stateChange: boolean },
  ): Promise<void> {
    const destinations = await expandRecipients(tx, rule);
    const flap: FlapDecision =
      s.stateChange && r && !s.silence ? await flapDecision(tx, rule, r, s.changes, s.at) : { kind: 'none' };
    let inhibitor: Inhibitor | undefined | null = null;
    for (const d of destinations) {
      const write = (decision: Decision) => this.insert(tx, event, rule, r, d, env, decision);
      if ('error' in d) {
        await write({ status: 'error', reason: d.error, error: d.error });
        continue;
      }
      if (s.silence) {
        await write({ status: 'silenced', reason: silenceReason(s.silence), silencedBy: s.silence.id });
        continue;
      }
      const flapped = this.flapRow(rule, r, flap);
      if (flapped) {
        await write(flapped);
        continue;
      }
      const repeat = await this.findRepeat(tx, event, rule, r, d);
      if (repeat) {
        await write(repeat);
        continue;
      }
      if (inhibitor === null) inhibitor = await findInhibitor(tx, rule, r, event.name);
      if (inhibitor) {
        await write({ status: 'inhibited', reason: inhibitor.reason, inhibitedBy: inhibitor.id });
        continue;
      }
      if (d.kind === 'playbook') {
        await this.runPlaybook(tx, rule, r, d, write);
        continue;
      }
      await write(await this.schedule(tx, event, rule, r, d));
    }
  }

  /** The row flap damping writes instead of the usual one, if any. */
  private flapRow(rule: Rule, r: EventResource | undefined, flap: FlapDecision): Decision | undefined {
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

  /** A `repeated` decision when the same message was sent (or is still pending) within repeatInterval. */
  private async findRepeat(
    tx: Queryable,
    event: QueuedEvent,
    rule: Rule,
    r: EventResource | undefined,
    d: Destination,
  ): Promise<Decision | undefined> {
    if (!r) return undefined;
    await lockKey(tx, `repeat:${rule.id}:${r.id}:${d.kind}:${d.value}`);
    const repeatMs = rule.repeatIntervalMs ?? 0;
    const { rows } = await tx.query<{ id: string; status: string; created_at: Date }>(
      `SELECT id, status, created_at FROM notification_send_history
       WHERE resource_id = $1 AND notification_id = $2 AND source_event = $3 AND recipient IS NOT DISTINCT FROM $4
         AND (status = 'pending' OR (status IN ('sent', 'grouped')
              AND created_at > now() - make_interval(secs => $5::double precision / 1000)))
       ORDER BY created_at DESC LIMIT 1`,
      [r.id, rule.id, event.name, d.display, repeatMs],
    );
    const prior = rows[0];
    if (!prior) return undefined;
    const when = iso(prior.created_at);
    const reason =
      prior.status === 'pending'
        ? `Same notification already pending since ${when}`
        : `Repeat of the notification ${prior.status === 'grouped' ? 'grouped' : 'sent'} at ${when}; may be sent again after ${iso(new Date(new Date(prior.created_at).getTime() + repeatMs))} (repeatInterval ${duration(repeatMs)})`;
    return { status: 'repeated', reason, parentId: prior.id };
  }

  /** A pending row: alone (now or after waitFor), as a group's leader, or grouped under one. */
  private async schedule(
    tx: Queryable,
    event: QueuedEvent,
    rule: Rule,
    r: EventResource | undefined,
    d: Destination,
  ): Promise<Decision> {
    const waitMs = rule.waitForMs ?? 0;
    const waitExtra = waitMs
      ? { wait_for: { state: r?.health ?? r?.status ?? null, eval_period_ms: rule.waitForEvalPeriodMs ?? 0 } }
      : {};
    const waitReason = waitMs
      ? `Waiting ${duration(waitMs)}: sent only if ${describe(r)} is still ${r?.health ?? r?.status ?? 'in this state'}`
      : null;
    if (!rule.groupBy.length || !r) return { status: 'pending', reason: waitReason, delayMs: waitMs, extra: waitExtra };
    const key = groupKey(rule.groupBy, r, event.name, d.display);
    await lockKey(tx, `group:${rule.id}:${key}`);
    const leader = await findLeader(tx, rule.id, key, rule.groupByIntervalMs ?? DEFAULT_GROUP_INTERVAL_MS);
    const extra = { ...waitExtra, group_by: rule.groupBy };
    if (leader)
      return {
        status: 'grouped',
        groupId: leader.id,
        groupKey: key,
        reason: `Grouped with notification ${leader.id} (groupBy ${rule.groupBy.join(', ')}): sent together at ${iso(leader.not_before)}`,
        extra,
      };
    const id = crypto.randomUUID();
    const delayMs = Math.max(waitMs, this.groupWaitMs);
    return {
      status: 'pending',
      id,
      groupId: id,
      groupKey: key,
      delayMs,
      reason: `${waitReason ? `${waitReason}. ` : ''}Leads its group (groupBy ${rule.groupBy.join(', ')}): waiting ${duration(delayMs)} for others to join`,
      extra,
    };
  }

  /** A playbook recipient: a pending playbook_runs row (the playbook engine runs it) and a `sent` row. */
  private async runPlaybook(
    tx: Queryable,
    rule: Rule,
    r: EventResource | undefined,
    d: Destination,
    write: (decision: Decision) => Promise<string>,
  ): Promise<void> {
    const runId = await queuePlaybookRun(tx, d.playbookId!, r);
    await write({
      status: 'sent',
      reason: `Started ${d.display}: run ${runId}`,
      extra: { playbook_run_id: runId, rule: rule.name },
    });
  }

  private async insert(
    tx: Queryable,
    event: QueuedEvent,
    rule: Rule,
    r: EventResource | undefined,
    d: Destination | Unresolved,
    env: Record<string, unknown>,
    decision: Decision,
  ): Promise<string> {
    const dest = 'error' in d ? undefined : d;
    const payload = {
      ...env,
      recipient: dest ? { kind: dest.kind, value: dest.value, properties: dest.properties } : null,
      ...decision.extra,
    };
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO notification_send_history (id, notification_id, status, source_event, resource_id, resource_type,
         resource, resource_health, resource_status, person_id, team_id, connection_id, recipient, title, body_payload,
         error, not_before, silenced_by, inhibited_by, group_id, group_key, parent_id, reason, dedup_key, created_at,
         first_observed, updated_at)
       VALUES (coalesce($1::uuid, gen_random_uuid()), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
         CASE WHEN $3 = 'pending' THEN clock_timestamp() + make_interval(secs => $17::double precision / 1000) END,
         $18, $19, $20, $21, $22, $23, $24, clock_timestamp(), clock_timestamp(), clock_timestamp())
       RETURNING id`,
      [
        decision.id ?? null,
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
      ],
    );
    return rows[0]!.id;
  }
}
