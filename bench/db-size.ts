// `npm run bench -- db-size`: database size per 1,000 checks per month, on PostgreSQL.
// A fresh database (opsdeck_bench_dbsize, dropped at the end unless --keep) with Opsdeck's
// migrations; one canary with --checks checks (1,000) run once a minute. --days days (default 2) of
// check results are generated as the health engine writes them (a message such as "200 OK in 87 ms",
// details {code}, 1 % failures with an error), rolled up by the engine's own rollupCheckStatuses,
// and --old-days more days (default 1) generated 40 days back are pruned by the retention jobs
// themselves (RetentionRunner, the defaults of retention/tables.ts; counts from job_history). Then
// VACUUM FULL ANALYZE and pg_total_relation_size (table + indexes + TOAST) of each table per row,
// scaled to a month (30 days × 1,440 runs per check) and to the steady state retention keeps
// (raw 30 days, hourly roll-ups 90 days, daily two years). Flags: --checks, --days, --old-days, --keep.
import { openPostgres } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { rollupCheckStatuses } from '../server/src/health/rollup.js';
import { RetentionRunner } from '../server/src/retention/runner.js';
import { RETENTION_TABLES, type RetentionDays } from '../server/src/retention/tables.js';
import { databaseUrl, dropDatabase, numberFlag, parseFlags, printTable, recreateDatabase } from './lib.js';

const NAME = 'opsdeck_bench_dbsize';
const flags = parseFlags(process.argv.slice(2));
const checks = numberFlag(flags, 'checks', 1000);
const days = numberFlag(flags, 'days', 2);
const oldDays = numberFlag(flags, 'old-days', 1);
const MONTH_RUNS = 30 * 1440;

const log = (line: string) => console.log(line);
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
const t0 = performance.now();
const secs = () => ((performance.now() - t0) / 1000).toFixed(0);

/** Raw results of every check once a minute over [fromDaysAgo, toDaysAgo), one day per statement. */
async function generate(db: Awaited<ReturnType<typeof openPostgres>>, fromDaysAgo: number, toDaysAgo: number) {
  let rows = 0;
  for (let d = fromDaysAgo; d > toDaysAgo; d--) {
    const r = await db.query(
      `INSERT INTO check_statuses (check_id, time, status, duration, message, error, details)
       SELECT c.id, t, NOT failed, dur,
              CASE WHEN failed THEN NULL ELSE '200 OK in ' || dur || ' ms' END,
              CASE WHEN failed THEN 'expected status 200, got 503 Service Unavailable' END,
              jsonb_build_object('code', CASE WHEN failed THEN 503 ELSE 200 END)
       FROM checks c,
            generate_series(date_trunc('minute', now()) - make_interval(days => $1),
                            date_trunc('minute', now()) - make_interval(days => $2) - interval '1 minute',
                            interval '1 minute') t,
            LATERAL (SELECT random() < 0.01 AS failed, (20 + random() * 400)::int AS dur
                     WHERE c.id IS NOT NULL AND t IS NOT NULL) x`,
      [d, d - 1],
    );
    rows += r.affectedRows ?? 0;
    log(`  [${secs()} s] ${rows.toLocaleString('en')} results generated`);
  }
  return rows;
}

