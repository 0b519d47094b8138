// The event router on a real database: handled events are deleted with their consumers' work, a
// failing event keeps attempts/error/last_attempt and comes back only after its backoff, gives up at
// MAX_ATTEMPTS, never undoes the rest of its batch; the summary view; retry and discard; and two
// replicas (two pg pools) on one PostgreSQL handling 1,000 events exactly once.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openPostgres, type Database, type Queryable } from '../src/db/database.js';
import {
  discardFailedEvents,
  EventRouter,
  MAX_ATTEMPTS,
  retryFailedEvents,
  type EventConsumer,
  type QueuedEvent,
} from '../src/jobs/eventQueue.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

interface EventRow {
  id: string;
  name: string;
  attempts: number;
  error: string | null;
  last_attempt: string | null;
  first_failure: string | null;
  not_before: string | null;
}

interface SummaryRow {
  name: string;
  pending: number;
  failed: number;
  average_attempts: string | null;
  first_failure: string | null;
  last_failure: string | null;
  next_attempt: string | null;
  most_common_error: string | null;
}

/** A consumer that writes (event id, consumer) into eq_handled, and throws for the names in `failFor`. */
function recordingConsumer(name: string, accepts: (n: string) => boolean, failFor = new Set<string>()): EventConsumer {
  return {
    name,
    accepts,
    async handle(tx: Queryable, event: QueuedEvent) {
      await tx.query('INSERT INTO eq_handled (event_id, consumer) VALUES ($1, $2)', [event.id, name]);
      if (failFor.has(event.name)) throw new Error(`cannot render template for ${event.name}`);
    },
  };
}

