// `npm run bench -- notifications`: --rate check.failed events per minute (default 10,000) for
// --minutes through --rules notification rules with CEL filters (each event matches exactly one) into
// a loopback generic webhook (bench/notifications-receiver.mjs, its own process), on PostgreSQL and on
// embedded PGlite. The server (startOpsdeck, engines on) runs in this process; the events are written
// into event_queue the way the health engine writes them. Reported: event-to-delivery latency
// (event row inserted → request received) p50/p99/max, messages delivered, the server's CPU share
// (this process, less the event writer's own time measured around its inserts) and, on PostgreSQL,
// the backends' CPU share. --stage delivery writes the consumer's pending rows directly instead, to
// measure delivery alone. Flags: --db postgres|pglite|all, --rate 10000, --minutes 1, --rules 100,
// --stage all|delivery.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startOpsdeck } from '../server/src/app.js';
import type { Queryable } from '../server/src/db/database.js';
import {
  backendTicksBetween,
  databaseUrl,
  dropDatabase,
  loadavg,
  numberFlag,
  parseFlags,
  percentile,
  postgresBackendTicks,
  printTable,
  recreateDatabase,
  sleep,
  startReceiver,
  TICK_MS,
} from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const which = String(flags.db ?? 'all');
const ratePerMinute = numberFlag(flags, 'rate', 10_000);
const minutes = numberFlag(flags, 'minutes', 1);
const ruleCount = numberFlag(flags, 'rules', 100);
/** all: events through the consumer and delivery; delivery: pending rows written directly (delivery alone). */
const stage = String(flags.stage ?? 'all');
const BENCH_DB = 'opsdeck_bench_notifications';
const TICK = 100;

/** Pending rows as the consumer writes them (server/src/notifications/README.md), one per check. */
async function insertPending(db: Queryable, ids: string[], url: string): Promise<void> {
  await db.query(
    `INSERT INTO notification_send_history (notification_id, status, source_event, resource_id, resource_type,
       resource, resource_health, resource_status, body_payload, recipient, dedup_key, not_before)
     SELECT n.id, 'pending', 'check.failed', c.id, 'check', jsonb_build_object('id', c.id, 'name', c.name),
       'unhealthy', 'unhealthy',
       jsonb_build_object('check', to_jsonb(c), 'event', jsonb_build_object('name', 'check.failed'),
         'recipient', jsonb_build_object('kind', 'url', 'value', $2::text)),
       'bench webhook', n.id || ':' || c.id, now()
     FROM checks c JOIN notifications n ON n.name = 'bench-' || (c.labels->>'shard')
     WHERE c.id = ANY($1::uuid[])`,
    [ids, url],
  );
}

