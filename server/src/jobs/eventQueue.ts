// The event queue's consumer side: engines write `event_queue` rows (check.failed, component.unhealthy,
// config.updated, incident.created, playbook.run.failed...); consumers (notifications, playbook
// triggers) register here. An event is claimed with FOR UPDATE SKIP LOCKED and handed to every
// consumer that accepts its name inside ONE transaction, then deleted: replicas never handle an event
// twice, and a consumer's work (rows it inserts) commits together with the event's removal. A consumer
// that throws rolls the whole event back; the row keeps attempts, error and last_attempt and is tried
// again after a backoff until MAX_ATTEMPTS, after which it stays failed for Settings → Event Queue,
// where an admin retries or discards it. Consumers only write rows here: network I/O (sending a
// message, running an action) happens later, from the rows they wrote, under leases of their own.
import type { Database, Queryable } from '../db/database.js';

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
  /** Handles one event inside the claiming transaction; throw to have the event retried. */
  handle(tx: Queryable, event: QueuedEvent): Promise<void>;
}

export const MAX_ATTEMPTS = 5;
/** Backoff before attempt n+1: 2^n seconds, at most 5 minutes. */
export const retryDelayMs = (attempts: number): number => Math.min(300_000, 1000 * 2 ** attempts);

export interface EventRouterOptions {
  /** Events claimed per transaction. */
  batchSize?: number;
  /** How often to look for events when the last poll found none. */
  pollMs?: number;
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

  constructor(
    private readonly db: Database,
    options: EventRouterOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 50;
    this.pollMs = options.pollMs ?? 500;
  }

  register(consumer: EventConsumer): void {
    this.consumers.push(consumer);
  }

  start(): void {
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
        .catch((e) => console.error('event queue:', (e as Error).message))
        .then((handled) => this.schedule(typeof handled === 'number' && handled > 0 ? 0 : this.pollMs));
    }, ms);
    this.timer.unref();
  }

  /** Handles due events until none are left (or `max` were handled); returns how many were handled. */
  async drain(max = Number.POSITIVE_INFINITY): Promise<number> {
    let handled = 0;
    while (handled < max && !this.stopping) {
      const n = await this.processBatch();
      handled += n;
      if (n === 0) break;
    }
    return handled;
  }

  /**
   * Claims up to batchSize due events and handles each under a savepoint, so one failing event does
   * not undo the others of its batch. Returns the number of events claimed.
   */
  async processBatch(): Promise<number> {
    if (!this.consumers.length) return 0;
    const failures: { id: string; error: string }[] = [];
    const claimed = await this.db.transaction(async (tx) => {
      const { rows } = await tx.query<QueuedEvent>(
        `SELECT id, name, properties, attempts, created_at FROM event_queue
         WHERE attempts < $2 AND (not_before IS NULL OR not_before <= now())
         ORDER BY priority DESC, created_at
         LIMIT $1 FOR UPDATE SKIP LOCKED`,
        [this.batchSize, MAX_ATTEMPTS],
      );
      for (const event of rows) {
        event.properties ??= {};
        await tx.query('SAVEPOINT event');
        try {
          for (const consumer of this.consumers) if (consumer.accepts(event.name)) await consumer.handle(tx, event);
          await tx.query('RELEASE SAVEPOINT event');
          await tx.query('DELETE FROM event_queue WHERE id = $1', [event.id]);
        } catch (e) {
          await tx.query('ROLLBACK TO SAVEPOINT event');
          failures.push({ id: event.id, error: e instanceof Error ? e.message : String(e) });
        }
      }
      for (const f of failures) {
        await tx.query(
          `UPDATE event_queue SET attempts = attempts + 1, error = $2, last_attempt = now(),
             not_before = now() + make_interval(secs => $3::double precision / 1000)
           WHERE id = $1`,
          [f.id, f.error.slice(0, 2000), retryDelayMs(rows.find((r) => r.id === f.id)!.attempts + 1)],
        );
      }
      return rows.length;
    });
    for (const f of failures) console.error(`event queue: event ${f.id} failed: ${f.error}`);
    return claimed;
  }
}

/** Puts failed events of one name back in the queue (attempts reset); returns how many. */
export async function retryFailedEvents(db: Queryable, name: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH r AS (UPDATE event_queue SET attempts = 0, error = NULL, not_before = NULL, last_attempt = NULL
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
