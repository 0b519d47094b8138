// Notification delivery: the worker that sends the `pending` rows the event consumer writes. It claims
// due rows under a lease (several replicas never hold the same row), re-checks waitFor, renders the
// message (a group leader names its members), sends it outside any transaction through the row's
// channel, and records `sent`, a retry after a backoff, `error` (with the rule's fallback recipient
// queued) or `cancelled`. A replica killed mid-send leaves its rows to be taken over once their
// lease expires. SQL: deliveryStore.ts; recipients: deliveryTargets.ts; message: render.ts.
import { formatDurationNs } from '@opsdeck/common/notifications';
import type { Database } from '../db/database.js';
import {
  cancelMembers,
  claimDue,
  currentState,
  deferForEvaluation,
  groupMembers,
  insertFallbacks,
  promoteLeader,
  recordCancelled,
  recordFailure,
  recordSent,
  releaseStaleLeases,
  type Claimed,
  type PendingRow,
  type Rule,
} from './deliveryStore.js';
import {
  fallbackDelayMs,
  fallbackRecipients,
  fallbackTo,
  resolveTarget,
  ruleProperties,
  type Channels,
} from './deliveryTargets.js';
import { renderMessage, resourceName } from './render.js';
import { SenderError, type NotificationMessage, type SendContext } from './senders/sender.js';
import { logger } from '../log.js';
import { LeaseHeartbeat, ownerId } from '../jobs/heartbeat.js';

const log = logger('notifications');

export interface DeliveryOptions {
  channels: Channels;
  /** The server's SMTP (config.smtpUrl / smtpFrom), for email to people, teams and addresses. */
  smtp: SendContext['smtp'];
  /** How often to look for due rows when none were found. */
  pollMs?: number;
  /** Sends under way at once in this replica. */
  concurrency?: number;
  /** How long a claimed row stays with this replica unless renewed (ignored with `leases`); default 30 s. */
  leaseMs?: number;
  /** The replica's lease heartbeat (one for all engines); without it delivery keeps its own. */
  leases?: LeaseHeartbeat;
  sendTimeoutMs?: number;
  /** Attempts before a retryable failure becomes `error`. */
  maxAttempts?: number;
  /** Backoff before attempt n+1: retryBaseMs · 2^(n-1). */
  retryBaseMs?: number;
}

export type Outcome = 'sent' | 'pending' | 'error' | 'cancelled' | 'lost';

const HEALTH = new Set(['healthy', 'unhealthy', 'warning', 'unknown']);
const BAD_STATES = new Set(['unhealthy', 'warning', 'open', 'new', 'investigating']);

