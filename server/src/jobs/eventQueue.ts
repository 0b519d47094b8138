// The event queue's consumer side: engines write `event_queue` rows (check.failed, component.unhealthy,
// config.updated, incident.created, playbook.run.failed...); consumers (notifications, playbook
// triggers) register here. An event is claimed with FOR UPDATE SKIP LOCKED (a batch at a time, run
// first without savepoints and, should anything fail, again with one per event) and handed to every
// consumer that accepts its name inside ONE transaction, then deleted: replicas never handle an event
// twice, and a consumer's work (rows it inserts) commits together with the event's removal. A consumer
// that throws rolls the whole event back; the row keeps attempts, error ("<consumer>: <message>"),
// last_attempt and first_failure and is tried again after a backoff until MAX_ATTEMPTS, after which it
// stays failed for Settings → Event Queue (the view event_queue_summary, 0018: pending = never failed,
// failed = last attempt failed), where an admin retries (back to pending) or discards it. Consumers only write rows here: network I/O (sending a
// message, running an action) happens later, from the rows they wrote, under leases of their own.
import type { Database, Queryable } from '../db/database.js';
import { logger } from '../log.js';
import { nextTurn } from './slices.js';

const log = logger('event-queue');

export interface QueuedEvent {
  id: string;
  name: string;
  properties: Record<string, unknown>;
  attempts: number;
  created_at: Date;
}

export interface EventConsumer {
  /** For errors and logs, e.g. "notifications". */
  name: string;
  /** Whether this consumer wants events of this name. */
  accepts(eventName: string): boolean;
  /**
   * Handles one event inside the claiming transaction; throw to have the event retried. `mode.guarded`
   * false: the batch runs without savepoints, and a throw rolls the whole batch back to be run again
   * guarded (a savepoint per event), so a consumer needs no savepoints of its own then and must keep
   * every effect inside the transaction (handle may see the same event twice).
   */
  handle(tx: Queryable, event: QueuedEvent, mode?: HandleMode): Promise<void>;
  /** Before an unguarded batch's events, in its transaction: load what they share (read only). */
  prepare?(tx: Queryable, events: QueuedEvent[]): Promise<void>;
  /** The batch (or an event) this consumer worked on was rolled back: drop state cached from it. */
  rolledBack?(): void;
}

export interface HandleMode {
  guarded: boolean;
}

export const MAX_ATTEMPTS = 5;
/** Backoff before attempt n+1: 2^n seconds, at most 5 minutes. */
const retryDelayMs = (attempts: number): number => Math.min(300_000, 1000 * 2 ** attempts);

export interface EventRouterOptions {
  /** Events claimed per transaction. */
  batchSize?: number;
  /** How often to look for events when the last poll found none. */
  pollMs?: number;
  /** How long batches run guarded (a savepoint per event) after an unguarded one failed. */
  guardedMs?: number;
}