describe.each(databaseKinds())('event queue on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;

  const insert = async (name: string, count = 1): Promise<string[]> => {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO event_queue (name, properties, created_at)
       SELECT $1, jsonb_build_object('i', g), now() + g * interval '1 ms' FROM generate_series(1, $2::int) g
       RETURNING id`,
      [name, count],
    );
    return rows.map((r) => r.id);
  };
  const event = async (id: string) =>
    (await db.query<EventRow>('SELECT * FROM event_queue WHERE id = $1', [id])).rows[0];
  const handled = async () =>
    (await db.query<{ event_id: string; consumer: string }>('SELECT event_id, consumer FROM eq_handled')).rows;
  /** The clock moved past every backoff. */
  const backoffOver = () => db.query(`UPDATE event_queue SET not_before = now() - interval '1 s'`);
  const summary = async (name: string) =>
    (
      await db.query<SummaryRow>(
        // count() is int8 and round() numeric: both drivers hand those over as text.
        `SELECT name, pending::int, failed::int, average_attempts::text, first_failure, last_failure, next_attempt,
           most_common_error FROM event_queue_summary WHERE name = $1`,
        [name],
      )
    ).rows[0];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db;
    await db.query('CREATE TABLE eq_handled (event_id uuid NOT NULL, consumer text NOT NULL)');
  });
  afterAll(async () => {
    await test?.close();
  });
  beforeEach(async () => {
    await db.query('DELETE FROM event_queue');
    await db.query('DELETE FROM eq_handled');
  });

  it('deletes a handled event together with the work of every consumer that accepts it', async () => {
    const router = new EventRouter(db);
    router.register(recordingConsumer('notifications', (n) => n.startsWith('check.')));
    router.register(recordingConsumer('triggers', (n) => n === 'check.failed'));
    const [failed] = await insert('check.failed');
    const [passed] = await insert('check.passed');
    const [unwanted] = await insert('config.updated');

    expect(await router.drain()).toBe(3);
    expect((await db.query('SELECT 1 FROM event_queue')).rows).toEqual([]);
    const rows = await handled();
    expect(rows.filter((r) => r.event_id === failed).map((r) => r.consumer)).toEqual(['notifications', 'triggers']);
    expect(rows.filter((r) => r.event_id === passed).map((r) => r.consumer)).toEqual(['notifications']);
    // Nobody wants config.updated: it is dropped, not kept forever.
    expect(rows.filter((r) => r.event_id === unwanted)).toEqual([]);
  });

  it('leaves the queue alone while no consumer is registered', async () => {
    await insert('check.failed');
    expect(await new EventRouter(db).drain()).toBe(0);
    expect((await summary('check.failed'))?.pending).toBe(1);
  });

  it('keeps a failing event with attempts, error and last_attempt, and retries it only after the backoff', async () => {
    const router = new EventRouter(db);
    router.register(recordingConsumer('notifications', () => true, new Set(['check.failed'])));
    const [id] = await insert('check.failed');

    expect(await router.processBatch()).toBe(1);
    const first = (await event(id!))!;
    expect(first).toMatchObject({ attempts: 1, error: 'notifications: cannot render template for check.failed' });
    expect(first.last_attempt).not.toBeNull();
    expect(first.first_failure).toBe(first.last_attempt);
    // 2 s of backoff after the first failure.
    const wait = new Date(first.not_before!).getTime() - new Date(first.last_attempt!).getTime();
    expect(wait).toBe(2000);
    // The consumer's work was rolled back with the event.
    expect(await handled()).toEqual([]);

    expect(await router.processBatch()).toBe(0);
    expect((await event(id!))!.attempts).toBe(1);

    await backoffOver();
    expect(await router.processBatch()).toBe(1);
    const second = (await event(id!))!;
    expect(second.attempts).toBe(2);
    expect(second.first_failure).toBe(first.first_failure);
    expect(new Date(second.not_before!).getTime() - new Date(second.last_attempt!).getTime()).toBe(4000);
  });

  it(`gives up after ${MAX_ATTEMPTS} attempts; the summary counts it as failed with its error`, async () => {
    const router = new EventRouter(db);
    router.register(recordingConsumer('notifications', () => true, new Set(['check.failed'])));
    const [id] = await insert('check.failed');
    await insert('check.failed', 2);
    await db.query(`UPDATE event_queue SET not_before = now() + interval '1 h' WHERE id <> $1`, [id]);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await db.query(`UPDATE event_queue SET not_before = now() - interval '1 s' WHERE id = $1`, [id]);
      expect(await router.processBatch()).toBe(1);
    }
    await db.query(`UPDATE event_queue SET not_before = now() - interval '1 s' WHERE id = $1`, [id]);
    expect(await router.processBatch()).toBe(0);
    const gaveUp = (await event(id!))!;
    expect(gaveUp.attempts).toBe(MAX_ATTEMPTS);

    // The other two are simply pending: never attempted.
    expect(await summary('check.failed')).toMatchObject({
      pending: 2,
      failed: 1,
      average_attempts: '5.00',
      most_common_error: 'notifications: cannot render template for check.failed',
      next_attempt: null,
    });
    const row = (await summary('check.failed'))!;
    expect(row.last_failure).toBe(gaveUp.last_attempt);
    expect(row.first_failure).toBe(gaveUp.first_failure);
    expect(new Date(row.first_failure!).getTime()).toBeLessThan(new Date(row.last_failure!).getTime());
  });

  it('summarises per name: pending, failed, average attempts, next attempt and the most common error', async () => {
    await insert('component.unhealthy', 2);
    const ids = await insert('check.failed', 4);
    await db.query(
      `UPDATE event_queue SET attempts = 2, error = 'smtp: connection refused', last_attempt = now(),
         first_failure = now() - interval '1 h', not_before = now() + interval '4 s' WHERE id = ANY($1)`,
      [ids.slice(0, 2)],
    );
    await db.query(
      `UPDATE event_queue SET attempts = 5, error = 'template: bad', last_attempt = now(), first_failure = now()
       WHERE id = $1`,
      [ids[2]],
    );
    expect(await summary('component.unhealthy')).toMatchObject({
      pending: 2,
      failed: 0,
      average_attempts: null,
      most_common_error: null,
    });
    const row = (await summary('check.failed'))!;
    expect(row).toMatchObject({ pending: 1, failed: 3, average_attempts: '3.00' });
    expect(row.most_common_error).toBe('smtp: connection refused');
    expect(row.next_attempt).not.toBeNull();
    expect(new Date(row.first_failure!).getTime()).toBeLessThan(Date.now() - 3_000_000);
  });

  it('does not undo the other events of a batch when one of them fails', async () => {
    const router = new EventRouter(db, { batchSize: 10 });
    router.register(recordingConsumer('notifications', () => true, new Set(['check.failed'])));
    const before = await insert('check.passed', 2);
    const [bad] = await insert('check.failed');
    const after = await insert('component.healthy', 2);

    expect(await router.processBatch()).toBe(5);
    const left = (await db.query<{ id: string }>('SELECT id FROM event_queue')).rows.map((r) => r.id);
    expect(left).toEqual([bad]);
    const work = (await handled()).map((r) => r.event_id).sort();
    expect(work).toEqual([...before, ...after].sort());
  });

  it('records the failure of the event in hand when its whole transaction breaks', async () => {
    // A transaction that cannot roll back to its savepoint (a lost connection, say) fails as a whole.
    const broken: Database = {
      ...db,
      transaction: (fn) =>
        db.transaction((tx) =>
          fn({
            query: (sql, params, options) =>
              sql.startsWith('ROLLBACK TO SAVEPOINT')
                ? Promise.reject(new Error('connection terminated'))
                : tx.query(sql, params, options),
          }),
        ),
    };
    const router = new EventRouter(broken);
    router.register(recordingConsumer('notifications', () => true, new Set(['check.failed'])));
    const [ok] = await insert('check.passed');
    const [bad] = await insert('check.failed');

    expect(await router.processBatch()).toBe(1);
    // The good event's deletion went down with the transaction: it is handled again later.
    expect((await event(ok!))!.attempts).toBe(0);
    expect(await event(bad!)).toMatchObject({ attempts: 1, error: 'event queue: connection terminated' });
    expect(await handled()).toEqual([]);
  });

  it('puts the failed events of one name back in the queue, or discards them', async () => {
    const failing = await insert('check.failed', 3);
    await insert('check.failed');
    const other = await insert('component.unhealthy');
    await db.query(
      `UPDATE event_queue SET attempts = 5, error = 'boom', last_attempt = now(), first_failure = now(),
         not_before = now() + interval '1 h' WHERE id = ANY($1)`,
      [[...failing, ...other]],
    );

    expect(await retryFailedEvents(db, 'check.failed')).toBe(3);
    expect(await retryFailedEvents(db, 'check.failed')).toBe(0);
    const retried = (await db.query<EventRow>('SELECT * FROM event_queue WHERE id = ANY($1)', [failing])).rows;
    for (const row of retried)
      expect(row).toMatchObject({
        attempts: 0,
        error: null,
        last_attempt: null,
        first_failure: null,
        not_before: null,
      });
    expect(await summary('check.failed')).toMatchObject({ pending: 4, failed: 0 });

    const router = new EventRouter(db);
    router.register(recordingConsumer('notifications', (n) => n === 'check.failed'));
    expect(await router.drain()).toBe(4);

    expect(await discardFailedEvents(db, 'check.failed')).toBe(0);
    expect(await discardFailedEvents(db, 'component.unhealthy')).toBe(1);
    expect(await summary('component.unhealthy')).toBeUndefined();
  });

  it('stops polling on stop() and starts once however often start() is called', async () => {
    const router = new EventRouter(db, { pollMs: 20 });
    router.register(recordingConsumer('notifications', () => true));
    router.start();
    router.start();
    await insert('check.passed', 3);
    for (let i = 0; i < 200 && (await db.query('SELECT 1 FROM event_queue')).rows.length; i++)
      await new Promise((r) => setTimeout(r, 25));
    await router.stop();
    expect((await handled()).length).toBe(3);
    await insert('check.passed');
    await new Promise((r) => setTimeout(r, 100));
    expect((await db.query('SELECT 1 FROM event_queue')).rows.length).toBe(1);
  });

  // PGlite is one session: two replicas need a real server.
  it.runIf(kind === 'postgres')('handles each of 1,000 events exactly once with two replicas', async () => {
    const replica = await openPostgres(test.url!, 5);
    try {
      await db.query(
        `INSERT INTO event_queue (name, properties) SELECT 'check.failed', jsonb_build_object('i', g)
         FROM generate_series(1, 1000) g`,
      );
      const routers = [new EventRouter(db, { batchSize: 20 }), new EventRouter(replica, { batchSize: 20 })];
      routers.forEach((r, i) => r.register(recordingConsumer(`replica-${i}`, () => true)));
      await Promise.all(routers.map((r) => r.drain()));

      expect((await db.query('SELECT 1 FROM event_queue')).rows).toEqual([]);
      const { rows } = await db.query<{ event_id: string; handles: number }>(
        'SELECT event_id, count(*)::int AS handles FROM eq_handled GROUP BY event_id',
      );
      expect(rows.length).toBe(1000);
      expect(rows.filter((r) => r.handles !== 1)).toEqual([]);
      const byReplica = (await handled()).reduce<Record<string, number>>(
        (acc, r) => ({ ...acc, [r.consumer]: (acc[r.consumer] ?? 0) + 1 }),
        {},
      );
      // Both replicas took part.
      expect(byReplica['replica-0']).toBeGreaterThan(0);
      expect(byReplica['replica-1']).toBeGreaterThan(0);
    } finally {
      await replica.close();
    }
  });
});
