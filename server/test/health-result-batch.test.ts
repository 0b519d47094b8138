// Check results recorded in batches (health/resultBatcher.ts, store.ts recordResults): results that
// finish together share one transaction; each is stored as if alone (its status row, the check's
// status and transition time, a check.failed / check.passed event only on a change, none for a new
// check's first pass); a bad result in a batch is refused alone and the others are kept; the same
// check twice goes into two batches, in order; a canary's next check starts while the result of the
// one before is being committed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { checkers } from '../src/health/checkers/index.js';
import { HealthEngine } from '../src/health/engine.js';
import { ResultBatcher } from '../src/health/resultBatcher.js';
import type { StoredResult } from '../src/health/store.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import * as f from './helpers/notificationFixtures.js';

const result = (pass: boolean, message = pass ? 'ok' : 'down'): StoredResult => ({
  pass,
  invalid: false,
  durationMs: pass ? 12.4 : 3000,
  message,
  error: pass ? null : 'connection refused',
  details: { note: `it's "quoted", {braced} and \\ back-slashed` },
});

/** The database, with `before` run ahead of every transaction begun through it. */
function beforeTransactions(db: Database, before: () => void | Promise<void>): Database {
  const wrapped = Object.create(db) as Database;
  wrapped.transaction = async (fn) => {
    await before();
    return db.transaction(fn);
  };
  return wrapped;
}

/** The database, counting the transactions begun through it. */
function counting(db: Database): { db: Database; transactions: () => number } {
  let n = 0;
  return { db: beforeTransactions(db, () => void n++), transactions: () => n };
}

/** Exec checks of a canary that echo and pass. */
async function echoChecks(db: Database, canaryId: string, names: string[]): Promise<void> {
  for (const name of names)
    await db.query(`INSERT INTO checks (canary_id, type, name, namespace, spec) VALUES ($1, 'exec', $2, 'prod', $3)`, [
      canaryId,
      name,
      JSON.stringify({ script: 'echo ok' }),
    ]);
}

