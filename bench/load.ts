// `npm run bench -- load`: --readers (200) concurrent readers on what the console's main screens ask
// for, against 2 server processes (node server/dist/main.js, engines on) on one PostgreSQL and then
// against 1, with no balancer: the readers' connections are split round-robin among the servers
// (bench/load.mjs runs one autocannon per server in its own process). Each reader cycles through:
//   health      GET /api/canary/api/summary?start=1h                 (the health page)
//   catalog     GET /api/db/config_items?select=…&order=…&limit=50    (the catalog list, count=exact)
//   topology    GET /api/topology?sortBy=name&sortOrder=asc&hidden=false  (the topology page's cards)
//   incidents   GET /api/db/incidents?select=…,responders(…)&order=created_at.desc&limit=50  (count=exact)
// the list pages at a random one of their first 10 pages, signed in as an admin (session cookie).
// Data: bench/data.ts consoleDataStatements in a fresh database. Printed per query and overall:
// answers, p50/p99 latency and errors (a request error, a timeout or a status ≥ 400); goals p99 <
// 300 ms and 0 errors, and the 2-replica/1-replica throughput ratio.
//
// Flags: --duration 300 (s, each phase), --warmup 10 (s), --readers 200, --replicas 2,1 (phases),
// --checks 2000, --configs 10000, --components 1000, --incidents 5000, --pool 10 (each server's),
// --reader-rate R (each reader sends at most R requests a second; default: the next request as soon
// as an answer came, i.e. a saturating load), --console (the health page's own poll: the summary in
// format=console with If-None-Match from the reader's previous answer, so an unchanged one is a 304;
// the topology cards with If-None-Match too, as the browser revalidates them), --sequential N
// (instead of the load phases: N requests of each query one at a time against the first server,
// the CPU per request of that server process and of PostgreSQL; bench/rest-cost.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { openPostgres } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { consoleDataStatements } from './data.js';
import { sequentialCost } from './rest-cost.js';
import {
  databaseUrl,
  ensureServerBuilt,
  loadavg,
  numberFlag,
  parseFlags,
  printTable,
  recreateDatabase,
  signIn,
  startServer,
  type Child,
} from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const duration = numberFlag(flags, 'duration', 300);
const warmup = flags.warmup === '0' ? 0 : numberFlag(flags, 'warmup', 10);
const readers = numberFlag(flags, 'readers', 200);
const phases = String(flags.replicas ?? '2,1')
  .split(',')
  .map(Number);
