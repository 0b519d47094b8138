// `npm run bench -- health`: the health engine under load, and the summary endpoint over history.
//
// Engine: N HTTP checks on `@every 1m` against a loopback HTTP server (bench/health-target.mjs, its
// own process), run by `node server/dist/main.js` (its own process) for --minutes on PostgreSQL
// (one run per --pool size) and on embedded PGlite. Reported: checks run per minute, lateness
// against the schedule, the server's RSS and CPU, and the CPU of everything else on the machine.
//
// How lateness is measured. The engine plans each canary run in canaries.next_runtime (the first
// run when the canary is applied, then planned + period when a run finishes, or finish + period
// when that is already past: a skipped run). The benchmark adds an AFTER INSERT OR UPDATE OF
// next_runtime trigger on canaries that copies every planned time into bench_planned(canary_id,
// planned), so every planned time is known exactly, skipped ones included. A check_statuses row
// (check_id, time) belongs to the latest planned time of its canary at or before `time`: the next
// planned time is written only when the run finishes, and is then later than every check of that
// run started (or, if it is not, finishRun re-plans from "now"). `time` is when the engine started
// that check (runCanary passes new Date() per check), so lateness = time - planned includes the
// scheduler's poll interval, claiming, and waiting for the per-canary check pool. Planned runs in
// the window that never produced a status by the end, and planned slots the engine skipped
// (a gap of more than one period between two planned times), are counted as missed runs.
//
// Summary: a separate database with --summary-checks checks, raw check_statuses at one row per check
// and minute for the last --raw-hours hours, hourly roll-ups for --rollup-days days (older hours
// generated; the last hours and the daily roll-ups by the engine's own rollupCheckStatuses), then the
// p50/p95 latency of GET /api/canary/api/summary?start=<range> and EXPLAIN ANALYZE of its query.
//
// Flags: --part engine|summary|all, --db postgres|pglite|all, --minutes 10, --checks 10000 (PostgreSQL),
// --pglite-checks 1000, --per-canary 100, --pool 10,20, --warmup 60 (s), --drain 60 (s), --prefill-hours 2,
// --summary-checks 10000, --raw-hours 24, --rollup-days 30, --requests 20, --live-requests (= --requests),
// --pace-ms 0 (between precomputed requests), --ranges 1h,24h,7d,30d, --reuse,
// --try-indexes (also time the summary's aggregate with a covering index, built and dropped again).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type Database } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { PRECOMPUTED_RANGES, refreshSummary, summarySqlFor } from '../server/src/health/summary.js';
import { rollupCheckStatuses } from '../server/src/health/rollup.js';
import {
  TICK_MS,
  databaseExists,
  databaseUrl,
  ensureServerBuilt,
  machineTicks,
  numberFlag,
  parseFlags,
  percentile,
  postgresAuxiliaryTicks,
  postgresBackendTicks,
  printTable,
  processTicks,
  recreateDatabase,
  rssBytes,
  sleep,
  repoRoot,
  startChild,
  startServer,
} from './lib.js';
import {
  LATENESS_GOAL_MS,
  PERIOD_MS,
  PLANNED_SQL,
  analyse,
  applyCanaries,
  drainPlanned,
  startTarget,
} from './healthRuns.js';

const flags = parseFlags(process.argv.slice(2));
const part = String(flags.part ?? 'all');
if (!['engine', 'summary', 'all'].includes(part)) throw new Error('--part must be engine, summary or all');
const dbChoice = String(flags.db ?? 'all');
if (!['postgres', 'pglite', 'all'].includes(dbChoice)) throw new Error('--db must be postgres, pglite or all');
const minutes = numberFlag(flags, 'minutes', 10);
const pgChecks = numberFlag(flags, 'checks', 10_000);
const pgliteChecks = numberFlag(flags, 'pglite-checks', 1_000);
const perCanary = numberFlag(flags, 'per-canary', 100);
const pools = String(flags.pool ?? '10,20')
  .split(',')
  .map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n) || n <= 0) throw new Error('--pool takes pool sizes, e.g. 10,20');
    return n;
  });
const warmupS = numberFlag(flags, 'warmup', 60);
const drainS = numberFlag(flags, 'drain', 60);
const prefillHours = flags['prefill-hours'] === '0' ? 0 : numberFlag(flags, 'prefill-hours', 2);
const summaryChecks = numberFlag(flags, 'summary-checks', 10_000);
const rawHours = numberFlag(flags, 'raw-hours', 24);
const rollupDays = numberFlag(flags, 'rollup-days', 30);
const requests = numberFlag(flags, 'requests', 20);
// Requests of the summary computed on request (default: --requests), and a pause between the
// precomputed ones (ms) so they spread over the refresh periods as a dashboard's polls do.
const liveRequests = numberFlag(flags, 'live-requests', requests);
const paceMs = numberFlag(flags, 'pace-ms', 0);
const ranges = String(flags.ranges ?? '1h,24h,7d,30d').split(',');

const ENGINE_DB = 'opsdeck_bench_health';
const SUMMARY_DB = 'opsdeck_bench_summary';
const RSS_GOAL_BYTES = 600 * 1024 * 1024;
const SUMMARY_GOAL_MS = 150;
const ADMIN_EMAIL = 'bench-admin@opsdeck.local';
const ADMIN_PASSWORD = 'opsdeck-bench-password';
const CPUS = os.cpus().length;

const log = (s: string) => console.log(s);
const fmt = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : v > 0 ? '∞' : '-');
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
const pct = (x: number) => `${(100 * x).toFixed(0)}%`;

// ---------------------------------------------------------------------------------------------
// Canaries and history

/**
 * The details an http check stores for a 200 from the target (same keys as checkers/http.ts:
 * url, code, headers, elapsed, content, json, metrics), as an SQL expression.
 */
const detailsSql = (endpoint: string, duration: string, time: string) => `json_build_object(
  'url', ${endpoint}, 'code', 200,
  'headers', json_build_object('connection', 'close', 'content-length', '15', 'content-type', 'application/json',
    'date', to_char(${time} AT TIME ZONE 'UTC', 'Dy, DD Mon YYYY HH24:MI:SS "GMT"')),
  'elapsed', ${duration}, 'content', '{"status":"ok"}', 'json', json_build_object('status', 'ok'),
  'metrics', json_build_array(json_build_object('name', 'response_code', 'type', 'counter', 'value', 1,
    'labels', json_build_object('code', '200', 'url', ${endpoint}))))`;