describe.each(databaseKinds())('check results recorded in batches on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db;
  });
  afterAll(async () => {
    await test?.close();
  });
  beforeEach(async () => {
    await db.exec(`DELETE FROM event_queue; DELETE FROM check_statuses`);
  });

  const events = async () =>
    (
      await db.query<{ name: string; properties: { id: string; status: string; previous: string | null } }>(
        `SELECT name, properties FROM event_queue ORDER BY created_at, properties->>'id'`,
      )
    ).rows;

  it('writes results that finish together in one transaction, each as if alone', async () => {
    const canaryId = await f.canary(db);
    const newUp = await f.check(db, canaryId, 'new-up');
    const newDown = await f.check(db, canaryId, 'new-down');
    const wasUp = await f.check(db, canaryId, 'was-up', { status: 'healthy' });
    const stillUp = await f.check(db, canaryId, 'still-up', { status: 'healthy' });
    const { db: counted, transactions } = counting(db);
    const batcher = new ResultBatcher(counted, 50);
    const at = new Date('2026-11-27T02:00:00.123Z');

    const outcomes = await Promise.all([
      batcher.record(newUp, result(true), at),
      batcher.record(newDown, result(false), at),
      batcher.record(wasUp, result(false, 'went down'), at),
      batcher.record(stillUp, result(true), at),
    ]);

    expect(transactions()).toBe(1);
    expect(outcomes.map((o) => o.transitioned)).toEqual([true, true, true, false]);
    const { rows: statuses } = await db.query<{
      check_id: string;
      status: boolean;
      duration: number;
      message: string;
      error: string | null;
      details: unknown;
    }>(`SELECT check_id, status, duration, message, error, details FROM check_statuses`);
    expect(statuses).toHaveLength(4);
    const wentDown = statuses.find((s) => s.check_id === wasUp)!;
    expect(wentDown).toMatchObject({
      status: false,
      duration: 3000,
      message: 'went down',
      error: 'connection refused',
    });
    expect(wentDown.details).toEqual({ note: `it's "quoted", {braced} and \\ back-slashed` });
    expect(statuses.find((s) => s.check_id === newUp)).toMatchObject({ status: true, duration: 12, error: null });

    const { rows: checks } = await db.query<{
      id: string;
      status: string;
      last_runtime: Date;
      transition: Date | null;
    }>(`SELECT id, status, last_runtime, last_transition_time AS transition FROM checks WHERE canary_id = $1`, [
      canaryId,
    ]);
    const byId = new Map(checks.map((c) => [c.id, c]));
    expect(byId.get(wasUp)).toMatchObject({ status: 'unhealthy' });
    expect(new Date(byId.get(wasUp)!.transition!).toISOString()).toBe(at.toISOString());
    expect(byId.get(stillUp)!.transition).toBeNull();
    expect(new Date(byId.get(stillUp)!.last_runtime).toISOString()).toBe(at.toISOString());

    // A new check's first pass is no news; its first failure and a healthy check going down are.
    const sent = await events();
    expect(sent.map((e) => [e.name, e.properties.id, e.properties.previous])).toEqual(
      [
        ['check.failed', newDown, null],
        ['check.failed', wasUp, 'healthy'],
      ].sort((x, y) => x[1]!.localeCompare(y[1]!)),
    );
  });

  it('refuses a bad result alone and keeps the others of its batch', async () => {
    const canaryId = await f.canary(db);
    const a = await f.check(db, canaryId, 'a', { status: 'healthy' });
    const b = await f.check(db, canaryId, 'b', { status: 'healthy' });
    const batcher = new ResultBatcher(db, 50);
    const at = new Date();
    const missing = '00000000-0000-4000-8000-00000000dead'; // no such check: its row breaks the foreign key
    const settled = await Promise.allSettled([
      batcher.record(a, result(false), at),
      batcher.record(missing, result(true), at),
      batcher.record(b, result(true), at),
    ]);
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const { rows } = await db.query<{ check_id: string }>(`SELECT check_id FROM check_statuses ORDER BY check_id`);
    expect(rows.map((r) => r.check_id).sort()).toEqual([a, b].sort());
    expect((await events()).map((e) => [e.name, e.properties.id])).toEqual([['check.failed', a]]);
  });

  it('writes the same check twice in two batches, in order', async () => {
    const canaryId = await f.canary(db);
    const c = await f.check(db, canaryId, 'twice', { status: 'healthy' });
    const { db: counted, transactions } = counting(db);
    const batcher = new ResultBatcher(counted, 50);
    const first = new Date(Date.now() - 1_000);
    const second = new Date();
    const outcomes = await Promise.all([
      batcher.record(c, result(false), first),
      batcher.record(c, result(true), second),
    ]);
    expect(transactions()).toBe(2);
    expect(outcomes.map((o) => o.transitioned)).toEqual([true, true]);
    const { rows } = await db.query<{ status: string }>(`SELECT status FROM checks WHERE id = $1`, [c]);
    expect(rows[0]!.status).toBe('healthy');
    expect((await events()).map((e) => e.name)).toEqual(['check.failed', 'check.passed']);
  });

  it('writes a full batch at once, without waiting for the timer', async () => {
    const canaryId = await f.canary(db);
    const ids = await Promise.all(Array.from({ length: 5 }, (_, i) => f.check(db, canaryId, `full-${i}`)));
    const { db: counted, transactions } = counting(db);
    const batcher = new ResultBatcher(counted, 60_000, 5);
    const started = Date.now();
    await Promise.all(ids.map((id) => batcher.record(id, result(true), new Date())));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(transactions()).toBe(1);
    const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM check_statuses`);
    expect(rows[0]!.n).toBe(5);
  });

  it("starts a canary's next check while the result of the one before is being committed", async () => {
    const canaryId = await f.canary(db);
    await echoChecks(db, canaryId, ['one', 'two', 'three']);
    // Every transaction (each batch of results is one) takes 600 ms longer.
    const slow = beforeTransactions(db, () => new Promise((r) => setTimeout(r, 600)));
    const engine = new HealthEngine(slow, checkers, { maxConcurrentChecks: 1 });
    try {
      expect(await engine.runNow(canaryId)).not.toBe('busy');
    } finally {
      await engine.stop();
    }
    const { rows } = await db.query<{ name: string; time: Date; status: boolean }>(
      `SELECT c.name, s.time, s.status FROM check_statuses s JOIN checks c ON c.id = s.check_id
       WHERE c.canary_id = $1 ORDER BY s.time`,
      [canaryId],
    );
    // All three recorded by the time the run is over, one after the other (one at a time)…
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['one', true],
      ['three', true],
      ['two', true],
    ]);
    // …but each started without waiting for the commit of the one before (2 × 600 ms if it had).
    const times = rows.map((r) => new Date(r.time).getTime());
    expect(times[2]! - times[0]!).toBeLessThan(1_000);
  });

  it('ends a run whose results the database refuses with that error, its job history written', async () => {
    const canaryId = await f.canary(db);
    await echoChecks(db, canaryId, ['x', 'y']);
    // Every batch of results fails: the first check's refusal comes while the second still runs.
    const refusing = beforeTransactions(db, () => {
      throw new Error('the disk is full');
    });
    const engine = new HealthEngine(refusing, checkers, { maxConcurrentChecks: 1 });
    try {
      await expect(engine.runNow(canaryId)).rejects.toThrow('the disk is full');
    } finally {
      await engine.stop();
    }
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM check_statuses s JOIN checks c ON c.id = s.check_id WHERE c.canary_id = $1`,
      [canaryId],
    );
    expect(rows[0]!.n).toBe(0);
    const jobs = await db.query<{ details: { errors: string[] } }>(
      `SELECT details FROM job_history WHERE resource_id = $1::text`,
      [canaryId],
    );
    expect(jobs.rows.map((j) => j.details.errors)).toEqual([['results not recorded: the disk is full']]);
  });
});
