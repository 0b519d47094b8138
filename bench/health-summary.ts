// `npm run bench -- health-summary`: GET /api/canary/api/summary at --checks checks (default 10,000)
// from the running tallies (migration 0029), on PostgreSQL and PGlite.
//
// Data. --checks checks in canaries of 100, each with hour rows as the store writes them: the last
// --recent-hours hours (default 48) at one run a minute (60 runs per row), and before that one row
// per day for --days days (default 30) whose running tally counts a whole day of runs (1,440): the
// summary reads only the row at or before each end of a range, so the rows in between cost disk,
// not request time. Durations: log-normal around 120 ms with a 2 % slow tail; 1 % failures. Raw
// check_statuses and the per-hour sketch column are not generated (the summary reads neither).
//
// Measured, per database, against `node server/dist/main.js` (engines off): for 1h, 24h, 7d, 30d
// and a custom range (absolute start and end), the server time (x-summary-ms) of the first request
// after the server started (cold process), p95 of --requests computed answers (Cache-Control:
// no-cache: nothing kept), p95 of --requests kept answers (warm); the bytes of a poll answered 304
// (status line and headers, If-None-Match) and of the full, console and gzipped answers; the
// server's RSS at start, after every range and 20 custom ranges, and after --idle seconds idle
// (answers are dropped after SUMMARY_FRESH_MS, 2 s, of no requests).
//
// Flags: --db postgres|pglite|all, --checks 10000, --recent-hours 48, --days 30, --requests 20, --idle 30, --reuse.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPglite, openPostgres, type Database } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { encodeRuns, Tally, type Run } from '../server/src/health/sketch.js';
import {
  databaseExists,
  databaseUrl,
  ensureServerBuilt,
  freePort,
  loadavg,
  numberFlag,
  parseFlags,
  percentile,
  printTable,
  recreateDatabase,
  rssBytes,
  serverMain,
  sleep,
  startChild,
  waitForHttp,
  type Child,
} from './lib.js';

const HOUR = 3_600_000;
const DAY = 86_400_000;
const ADMIN_EMAIL = 'bench-admin@opsdeck.local';
const ADMIN_PASSWORD = 'bench-admin-password-1';
const DB_NAME = 'opsdeck_bench_health_summary';
const log = (s: string) => console.log(s);

