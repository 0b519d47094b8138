// The lease heartbeat on a real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set), with
// two health engines standing for two replicas and a loopback HTTP target that holds the check's
// request open: a canary run that lasts several leases keeps its lease (the other engine never runs
// it) with one renewal statement per beat for all held leases; when the lease is lost anyway (it
// expired while the holder stalled, and the other engine took the canary over), the holder's run
// stops without recording and without touching the new holder's lease.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkers } from '../src/health/checkers/index.js';
import { HealthEngine } from '../src/health/engine.js';
import { LeaseHeartbeat } from '../src/jobs/heartbeat.js';
import { applyDueCanary, leaseOwnerOf } from './helpers/canaries.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { sleep, until } from './helpers/processes.js';

const LEASE_MS = 3_000;
const BEAT_MS = 500;

describe.each(databaseKinds())('the lease heartbeat on %s', (kind) => {
  let test: TestDatabase;
  let target: http.Server;
  let url = '';
  /** Requests the target holds open, by path, oldest first. */
  const held = new Map<string, http.ServerResponse[]>();
  const engines: HealthEngine[] = [];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    target = http.createServer((req, res) => {
      const list = held.get(req.url ?? '/') ?? [];
      list.push(res);
      held.set(req.url ?? '/', list);
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(engines.map((e) => e.stop()));
    for (const list of held.values()) for (const res of list) if (!res.writableEnded) res.end('late');
    await new Promise<void>((resolve) => target.close(() => resolve()));
    await test?.close();
  });

  /** A canary of `checks` HTTP checks on `path`, due now, run once an hour. */
  async function canary(name: string, path: string, checks = 1): Promise<{ id: string; checkIds: string[] }> {
    const entries = Array.from({ length: checks }, (_, i) => `    - {name: c${i}, url: "${url}${path}/${i}"}`);
    return applyDueCanary(test.db, name, `  http:\n${entries.join('\n')}`);
  }

  const engine = (leases: LeaseHeartbeat) => {
    const e = new HealthEngine(test.db, checkers, { pollMs: 100, leases });
    engines.push(e);
    return e;
  };
  const requests = (path: string) => [...held].filter(([p]) => p.startsWith(path)).flatMap(([, list]) => list);
  const leaseOf = (id: string) => leaseOwnerOf(test.db, id);
  const results = async (checkId: string) =>
    Number(
      (await test.db.query<{ n: string }>('SELECT count(*) AS n FROM check_statuses WHERE check_id = $1', [checkId]))
        .rows[0]!.n,
    );

  it('keeps a run that lasts several leases with its holder, in one renewal statement per beat', async () => {
    const leasesA = new LeaseHeartbeat(test.db, { leaseMs: LEASE_MS, everyMs: BEAT_MS });
    const a = engine(leasesA);
    const b = engine(new LeaseHeartbeat(test.db, { leaseMs: LEASE_MS, everyMs: BEAT_MS }));
    const { id, checkIds } = await canary('kept', '/kept', 3);
    // (Ticks by hand: started, an engine on the embedded database drops the leases it finds.)
    await a.tick();
    await until('the holder to request all three checks', async () => requests('/kept').length === 3, 20_000);
    const beatsBefore = leasesA.beats;
    // A run of three checks under way for more than three leases; the other engine looks all along.
    const heldFor = 3 * LEASE_MS + 500;
    for (const end = Date.now() + heldFor; Date.now() < end;) {
      expect(await b.tick()).toBe(0);
      await sleep(100);
    }
    expect(requests('/kept')).toHaveLength(3); // the other engine never took the canary
    expect(await leaseOf(id)).toBe(a.owner);
    const beats = leasesA.beats - beatsBefore;
    expect(beats).toBeGreaterThanOrEqual(Math.floor(heldFor / BEAT_MS) - 2);
    expect(beats).toBeLessThanOrEqual(Math.ceil(heldFor / BEAT_MS) + 1);
    for (const res of requests('/kept')) res.end('ok');
    await a.stop(); // waits for the run under way
    expect(await leaseOf(id)).toBeNull();
    for (const c of checkIds) expect(await results(c)).toBe(1);
  }, 60_000);

  it('stops a run whose lease was lost without recording or touching the new holder', async () => {
    // Beats half a lease apart, so the lease can be made to run out between two of them.
    const leasesA = new LeaseHeartbeat(test.db, { leaseMs: LEASE_MS, everyMs: LEASE_MS / 2 });
    const a = engine(leasesA);
    const b = engine(new LeaseHeartbeat(test.db, { leaseMs: LEASE_MS, everyMs: BEAT_MS }));
    const { id, checkIds } = await canary('lost', '/lost');
    await a.tick();
    await until('the holder to request the check', async () => requests('/lost').length === 1, 20_000);
    // Right after a beat, the holder stalls past its lease (as a paused process would): the lease
    // runs out in the database and the other engine claims the canary.
    const beats = leasesA.beats;
    await until('a beat', async () => leasesA.beats > beats, 5_000);
    // (Again if a beat came in between on a busy machine: the lease must be out when the other looks.)
    let claimed = 0;
    for (let i = 0; i < 5 && !claimed; i++) {
      await test.db.query(`UPDATE canaries SET lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
      claimed = await b.tick();
    }
    expect(claimed).toBe(1);
    await until('the other engine to run the check', async () => requests('/lost').length === 2, 20_000);
    expect(await leaseOf(id)).toBe(b.owner);
    // The holder's next beat finds the lease gone: its run is told to stop.
    await until('the holder to give the lease up', async () => leasesA.held === 0, 5_000);
    const [first, second] = requests('/lost');
    first!.end('ok'); // the stalled holder's check ends now: nothing may be recorded from it
    await a.stop(); // waits for its run
    expect(await results(checkIds[0]!)).toBe(0);
    expect(await leaseOf(id)).toBe(b.owner); // its finish did not release the new holder's lease
    second!.end('ok');
    await until('the new holder to record its run', async () => (await leaseOf(id)) === null, 10_000);
    expect(await results(checkIds[0]!)).toBe(1);
    await b.stop();
  }, 60_000);
});
