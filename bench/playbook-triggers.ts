// `npm run bench -- playbook-triggers`: --events check.failed events (default 1,000), each for a
// distinct check (so none is debounced), written into event_queue at --rate per minute, consumed by
// TWO server processes (`node --import tsx server/src/main.ts`, engines on) sharing one fresh
// PostgreSQL database. One playbook listens with on.check [{event: failed}] and has one action: exec
// `true` (--action exec) or an http POST to a loopback receiver in its own process (--action http).
// Latency is measured on the database's clock: event row inserted → run row queued (the trigger
// consumer) → run claimed (the runner) → action row started; for http also → request received. It
// prints p50/p99/max of each stage, runs started (a duplicate would be a second run for one check),
// the replicas' CPU, and the load average before and after. Flags: --events 1000, --rate 1000,
// --action exec|http, --timeout 300 (seconds to wait for the runs to end).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgres, type Database } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { parseStoredPlaybook } from '../server/src/playbooks/playbook.js';
import { applyPlaybook } from '../server/src/playbooks/store.js';
import {
  type Child,
  databaseUrl,
  dropDatabase,
  freePort,
  loadavg,
  numberFlag,
  parseFlags,
  percentile,
  printTable,
  processTicks,
  recreateDatabase,
  sleep,
  startChild,
  startReceiver,
  TICK_MS,
  waitForHttp,
} from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const total = numberFlag(flags, 'events', 1_000);
const ratePerMinute = numberFlag(flags, 'rate', 1_000);
const action = String(flags.action ?? 'exec');
const timeoutS = numberFlag(flags, 'timeout', 300);
const BENCH_DB = 'opsdeck_bench_playbook_triggers';
const TICK = 100;
const REPLICAS = 2;

function playbookResource(receiverPort: number) {
  const act =
    action === 'http'
      ? {
          name: 'notify',
          http: {
            url: `http://127.0.0.1:${receiverPort}/hook`,
            method: 'POST',
            templateBody: true,
            body: '{"resource":"{{.check.id}}"}',
          },
        }
      : { name: 'noop', exec: { script: 'true' } };
  return {
    apiVersion: 'mission-control.flanksource.com/v1',
    kind: 'Playbook',
    metadata: { name: 'bench-on-check-failed', namespace: 'bench' },
    spec: { on: { check: [{ event: 'failed' }] }, actions: [act] },
  };
}

async function startReplica(index: number): Promise<{ child: Child; port: number; dataDir: string }> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `opsdeck-bench-replica-${index}-`));
  const child = startChild(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    ...process.env,
    DATABASE_URL: databaseUrl(BENCH_DB),
    PORT: String(port),
    HOST: '127.0.0.1',
    OPSDECK_DEMO: 'false',
    ADMIN_EMAIL: 'bench@opsdeck.local',
    ADMIN_PASSWORD: 'bench-password-1234',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  });
  await waitForHttp(`http://127.0.0.1:${port}/api/about`, child, { timeoutMs: 180_000, intervalMs: 100 });
  return { child, port, dataDir };
}

interface Stages {
  queued: number[];
  claimed: number[];
  action: number[];
  received: number[];
}

async function latencies(
  db: Database,
  received: Map<string, number[]>,
): Promise<Stages & { runs: number; checks: number }> {
  const { rows } = await db.query<{
    check_id: string;
    inserted: string;
    q: string;
    c: string;
    a: string;
    at_ms: string;
  }>(
    `SELECT b.check_id, b.inserted_at AS inserted,
       extract(epoch FROM r.created_at - b.inserted_at) * 1000 AS q,
       extract(epoch FROM r.start_time - b.inserted_at) * 1000 AS c,
       extract(epoch FROM a.start_time - b.inserted_at) * 1000 AS a,
       extract(epoch FROM b.inserted_at) * 1000 AS at_ms
     FROM bench_event_times b JOIN playbook_runs r ON r.check_id = b.check_id
     JOIN playbook_run_actions a ON a.playbook_run_id = r.id`,
  );
  const stages: Stages = { queued: [], claimed: [], action: [], received: [] };
  const checks = new Set<string>();
  for (const row of rows) {
    checks.add(row.check_id);
    stages.queued.push(Number(row.q));
    stages.claimed.push(Number(row.c));
    stages.action.push(Number(row.a));
    const got = received.get(row.check_id)?.[0];
    if (got !== undefined) stages.received.push(got - Number(row.at_ms));
  }
  return { ...stages, runs: rows.length, checks: checks.size };
}

