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
import type { EventConsumer, HandleMode, QueuedEvent } from '../jobs/eventQueue.js';
import { CelFilterEnv } from './celFilter.js';
import { buildContext, prefetchContexts, type EventContext, type EventResource } from './context.js';
import {
  describe,
  duration,
  findLeaders,
  findRepeats,
  flapRow,
  insertRows,
  iso,
  lockKeys,
  repeatOf,
  type Decision,
  type Row,
} from './decisions.js';
import {
  flapDecision,
  isStateChange,
  recordChange,
  takeQuietNotices,
  type Changes,
  type FlapDecision,
} from './flapping.js';
import { DEFAULT_GROUP_INTERVAL_MS, DEFAULT_GROUP_WAIT_MS, groupKey } from './grouping.js';
import { findInhibitor, type Inhibitor } from './inhibitions.js';
import { queuePlaybookRun } from './playbookRecipient.js';
import { expandRecipients, type Destination } from './recipients.js';
import { RuleCache, setRuleError, type Rule } from './rules.js';
import {
  activeSilences,
  findSilence,
  matchSilence,
  silencedBy,
  silenceReason,
  type ActiveSilence,
  type Silence,
} from './silences.js';
import { logger } from '../log.js';

const log = logger('notifications');

export interface NotificationConsumerOptions {
  /** PUBLIC_URL: permalinks point into the console. */
  publicUrl: string;
  /** How long a group leader waits for the rest of its group (default 30 s, or the rule's waitFor). */
  groupWaitMs?: number;
  /** How often (at most) an event also looks for flapping resources that settled quietly (default 30 s). */
  settleEveryMs?: number;
  rules?: RuleCache;
  /**
   * Advisory locks around repeat and group decisions, for replicas on one PostgreSQL (default true).
   * An embedded PGlite needs none: its transactions run one at a time.
   */
  advisoryLocks?: boolean;
}

/** What an unguarded event-router batch read once for all its events (prepare). */
interface Batch {
  tx: Queryable;
  contexts: Map<string, EventContext>;
  silences: ActiveSilence[];
}

/** What every rule of one event shares. */
interface Facts {
  silence: Silence | undefined;
  changes: Changes;
  at: Date;
  stateChange: boolean;
}

/** A row that passed silences and flap damping: repeat, inhibition and grouping decide next. */
interface Open {
  row: Row;
  d: Destination;
  prior?: { id: string; status: string; created_at: Date };
  leader?: { id: string; not_before: Date };
  key?: string;
}

export class NotificationConsumer implements EventConsumer {
  readonly name = 'notifications';
  private readonly rules: RuleCache;
  private readonly groupWaitMs: number;
  private settledAt = 0;
  private batch: Batch | undefined;

  constructor(private readonly options: NotificationConsumerOptions) {
    this.rules = options.rules ?? new RuleCache();
    this.groupWaitMs = options.groupWaitMs ?? DEFAULT_GROUP_WAIT_MS;
  }

  /** Every event: flap damping counts state changes even of events no rule names. */
  accepts(): boolean {
    return true;
  }

  /** An unguarded batch: its checks and the active silences, one query each. */
  async prepare(tx: Queryable, events: QueuedEvent[]): Promise<void> {
    this.batch = undefined;
    if (!(await this.rules.any(tx))) return;
    const contexts = await prefetchContexts(tx, events, this.options.publicUrl);
    this.batch = { tx, contexts, silences: await activeSilences(tx) };
  }

  /** Rolled back: cached rule errors may not have been written after all. */
  rolledBack(): void {
    this.batch = undefined;
    this.rules.invalidate();
  }

