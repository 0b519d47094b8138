// A busy replica leaves due work to the others (jobs/leasedScheduler.ts), on a real database (PGlite,
// and PostgreSQL when TEST_DATABASE_URL is set): two health engines stand for two replicas, one of
// them told its event loop was busy. On PostgreSQL the busy one claims only canaries due for two of
// its polls, so the idle one takes a fresh due canary; with no replica presence to ask, alone, the
// busy one takes it after that grace. With presences (jobs/replicas.ts), the grace holds while
// another replica is alive and not once it is gone. On the embedded database (one process, no other
// replica) a busy engine claims at once.
// The busy measure itself is the event loop's utilization: a loop held by a busy wait counts as busy,
// one that waited on a timer does not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkers } from '../src/health/checkers/index.js';
import { HealthEngine, type HealthEngineOptions } from '../src/health/engine.js';
import { ReplicaPresence } from '../src/jobs/replicas.js';
import { applyDueCanary, leaseOwnerOf } from './helpers/canaries.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { sleep } from './helpers/processes.js';

const POLL_MS = 200;

/** An engine whose event loop reads as busy or idle, as the test says. */
class Told extends HealthEngine {
  busy = false;
  protected override loopBusy(): boolean {
    return this.busy;
  }
}

/** An engine that reports what the real measure said at each look. */
class Measured extends HealthEngine {
  looks: boolean[] = [];
  protected override loopBusy(): boolean {
    const busy = super.loopBusy();
    this.looks.push(busy);
    return busy;
  }
}

describe.each(databaseKinds())('a busy replica on %s', (kind) => {
  let test: TestDatabase;
  const engines: HealthEngine[] = [];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(engines.map((e) => e.stop()));
    await test?.close();
  });

  const told = (busy: boolean, options: HealthEngineOptions = {}) => {
    const e = new Told(test.db, checkers, { pollMs: POLL_MS, ...options });
    e.busy = busy;
    engines.push(e);
    return e;
  };

  /** A canary (an exec check that passes) due from now, run once an hour. */
  const dueCanary = async (name: string) =>
    (await applyDueCanary(test.db, name, `  exec:\n    - {name: ok, script: "true"}`, 0)).id;
  const leaseOf = (id: string) => leaseOwnerOf(test.db, id);

  it('leaves a fresh due canary to an idle replica, and takes it alone after the grace', async () => {
    const busy = told(true);
    const idle = told(false);
    // (Ticks by hand: started, an engine on the embedded database drops the leases it finds.)
    const first = await dueCanary('fresh');
    const claimed = await busy.tick();
    if (kind === 'pglite') {
      expect(claimed).toBe(1);
      expect(await leaseOf(first)).toBe(busy.owner);
      return;
    }
    expect(claimed).toBe(0);
    expect(await idle.tick()).toBe(1);
    expect(await leaseOf(first)).toBe(idle.owner);

    // Alone: a canary due for less than the grace stays, once past it the busy replica runs it.
    const second = await dueCanary('alone');
    expect(await busy.tick()).toBe(0);
    await sleep(2 * POLL_MS + 100); // the health engine's grace: two polls
    expect(await busy.tick()).toBe(1);
    expect(await leaseOf(second)).toBe(busy.owner);
  }, 60_000);

  it('leaves due canaries to the others only while another replica is alive', async () => {
    const mine = new ReplicaPresence(test.db, { everyMs: 60_000, version: 'test', mode: 'full' });
    const other = new ReplicaPresence(test.db, { everyMs: 60_000, version: 'test', mode: 'full' });
    try {
      await other.start();
      await mine.start();
      const busy = told(true, { replicas: mine });
      const withOther = await dueCanary('with-other');
      if (kind === 'pglite') {
        expect(await busy.tick()).toBe(1);
        return;
      }
      expect(await busy.tick()).toBe(0);
      expect(await leaseOf(withOther)).toBeNull();
      // The other replica stops: alone now, the busy replica claims what is due at once.
      await other.stop();
      await mine.beat();
      expect(mine.others).toBe(false);
      expect(await busy.tick()).toBeGreaterThanOrEqual(1);
      expect(await leaseOf(withOther)).toBe(busy.owner);
    } finally {
      await Promise.all([mine.stop(), other.stop()]);
    }
  }, 60_000);

  it('counts a loop held by work as busy, and one waiting on a timer as idle', async () => {
    const e = new Measured(test.db, checkers, { pollMs: POLL_MS });
    engines.push(e);
    // A look sooner than a poll after the last (here the engine's creation) says nothing yet.
    for (const end = performance.now() + POLL_MS / 4; performance.now() < end;);
    await e.tick();
    if (kind === 'postgres') expect(e.looks).toEqual([false]);
    await sleep(POLL_MS);
    await e.tick();
    e.looks.length = 0;
    await sleep(300);
    await e.tick();
    for (const end = performance.now() + 300; performance.now() < end;);
    await e.tick();
    if (kind === 'pglite')
      expect(e.looks).toEqual([]); // not asked: no other replica to leave work to
    else expect(e.looks).toEqual([false, true]);
  }, 60_000);
});