async function scenario(kind: 'postgres' | 'pglite'): Promise<(string | number)[]> {
  const receiver = await startReceiver();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-notifications-'));
  if (kind === 'postgres') await recreateDatabase(BENCH_DB);
  const app = await startOpsdeck({
    databaseUrl: kind === 'postgres' ? databaseUrl(BENCH_DB) : undefined,
    dataDir,
    demo: false,
    engines: true,
    port: 0,
    host: '127.0.0.1',
  });
  const db = app.ctx.db;
  try {
    const total = Math.round(ratePerMinute * minutes);
    const body = encodeURIComponent('{"resource":"{{.resource.id}}"}');
    const url = `generic+http://127.0.0.1:${receiver.port}/hook?bodytemplate=${body}`;
    await db.query(
      `INSERT INTO notifications (name, events, filter, custom_services)
       SELECT 'bench-' || i, ARRAY['check.failed'], 'check.labels.shard == "' || i || '"', $1::jsonb
       FROM generate_series(0, $2 - 1) i`,
      [JSON.stringify([{ url }]), ruleCount],
    );
    const { rows: canary } = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('bench', 'bench', '{}') RETURNING id`,
    );
    const { rows: checks } = await db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name, namespace, status, labels)
       SELECT $1, 'http', 'check-' || i, 'bench', 'unhealthy', jsonb_build_object('shard', (i % $3)::text)
       FROM generate_series(1, $2) i RETURNING id`,
      [canary[0]!.id, total, ruleCount],
    );
    const insertedAt = new Map<string, number>();
    const perTick = (ratePerMinute / 60_000) * TICK;
    const cpu0 = process.cpuUsage();
    const backends0 = kind === 'postgres' ? postgresBackendTicks(BENCH_DB) : new Map<string, number>();
    let writerMicros = 0;
    const started = performance.now();
    const progress = setInterval(() => {
      db.query<{ queued: number; pending: number; sent: number }>(
        `SELECT (SELECT count(*)::int FROM event_queue) AS queued,
           count(*) FILTER (WHERE status = 'pending')::int AS pending,
           count(*) FILTER (WHERE status = 'sent')::int AS sent
         FROM notification_send_history`,
      )
        .then(({ rows }) =>
          console.error(
            `${kind} ${Math.round((performance.now() - started) / 1000)} s: queued ${rows[0]!.queued}, ` +
              `pending ${rows[0]!.pending}, sent ${rows[0]!.sent}, received ${receiver.received.size}`,
          ),
        )
        .catch(() => undefined);
    }, 5000);
    let next = 0;
    for (let tick = 0; next < total; tick++) {
      const until = Math.min(total, Math.round((tick + 1) * perTick));
      const ids = checks.slice(next, until).map((c) => c.id);
      next = until;
      if (ids.length) {
        const w0 = process.cpuUsage();
        const at = Date.now();
        if (stage === 'delivery') await insertPending(db, ids, url);
        else
          await db.query(
            `INSERT INTO event_queue (name, properties)
             SELECT 'check.failed', jsonb_build_object('id', c.id, 'canary_id', c.canary_id, 'name', c.name,
               'type', c.type, 'status', 'unhealthy', 'previous', 'healthy', 'message', '', 'error', 'bench')
             FROM checks c WHERE c.id = ANY($1::uuid[])`,
            [ids],
          );
        for (const id of ids) insertedAt.set(id, at);
        const w = process.cpuUsage(w0);
        writerMicros += w.user + w.system;
      }
      const wait = started + (tick + 1) * TICK - performance.now();
      if (wait > 0) await sleep(wait);
    }
    const generated = performance.now() - started;
    const deadline = performance.now() + 120_000;
    while (receiver.received.size < total && performance.now() < deadline) await sleep(100);
    const wall = performance.now() - started;
    clearInterval(progress);
    const cpu = process.cpuUsage(cpu0);
    const backendMs =
      kind === 'postgres' ? backendTicksBetween(backends0, postgresBackendTicks(BENCH_DB)) * TICK_MS : 0;
    const latencies: number[] = [];
    let duplicates = 0;
    for (const [id, times] of receiver.received) {
      const at = insertedAt.get(id);
      if (at !== undefined) latencies.push(times[0]! - at);
      duplicates += times.length - 1;
    }
    const serverMs = (cpu.user + cpu.system - writerMicros) / 1000;
    console.error(`${kind}: ${receiver.received.size}/${total} delivered in ${Math.round(wall)} ms`);
    return [
      kind,
      total,
      receiver.received.size,
      duplicates,
      Math.round(generated / 1000),
      Math.round(percentile(latencies, 50)),
      Math.round(percentile(latencies, 99)),
      Math.round(Math.max(...latencies)),
      `${((serverMs / wall) * 100).toFixed(1)} %`,
      kind === 'postgres' ? `${((backendMs / wall) * 100).toFixed(1)} %` : '-',
    ];
  } finally {
    await app.close();
    await receiver.child.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (kind === 'postgres') await dropDatabase(BENCH_DB);
  }
}

const results: (string | number)[][] = [];
const load0 = loadavg();
if (which === 'all' || which === 'postgres') results.push(await scenario('postgres'));
if (which === 'all' || which === 'pglite') results.push(await scenario('pglite'));
console.log(
  `\nnotifications (${stage === 'delivery' ? 'delivery alone: pending rows written directly' : 'events → consumer → delivery'}): ${ratePerMinute} check.failed events/min for ${minutes} min through ${ruleCount} rules ` +
    `(CEL filters) into a loopback generic webhook; ${os.cpus().length} CPUs; loadavg before: ${load0}; ` +
    `after: ${loadavg()}\n`,
);
printTable(
  [
    'database',
    'events',
    'delivered',
    'duplicates',
    'generating s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'server CPU',
    'PG backends CPU',
  ],
  results,
);