function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function generate(db: Database, checks: number, recentHours: number, days: number): Promise<void> {
  const started = performance.now();
  await db.query(`INSERT INTO canaries (name, namespace, labels, spec, schedule)
    SELECT 'bench-' || g, 'bench', jsonb_build_object('team', 'team-' || (g % 10)), '{}'::jsonb, '@every 1m'
    FROM generate_series(0, ${Math.ceil(checks / 100) - 1}) g`);
  await db.query(`INSERT INTO checks (canary_id, type, name, labels, status, last_runtime, last_transition_time)
    SELECT ca.id, 'http', 'check-' || g, jsonb_build_object('tier', 't' || (g % 3)), 'healthy', now(), now() - interval '3 days'
    FROM canaries ca CROSS JOIN generate_series(0, 99) g
    WHERE ca.namespace = 'bench' AND (substring(ca.name from 7)::int * 100 + g) < ${checks}`);
  const { rows } = await db.query<{ id: string }>(`SELECT id FROM checks ORDER BY id`);
  const rnd = random(1);
  const duration = () => {
    const base = Math.exp(Math.log(120) + 0.35 * Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd()));
    return Math.round(rnd() < 0.02 ? base * 20 : base);
  };
  const now = Date.now();
  const firstRecent = Math.floor(now / HOUR) * HOUR - (recentHours - 1) * HOUR;
  const batch: {
    id: string[];
    at: Date[];
    total: number[];
    passed: number[];
    sum: number[];
    runs: string[];
    cum: string[];
  } = {
    id: [],
    at: [],
    total: [],
    passed: [],
    sum: [],
    runs: [],
    cum: [],
  };
  const flush = async () => {
    if (!batch.id.length) return;
    await db.query(
      `INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration_avg, duration_max, duration_sum, runs, cum)
       SELECT id, at, total, passed, total - passed, sum / total, 0, sum, decode(runs, 'hex'), decode(cum, 'hex')
       FROM unnest($1::uuid[], $2::timestamptz[], $3::int[], $4::int[], $5::bigint[], $6::text[], $7::text[])
         AS x(id, at, total, passed, sum, runs, cum)`,
      [batch.id, batch.at, batch.total, batch.passed, batch.sum, batch.runs, batch.cum],
    );
    for (const k of Object.keys(batch) as Array<keyof typeof batch>) batch[k].length = 0;
  };
  const hourRuns = (hour: number): Run[] =>
    Array.from({ length: 60 }, (_, m) => ({
      time: hour + m * 60_000 + 1_000,
      pass: rnd() >= 0.01,
      duration: duration(),
    }));
  // The rest of an older day's runs (23 hours, one a minute): a few day tallies drawn once, merged
  // into the running tally of each check (generating 1,380 runs per check and day would take longer
  // than the benchmark).
  const dayTallies = Array.from({ length: 8 }, () => {
    const t = new Tally();
    for (let i = 0; i < 1_380; i++) t.addRun(i, rnd() >= 0.01, duration());
    return t;
  });
  for (const { id } of rows) {
    const running = new Tally();
    const push = async (hour: number, runs: Run[]) => {
      const t = runs.reduce((x, r) => x.addRun(r.time, r.pass, r.duration), new Tally());
      batch.id.push(id);
      batch.at.push(new Date(hour));
      batch.total.push(t.total);
      batch.passed.push(t.passed);
      batch.sum.push(t.sum);
      batch.runs.push(encodeRuns(runs, hour).toString('hex'));
      batch.cum.push(running.encode().toString('hex'));
      running.merge(t);
      if (batch.id.length >= 2_000) await flush();
    };
    for (let d = days; d >= 1; d--) {
      const day = Math.floor((firstRecent - d * DAY) / DAY) * DAY;
      const runs = hourRuns(day);
      await push(day, runs);
      const rest = dayTallies[Math.floor(rnd() * dayTallies.length)]!;
      running.merge(rest);
      running.lastPass = day + DAY - 60_000;
    }
    for (let h = firstRecent; h <= now; h += HOUR)
      await push(
        h,
        hourRuns(h).filter((r) => r.time <= now),
      );
  }
  await flush();
  await db.query('ANALYZE check_statuses_1h');
  const { rows: n } = await db.query<{ n: number; size: string }>(
    `SELECT count(*)::int AS n, pg_size_pretty(pg_total_relation_size('check_statuses_1h')) AS size FROM check_statuses_1h`,
  );
  log(
    `  generated ${checks} checks, ${n[0]!.n} hour rows (${n[0]!.size}) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}

async function startServer(env: NodeJS.ProcessEnv): Promise<{ child: Child; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = startChild(process.execPath, [serverMain], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    OPSDECK_DEMO: 'false',
    OPSDECK_ENGINES: 'false',
    LOG_LEVEL: 'warn',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    ...env,
  });
  await waitForHttp(`${origin}/api/about`, child, { timeoutMs: 600_000 });
  return { child, origin };
}

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (res.status !== 200 || !cookie) throw new Error(`signing in failed: ${res.status} ${await res.text()}`);
  return cookie;
}

const MB = (b: number) => (b / 1024 / 1024).toFixed(0);

async function measure(kind: string, env: NodeJS.ProcessEnv, requests: number, idleS: number) {
  const server = await startServer(env);
  const cookie = await signIn(server.origin);
  const pid = server.child.process.pid;
  await sleep(2_000);
  const rssStart = rssBytes(pid);
  const now = Date.now();
  const ranges: Array<[string, string]> = [
    ['1h', 'start=1h'],
    ['24h', 'start=24h'],
    ['7d', 'start=7d'],
    ['30d', 'start=30d'],
    [
      'custom',
      `start=${new Date(now - 9 * DAY - 17 * 60_000).toISOString()}&end=${new Date(now - 2 * DAY + 600_000).toISOString()}`,
    ],
  ];
  const get = async (query: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${server.origin}/api/canary/api/summary?${query}`, {
      headers: { cookie, 'accept-encoding': 'identity', ...headers },
    });
    const body = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200 && res.status !== 304)
      throw new Error(`${query}: ${res.status} ${body.toString().slice(0, 300)}`);
    return { res, body, ms: Number(res.headers.get('x-summary-ms')) };
  };
  const out: (string | number)[][] = [];
  for (const [name, query] of ranges) {
    const first = await get(query);
    const cold: number[] = [];
    for (let i = 0; i < requests; i++) cold.push((await get(query, { 'cache-control': 'no-cache' })).ms);
    const warm: number[] = [];
    for (let i = 0; i < requests; i++) warm.push((await get(query)).ms);
    out.push([kind, name, first.ms, percentile(cold, 95), percentile(warm, 95), first.body.length]);
  }
  printTable(['db', 'range', 'first after start, ms', 'computed p95, ms', 'kept p95, ms', 'full answer, bytes'], out);
  // Bytes per poll.
  const full = await get('start=1h&format=console', { 'cache-control': 'no-cache' });
  // fetch decompresses: the bytes on the wire are the content-length.
  const gz = await get('start=1h&format=console', { 'accept-encoding': 'gzip' });
  const gzBytes = Number(gz.res.headers.get('content-length') ?? gz.body.length);
  const etag = full.res.headers.get('etag')!;
  const poll = await get('start=1h&format=console', { 'if-none-match': etag });
  let headerBytes = `HTTP/1.1 ${poll.res.status} Not Modified\r\n`.length + 2;
  poll.res.headers.forEach((v, k) => (headerBytes += `${k}: ${v}\r\n`.length));
  log('');
  printTable(
    ['db', 'console answer, bytes', 'gzipped, bytes', 'unchanged poll (304), status', 'unchanged poll, bytes'],
    [[kind, full.body.length, gzBytes, poll.res.status, headerBytes + poll.body.length]],
  );
  // Memory: every range, 20 custom ranges, then idle.
  for (const [, query] of ranges) await get(query, { 'cache-control': 'no-cache' });
  for (let i = 0; i < 20; i++) {
    const s = new Date(now - (i + 2) * DAY - i * 600_000).toISOString();
    await get(`start=${s}&end=${new Date(now - i * HOUR).toISOString()}`);
    await get(`start=${s}&end=${new Date(now - i * HOUR).toISOString()}&format=console`);
  }
  const rssBusy = rssBytes(pid);
  await sleep(idleS * 1_000);
  const rssIdle = rssBytes(pid);
  log('');
  printTable(
    ['db', 'RSS at start, MB', 'after all ranges + 20 custom, MB', `after ${idleS} s idle, MB`, 'idle minus start, MB'],
    [[kind, MB(rssStart), MB(rssBusy), MB(rssIdle), MB(rssIdle - rssStart)]],
  );
  await server.child.stop();
}