/** The state the event named, which waitFor expects the resource still to be in. */
export function expectedState(row: PendingRow): string | undefined {
  const declared = (row.body_payload?.wait_for as { state?: unknown } | undefined)?.state;
  if (typeof declared === 'string' && declared) return declared;
  const [kind, a, b] = row.source_event.split('.');
  if (kind === 'check') return a === 'failed' ? 'unhealthy' : a === 'passed' ? 'healthy' : undefined;
  if ((kind === 'component' || kind === 'config') && a && HEALTH.has(a)) return a;
  if (kind === 'incident' && a === 'status') return b;
  return undefined;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class NotificationDelivery {
  readonly owner = ownerId();
  private readonly o: Required<Omit<DeliveryOptions, 'channels' | 'smtp' | 'leases' | 'leaseMs'>>;
  /** Renews the leases of the sends under way. */
  private readonly leases: LeaseHeartbeat;
  private readonly inFlight = new Set<Promise<unknown>>();
  private loopDone: Promise<void> | undefined;
  private stopping = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly db: Database,
    private readonly deps: DeliveryOptions,
  ) {
    this.o = {
      pollMs: deps.pollMs ?? 250,
      concurrency: deps.concurrency ?? 16,
      sendTimeoutMs: deps.sendTimeoutMs ?? 30_000,
      maxAttempts: deps.maxAttempts ?? 4,
      retryBaseMs: deps.retryBaseMs ?? 10_000,
    };
    this.leases = deps.leases ?? new LeaseHeartbeat(db, { leaseMs: deps.leaseMs });
  }

  start(): void {
    this.stopping = false;
    this.loopDone = this.loop();
  }

  /** Stops claiming and waits for the sends under way to be recorded. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake?.();
    await this.loopDone;
    await Promise.allSettled([...this.inFlight]);
  }

  /** Sends everything due now (tests, tools); returns how many rows were handled. */
  async drain(): Promise<number> {
    let handled = 0;
    for (;;) {
      const since = Date.now();
      const rows = await claimDue(this.db, this.owner, this.o.concurrency, this.leases.leaseMs);
      if (!rows.length) return handled;
      await Promise.all(rows.map((row) => this.deliverLogged(row, since)));
      handled += rows.length;
    }
  }

  private async loop(): Promise<void> {
    if (this.db.kind === 'pglite') await releaseStaleLeases(this.db).catch(() => undefined);
    while (!this.stopping) {
      const free = this.o.concurrency - this.inFlight.size;
      let claimed = 0;
      // Claim in batches: one statement for several rows, not one per freed slot.
      if (free > 0 && (free * 2 >= this.o.concurrency || this.inFlight.size === 0)) {
        try {
          const since = Date.now();
          const rows = await claimDue(this.db, this.owner, free, this.leases.leaseMs);
          claimed = rows.length;
          for (const row of rows) this.track(this.deliverLogged(row, since));
        } catch (e) {
          log.error(`notification delivery: ${errorText(e)}`);
        }
      }
      if (this.stopping) break;
      if (free > 0 && claimed === free) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.o.pollMs);
        timer.unref();
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }

  private track(p: Promise<unknown>): void {
    const tracked = p.finally(() => {
      this.inFlight.delete(tracked);
      // A free slot: look for more at once rather than after the poll interval.
      this.wake?.();
    });
    this.inFlight.add(tracked);
  }

  /**
   * deliver() under the row's lease (claimed by a statement sent at `since`, renewed by the
   * heartbeat); an unexpected failure (the database went away) is logged and the lease expires.
   */
  private deliverLogged(row: Claimed, since: number): Promise<unknown> {
    const lease = this.leases.hold('notification_send_history', row.id, this.owner, since);
    return this.deliver(row, row.rule, lease.signal)
      .catch((e) => log.error(`notification delivery: row ${row.id}: ${errorText(e)}`))
      .finally(() => lease.release());
  }

  /** One claimed row, start to finish; `lease` aborts when the row's lease is lost (nothing is sent then). */
  async deliver(row: PendingRow, rule: Rule | undefined, lease?: AbortSignal): Promise<Outcome> {
    if (!rule || rule.deleted_at) return this.cancel(row, 'the rule was deleted before the message was sent');
    let members = row.group_id === row.id ? await groupMembers(this.db, row) : [];
    const waitFor = row.body_payload?.wait_for as { eval_period_ms?: number; evaluated?: boolean } | undefined;
    if (waitFor && (waitFor.eval_period_ms ?? 0) > 0 && !waitFor.evaluated)
      return (await deferForEvaluation(this.db, row, this.owner, waitFor.eval_period_ms!)) ? 'pending' : 'lost';
    if ((rule.wait_for ?? 0) > 0 || waitFor) {
      const waited = `waitFor (${formatDurationNs(rule.wait_for ?? 0)})`;
      const leaderMoved = await this.stateChange(row, waited);
      const moved: { row: PendingRow; reason: string }[] = [];
      for (const m of members) {
        const reason = await this.stateChange(m, waited);
        if (reason) moved.push({ row: m, reason });
      }
      for (const reason of new Set(moved.map((m) => m.reason)))
        await cancelMembers(
          this.db,
          moved.filter((m) => m.reason === reason).map((m) => m.row.id),
          reason,
        );
      members = members.filter((m) => !moved.some((x) => x.row.id === m.id));
      if (leaderMoved) {
        if (members.length)
          await promoteLeader(
            this.db,
            members[0]!.id,
            members.slice(1).map((m) => m.id),
          );
        return this.cancel(row, leaderMoved);
      }
    }

    // Lost to another replica (this one stalled past the lease): that replica sends it.
    if (lease?.aborted) return 'lost';
    const started = Date.now();
    let message: NotificationMessage | undefined;
    try {
      const rendered = renderMessage(
        rule,
        row,
        members.map((m) => ({ name: resourceName(m), status: m.resource_status ?? undefined })),
      );
      const target = await resolveTarget(this.db, row, this.deps.channels);
      message = { ...rendered, properties: { ...target.properties, ...ruleProperties(rule, row) } };
      await this.send(target.send, message, lease);
    } catch (e) {
      if (lease?.aborted) return 'lost';
      return this.fail(row, rule, e, message, Date.now() - started);
    }
    const recorded = await recordSent(this.db, row, this.owner, {
      title: message.title,
      body: message.body,
      durationMs: Date.now() - started,
      memberIds: members.map((m) => m.id),
    });
    if (!recorded) log.warn(`notification delivery: row ${row.id} was sent after its lease had expired`);
    return recorded ? 'sent' : 'lost';
  }

  /** Why a row should not be sent any more: the resource left the state its event named. */
  private async stateChange(row: PendingRow, waited: string): Promise<string | undefined> {
    const expected = expectedState(row);
    if (!expected || !row.resource_id || !row.resource_type) return undefined;
    const now = await currentState(this.db, row.resource_type, row.resource_id);
    if (!now) return undefined;
    if (now.gone) return `${row.resource_type} was deleted before ${waited} elapsed`;
    if (now.state === expected) return undefined;
    return BAD_STATES.has(expected)
      ? `recovered before ${waited} elapsed`
      : `changed to ${now.state ?? 'unknown'} before ${waited} elapsed`;
  }

  private async send(
    send: (m: NotificationMessage, ctx: SendContext) => Promise<unknown>,
    message: NotificationMessage,
    lease?: AbortSignal,
  ): Promise<void> {
    const controller = new AbortController();
    lease?.throwIfAborted();
    const onLost = () => controller.abort(lease?.reason);
    lease?.addEventListener('abort', onLost, { once: true });
    const timeoutMs = this.o.sendTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new SenderError(`no answer within ${timeoutMs / 1000} s`, true));
      }, timeoutMs);
    });
    try {
      await Promise.race([send(message, { signal: controller.signal, timeoutMs, smtp: this.deps.smtp }), timeout]);
    } finally {
      clearTimeout(timer);
      lease?.removeEventListener('abort', onLost);
    }
  }

  private async cancel(row: PendingRow, reason: string): Promise<Outcome> {
    return (await recordCancelled(this.db, row, this.owner, reason)) ? 'cancelled' : 'lost';
  }

  /** A failed attempt: retried after a backoff while allowed, else `error` and the fallback queued. */
  private async fail(
    row: PendingRow,
    rule: Rule,
    e: unknown,
    message: NotificationMessage | undefined,
    durationMs: number,
  ): Promise<Outcome> {
    const retryable = !(e instanceof SenderError) || e.retryable;
    const attempts = row.attempts + 1;
    const retryInMs = retryable && attempts < this.o.maxAttempts ? this.o.retryBaseMs * 2 ** (attempts - 1) : undefined;
    const fallback =
      retryInMs === undefined && fallbackTo(rule) && !row.body_payload?.fallback
        ? await fallbackRecipients(this.db, rule)
        : [];
    const outcome = await this.db.transaction(async (tx) => {
      const status = await recordFailure(tx, row, this.owner, {
        error: errorText(e),
        title: message?.title,
        body: message?.body,
        durationMs,
        retryInMs,
      });
      if (status === 'error' && fallback.length) await insertFallbacks(tx, row, fallback, fallbackDelayMs(rule));
      return status;
    });
    return outcome;
  }
}