async function main() {
  log(`db-size: ${checks} checks @every 1m, ${days} day(s) generated, ${oldDays} old day(s) pruned (PostgreSQL)`);
  await recreateDatabase(NAME);
  const db = await openPostgres(databaseUrl(NAME), 4, 0);
  try {
    await migrate(db);
    const { rows: canary } = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec, schedule) VALUES ('db-size', 'bench', '{}', '@every 1m') RETURNING id`,
    );
    await db.query(
      `INSERT INTO checks (canary_id, type, name) SELECT $1, 'http', 'check-' || g FROM generate_series(1, $2::int) g`,
      [canary[0]!.id, checks],
    );

    // Results older than the retention, which the retention jobs must remove.
    const old = await generate(db, 40 + oldDays, 40);
    await rollupCheckStatuses(db, new Date(Date.now() - (41 + oldDays) * 86_400_000));
    const kept = await generate(db, days, 0);
    const rolled = await rollupCheckStatuses(db, new Date(Date.now() - (days + 1) * 86_400_000));
    log(`  [${secs()} s] roll-up: ${rolled.hourly} hourly and ${rolled.daily} daily rows written`);

    const retentionDays: RetentionDays = Object.fromEntries(RETENTION_TABLES.map((t) => [t.table, t.defaultDays]));
    const results = await new RetentionRunner(db, { days: retentionDays }).pass(true);
    const pruned = results.find((r) => r.table === 'check_statuses');
    log(
      `  [${secs()} s] retention: ${results.length} tables pruned; check_statuses ${pruned?.deleted.toLocaleString('en')} of ${old.toLocaleString('en')} old results deleted in ${pruned?.batches} batches`,
    );
    const { rows: jobs } = await db.query<{ name: string; success_count: number }>(
      `SELECT name, success_count FROM job_history WHERE name LIKE 'retention:%' ORDER BY name`,
    );
    log(`  job_history: ${jobs.map((j) => `${j.name} ${j.success_count}`).join(', ')}`);
    await db.exec('VACUUM FULL ANALYZE');
    log(`  [${secs()} s] VACUUM FULL ANALYZE done`);

    const { rows: sizes } = await db.query<{
      name: string;
      rows: string;
      total: string;
      heap: string;
      indexes: string;
    }>(
      `SELECT c.relname AS name, c.reltuples::bigint AS rows, pg_total_relation_size(c.oid) AS total,
              pg_relation_size(c.oid) AS heap, pg_indexes_size(c.oid) AS indexes
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relname IN ('check_statuses', 'check_statuses_1h', 'check_statuses_1d')`,
    );
    const counts = new Map<string, number>();
    for (const t of ['check_statuses', 'check_statuses_1h', 'check_statuses_1d'])
      counts.set(t, Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${t}`)).rows[0]!.n));
    // Rows per 1,000 checks: raw one a minute, hourly one an hour, daily one a day.
    const perMonth: Record<string, number> = {
      check_statuses: MONTH_RUNS,
      check_statuses_1h: 30 * 24,
      check_statuses_1d: 30,
    };
    const steady: Record<string, number> = {
      check_statuses: retentionDays.check_statuses! * 1440,
      check_statuses_1h: retentionDays.check_statuses_1h! * 24,
      check_statuses_1d: retentionDays.check_statuses_1d!,
    };
    const table: (string | number)[][] = [];
    let month = 0;
    let steadyTotal = 0;
    for (const s of sizes.sort((a, b) => a.name.localeCompare(b.name))) {
      const n = counts.get(s.name)!;
      const perRow = n ? Number(s.total) / n : 0;
      const m = perRow * perMonth[s.name]! * 1000;
      const st = perRow * steady[s.name]! * 1000;
      month += m;
      steadyTotal += st;
      table.push([
        s.name,
        n.toLocaleString('en'),
        mb(Number(s.heap)),
        mb(Number(s.indexes)),
        mb(Number(s.total)),
        perRow.toFixed(1),
        mb(m),
        mb(st),
      ]);
    }
    const dbSize = Number(
      (await db.query<{ s: string }>('SELECT pg_database_size(current_database()) AS s')).rows[0]!.s,
    );
    log('');
    log(`per 1,000 checks at 1/min (pg_total_relation_size = heap + indexes + TOAST; MB = MiB):`);
    printTable(
      ['table', 'rows now', 'heap MB', 'index MB', 'total MB', 'bytes/row', 'MB per month', 'MB steady state'],
      table,
    );
    log('');
    log(`one month of 1,000 checks: ${mb(month)} MB (${(month / 1024 / 1024 / 1024).toFixed(2)} GiB)`);
    log(
      `steady state with retention (raw ${retentionDays.check_statuses} d, hourly ${retentionDays.check_statuses_1h} d, daily ${retentionDays.check_statuses_1d} d): ${mb(steadyTotal)} MB`,
    );
    log(`whole database now: ${mb(dbSize)} MB (${kept.toLocaleString('en')} raw results kept) — ${secs()} s`);
  } finally {
    await db.close();
    if (!flags.keep) await dropDatabase(NAME);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