if (phases.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--replicas takes replica counts, e.g. 2,1');
const size = {
  checks: numberFlag(flags, 'checks', 2_000),
  configs: numberFlag(flags, 'configs', 10_000),
  components: numberFlag(flags, 'components', 1_000),
  incidents: numberFlag(flags, 'incidents', 5_000),
};
const pool = numberFlag(flags, 'pool', 10);
const readerRate = flags['reader-rate'] ? numberFlag(flags, 'reader-rate', 0) : 0;
const consolePoll = flags.console !== undefined;
const sequential = flags.sequential ? numberFlag(flags, 'sequential', 0) : 0;

const DB = 'opsdeck_bench_load';
const ADMIN = { email: 'bench-admin@opsdeck.local', password: 'opsdeck-bench-password' };
const P99_GOAL_MS = 300;
const log = (s: string) => console.log(s);
const fmt = (v: number | null | undefined, digits = 0) => (typeof v === 'number' ? v.toFixed(digits) : '-');

// The console's queries (web/src/features/*/…Api.ts).
const CATALOG_COLUMNS =
  'id,type,config_class,status,health,labels,name,tags,created_at,updated_at,deleted_at,cost_per_minute,cost_total_1d,cost_total_7d,cost_total_30d,changes,analysis,agent:agents(id,name)';
const INCIDENT_SELECT =
  '*,commander:commander_id(id,name,avatar),responders(id,type,deleted_at,team:team_id(id,name,icon),person:person_id(id,name,avatar))';
const enc = encodeURIComponent;
const pages = Array.from({ length: 10 }, (_, i) => [String(i * 50)]);

function shapes(cookie: string) {
  const headers = { cookie, accept: 'application/json' };
  const counted = { ...headers, prefer: 'count=exact' };
  return [
    consolePoll
      ? {
          name: 'health summary (console poll)',
          path: '/api/canary/api/summary?start=1h&format=console',
          headers,
          conditional: true,
        }
      : { name: 'health summary (start=1h)', path: '/api/canary/api/summary?start=1h', headers },
    {
      name: 'catalog list',
      path: `/api/db/config_items?select=${enc(CATALOG_COLUMNS)}&deleted_at=is.null&order=name.asc.nullslast,id&limit=50&offset={0}`,
      headers: counted,
      values: pages,
    },
    // The browser revalidates the cards it holds (ETag, cache-control: no-cache): with --console the
    // reader sends If-None-Match as the browser would, so an unchanged answer is a 304.
    {
      name: consolePoll ? 'topology cards (revalidated)' : 'topology cards',
      path: '/api/topology?sortBy=name&sortOrder=asc&hidden=false',
      headers,
      conditional: consolePoll,
    },
    {
      name: 'incident list',
      path: `/api/db/incidents?select=${enc(INCIDENT_SELECT)}&order=created_at.desc&limit=50&offset={0}&responders.deleted_at=is.null`,
      headers: counted,
      values: pages,
    },
  ];
}

interface Summary {
  count: number;
  p50: number | null;
  p99: number | null;
  failed?: number;
}
interface LoadResult {
  durationSeconds: number;
  responses: number;
  rps: number;
  latency: Summary;
  perShape: Record<string, Summary>;
  errors: number;
  timeouts: number;
  non2xx: number;
}

/** Runs bench/load.mjs (its own process) against `urls` and returns its JSON line. */
async function load(urls: string[], cookie: string): Promise<LoadResult> {
  const s = shapes(cookie);
  const file = path.join(os.tmpdir(), `opsdeck-bench-load-${process.pid}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      urls,
      connections: readers,
      ...(readerRate > 0 ? { connectionRate: readerRate } : {}),
      warmupSeconds: warmup,
      durationSeconds: duration,
      seed: 42,
      shapes: s,
      sequence: s.map((_, i) => i),
    }),
  );
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'load.mjs'), file], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  fs.rmSync(file, { force: true });
  const line = out.trim().split('\n').pop() ?? '';
  if (code !== 0 || !line.startsWith('{')) throw new Error(`bench/load.mjs failed (${code}):\n${out}`);
  return JSON.parse(line) as LoadResult;
}

/** One request of each shape on a server: a shape that does not answer 2xx (206 for a counted page) is a broken benchmark. */
async function probe(origin: string, cookie: string): Promise<void> {
  for (const s of shapes(cookie)) {
    const url = origin + s.path.replace('{0}', '0');
    const r = await fetch(url, { headers: s.headers });
    const body = await r.text();
    if (r.status >= 300) throw new Error(`${s.name}: ${url} answered ${r.status}: ${body.slice(0, 300)}`);
  }
}

/** --sequential: each query's cost with one request at a time (the list pages in turn). */
async function sequentialReport(server: { child: Child; origin: string }, cookie: string): Promise<void> {
  log(`\nOne request at a time, ${sequential} per query (after up to 200 unmeasured), on ${server.origin}:`);
  const rows: string[][] = [];
  for (const s of shapes(cookie)) {
    let i = 0;
    const next = () => server.origin + s.path.replace('{0}', s.values?.[i++ % s.values.length]?.[0] ?? '');
    // The console poll's If-None-Match is not sent here: each request is a full answer.
    const c = await sequentialCost(next, s.headers, server.child.process.pid!, DB, sequential);
    rows.push([s.name, fmt(c.serverMs, 2), fmt(c.postgresMs, 2), fmt(c.serverMs + c.postgresMs, 2), fmt(c.wallMs, 2)]);
  }
  printTable(['query', 'server CPU ms', 'PostgreSQL CPU ms', 'total CPU ms', 'round trip ms'], rows);
  log(`load average ${loadavg()}`);
}

async function main() {
  ensureServerBuilt();
  log(
    `Load: ${readers} concurrent readers for ${duration} s (after ${warmup} s of warm-up) per phase, ` +
      `${phases.join(' then ')} replica(s) on one PostgreSQL, no balancer (connections split round-robin); ` +
      `${os.cpus().length} CPUs, load average ${loadavg()} now; ` +
      (readerRate > 0 ? `each reader at most ${readerRate} request(s)/s` : 'each reader sends as soon as answered') +
      (consolePoll ? ', the summary as the console polls it (format=console, If-None-Match).' : '.'),
  );
  await recreateDatabase(DB);
  const db = await openPostgres(databaseUrl(DB), 2);
  try {
    await migrate(db);
    for (const { label, sql } of consoleDataStatements(size)) {
      const t = performance.now();
      await db.exec(sql);
      log(`  ${label.padEnd(44)} ${((performance.now() - t) / 1000).toFixed(1)} s`);
    }
    await db.query('VACUUM ANALYZE');
  } finally {
    await db.close();
  }
  const env = {
    DATABASE_URL: databaseUrl(DB),
    DATABASE_POOL_SIZE: String(pool),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    AUTH_SECRET: 'opsdeck-bench-load-auth-secret-0123456789',
    // Readers from one address: the per-address sign-in limit is not what is measured.
    SIGN_IN_RATE_LIMIT: '1000',
  };
  const servers: { child: Child; origin: string }[] = [];
  try {
    servers.push(await startServer(env));
    const more = Math.max(...phases) - 1;
    servers.push(...(await Promise.all(Array.from({ length: more }, () => startServer(env)))));
    const cookie = await signIn(servers[0]!.origin, ADMIN.email, ADMIN.password);
    for (const s of servers) await probe(s.origin, cookie);
    if (sequential > 0) return await sequentialReport(servers[0]!, cookie);
    const results: { replicas: number; r: LoadResult; load: string }[] = [];
    for (const replicas of phases) {
      const urls = servers.slice(0, replicas).map((s) => s.origin);
      log(`\n== ${replicas} replica(s): ${urls.join(', ')}`);
      const r = await load(urls, cookie);
      const load1 = loadavg();
      results.push({ replicas, r, load: load1 });
      log(`  ${r.responses} answers, ${r.rps.toFixed(0)}/s (load average ${load1})`);
    }
    log('');
    const rows: (string | number)[][] = [];
    for (const { replicas, r, load: la } of results) {
      for (const [name, s] of Object.entries(r.perShape))
        rows.push([`${replicas}`, name, s.count, fmt(s.p50), fmt(s.p99), s.failed ?? 0, '']);
      const errors = r.errors + r.timeouts + r.non2xx;
      const met = (r.latency.p99 ?? Infinity) < P99_GOAL_MS && errors === 0;
      rows.push([
        `${replicas}`,
        `overall (${r.rps.toFixed(0)}/s)`,
        r.latency.count,
        fmt(r.latency.p50),
        fmt(r.latency.p99),
        `${errors} (${r.errors} request errors, ${r.timeouts} timeouts, ${r.non2xx} ≥ 400)`,
        `${met ? 'met' : 'NOT met'}; load ${la.split(' ').slice(0, 3).join(' ')}`,
      ]);
    }
    printTable(
      ['replicas', 'query', 'answers', 'p50 ms', 'p99 ms', 'errors', `p99 < ${P99_GOAL_MS} ms, 0 errors`],
      rows,
    );
    const two = results.find((x) => x.replicas === 2);
    const one = results.find((x) => x.replicas === 1);
    if (two && one)
      log(`\n2 replicas answered ${(two.r.rps / one.r.rps).toFixed(2)}× the requests per second of 1 replica.`);
  } finally {
    await Promise.all(servers.map((s) => s.child.stop(30_000)));
  }
}

await main();
