// Replicas know of each other through their rows in `replicas` (jobs/replicas.ts), on a real
// database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): two presences see each other
// after their first renewal, one that stops is gone at once, one that stops renewing (killed) stops
// counting when its row runs out and is removed an hour after that; /metrics reads the count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReplicaPresence } from '../src/jobs/replicas.js';
import { readSnapshot } from '../src/metrics/snapshot.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds())('replica presence on %s', (kind) => {
  let test: TestDatabase;
  const presences: ReplicaPresence[] = [];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(presences.map((p) => p.stop()));
    await test?.close();
  });

  const presence = () => {
    const p = new ReplicaPresence(test.db, { everyMs: 60_000, version: 'test', mode: 'full' });
    presences.push(p);
    return p;
  };
  const rows = async () =>
    (await test.db.query<{ id: string }>('SELECT id FROM replicas ORDER BY id')).rows.map((r) => r.id);

  it('sees the others, forgets one that stopped, and stops counting one that was killed', async () => {
    const a = presence();
    // Before its first renewal a replica cannot tell it is alone: it assumes others.
    expect(a.count).toBeUndefined();
    expect(a.others).toBe(true);
    await a.start();
    expect(a.count).toBe(0);
    expect(a.others).toBe(false);

    const b = presence();
    await b.start();
    expect(b.count).toBe(1);
    await a.beat();
    expect(a.others).toBe(true);
    expect(await rows()).toEqual([a.id, b.id].sort());
    expect((await readSnapshot(test.db)).replicas).toBe(2);

    // Stopped: its row is deleted, the others see one fewer at their next renewal.
    await b.stop();
    await a.beat();
    expect(a.count).toBe(0);
    expect(await rows()).toEqual([a.id]);

    // Killed (it renews no more): counted until its row runs out, then not; kept an hour more.
    await test.db.query(
      `INSERT INTO replicas (id, hostname, pid, version, mode, alive_until) VALUES ('killed', 'h', 1, 'test', 'full', now() + interval '1 minute')`,
    );
    await a.beat();
    expect(a.count).toBe(1);
    await test.db.query(`UPDATE replicas SET alive_until = now() - interval '1 second' WHERE id = 'killed'`);
    await a.beat();
    expect(a.count).toBe(0);
    expect(await rows()).toContain('killed');
    expect((await readSnapshot(test.db)).replicas).toBe(1);
    await test.db.query(`UPDATE replicas SET alive_until = now() - interval '61 minutes' WHERE id = 'killed'`);
    await a.beat();
    expect(await rows()).toEqual([a.id]);
  });
});