/**
 * Raw statuses, one per check and minute in [from, to), each check at its own second of the
 * minute, inserted in time order as the engine appends them; about 1% fail (in runs of a few
 * minutes, as a flapping target would).
 */
function rawHistorySql(fromSql: string, toSql: string): string {
  return `
INSERT INTO check_statuses (check_id, time, status, invalid, duration, message, error, details)
SELECT id, t, ok, false, d,
       CASE WHEN ok THEN '200 OK in ' || d || ' ms' END,
       CASE WHEN NOT ok THEN 'expected 200, got 503' END,
       ${detailsSql('endpoint', 'd', 't')}
FROM (
  SELECT c.id, c.endpoint,
         g.t + (abs(hashtext(c.id::text)) % 60000) * interval '1 millisecond' AS t,
         -- 1% failing: a few checks fail for a few minutes at a time.
         (abs(hashtext(c.id::text || (extract(epoch FROM g.t)::bigint / 300)::text)) % 100) <> 0 AS ok,
         (1 + floor(random() * random() * 60))::int AS d
  FROM checks c CROSS JOIN generate_series(${fromSql}, ${toSql} - interval '1 minute', interval '1 minute') AS g(t)
  WHERE c.deleted_at IS NULL
) s
ORDER BY t
ON CONFLICT (check_id, time) DO NOTHING`;
}

// ---------------------------------------------------------------------------------------------
// Processes

/**
 * Cumulative CPU ticks of a changing set of processes (PostgreSQL backends come and go: the pool
 * closes idle connections after 10 s, so between the engine's bursts). Sampled every second, so a
 * process that lives between two samples of a window is still counted; one that starts after the
 * first sample counts from zero; the work of the last second before a process exits is lost.
 */
class ProcessSetMeter {
  private seen = new Map<string, { base: number; last: number }>();
  private retired = 0;
  private started = false;
  constructor(private readonly list: () => Map<string, number>) {}
  sample(): number {
    for (const [pid, ticks] of this.list()) {
      const s = this.seen.get(pid);
      if (!s) this.seen.set(pid, { base: this.started ? 0 : ticks, last: ticks });
      else if (ticks < s.last) {
        // The pid was reused by a new process.
        this.retired += s.last - s.base;
        s.base = 0;
        s.last = ticks;
      } else s.last = ticks;
    }
    this.started = true;
    let sum = this.retired;
    for (const s of this.seen.values()) sum += s.last - s.base;
    return sum;
  }
}

interface Meters {
  postgres: ProcessSetMeter;
  postgresAux: ProcessSetMeter;
}

function meters(database: string | null): Meters {
  return {
    postgres: new ProcessSetMeter(() => (database ? postgresBackendTicks(database) : new Map())),
    postgresAux: new ProcessSetMeter(postgresAuxiliaryTicks),
  };
}

/** CPU of the processes involved and of the whole machine, for deltas. */
interface CpuSnap {
  at: number;
  server: number;
  postgres: number;
  postgresAux: number;
  target: number;
  bench: number;
  machine: ReturnType<typeof machineTicks>;
}

function cpuSnap(serverPid: number | undefined, targetPid: number | undefined, m: Meters): CpuSnap {
  const self = process.cpuUsage();
  return {
    at: performance.now(),
    server: processTicks(serverPid),
    postgres: m.postgres.sample(),
    postgresAux: m.postgresAux.sample(),
    target: processTicks(targetPid),
    bench: (self.user + self.system) / 1000 / TICK_MS,
    machine: machineTicks(),
  };
}

interface CpuShares {
  /** Each as a share of one CPU over the interval (1 = one core busy all the time). */
  server: number;
  postgres: number;
  /** PostgreSQL's own processes (WAL writer, checkpointer, autovacuum…), shared by all databases. */
  postgresAux: number;
  target: number;
  bench: number;
  /** Busy time of all other processes, as a share of one CPU. */
  other: number;
  /** irq + softirq (loopback networking among them) and hypervisor steal, as a share of one CPU. */
  interrupts: number;
  steal: number;
  /** The whole machine's busy share (of all CPUs). */
  machineBusy: number;
  serverCpuSeconds: number;
}

function cpuBetween(a: CpuSnap, b: CpuSnap): CpuShares {
  const wallTicks = (b.at - a.at) / TICK_MS;
  const server = b.server - a.server;
  const postgres = b.postgres - a.postgres;
  const postgresAux = b.postgresAux - a.postgresAux;
  const target = b.target - a.target;
  const bench = b.bench - a.bench;
  const busy = b.machine.busy - a.machine.busy;
  const irq = b.machine.interrupts - a.machine.interrupts;
  const steal = b.machine.steal - a.machine.steal;
  const total = Math.max(1, b.machine.total - a.machine.total);
  // /proc/stat counts all CPUs: total ticks ≈ wall ticks × CPUs.
  const perCpu = total / CPUS;
  return {
    server: server / wallTicks,
    postgres: postgres / wallTicks,
    postgresAux: postgresAux / wallTicks,
    target: target / wallTicks,
    bench: bench / wallTicks,
    other: Math.max(0, busy - irq - steal - server - postgres - postgresAux - target - bench) / perCpu,
    interrupts: irq / perCpu,
    steal: steal / perCpu,
    machineBusy: busy / total,
    serverCpuSeconds: (server * TICK_MS) / 1000,
  };
}

// ---------------------------------------------------------------------------------------------
// Engine run

interface EngineResult {
  label: string;
  checks: number;
  canaries: number;
  pool: number | null;
  perMinute: number[];
  failed: number;
  firstError: string | null;
  lateness: Float64Array;
  startLateness: Float64Array;
  queueing: Float64Array;
  runDurations: Float64Array;
  plannedRuns: number;
  expectedCheckRuns: number;
  missedCheckRuns: number;
  skippedSlots: number;
  rssMax: number;
  rssMean: number;
  rssEnd: number;
  rssMaxAll: number;
  cpu: CpuShares;
  rollups: string[];
  serverErrors: string[];
  loadAvg: [number, number];
  windowS: number;
}

