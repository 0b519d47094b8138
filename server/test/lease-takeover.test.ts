// Lease takeover between real server processes (server/dist/main.js, engines on, default LEASE_MS and
// LEASE_HEARTBEAT_MS) on one PostgreSQL: four canaries whose HTTP checks a loopback target holds open,
// so each replica is mid-run on the canaries it claimed. The replica holding the most is SIGKILLed;
// the other must run every one of the killed replica's checks within a minute (its leases are not
// renewed any more and expire; the measured takeover time is printed). PostgreSQL only: the embedded
// database (PGlite) belongs to one process, so there is no second replica to take over.
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/database.js';
import { migrate } from '../src/db/migrate.js';
import { parseCanary } from '../src/health/canary.js';
import { checkers } from '../src/health/checkers/index.js';
import { applyCanary } from '../src/health/store.js';
import { parseDocuments } from '../src/resources/yaml.js';
import { createPostgresDatabase } from './helpers/databases.js';
import { root, startServerProcess, stopProcess, until, type RunningServer } from './helpers/processes.js';

const CANARIES = 4;
const CHECKS_PER_CANARY = 2;
const TAKEOVER_LIMIT_MS = 60_000;
const main = path.join(root, 'server/dist/main.js');
const pg = process.env.TEST_DATABASE_URL;

if (!pg) {
  console.warn(
    'lease-takeover: skipped — needs TEST_DATABASE_URL (PostgreSQL); PGlite is one process, with no second replica',
  );
}

describe.skipIf(!pg)('a SIGKILLed replica’s leased work is taken over (PostgreSQL only)', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Database;
  let target: http.Server;
  let targetUrl = '';
  /** Requests for canary n's checks: when they came and the response (held until `answer`). */
  const requests: { canary: number; at: number; res: http.ServerResponse }[] = [];
  /** Once set, the target answers at once. */
  let answer = false;
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    database = await createPostgresDatabase();
    target = http.createServer((req, res) => {
      const canary = Number(/^\/c(\d+)\//.exec(req.url ?? '')?.[1] ?? -1);
      requests.push({ canary, at: Date.now(), res });
      if (answer) res.end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}`;
    const env = {
      DATABASE_URL: database.url,
      OPSDECK_DEMO: 'false',
      HOST: '127.0.0.1',
      ADMIN_EMAIL: 'admin@example.test',
      ADMIN_PASSWORD: 'lease takeover password',
    };
    const opts = { cwd: root, timeoutMs: 120_000, pollMs: 250 };
    // Migrated here, so both servers start at once.
    db = await openPostgres(database.url, 2);
    await migrate(db);
    servers.push(
      ...(await Promise.all([startServerProcess([main], env, opts), startServerProcess([main], env, opts)])),
    );
  }, 300_000);

  afterAll(async () => {
    answer = true;
    for (const r of requests) if (!r.res.writableEnded) r.res.end('late');
    await Promise.all(servers.map((s) => stopProcess(s.child, 15_000)));
    await new Promise<void>((resolve) => (target ? target.close(() => resolve()) : resolve()));
    await db?.close();
    await database?.drop();
  }, 60_000);

  it('runs the killed replica’s checks on the other replica within a minute', async () => {
    const ids: string[] = [];
    for (let n = 0; n < CANARIES; n++) {
      const checks = Array.from(
        { length: CHECKS_PER_CANARY },
        (_, i) => `    - {name: h${i}, url: "${targetUrl}/c${n}/${i}"}`,
      );
      const def = parseCanary(
        parseDocuments(`apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: takeover-${n}, namespace: default}
spec:
  schedule: "@every 5s"
  http:
${checks.join('\n')}
`)[0]!,
        checkers,
      );
      ids.push((await applyCanary(db, def, { source: 'UI' })).id);
    }
    await db.query(`UPDATE canaries SET next_runtime = now() WHERE id = ANY($1::uuid[])`, [ids]);
    await until('every canary claimed and its checks requested', async () =>
      Array.from({ length: CANARIES }, (_, n) => requests.filter((r) => r.canary === n).length).every(
        (k) => k >= CHECKS_PER_CANARY,
      ),
    );
    const { rows: leases } = await db.query<{ id: string; lease_owner: string }>(
      `SELECT id, lease_owner FROM canaries WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const pidOf = (owner: string) => Number(owner.split(':').at(-2));
    const held = (s: RunningServer) => leases.filter((l) => pidOf(l.lease_owner) === s.child.pid);
    expect(held(servers[0]!).length + held(servers[1]!).length).toBe(CANARIES);
    const [victim, survivor] =
      held(servers[0]!).length >= held(servers[1]!).length ? servers : [servers[1]!, servers[0]!];
    const taken = held(victim!).map((l) => ids.indexOf(l.id));

    const killedAt = Date.now();
    victim!.child.kill('SIGKILL');
    // From now on the target answers: the survivor's own runs end, and so do the runs it takes over.
    answer = true;
    for (const r of requests) if (!r.res.writableEnded) r.res.end('ok');

    const firstAfterKill = await until(
      'the survivor to run every check of the killed replica’s canaries',
      async () => {
        const firsts = taken.map((n) => {
          const after = requests.filter((r) => r.canary === n && r.at > killedAt);
          return after.length >= CHECKS_PER_CANARY
            ? Math.max(...after.slice(0, CHECKS_PER_CANARY).map((r) => r.at))
            : 0;
        });
        return firsts.every((t) => t > 0) && firsts;
      },
      TAKEOVER_LIMIT_MS + 15_000,
    );
    const takeoverMs = Math.max(...firstAfterKill) - killedAt;
    console.log(
      `lease takeover: ${taken.length} canaries (${taken.length * CHECKS_PER_CANARY} checks) of the killed replica ` +
        `run by the other ${(takeoverMs / 1000).toFixed(1)} s after SIGKILL (LEASE_MS 30 s, heartbeat 10 s)`,
    );
    expect(takeoverMs).toBeLessThan(TAKEOVER_LIMIT_MS);
    // Recorded by the survivor, which holds the canaries' leases now (or released them).
    await until(
      'the survivor to record those checks',
      async () => {
        const { rows } = await db.query<{ n: string }>(
          `SELECT count(DISTINCT s.check_id) AS n FROM check_statuses s JOIN checks c ON c.id = s.check_id
           WHERE c.canary_id = ANY($1::uuid[]) AND s.time > to_timestamp($2::double precision / 1000)`,
          [taken.map((n) => ids[n]), killedAt],
        );
        return Number(rows[0]!.n) === taken.length * CHECKS_PER_CANARY;
      },
      15_000,
    );
    const { rows: owners } = await db.query<{ lease_owner: string | null }>(
      `SELECT lease_owner FROM canaries WHERE id = ANY($1::uuid[]) AND lease_owner IS NOT NULL`,
      [ids],
    );
    for (const o of owners) expect(pidOf(o.lease_owner!)).toBe(survivor!.child.pid);
  }, 150_000);
});