export class EventRouter {
  private readonly consumers: EventConsumer[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;
  /** Set by stop(): a drain under way ends after its current batch. */
  private stopping = false;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly guardedMs: number;
  /** Until when batches run guarded, after an unguarded batch failed. */
  private guardedUntil = 0;

  constructor(
    private readonly db: Database,
    options: EventRouterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 50;
    this.pollMs = options.pollMs ?? 250;
    this.guardedMs = options.guardedMs ?? 30_000;
  }

  register(consumer: EventConsumer): void {
    this.consumers.push(consumer);
  }

  /** Polls the queue in the background until stop(); a second start() while running does nothing. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.drain()
        .catch((e) => log.error(`event queue: ${(e as Error).message}`))
        .then((handled) => this.schedule(typeof handled === 'number' && handled > 0 ? 0 : this.pollMs));
    }, ms);
    this.timer.unref();
  }

  /** Handles due events until none are left (or `max` were claimed); returns how many were claimed. */
  async drain(max = Number.POSITIVE_INFINITY): Promise<number> {
    let handled = 0;
    while (handled < max && !this.stopping) {
      const n = await this.processBatch();
      handled += n;
      if (n === 0) break;
      // Let timers and I/O run between batches: PGlite answers through promises alone, and a drain that
      // never yields would hold up everything else in the process (delivery's HTTP responses, say).
      await nextTurn();
    }
    return handled;
  }

  /**
   * Claims up to batchSize due events and handles them. First unguarded: no savepoints, consumers
   * prepare the batch together, one DELETE; should anything fail, that transaction is rolled back
   * and the batch runs again guarded, each event under a savepoint, so one failing event does not
   * undo the others of its batch (and batches stay guarded for guardedMs). Returns the number of
   * events claimed (handled or failed).
   *
   * An event no consumer accepts is deleted too (nobody wants it); with no consumer registered at
   * all nothing is claimed, so events wait for a process that has them.
   */
  async processBatch(): Promise<number> {
    if (!this.consumers.length) return 0;
    if (Date.now() >= this.guardedUntil) {
      try {
        return await this.db.transaction(async (tx) => {
          const rows = await this.claim(tx);
          const mode: HandleMode = { guarded: false };
          for (const c of this.consumers) {
            const mine = rows.filter((e) => c.accepts(e.name));
            if (mine.length && c.prepare) await c.prepare(tx, mine);
          }
          for (const event of rows)
            for (const c of this.consumers) if (c.accepts(event.name)) await c.handle(tx, event, mode);
          if (rows.length)
            await tx.query('DELETE FROM event_queue WHERE id = ANY($1::uuid[])', [rows.map((r) => r.id)]);
          return rows.length;
        });
      } catch {
        // Whatever failed is found, and recorded on its event, by the guarded run.
        for (const c of this.consumers) c.rolledBack?.();
        this.guardedUntil = Date.now() + this.guardedMs;
      }
    }
    return this.processGuarded();
  }

  private async claim(tx: Queryable): Promise<QueuedEvent[]> {
    // MAX_ATTEMPTS is written into the statement (not a parameter) so that PostgreSQL uses the
    // partial index event_queue_claim_idx (0018).
    const { rows } = await tx.query<QueuedEvent>(
      `SELECT id, name, properties, attempts, created_at FROM event_queue
       WHERE attempts < ${MAX_ATTEMPTS} AND (not_before IS NULL OR not_before <= now())
       ORDER BY priority DESC, created_at
       LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [this.batchSize],
    );
    for (const event of rows) {
      event.properties ??= {};
      // Both drivers return timestamps as text (db/database.ts); consumers get the Date promised.
      event.created_at = new Date(event.created_at);
    }
    return rows;
  }

  /** The batch with a savepoint per event. */
  private async processGuarded(): Promise<number> {
    const failures: Failure[] = [];
    // The event being handled, should the transaction itself break (a lost connection, an error
    // the savepoint cannot undo): its failure is then recorded on its own, so that one poisonous
    // event cannot stall the queue by failing its batch over and over without counting attempts.
    let current: QueuedEvent | undefined;
    try {
      return await this.db.transaction(async (tx) => {
        const rows = await this.claim(tx);
        for (const event of rows) {
          current = event;
          const error = await this.handleOne(tx, event);
          if (error === null) await tx.query('DELETE FROM event_queue WHERE id = $1', [event.id]);
          else failures.push({ id: event.id, attempts: event.attempts, error });
        }
        current = undefined;
        for (const f of failures) await recordFailure(tx, f);
        return rows.length;
      });
    } catch (e) {
      failures.length = 0;
      if (!current) throw e;
      const failure = { id: current.id, attempts: current.attempts, error: `event queue: ${messageOf(e)}` };
      failures.push(failure);
      await recordFailure(this.db, failure);
      return 1;
    } finally {
      for (const f of failures) log.error(`event queue: event ${f.id} failed: ${f.error}`);
    }
  }

  /** Runs every consumer that accepts the event under a savepoint; returns the error text, or null. */
  private async handleOne(tx: Queryable, event: QueuedEvent): Promise<string | null> {
    await tx.query('SAVEPOINT event');
    let consumer: EventConsumer | undefined;
    try {
      for (consumer of this.consumers)
        if (consumer.accepts(event.name)) await consumer.handle(tx, event, { guarded: true });
      await tx.query('RELEASE SAVEPOINT event');
      return null;
    } catch (e) {
      await tx.query('ROLLBACK TO SAVEPOINT event');
      for (const c of this.consumers) c.rolledBack?.();
      // Prefixed with the consumer, so Settings → Event Queue says whose handling failed.
      return consumer ? `${consumer.name}: ${messageOf(e)}` : messageOf(e);
    }
  }
}

interface Failure {
  id: string;
  /** Attempts before this one. */
  attempts: number;
  error: string;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e)) || 'failed';

/** One more attempt, its error, and the time of the next (backoff); the first failure's time is kept. */
async function recordFailure(db: Queryable, f: Failure): Promise<void> {
  await db.query(
    `UPDATE event_queue SET attempts = attempts + 1, error = $2, last_attempt = now(),
       first_failure = coalesce(first_failure, now()),
       not_before = now() + make_interval(secs => $3::double precision / 1000)
     WHERE id = $1`,
    [f.id, f.error.slice(0, 2000), retryDelayMs(f.attempts + 1)],
  );
}

/** Puts failed events of one name back in the queue (attempts reset); returns how many. */
export async function retryFailedEvents(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH r AS (UPDATE event_queue SET attempts = 0, error = NULL, not_before = NULL, last_attempt = NULL,
                  first_failure = NULL
                WHERE name = $1 AND error IS NOT NULL RETURNING 1)
     SELECT count(*)::int AS n FROM r`,
    [name],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes failed events of one name; returns how many. */
export async function discardFailedEvents(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH d AS (DELETE FROM event_queue WHERE name = $1 AND error IS NOT NULL RETURNING 1) SELECT count(*)::int AS n FROM d`,
    [name],
  );
  return rows[0]?.n ?? 0;
}