async function engineRun(kind: 'postgres' | 'pglite', totalChecks: number, pool: number | null): Promise<EngineResult> {
  const label = kind === 'postgres' ? `PostgreSQL, pool ${pool}` : 'PGlite';
  log(`\n== ${label}: ${totalChecks} http checks on @every 1m`);
  const target = await startTarget();
  const tmp = kind === 'pglite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-health-')) : null;
  const dataDir = tmp ? path.join(tmp, 'data') : null;
  const open = async (): Promise<Database> =>
    kind === 'postgres' ? openPostgres(databaseUrl(ENGINE_DB), 2) : openPglite(dataDir!);
  try {
    // Prepare the database before the server starts: schema, trigger, canaries, recent history.
    if (kind === 'postgres') await recreateDatabase(ENGINE_DB);
    else fs.mkdirSync(dataDir!, { recursive: true });
    let db = await open();
    let canaries: number;
    try {
      await migrate(db);
      await db.exec(PLANNED_SQL);
      const t0 = performance.now();
      canaries = await applyCanaries(db, totalChecks, target.url, perCanary);
      log(
        `  applied ${canaries} canaries × ${Math.min(perCanary, totalChecks)} checks (applyCanary) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      if (prefillHours > 0) {
        const t1 = performance.now();
        const r = await db.query(
          rawHistorySql(
            `date_trunc('minute', now()) - interval '${prefillHours} hours'`,
            `date_trunc('minute', now())`,
          ),
        );
        await db.query(
          `UPDATE checks SET status = 'healthy', last_runtime = now() - interval '1 minute', last_transition_time = now() - interval '${prefillHours} hours' WHERE deleted_at IS NULL`,
        );
        await db.query('ANALYZE');
        log(
          `  prefilled ${r.affectedRows ?? '?'} check_statuses rows (${prefillHours} h at 1/min, what the roll-up job reads in steady state) in ${((performance.now() - t1) / 1000).toFixed(1)} s`,
        );
      }
      // As if the canaries had been applied just now: first runs spread like applyCanary's firstRun
      // (a random point in the first min(period, 30 s)), starting 2 s from now.
      await db.query(
        `UPDATE canaries SET next_runtime = now() + interval '2 seconds' + random() * interval '${Math.min(PERIOD_MS, 30_000)} milliseconds' WHERE deleted_at IS NULL`,
      );
    } finally {
      await db.close();
    }

    const env: NodeJS.ProcessEnv =
      kind === 'postgres'
        ? { DATABASE_URL: databaseUrl(ENGINE_DB), DATABASE_POOL_SIZE: String(pool) }
        : { DATA_DIR: dataDir! };
    const server = await startServer(env);
    const serverPid = server.child.process.pid;
    const readyAt = Date.now();
    const windowStart = readyAt + warmupS * 1000;
    const windowEnd = windowStart + minutes * 60_000;
    log(
      `  server ready (pid ${serverPid}); warm-up ${warmupS} s, then ${minutes} min measured, then up to ${drainS} s for the last planned runs`,
    );

    const m = meters(kind === 'postgres' ? ENGINE_DB : null);
    const rss: number[] = [];
    let rssMaxAll = 0;
    let before: CpuSnap | undefined;
    let lastHits = await target.hits();
    let lastSnap = cpuSnap(serverPid, target.child.process.pid, m);
    let lastProgress = Date.now();
    const loadStart = os.loadavg()[0]!;
    while (Date.now() < windowEnd) {
      if (server.child.hasExited()) throw new Error(`the server exited:\n${server.child.output()}`);
      const now = Date.now();
      if (!before && now >= windowStart) before = cpuSnap(serverPid, target.child.process.pid, m);
      const r = rssBytes(serverPid);
      m.postgres.sample();
      m.postgresAux.sample();
      rssMaxAll = Math.max(rssMaxAll, r);
      if (before) rss.push(r);
      if (now - lastProgress >= 60_000) {
        const hits = await target.hits();
        const snap = cpuSnap(serverPid, target.child.process.pid, m);
        const c = cpuBetween(lastSnap, snap);
        log(
          `  ${((now - readyAt) / 60_000).toFixed(1).padStart(5)} min: ${hits - lastHits} checks in the last minute, RSS ${mb(r)} MB, ` +
            `server ${pct(c.server)} of a CPU, PostgreSQL ${pct(c.postgres)}, other processes ${pct(c.other)}, load ${os.loadavg()[0]!.toFixed(2)}${now < windowStart ? ' (warm-up)' : ''}`,
        );
        lastHits = hits;
        lastSnap = snap;
        lastProgress = now;
      }
      await sleep(Math.min(1000, Math.max(1, (before ? windowEnd : windowStart) - Date.now())));
    }
    const after = cpuSnap(serverPid, target.child.process.pid, m);
    const rssEnd = rssBytes(serverPid);
    const loadEnd = os.loadavg()[0]!;

    // Drain: let the runs planned before the end of the window finish.
    const drainStart = Date.now();
    if (kind === 'postgres') {
      const probe = await openPostgres(databaseUrl(ENGINE_DB), 1);
      try {
        await drainPlanned(probe, windowEnd, drainS);
      } finally {
        await probe.close();
      }
    } else {
      await sleep(drainS * 1000);
    }
    const stopAt = Date.now();
    await server.child.stop(120_000);
    log(`  drained ${((stopAt - drainStart) / 1000).toFixed(0)} s, server stopped`);
    const serverErrors = server.child
      .output()
      .split('\n')
      .filter((l) => /error|fail/i.test(l));

    db = await open();
    try {
      return {
        label,
        checks: totalChecks,
        canaries,
        pool,
        ...(await analyse(db, windowStart, windowEnd, stopAt)),
        rssMax: Math.max(...rss),
        rssMean: rss.reduce((a, b) => a + b, 0) / Math.max(1, rss.length),
        rssEnd,
        rssMaxAll,
        cpu: cpuBetween(before!, after),
        serverErrors,
        loadAvg: [loadStart, loadEnd],
        windowS: (after.at - before!.at) / 1000,
      };
    } finally {
      await db.close();
    }
  } finally {
    await target.child.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function reportEngine(r: EngineResult): void {
  const s = (xs: Float64Array, p: number) => fmt(percentile(xs, p));
  log('');
  log(
    `${r.label}: ${r.checks} checks = ${r.canaries} canaries × ${Math.min(perCanary, r.checks)} checks, @every 1m, ` +
      `${(r.windowS / 60).toFixed(1)} min measured (load average ${r.loadAvg[0].toFixed(2)} at the start, ${r.loadAvg[1].toFixed(2)} at the end)`,
  );
  const mean = r.perMinute.reduce((a, b) => a + b, 0) / Math.max(1, r.perMinute.length);
  printTable(
    ['checks run per minute', 'mean', 'min', 'max', 'expected', 'failed statuses'],
    [['', fmt(mean), fmt(Math.min(...r.perMinute)), fmt(Math.max(...r.perMinute)), r.checks, r.failed]],
  );
  if (r.firstError) log(`  first failure: ${r.firstError}`);
  log(`  per minute: ${r.perMinute.join(' ')}`);
  const missedShare = r.missedCheckRuns / Math.max(1, r.expectedCheckRuns);
  // Missed runs count as infinitely late in the "with missed" percentile.
  const withMissed = new Float64Array(r.lateness.length + r.missedCheckRuns);
  withMissed.set(r.lateness);
  withMissed.fill(Infinity, r.lateness.length);
  const over = r.lateness.reduce((a, v) => a + (v > LATENESS_GOAL_MS ? 1 : 0), 0);
  log('');
  printTable(
    ['lateness ms (check start − planned time)', 'n', 'p50', 'p90', 'p99', 'max', `> ${LATENESS_GOAL_MS / 1000} s`],
    [
      [
        'every check run',
        r.lateness.length,
        s(r.lateness, 50),
        s(r.lateness, 90),
        s(r.lateness, 99),
        s(r.lateness, 100),
        pct(over / Math.max(1, r.lateness.length)),
      ],
      [
        '  of which: run start (first check of the run)',
        r.startLateness.length,
        s(r.startLateness, 50),
        s(r.startLateness, 90),
        s(r.startLateness, 99),
        s(r.startLateness, 100),
        '',
      ],
      [
        '  of which: waiting inside the run (check pool)',
        r.queueing.length,
        s(r.queueing, 50),
        s(r.queueing, 90),
        s(r.queueing, 99),
        s(r.queueing, 100),
        '',
      ],
      [
        'with missed runs as infinitely late',
        withMissed.length,
        s(withMissed, 50),
        s(withMissed, 90),
        s(withMissed, 99),
        s(withMissed, 100),
        '',
      ],
      [
        'canary run duration (job_history)',
        r.runDurations.length,
        s(r.runDurations, 50),
        s(r.runDurations, 90),
        s(r.runDurations, 99),
        s(r.runDurations, 100),
        '',
      ],
    ],
  );
  log(
    `  planned canary runs in the window: ${r.plannedRuns}; check runs expected ${r.expectedCheckRuns}, missed ${r.missedCheckRuns} (${(100 * missedShare).toFixed(2)}%), of which skipped slots ${r.skippedSlots} canary runs`,
  );
  log('');
  printTable(
    ['memory and CPU', 'value'],
    [
      ['server RSS max in the window, MB', mb(r.rssMax)],
      ['server RSS mean / at the end, MB', `${mb(r.rssMean)} / ${mb(r.rssEnd)}`],
      ['server RSS max incl. warm-up, MB', mb(r.rssMaxAll)],
      ['Opsdeck process CPU (share of one CPU)', pct(r.cpu.server)],
      [`Opsdeck process CPU (share of the machine, ${CPUS} CPUs)`, pct(r.cpu.server / CPUS)],
      [
        'Opsdeck CPU per check run, ms',
        fmt(
          (r.cpu.serverCpuSeconds * 1000) /
            Math.max(
              1,
              r.perMinute.reduce((x, y) => x + y, 0),
            ),
          2,
        ),
      ],
      [
        'PostgreSQL backends of the database (share of one CPU)',
        r.pool === null ? '- (in the server process)' : pct(r.cpu.postgres),
      ],
      ['PostgreSQL own processes: WAL writer, checkpointer… (shared by all databases)', pct(r.cpu.postgresAux)],
      ['loopback target (share of one CPU)', pct(r.cpu.target)],
      ['benchmark process (share of one CPU)', pct(r.cpu.bench)],
      ['other processes on the machine (share of one CPU)', pct(r.cpu.other)],
      [
        'kernel interrupts (irq/softirq) / hypervisor steal (share of one CPU)',
        `${pct(r.cpu.interrupts)} / ${pct(r.cpu.steal)}`,
      ],
      ['machine busy (all CPUs)', pct(r.cpu.machineBusy)],
    ],
  );
  if (r.rollups.length) {
    log('  roll-up jobs during the run (job_history):');
    for (const x of r.rollups) log(`    ${x}`);
  }
  if (r.serverErrors.length) {
    log(`  server logged ${r.serverErrors.length} error lines, first: ${r.serverErrors.slice(0, 3).join(' | ')}`);
  }
}

// ---------------------------------------------------------------------------------------------
// Summary endpoint

/** The summary query the server runs for a range (raw statuses, or hourly or daily roll-ups). */
function summarySql(start: Date, end: Date): string {
  return summarySqlFor(start, end);
}

async function prepareSummaryDatabase(): Promise<void> {
  const url = databaseUrl(SUMMARY_DB);
  const wanted = `${summaryChecks} checks, ${rawHours} h raw, ${rollupDays} d hourly (0012 roll-ups)`;
  if (flags.reuse && (await databaseExists(SUMMARY_DB))) {
    const db = await openPostgres(url, 1);
    try {
      const { rows } = await db
        .query<{ v: string; until: string }>(`SELECT v, until::text AS until FROM bench_summary_meta`)
        .catch(() => ({ rows: [] as { v: string; until: string }[] }));
      if (rows[0]?.v === wanted) {
        // The ranges are relative to now: bring the history up to now (raw rows for the minutes since
        // it was generated, their roll-ups) and drop raw rows older than --raw-hours, as retention would.
        const t = performance.now();
        const added = await db.query(rawHistorySql(`'${rows[0].until}'::timestamptz`, `date_trunc('minute', now())`));
        const dropped = await db.query(
          `DELETE FROM check_statuses WHERE time < date_trunc('hour', now()) - interval '${rawHours} hours'`,
        );
        await rollupCheckStatuses(db, new Date(Date.parse(rows[0].until) - 3_600_000));
        await db.query(`UPDATE bench_summary_meta SET until = date_trunc('minute', now())`);
        if ((added.affectedRows ?? 0) + (dropped.affectedRows ?? 0) > 0) await db.exec('VACUUM ANALYZE');
        log(
          `Reusing database ${SUMMARY_DB} (${wanted}): ${added.affectedRows} raw rows added up to now, ${dropped.affectedRows} older than ${rawHours} h deleted, roll-ups updated (${((performance.now() - t) / 1000).toFixed(1)} s).`,
        );
        return;
      }
    } finally {
      await db.close();
    }
  }
  log(`Creating database ${SUMMARY_DB}: ${wanted}…`);
  await recreateDatabase(SUMMARY_DB);
  const db = await openPostgres(url, 1);
  try {
    await migrate(db);
    const t0 = performance.now();
    const canaries = await applyCanaries(db, summaryChecks, 'http://127.0.0.1:9', perCanary);
    // Engines are off in this benchmark, but keep the canaries from ever being due.
    await db.query(`UPDATE canaries SET next_runtime = now() + interval '10 years'`);
    log(`  ${canaries} canaries, ${summaryChecks} checks (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    for (let h = rawHours; h > 0; h--) {
      const t = performance.now();
      const r = await db.query(
        rawHistorySql(
          `date_trunc('hour', now()) - interval '${h - 1} hours' - interval '1 hour'`,
          `date_trunc('hour', now()) - interval '${h - 1} hours'`,
        ),
      );
      process.stdout.write(
        `\r  raw check_statuses: hour ${rawHours - h + 1}/${rawHours}, ${r.affectedRows} rows in ${((performance.now() - t) / 1000).toFixed(1)} s   `,
      );
    }
    // The current, partial hour up to the last full minute.
    await db.query(rawHistorySql(`date_trunc('hour', now())`, `date_trunc('minute', now())`));
    log('');
    const t1 = performance.now();
    // Hourly roll-ups older than the raw rows, in the shape ROLLUP_HOURLY writes (60 runs an hour).
    const old = await db.query(`
      INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration_avg, duration_max,
        last_pass, last_fail, duration_p95, duration_p97, duration_p99)
      SELECT id, h, 60, 60 - f, f, avg_d, avg_d + floor(random() * 200)::int,
             CASE WHEN f < 60 THEN h + interval '59 minutes' END, CASE WHEN f > 0 THEN h + interval '58 minutes' END,
             avg_d * 3, avg_d * 4, avg_d * 6
      FROM (SELECT c.id, h,
                   CASE WHEN abs(hashtext(c.id::text || h::text)) % 100 = 0 THEN 1 + floor(random() * 59)::int ELSE 0 END AS f,
                   (2 + floor(random() * 20))::int AS avg_d
            FROM checks c CROSS JOIN generate_series(date_trunc('hour', now()) - interval '${rollupDays} days',
                                                     date_trunc('hour', now()) - interval '${rawHours + 1} hours', interval '1 hour') h
            WHERE c.deleted_at IS NULL) s`);
    log(
      `  check_statuses_1h older than the raw rows: ${old.affectedRows} rows (${((performance.now() - t1) / 1000).toFixed(1)} s)`,
    );
    const t2 = performance.now();
    const rolled = await rollupCheckStatuses(db, new Date(Date.now() - rollupDays * 86_400_000));
    log(
      `  rollupCheckStatuses (the engine's roll-up) since ${rollupDays} d ago: ${rolled.hourly} hourly and ${rolled.daily} daily rows written (${((performance.now() - t2) / 1000).toFixed(1)} s)`,
    );
    await db.query(
      `UPDATE checks SET status = 'healthy', last_runtime = now() - interval '30 seconds', last_transition_time = now() - interval '3 days'`,
    );
    const t3 = performance.now();
    await db.exec('VACUUM ANALYZE');
    log(`  VACUUM ANALYZE (${((performance.now() - t3) / 1000).toFixed(1)} s)`);
    await db.exec(
      `CREATE TABLE bench_summary_meta (v text, until timestamptz); INSERT INTO bench_summary_meta VALUES ('${wanted}', date_trunc('minute', now()))`,
    );
  } finally {
    await db.close();
  }
}

async function summaryBench(): Promise<void> {
  log(`\n== Summary endpoint: GET /api/canary/api/summary with ${summaryChecks} checks`);
  await prepareSummaryDatabase();
  const url = databaseUrl(SUMMARY_DB);
  const db = await openPostgres(url, 1);
  const sizes = (
    await db.query<{ rel: string; n: string; size: string }>(
      `SELECT relname AS rel, reltuples::bigint::text AS n, pg_size_pretty(pg_total_relation_size(oid)) AS size FROM pg_class
       WHERE relname IN ('check_statuses', 'check_statuses_1h', 'check_statuses_1d', 'checks') ORDER BY relname`,
    )
  ).rows;
  const span = (
    await db.query<{ a: string; b: string }>(`SELECT min(time)::text AS a, max(time)::text AS b FROM check_statuses`)
  ).rows[0]!;
  log('');
  printTable(
    ['table', 'rows (estimate)', 'size with indexes'],
    sizes.map((r) => [r.rel, Number(r.n).toLocaleString('en-US'), r.size]),
  );
  log(`  raw statuses from ${span.a} to ${span.b}`);

  // With its engines, as deployed: the canaries are never due here, but the engine's refresher keeps
  // the summary's usual ranges precomputed and the server rebuilds its answers after each refresh.
  const server = await startServer({
    DATABASE_URL: url,
    OPSDECK_ENGINES: 'true',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
  });
  const signIn = await fetch(`${server.origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.origin },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const signInBody = await signIn.text();
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (signIn.status !== 200 || !cookie) throw new Error(`signing in failed: ${signIn.status} ${signInBody}`);

  const rowsOut: (string | number)[][] = [];
  const verdicts: string[] = [];
  const sm = meters(SUMMARY_DB);
  // Each range twice: as the dashboard asks (the usual ranges from the figures the server's
  // refresher keeps precomputed, refreshed while the requests are measured; the goal is judged on
  // these), then computed on request (`Cache-Control: no-cache`: every answer aggregated from the
  // statuses and roll-ups). First, what one refresh of each range costs.
  const refreshRows: (string | number)[][] = [];
  for (const r of PRECOMPUTED_RANGES) {
    const x = await refreshSummary(db, r, 0);
    // Not run when the server's own refresher holds the range right now.
    refreshRows.push([
      r.key,
      `every ${r.everyMs / 1000} s`,
      x.ran ? x.checks : '(by the server)',
      x.ran ? fmt(x.ms) : '',
    ]);
  }
  log('');
  printTable(['precomputed range', 'refreshed', 'checks written', 'refresh ms'], refreshRows);
  // The server's first refresh of every range (it starts a second after the server) is a start-up
  // cost: let it finish before measuring.
  for (let waited = 0; waited < 60_000; waited += 1_000) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM check_summary_ranges WHERE computed_at > now() - interval '2 minutes'`,
    );
    if (rows[0]!.n >= PRECOMPUTED_RANGES.length) break;
    await sleep(1_000);
  }
  await sleep(5_000);
  // Meanwhile results keep arriving as from an engine running every check once a minute (10,000
  // checks: ~167 a second, through the engine's own recordResult, in a process of its own), so
  // answers rebuild the items of the checks that ran since the previous request, as in production.
  const churn = startChild(
    process.execPath,
    [path.join(repoRoot, 'node_modules/tsx/dist/cli.mjs'), path.join(import.meta.dirname, 'health-churn.ts')],
    { ...process.env, DATABASE_URL: url, RATE: String(Math.round(summaryChecks / 60)) },
  );
  // Precomputed answers as a browser asks (gzip) and as a client that does not compress (identity:
  // a local tool, or a proxy that compresses itself); then computed on request.
  const measured = ranges.flatMap((range) => [
    { range, cached: true, encoding: 'gzip' },
    { range, cached: true, encoding: 'identity' },
    { range, cached: false, encoding: 'gzip' },
  ]);
  for (const { range, cached, encoding } of measured) {
    const path = `/api/canary/api/summary?start=${range}`;
    const headers: Record<string, string> = cached
      ? { cookie, 'accept-encoding': encoding }
      : { cookie, 'cache-control': 'no-cache', 'accept-encoding': encoding };
    const one = async () => {
      const t = performance.now();
      const r = await fetch(server.origin + path, { headers });
      const headersMs = performance.now() - t;
      const text = await r.text();
      const ms = performance.now() - t;
      let serverMs = NaN;
      let checks = 0;
      try {
        const body = JSON.parse(text) as { duration: number; checks_summary: unknown[] };
        serverMs = body.duration;
        checks = body.checks_summary.length;
      } catch {
        // an error body
      }
      return {
        ms,
        headersMs,
        // How old the answer kept by the server was (seconds; precomputed ranges).
        age: r.headers.get('age') === null ? NaN : Number(r.headers.get('age')),
        status: r.status,
        bytes: text.length,
        // What crossed the wire: compressed when the server sent gzip (fetch asks for it, as browsers do).
        wire: Number(r.headers.get('content-length') ?? text.length),
        encoding: r.headers.get('content-encoding') ?? 'identity',
        serverMs,
        checks,
        text,
        hit: r.headers.get('x-summary-source') === 'precomputed',
      };
    };
    process.stdout.write(`  ${path}${cached ? ` (${encoding})` : ' (computed now)'}: `);
    const warm = await one();
    if (warm.status !== 200) log(`(warm-up answered ${warm.status}: ${warm.text.slice(0, 300)}) `);
    const before = cpuSnap(server.child.process.pid, undefined, sm);
    const samples: Awaited<ReturnType<typeof one>>[] = [];
    const started = performance.now();
    // At most --requests, and at most 2 minutes per range (at least 3 requests).
    const wanted = cached ? requests : liveRequests;
    while (samples.length < wanted && (samples.length < 3 || performance.now() - started < 120_000)) {
      if (cached && paceMs && samples.length) await sleep(paceMs);
      samples.push(await one());
      sm.postgres.sample();
    }
    const after = cpuSnap(server.child.process.pid, undefined, sm);
    const cpu = cpuBetween(before, after);
    const ok = samples.filter((x) => x.status === 200);
    const lat = Float64Array.from(samples.map((x) => x.ms));
    log(`${samples.length} requests`);
    const p95 = percentile(lat, 95);
    rowsOut.push([
      `start=${range}${cached ? ` (${samples.filter((x) => x.hit).length} precomputed, ${encoding})` : ' (computed now)'}`,
      samples.length,
      `${ok.length}/${samples.length}`,
      fmt(percentile(lat, 50)),
      fmt(p95),
      fmt(percentile(lat, 100)),
      `${fmt(percentile(Float64Array.from(ok.map((x) => x.serverMs)), 50))} / ${fmt(percentile(Float64Array.from(ok.map((x) => x.serverMs)), 95))}`,
      `${fmt(percentile(Float64Array.from(ok.map((x) => x.headersMs)), 50))} / ${fmt(percentile(Float64Array.from(ok.map((x) => x.headersMs)), 95))}`,
      ok.some((x) => !Number.isNaN(x.age))
        ? `${fmt(percentile(Float64Array.from(ok.map((x) => x.age).filter((a) => !Number.isNaN(a))), 50))} / ${fmt(percentile(Float64Array.from(ok.map((x) => x.age).filter((a) => !Number.isNaN(a))), 100))}`
        : '—',
      ok[0]?.checks ?? 0,
      `${((ok[0]?.bytes ?? 0) / 1024 / 1024).toFixed(1)} MB`,
      ok[0] ? `${(ok[0].wire / 1024 / 1024).toFixed(1)} MB ${ok[0].encoding}` : '—',
      pct(cpu.server),
      pct(cpu.postgres),
      pct(cpu.other),
    ]);
    if (cached)
      verdicts.push(
        `start=${range} (${encoding}): p95 ${fmt(p95)} ms — goal < ${SUMMARY_GOAL_MS} ms: ${ok.length === samples.length && p95 < SUMMARY_GOAL_MS ? 'met' : 'NOT met'}`,
      );
    const failed = samples.find((x) => x.status !== 200);
    if (failed) log(`    a failed request answered ${failed.status}: ${failed.text.slice(0, 300)}`);
  }
  await churn.stop();
  await server.child.stop();
  log('');
  log(
    `(while measuring, ${/recorded (\d+)/.exec(churn.output())?.[1] ?? '?'} check results were recorded, ${Math.round(summaryChecks / 60)} a second)`,
  );
  printTable(
    [
      'summary request',
      'n',
      '200s',
      'p50 ms',
      'p95 ms',
      'max ms',
      'server-reported ms (p50 / p95)',
      'headers received ms (p50 / p95)',
      'answer age s (p50 / max)',
      'checks',
      'body',
      'sent',
      'server CPU',
      'PostgreSQL CPU',
      'other processes CPU',
    ],
    rowsOut,
  );
  log('(CPU as a share of one CPU while that range was measured; requests are sequential, one at a time.)');
  for (const v of verdicts) log(v);

  // Where the time goes: the server's query under EXPLAIN ANALYZE, then the parts of it on their own.
  await db.query('SET jit = off');
  for (const range of ['1h', '30d'].filter((r) => ranges.includes(r))) {
    const ms = range === '1h' ? 3_600_000 : 30 * 86_400_000;
    const end = new Date();
    const start = new Date(end.getTime() - ms);
    const sql = summarySql(start, end);
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, [start, end, null]);
    log(`\nEXPLAIN (ANALYZE, BUFFERS) of the summary query, start=${range}:`);
    for (const r of rows) log(`  ${r['QUERY PLAN']}`);
  }
  await summaryShapes(db);
  await db.close();
}