async function main() {
  const flags = parseFlags(process.argv.slice(2));
  const which = String(flags.db ?? 'all');
  const checks = numberFlag(flags, 'checks', 10_000);
  const recentHours = numberFlag(flags, 'recent-hours', 48);
  const days = numberFlag(flags, 'days', 30);
  const requests = numberFlag(flags, 'requests', 20);
  const idle = numberFlag(flags, 'idle', 30);
  ensureServerBuilt();
  log(`health-summary: ${checks} checks, ${os.cpus().length} CPUs, load ${loadavg()}`);
  if (which === 'postgres' || which === 'all') {
    const url = databaseUrl(DB_NAME);
    if (!(flags.reuse && (await databaseExists(DB_NAME)))) {
      await recreateDatabase(DB_NAME);
      const db = await openPostgres(url);
      await migrate(db);
      await generate(db, checks, recentHours, days);
      await db.close();
    }
    await measure('postgres', { DATABASE_URL: url }, requests, idle);
  }
  if (which === 'pglite' || which === 'all') {
    const dataDir = path.join(os.tmpdir(), `opsdeck-bench-health-summary-${checks}`);
    if (!(flags.reuse && fs.existsSync(dataDir))) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      const db = await openPglite(dataDir);
      await migrate(db);
      await generate(db, checks, recentHours, days);
      await db.close();
    }
    await measure('pglite', { DATA_DIR: dataDir }, requests, idle);
  }
  log(`load after: ${loadavg()}`);
  process.exit(0);
}

await main();