  async handle(tx: Queryable, event: QueuedEvent, mode: HandleMode = { guarded: true }): Promise<void> {
    const batch = !mode.guarded && this.batch?.tx === tx ? this.batch : undefined;
    if (Date.now() - this.settledAt >= (this.options.settleEveryMs ?? 30_000)) {
      this.settledAt = Date.now();
      await tx.query('SAVEPOINT notification_settle');
      try {
        await this.settleQuiet(tx);
        await tx.query('RELEASE SAVEPOINT notification_settle');
      } catch (e) {
        await tx.query('ROLLBACK TO SAVEPOINT notification_settle');
        log.error(`notifications: settling flapping resources: ${(e as Error).message}`);
      }
    }
    const all = await this.rules.forEvent(tx, event.name);
    const stateChange = isStateChange(event.name);
    if (!all.length && !(stateChange && (await this.rules.any(tx)))) return;
    const { resource, env } = batch?.contexts.get(event.id) ?? (await buildContext(tx, event, this.options.publicUrl));
    const at = new Date(event.created_at);
    const changes: Changes =
      stateChange && resource ? await recordChange(tx, resource, event.name, at) : { times: [], noticed: false };
    const cel = new CelFilterEnv(env);
    // Filters are pure and in memory (an error is one UPDATE): only rules that pass cost queries.
    const passing: Rule[] = [];
    for (const rule of all) if (await this.passesFilter(tx, rule, cel)) passing.push(rule);
    if (!passing.length) return;
    if (!mode.guarded) {
      // No savepoints: a failure rolls the batch back, and the guarded run records it on its rule.
      const silence = batch
        ? await matchSilence(tx, batch.silences, resource, cel)
        : await findSilence(tx, resource, cel);
      await this.decide(tx, event, passing, resource, env, { silence, changes, at, stateChange });
      return;
    }
    let silence: Silence | undefined | null = null;
    for (const rule of passing) {
      await tx.query('SAVEPOINT notification_rule');
      try {
        if (silence === null) silence = await findSilence(tx, resource, cel);
        await this.decide(tx, event, [rule], resource, env, { silence, changes, at, stateChange });
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
      const rows: Row[] = [];
      for (const d of await expandRecipients(tx, rule)) {
        if ('error' in d || d.kind === 'playbook') continue;
        const decision: Decision = silence
          ? { status: 'silenced', reason: silenceReason(silence), silencedBy: silencedBy(silence) }
          : flapRow(rule, resource, { kind: 'settled', since: q.since })!;
        rows.push({ rule, d, decision });
      }
      await insertRows(tx, event, resource, env, rows);
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

  /**
   * The rows of these rules for one event, decided in order as if written one by one, with the look-ups
   * they share made once: the locks, the rows they may repeat, the groups' leaders; then one INSERT.
   */
  private async decide(
    tx: Queryable,
    event: QueuedEvent,
    rules: Rule[],
    r: EventResource | undefined,
    env: Record<string, unknown>,
    s: Facts,
  ): Promise<void> {
    const rows: Row[] = [];
    const open: Open[] = [];
    for (const rule of rules) {
      const destinations = await expandRecipients(tx, rule);
      const flap: FlapDecision =
        s.stateChange && r && !s.silence ? await flapDecision(tx, rule, r, s.changes, s.at) : { kind: 'none' };
      for (const d of destinations) {
        const decided: Decision | undefined =
          'error' in d
            ? { status: 'error', reason: d.error, error: d.error }
            : s.silence
              ? { status: 'silenced', reason: silenceReason(s.silence), silencedBy: silencedBy(s.silence) }
              : flapRow(rule, r, flap);
        // Without a decision yet (the row is open), `pending` until repeat/inhibition/grouping decide.
        const row: Row = { rule, d, decision: decided ?? { status: 'pending', reason: null } };
        rows.push(row);
        if (!decided && !('error' in d)) open.push({ row, d });
      }
    }
    if (r && open.length) await this.lookUp(tx, event, r, open);
    // In-event rows a later one repeats (latest first) or joins as its group's leader (earliest first).
    const written = new Map<string, { id: string; status: string; created_at: Date }>();
    const leaders = new Map<string, { id: string; not_before: Date }>();
    const inhibitors = new Map<Rule, Inhibitor | undefined>();
    for (const o of open) {
      const { rule } = o.row;
      const same = `${rule.id}\n${o.d.display}`;
      const prior = r ? (written.get(same) ?? o.prior) : undefined;
      if (prior) {
        o.row.decision = repeatOf(prior, rule.repeatIntervalMs ?? 0);
        continue;
      }
      if (!inhibitors.has(rule)) inhibitors.set(rule, await findInhibitor(tx, rule, r, event.name));
      const inhibitor = inhibitors.get(rule);
      if (inhibitor) {
        o.row.decision = { status: 'inhibited', reason: inhibitor.reason, inhibitedBy: inhibitor.id };
        continue;
      }
      if (o.d.kind === 'playbook') {
        const runId = await queuePlaybookRun(tx, o.d.playbookId!, r);
        o.row.decision = {
          status: 'sent',
          reason: `Started ${o.d.display}: run ${runId}`,
          extra: { playbook_run_id: runId, rule: rule.name },
        };
      } else {
        const group = `${rule.id}\n${o.key}`;
        o.row.decision = this.schedule(rule, r, o.key, o.leader ?? leaders.get(group));
        if (o.row.decision.status === 'pending' && o.key)
          leaders.set(group, {
            id: o.row.decision.id!,
            not_before: new Date(Date.now() + (o.row.decision.delayMs ?? 0)),
          });
      }
      o.row.decision.id ??= crypto.randomUUID();
      written.set(same, { id: o.row.decision.id, status: o.row.decision.status, created_at: new Date() });
    }
    await insertRows(tx, event, r, env, rows);
  }

  /** Locks, then the rows each open row may repeat and its group's leader: one statement each. */
  private async lookUp(tx: Queryable, event: QueuedEvent, r: EventResource, open: Open[]): Promise<void> {
    const grouped = open.filter((o) => o.row.rule.groupBy.length && o.d.kind !== 'playbook');
    for (const o of grouped) o.key = groupKey(o.row.rule.groupBy, r, event.name, o.d.display);
    if (this.options.advisoryLocks !== false)
      await lockKeys(tx, [
        ...open.map((o) => `repeat:${o.row.rule.id}:${r.id}:${o.d.kind}:${o.d.value}`),
        ...grouped.map((o) => `group:${o.row.rule.id}:${o.key}`),
      ]);
    const priors = await findRepeats(
      tx,
      event,
      r,
      open.map((o) => ({ ruleId: o.row.rule.id, recipient: o.d.display, repeatMs: o.row.rule.repeatIntervalMs ?? 0 })),
    );
    open.forEach((o, i) => (o.prior = priors[i]));
    const leaders = await findLeaders(
      tx,
      grouped.map((o) => ({
        ruleId: o.row.rule.id,
        key: o.key!,
        intervalMs: o.row.rule.groupByIntervalMs ?? DEFAULT_GROUP_INTERVAL_MS,
      })),
    );
    grouped.forEach((o, i) => (o.leader = leaders[i]));
  }

  /** A pending row: alone (now or after waitFor), as a group's leader, or grouped under one. */
  private schedule(
    rule: Rule,
    r: EventResource | undefined,
    key: string | undefined,
    leader: { id: string; not_before: Date } | undefined,
  ): Decision {
    const waitMs = rule.waitForMs ?? 0;
    const waitExtra = waitMs
      ? { wait_for: { state: r?.health ?? r?.status ?? null, eval_period_ms: rule.waitForEvalPeriodMs ?? 0 } }
      : {};
    const waitReason = waitMs
      ? `Waiting ${duration(waitMs)}: sent only if ${describe(r)} is still ${r?.health ?? r?.status ?? 'in this state'}`
      : null;
    if (!rule.groupBy.length || !r || key === undefined)
      return { status: 'pending', reason: waitReason, delayMs: waitMs, extra: waitExtra };
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
}