/** The summary's parts timed on their own, and query shapes that would answer faster (bench DB only). */
async function summaryShapes(db: Database): Promise<void> {
  const time = async (sql: string, params: unknown[]) => {
    const xs: number[] = [];
    for (let i = 0; i < 3; i++) {
      const t = performance.now();
      await db.query(sql, params);
      xs.push(performance.now() - t);
    }
    return Math.min(...xs);
  };
  const now = new Date();
  const agg = (pcts: boolean) => `
    SELECT check_id, count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed,
      max(time) FILTER (WHERE status) AS last_pass, max(time) FILTER (WHERE NOT status) AS last_fail,
      ${pcts ? `percentile_disc(0.95) WITHIN GROUP (ORDER BY duration) AS p95, percentile_disc(0.97) WITHIN GROUP (ORDER BY duration) AS p97, percentile_disc(0.99) WITHIN GROUP (ORDER BY duration) AS p99,` : ''}
      round(avg(duration) FILTER (WHERE time > now() - interval '1 hour')) AS rolling1h
    FROM check_statuses WHERE time >= $1 AND time <= $2 GROUP BY check_id`;
  const shapes = (full: string) =>
    full.replace(
      /WITH s AS \([\s\S]*?\n\)\n/,
      'WITH s AS (SELECT NULL::uuid AS check_id, 0 AS passed, 0 AS failed, NULL::timestamptz AS last_pass, NULL::timestamptz AS last_fail, 0 AS p95, 0 AS p97, 0 AS p99, 0 AS rolling1h WHERE $1::timestamptz IS NOT NULL AND $2::timestamptz IS NOT NULL)\n',
    );
  // Long ranges from the hourly roll-ups plus the raw rows of the current hour.
  const fromHourly = `
    WITH h AS (
      SELECT check_id, sum(passed) AS passed, sum(failed) AS failed, max(duration_max) AS dmax
      FROM check_statuses_1h WHERE created_at >= date_trunc('hour', $1::timestamptz) AND created_at < date_trunc('hour', $2::timestamptz)
      GROUP BY check_id),
    r AS (
      SELECT check_id, count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed
      FROM check_statuses WHERE time >= date_trunc('hour', $2::timestamptz) AND time <= $2 GROUP BY check_id)
    SELECT count(*), sum(h.passed), sum(h.failed), max(h.dmax), sum(r.passed), sum(r.failed)
    FROM checks c LEFT JOIN h ON h.check_id = c.id LEFT JOIN r ON r.check_id = c.id WHERE c.deleted_at IS NULL`;
  // Tiered: daily roll-ups for whole days, hourly for the partial days, raw rows for the partial hours.
  const tiered = `
    WITH b AS (SELECT $1::timestamptz AS s, $2::timestamptz AS e,
                      date_trunc('day', $1::timestamptz) + interval '1 day' AS d0, date_trunc('day', $2::timestamptz) AS d1,
                      date_trunc('hour', $1::timestamptz) + interval '1 hour' AS h0, date_trunc('hour', $2::timestamptz) AS h1),
    u AS (
      SELECT check_id, passed, failed FROM check_statuses_1d, b WHERE created_at >= b.d0 AND created_at < b.d1
      UNION ALL
      SELECT check_id, passed, failed FROM check_statuses_1h, b
      WHERE (created_at >= b.h0 AND created_at < b.d0) OR (created_at >= b.d1 AND created_at < b.h1)
      UNION ALL
      SELECT check_id, status::int, (NOT status)::int FROM check_statuses, b
      WHERE (time >= b.s AND time < b.h0) OR (time >= b.h1 AND time <= b.e))
    SELECT count(*), sum(passed), sum(failed) FROM (SELECT check_id, sum(passed) AS passed, sum(failed) AS failed FROM u GROUP BY check_id) x`;
  // Per check through the primary key (check_id, time): no sort of all rows by check_id.
  const lateral = `
    SELECT count(*) FILTER (WHERE s IS NOT NULL) FROM checks c CROSS JOIN LATERAL (
      SELECT count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed,
        max(time) FILTER (WHERE status) AS last_pass, max(time) FILTER (WHERE NOT status) AS last_fail,
        percentile_disc(0.95) WITHIN GROUP (ORDER BY duration) AS p95, percentile_disc(0.97) WITHIN GROUP (ORDER BY duration) AS p97,
        percentile_disc(0.99) WITHIN GROUP (ORDER BY duration) AS p99,
        round(avg(duration) FILTER (WHERE time > now() - interval '1 hour')) AS rolling1h
      FROM check_statuses cs WHERE cs.check_id = c.id AND cs.time >= $1 AND cs.time <= $2) s
    WHERE c.deleted_at IS NULL`;
  const executionMs = async (sql: string, params: unknown[]) => {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE) ${sql}`, params);
    const line = rows.map((r) => r['QUERY PLAN']).find((l) => l.startsWith('Execution Time'));
    return Number(/([\d.]+) ms/.exec(line ?? '')?.[1] ?? NaN);
  };
  const rowsOut: (string | number)[][] = [];
  for (const range of ['1h', '30d'].filter((r) => ranges.includes(r))) {
    const start = new Date(now.getTime() - (range === '1h' ? 3_600_000 : 30 * 86_400_000));
    const p = [start, now];
    const full = summarySql(start, now);
    const jsonOnly = shapes(full);
    const add = (label: string, ms: number) => rowsOut.push(['', label, fmt(ms)]);
    rowsOut.push([`start=${range}`, 'the server query (as is)', fmt(await time(full, [...p, null]))]);
    add(
      'only the per-check aggregate (CTE s) with the 3 percentiles',
      await time(`SELECT count(*) FILTER (WHERE s IS NOT NULL) FROM (${agg(true)}) s`, p),
    );
    add(
      'the aggregate without percentiles',
      await time(`SELECT count(*) FILTER (WHERE s IS NOT NULL) FROM (${agg(false)}) s`, p),
    );
    if (jsonOnly !== full) {
      add(
        `only the JSON of the ${summaryChecks} checks (aggregate left empty), received`,
        await time(jsonOnly, [...p, null]),
      );
      add('  the same, execution inside PostgreSQL (EXPLAIN ANALYZE)', await executionMs(jsonOnly, [...p, null]));
    }
    add(
      'the server query with work_mem 64MB instead of 4MB (no sort spill)',
      await db.transaction(async (tx) => {
        await tx.query(`SET LOCAL work_mem = '64MB'`);
        const t = performance.now();
        await tx.query(full, [...p, null]);
        return performance.now() - t;
      }),
    );
    if (range === '1h') {
      add('aggregate per check through the primary key (LATERAL, heap fetches)', await time(lateral, p));
      if (flags['try-indexes']) {
        const t = performance.now();
        await db.query(
          `CREATE INDEX IF NOT EXISTS bench_check_statuses_cover ON check_statuses (check_id, time) INCLUDE (status, duration)`,
        );
        await db.query('VACUUM check_statuses');
        log(
          `  (built the what-if index bench_check_statuses_cover in ${((performance.now() - t) / 1000).toFixed(0)} s)`,
        );
        add('  the same with an index (check_id, time) INCLUDE (status, duration): index-only', await time(lateral, p));
        await db.query('DROP INDEX bench_check_statuses_cover');
      }
    } else {
      add('uptime only: hourly roll-ups + raw rows of the current hour', await time(fromHourly, p));
      add('uptime only: daily roll-ups + hourly for partial days + raw for partial hours', await time(tiered, p));
    }
  }
  log('\nThe summary query in parts (direct SQL on one connection, jit off, best of 3, ms):');
  printTable(['range', 'query', 'ms'], rowsOut);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  ensureServerBuilt();
  log(
    `Health benchmark on ${CPUS} CPUs (load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} now); PostgreSQL ${databaseUrl('').replace(/\/$/, '')}`,
  );
  if (part !== 'summary') {
    log(
      `Engine: --minutes ${minutes} after ${warmupS} s of warm-up; ${perCanary} checks per canary; each check a GET to a loopback ` +
        `HTTP server (another process) answering 200 with a 15-byte JSON body. Lateness = check_statuses.time − the planned ` +
        `time of its run, from a trigger that records every canaries.next_runtime (see bench/health.ts).`,
    );
    const results: EngineResult[] = [];
    if (dbChoice !== 'pglite') for (const pool of pools) results.push(await engineRun('postgres', pgChecks, pool));
    if (dbChoice !== 'postgres') results.push(await engineRun('pglite', pgliteChecks, null));
    for (const r of results) reportEngine(r);
    log('\nEngine summary:');
    printTable(
      [
        'run',
        'checks',
        'checks/min (mean)',
        'lateness p50 ms',
        'p99 ms',
        'p99 with missed',
        'missed',
        'RSS max MB',
        'server CPU',
        'other processes CPU',
        'goals',
      ],
      results.map((r) => {
        const withMissed = new Float64Array(r.lateness.length + r.missedCheckRuns);
        withMissed.set(r.lateness);
        withMissed.fill(Infinity, r.lateness.length);
        const p99 = percentile(withMissed, 99);
        const mean = r.perMinute.reduce((a, b) => a + b, 0) / Math.max(1, r.perMinute.length);
        return [
          r.label,
          r.checks,
          fmt(mean),
          fmt(percentile(r.lateness, 50)),
          fmt(percentile(r.lateness, 99)),
          fmt(p99),
          r.missedCheckRuns,
          mb(r.rssMax),
          `${pct(r.cpu.server)} of a CPU`,
          pct(r.cpu.other),
          `p99 < 2 s: ${p99 < LATENESS_GOAL_MS ? 'met' : 'NOT met'}; RSS < 600 MB: ${r.rssMax < RSS_GOAL_BYTES ? 'met' : 'NOT met'}`,
        ];
      }),
    );
  }
  if (part !== 'engine') await summaryBench();
}

await main();