async function main() {
  const load0 = loadavg();
  await recreateDatabase(BENCH_DB);
  const db = await openPostgres(databaseUrl(BENCH_DB), 4);
  const receiver = action === 'http' ? await startReceiver() : undefined;
  const replicas: { child: Child; port: number; dataDir: string }[] = [];
  try {
    await migrate(db);
    await db.query('CREATE TABLE bench_event_times (check_id uuid PRIMARY KEY, inserted_at timestamptz NOT NULL)');
    const { rows: canary } = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('bench', 'bench', '{}') RETURNING id`,
    );
    const { rows: checks } = await db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name, namespace, status)
       SELECT $1, 'http', 'check-' || i, 'bench', 'unhealthy' FROM generate_series(1, $2) i RETURNING id`,
      [canary[0]!.id, total],
    );
    await applyPlaybook(db, parseStoredPlaybook(playbookResource(receiver?.port ?? 0)));
    for (let i = 0; i < REPLICAS; i++) replicas.push(await startReplica(i));
    console.error(`${REPLICAS} replicas up; writing ${total} events at ${ratePerMinute}/min`);
    const ticks0 = replicas.map((r) => processTicks(r.child.process.pid));
    const started = performance.now();
    const perTick = (ratePerMinute / 60_000) * TICK;
    let next = 0;
    for (let tick = 0; next < total; tick++) {
      const until = Math.min(total, Math.round((tick + 1) * perTick));
      const ids = checks.slice(next, until).map((c) => c.id);
      next = until;
      if (ids.length)
        await db.query(
          `WITH e AS (
             INSERT INTO event_queue (name, properties)
             SELECT 'check.failed', jsonb_build_object('id', c.id, 'canary_id', c.canary_id, 'name', c.name,
               'type', c.type, 'status', 'unhealthy', 'previous', 'healthy', 'message', '', 'error', 'bench')
             FROM checks c WHERE c.id = ANY($1::uuid[]) RETURNING properties->>'id' AS id, created_at)
           INSERT INTO bench_event_times SELECT id::uuid, created_at FROM e`,
          [ids],
        );
      const wait = started + (tick + 1) * TICK - performance.now();
      if (wait > 0) await sleep(wait);
    }
    const generated = performance.now() - started;
    const deadline = performance.now() + timeoutS * 1000;
    let done = 0;
    while (performance.now() < deadline) {
      const { rows } = await db.query<{ n: number; queued: number }>(
        `SELECT count(*) FILTER (WHERE status IN ('completed', 'failed'))::int AS n,
           (SELECT count(*)::int FROM event_queue) AS queued FROM playbook_runs`,
      );
      done = rows[0]!.n;
      if (done >= total && (!receiver || receiver.received.size >= total)) break;
      console.error(
        `${Math.round((performance.now() - started) / 1000)} s: ${done} runs ended, ${rows[0]!.queued} events queued`,
      );
      await sleep(2_000);
    }
    const wall = performance.now() - started;
    const cpu = replicas.map((r, i) => ((processTicks(r.child.process.pid) - ticks0[i]!) * TICK_MS) / wall);
    const l = await latencies(db, receiver?.received ?? new Map());
    const { rows: failed } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM playbook_runs WHERE status = 'failed'`,
    );
    const load1 = loadavg();
    console.log(
      `\nplaybook-triggers: ${total} check.failed events (distinct checks) at ${ratePerMinute}/min, ` +
        `one-action playbook (${action === 'http' ? 'http POST to a loopback receiver' : 'exec true'}), ` +
        `${REPLICAS} replicas on one PostgreSQL; ${os.cpus().length} CPUs; events written in ${(generated / 1000).toFixed(1)} s; ` +
        `loadavg before: ${load0}; after: ${load1}\n`,
    );
    console.log(
      `runs: ${l.runs} for ${l.checks} checks (duplicates ${l.runs - l.checks}), ended ${done}, failed ${failed[0]!.n}; ` +
        `replica CPU: ${cpu.map((c) => `${(c * 100).toFixed(1)} %`).join(', ')}\n`,
    );
    const row = (label: string, v: number[]) =>
      v.length
        ? [label, v.length, Math.round(percentile(v, 50)), Math.round(percentile(v, 99)), Math.round(Math.max(...v))]
        : [label, 0, '-', '-', '-'];
    printTable(
      ['event inserted →', 'n', 'p50 ms', 'p99 ms', 'max ms'],
      [
        row('run queued (trigger consumer)', l.queued),
        row('run claimed (runner)', l.claimed),
        row('action started (goal p99 < 2 s)', l.action),
        ...(receiver ? [row('request received', l.received)] : []),
      ],
    );
  } finally {
    for (const r of replicas) {
      await r.child.stop();
      fs.rmSync(r.dataDir, { recursive: true, force: true });
    }
    await receiver?.child.stop();
    await db.close();
    if (!flags.keep) await dropDatabase(BENCH_DB);
  }
}

await main();
