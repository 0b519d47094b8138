// Fuzzes /api/db with generated and mutated query strings, headers and bodies (20,000 requests
// per database by default) and checks that:
//   - no request gets a 5xx, and every error answers with PostgREST's JSON {code, message};
//   - no statement the server runs names a relation or function outside the exposure registry
//     and nothing injected reaches the SQL text (every statement is recorded and audited, see
//     fuzz/sql-audit.ts);
//   - the sentinels outside the registry are untouched: the table fuzz_secret (contents and,
//     from pg_stat_user_tables, not a single scan or write), fuzz_secret_link (a junction to
//     people and teams), schema_migrations, the function fuzz_touch() (which would write to
//     fuzz_secret), and the set of relations and functions (nothing dropped or created);
//   - no pg_sleep(3) hidden in a request runs: every request answers in under 2.5 s.
//
// Deterministic: the seed is fixed (FUZZ_SEED overrides it) and printed with the summary;
// FUZZ_REQUESTS changes the count, FUZZ_ONLY=<index> replays a single generated request.
// A 5xx is shrunk to a minimal request and reported with the server's log lines.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import type { Database, Queryable } from '../src/db/database.js';
import { buildRegistry } from '../src/rest/registry.js';
import {
  describeRequest,
  requestFor,
  requestTarget,
  SEED_IDS,
  targetedRequests,
  wellFormed,
  type FuzzRequest,
} from './fuzz/generators.js';
import { auditStatement, restVocabulary, type AuditOptions } from './fuzz/sql-audit.js';
import { IDENTITY_STATEMENTS } from '../src/auth/identity.js';
import { ACTOR_STATEMENT } from '../src/incidents/service.js';
import { AUDIT_STATEMENTS } from '../src/audit/middleware.js';
import { createTestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type DatabaseKind, type TestDatabase } from './helpers/databases.js';

const SEED = Number(process.env.FUZZ_SEED ?? 0x0f5eed01);
/**
 * 10,000 requests on PostgreSQL (fast), and on PGlite too when it is the only database; when both
 * run, PGlite (one in-process connection, ~7 ms a request) takes a quarter to keep the suite short.
 * FUZZ_REQUESTS=100000 for a longer run.
 */
function requestCount(kind: DatabaseKind): number {
  if (process.env.FUZZ_REQUESTS) return Number(process.env.FUZZ_REQUESTS);
  return kind === 'pglite' && databaseKinds().includes('postgres') ? 2_500 : 10_000;
}
const ONLY = process.env.FUZZ_ONLY === undefined ? undefined : Number(process.env.FUZZ_ONLY);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const MAX_LATENCY_MS = 2_500;
const RESEED_EVERY = 2_000;

// The default registry plus two harmless functions, so /rpc is fuzzed too; fuzz_touch() stays unexposed.
const EXPOSED_FUNCTIONS = ['fuzz_echo', 'fuzz_people'];
const registry = buildRegistry(
  [],
  EXPOSED_FUNCTIONS.map((name) => ({ name, resource: 'database' as const })),
);
const AUDIT: AuditOptions = {
  relations: new Set(registry.relations.keys()),
  functions: new Set(registry.functions.keys()),
  vocabulary: restVocabulary(),
};

const [P1, P2, P3, P4] = SEED_IDS.people;
const [T1, T2] = SEED_IDS.teams;
const [A1, A2] = SEED_IDS.agents;
const [J1, J2, J3] = SEED_IDS.job_history;

const SENTINELS_SQL = [
  `CREATE TABLE fuzz_secret (id int, note text)`,
  `INSERT INTO fuzz_secret VALUES (1, 'the secret'), (2, 'second secret')`,
  // Shaped like a junction between people and teams, so a leak in the relationship search shows.
  `CREATE TABLE fuzz_secret_link (
     team_id uuid NOT NULL REFERENCES teams (id), person_id uuid NOT NULL REFERENCES people (id), note text,
     PRIMARY KEY (team_id, person_id))`,
  `CREATE FUNCTION fuzz_touch() RETURNS integer LANGUAGE sql VOLATILE AS $$ INSERT INTO fuzz_secret VALUES (666, 'touched') RETURNING id $$`,
  `CREATE FUNCTION fuzz_echo(msg text, n integer DEFAULT 1) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT repeat(msg, greatest(0, least(n, 3))) $$`,
  `CREATE FUNCTION fuzz_people(q text DEFAULT '') RETURNS SETOF people LANGUAGE sql STABLE AS $$ SELECT * FROM people WHERE name ILIKE '%' || q || '%' $$`,
];

/** Core rows; re-inserted now and then (writes through the API are allowed to delete them). */
const SEED_SQL = [
  `INSERT INTO people (id, name, email, type, properties) VALUES
     ('${P1}', 'Alice Alpha', 'alice@example.com', 'user', '{"app": "ops", "tier": 1, "k": [1, 2]}'),
     ('${P2}', 'Bob Beta', 'bob@example.com', 'user', '{"app": "deck"}'),
     ('${P3}', 'Carol Gamma', NULL, 'agent', NULL),
     ('${P4}', 'Sentinel Person', 'sentinel@example.com', 'user', '{}') ON CONFLICT DO NOTHING`,
  `INSERT INTO teams (id, name, spec, created_by) VALUES ('${T1}', 'platform', '{"a": 1}', '${P1}'), ('${T2}', 'sentinel team', NULL, '${P4}') ON CONFLICT DO NOTHING`,
  `INSERT INTO team_members VALUES ('${T1}', '${P1}'), ('${T1}', '${P2}'), ('${T2}', '${P3}') ON CONFLICT DO NOTHING`,
  `INSERT INTO properties (name, value, created_by) VALUES ('fuzz.flag', 'on', '${P1}'), ('fuzz.other', 'off', NULL) ON CONFLICT DO NOTHING`,
  `INSERT INTO agents (id, name, hostname, person_id, properties, created_by) VALUES
     ('${A1}', 'agent-one', 'host1', '${P3}', '{"env": "prod"}', '${P1}'), ('${A2}', 'agent-two', NULL, NULL, NULL, NULL) ON CONFLICT DO NOTHING`,
  `INSERT INTO access_tokens (id, name, value, person_id) VALUES ('${SEED_IDS.access_tokens[0]}', 'token', 'secret-token-value', '${P1}') ON CONFLICT DO NOTHING`,
  `INSERT INTO job_history (id, name, success_count, error_count, details, agent_id, status) VALUES
     ('${J1}', 'sync', 3, 0, '{"k": "v"}', '${A1}', 'SUCCESS'), ('${J2}', 'sync', 0, 1, NULL, NULL, 'FAILED'),
     ('${J3}', 'cleanup', 1, 0, '[1, 2]', '${A2}', 'SUCCESS') ON CONFLICT DO NOTHING`,
  `INSERT INTO event_queue (id, name, properties) VALUES ('${SEED_IDS.event_queue[0]}', 'fuzz.event', '{"a": "b"}') ON CONFLICT DO NOTHING`,
  `INSERT INTO connections (id, name, type, url, password, created_by) VALUES
     ('${SEED_IDS.connections[0]}', 'db', 'postgres', 'postgres://db', 'hunter2', '${P1}') ON CONFLICT DO NOTHING`,
];

const CORE_TABLES = [
  'people',
  'teams',
  'team_members',
  'properties',
  'agents',
  'access_tokens',
  'job_history',
  'event_queue',
  'connections',
];

async function seed(db: Queryable): Promise<void> {
  for (const sql of SEED_SQL) {
    // A row the API changed (say, a person now holding alice's email) may refuse a re-insert.
    await db.query(sql).catch(() => undefined);
  }
}

// ---------------------------------------------------------------------------------------------
// Recording every statement the server runs

interface StatementLog {
  count: number;
  problems: { sql: string; params: unknown[]; problems: string[] }[];
  recording: boolean;
}

function recordingDatabase(db: Database, log: StatementLog): Database {
  const audit = (sql: string, params: unknown[] | undefined) => {
    if (!log.recording) return;
    // The identity module's own per-request statements are fixed text (see IDENTITY_STATEMENTS), and
    // so are the audit trail's (its row lookups are audited like the REST layer's).
    if (IDENTITY_STATEMENTS.includes(sql) || sql === ACTOR_STATEMENT || AUDIT_STATEMENTS.includes(sql)) return;
    log.count++;
    const problems = auditStatement(sql, AUDIT);
    if (problems.length && log.problems.length < 50)
      log.problems.push({ sql: sql.slice(0, 2000), params: params ?? [], problems });
  };
  const wrap = (q: Queryable): Queryable => ({
    query<T>(sql: string, params?: unknown[]) {
      audit(sql, params);
      return q.query<T>(sql, params);
    },
  });
  return {
    kind: db.kind,
    ...wrap(db),
    exec(sql: string) {
      audit(sql, undefined);
      return db.exec(sql);
    },
    // Identity (better-auth) queries do not come from /api/db; they are not audited.
    pgPool: () => db.pgPool(),
    transaction<T>(fn: (tx: Queryable) => Promise<T>) {
      return db.transaction((tx) => fn(wrap(tx)));
    },
    close: () => db.close(),
  };
}

// ---------------------------------------------------------------------------------------------
// Sentinel state

interface Snapshot {
  fuzzSecret: unknown[];
  fuzzSecretLink: unknown[];
  schemaMigrations: unknown[];
  relations: string[];
  functions: string[];
}

async function snapshot(db: Queryable): Promise<Snapshot> {
  const rows = async (sql: string) => (await db.query(sql)).rows;
  return {
    fuzzSecret: await rows('SELECT id, note FROM fuzz_secret ORDER BY id, note'),
    fuzzSecretLink: await rows('SELECT team_id::text, person_id::text, note FROM fuzz_secret_link ORDER BY 1, 2'),
    schemaMigrations: await rows(
      'SELECT version, name, applied_at::text AS applied_at FROM schema_migrations ORDER BY version',
    ),
    relations: (
      await db.query<{ r: string }>(
        `SELECT n.nspname || '.' || c.relname::text || ':' || c.relkind::text AS r FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND c.relkind IN ('r', 'v', 'm', 'p', 'f') ORDER BY 1`,
      )
    ).rows.map((r) => r.r),
    functions: (
      await db.query<{ f: string }>(
        `SELECT p.oid::regprocedure::text AS f FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' ORDER BY 1`,
      )
    ).rows.map((r) => r.f),
  };
}

type AccessStats = Record<string, { scans: number; writes: number }>;

/**
 * Scans and writes of the sentinel tables from pg_stat_user_tables. Statistics are flushed
 * lazily: PGlite (one backend) is told to flush; on PostgreSQL the server's pool connections
 * are terminated (an exiting backend flushes its counters) and read through our own client.
 */
async function accessStats(kind: DatabaseKind, raw: Queryable, admin: pg.Client | undefined): Promise<AccessStats> {
  let reader: Queryable = raw;
  if (kind === 'pglite') {
    await raw.query('SELECT pg_stat_force_next_flush()');
    await raw.query('SELECT 1');
  } else {
    const a = admin!;
    const others = `FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;
    await a.query(`SELECT pg_terminate_backend(pid) ${others}`);
    for (let i = 0; i < 100; i++) {
      const { rows } = await a.query<{ n: string }>(`SELECT count(*) AS n ${others}`);
      if (Number(rows[0]!.n) === 0) break;
      await sleep(50);
    }
    await sleep(300);
    reader = { query: async (sql: string) => ({ rows: (await a.query(sql)).rows }) } as Queryable;
  }
  await reader.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await reader.query<{ relname: string; scans: string | number; writes: string | number }>(
    `SELECT relname, coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS scans, n_tup_ins + n_tup_upd + n_tup_del + n_tup_hot_upd AS writes
       FROM pg_stat_user_tables WHERE relname IN ('fuzz_secret', 'schema_migrations') ORDER BY relname`,
  );
  return Object.fromEntries(rows.map((r) => [r.relname, { scans: Number(r.scans), writes: Number(r.writes) }]));
}

// ---------------------------------------------------------------------------------------------
// Sending and checking

interface Outcome {
  status: number;
  body: string;
  ms: number;
  /** Why the response is wrong, if it is. */
  problem?: string;
  /** The request could not be sent at all (the client refused it): not the server's doing. */
  unsendable?: boolean;
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Header values as bytes fetch accepts: latin-1 without controls. */
function headerValue(v: string): string {
  return wellFormed(v).replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
}

/**
 * An administrator's token: the fuzzer exercises /api/db itself, not the sign-in wall. Its own
 * writes may delete or deactivate that administrator; a 401 then gets a new one and one retry.
 */
let credentials: Record<string, string> = {};
let renewCredentials: (() => Promise<void>) | undefined;

async function send(base: string, req: FuzzRequest, retried = false): Promise<Outcome> {
  const url = base + requestTarget(req);
  const headers: Record<string, string> = { ...credentials };
  for (const [k, v] of Object.entries(req.headers)) headers[k] = headerValue(v);
  const method = req.method;
  const hasBody = req.body !== undefined && !['GET', 'HEAD'].includes(method.toUpperCase());
  const started = performance.now();
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: hasBody ? wellFormed(req.body!) : undefined,
      signal: AbortSignal.timeout(10_000),
    });
  } catch (e) {
    const ms = performance.now() - started;
    const err = e as Error & { cause?: Error };
    // TypeError from fetch before anything was sent (bad URL/method/header): skip it.
    if (err.name === 'TypeError' && !err.cause)
      return { status: 0, body: '', ms, unsendable: true, problem: `unsendable: ${err.message}` };
    // No answer in 10 s: as slow as can be (and grouped with the slow ones).
    if (err.name === 'TimeoutError')
      return { status: 0, body: '', ms, problem: `slow: no answer in ${Math.round(ms)} ms` };
    return {
      status: 0,
      body: '',
      ms,
      problem: `network error: ${err.message}${err.cause ? ` (${err.cause.message})` : ''}`,
    };
  }
  const body = await res.text();
  const ms = performance.now() - started;
  if (res.status === 401 && !retried && renewCredentials && !('authorization' in req.headers)) {
    await renewCredentials();
    return send(base, req, true);
  }
  return { status: res.status, body, ms, problem: checkResponse(url, method.toUpperCase(), res, body, ms) };
}

function checkResponse(url: string, method: string, res: Response, body: string, ms: number): string | undefined {
  const status = res.status;
  if (status >= 500) return `status ${status}`;
  if (ms >= MAX_LATENCY_MS) return `slow: ${Math.round(ms)} ms`;
  // Node's HTTP parser refuses an over-long request line before the app sees it.
  if (status === 431 || status === 414) return undefined;
  if (method === 'HEAD') return body === '' ? undefined : 'HEAD response with a body';
  if (status === 204 || ((status === 201 || status === 200) && body === ''))
    return body === '' ? undefined : `body on ${status}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `status ${status} with a body that is not JSON: ${body.slice(0, 100)}`;
  }
  if (status >= 300) {
    const o = parsed as Record<string, unknown> | null;
    const restPath = /^\/api\/db\/./.test(new URL(url).pathname);
    if (o && typeof o === 'object' && typeof o.code === 'string' && typeof o.message === 'string') return undefined;
    // Outside /api/db/<name> (a ../ in the path) the generic API 404 answers {error}.
    if (!restPath && o && typeof o === 'object' && typeof o.error === 'string') return undefined;
    // PostgREST answers a write to an unknown relation with 404 and an empty object.
    if (status === 404 && body === '{}') return undefined;
    return `status ${status} without {code, message}: ${body.slice(0, 100)}`;
  }
  return undefined;
}

/** Problem classes group failures: a 500 by its error message, the rest by kind. */
function failureKey(o: Outcome): string {
  if (o.status >= 500) {
    try {
      const b = JSON.parse(o.body) as { code?: string; message?: string };
      return `${o.status} ${b.code ?? ''} ${b.message ?? ''}`.slice(0, 160);
    } catch {
      return `${o.status} ${o.body.slice(0, 100)}`;
    }
  }
  return (o.problem ?? '').replace(/\d+ ms/, 'N ms').slice(0, 60);
}

/**
 * One request of each shape per relation before the timed run: the first query on a relation
 * loads its catalog entries (PGlite takes a while), which would otherwise count as latency.
 */
async function warmUp(base: string): Promise<void> {
  const rollback = { prefer: 'tx=rollback', 'content-type': 'application/json' };
  const reqs: FuzzRequest[] = [];
  for (const t of EXPOSED_RELATIONS_FOR_WARMUP) {
    reqs.push({
      method: 'GET',
      path: `/${t}`,
      query: [
        ['select', '*'],
        ['limit', '1'],
      ],
      headers: {},
      origin: 'warm-up',
    });
    reqs.push({
      method: 'GET',
      path: `/${t}`,
      query: [
        ['id', 'eq.00000000-0000-4000-8000-000000000001'],
        ['order', 'name.desc'],
      ],
      headers: { prefer: 'count=exact' },
      origin: 'warm-up',
    });
    if (t === 'job_history_names') continue; // a view
    reqs.push({ method: 'POST', path: `/${t}`, query: [], headers: rollback, body: '{}', origin: 'warm-up' });
    reqs.push({
      method: 'PATCH',
      path: `/${t}`,
      query: [['id', 'eq.00000000-0000-4000-8000-000000000001']],
      headers: rollback,
      body: '{"name": "x"}',
      origin: 'warm-up',
    });
    reqs.push({
      method: 'DELETE',
      path: `/${t}`,
      query: [['id', 'eq.00000000-0000-4000-8000-000000000009']],
      headers: rollback,
      origin: 'warm-up',
    });
  }
  reqs.push({
    method: 'GET',
    path: '/people',
    query: [['select', '*,teams(*),agents!agents_person_id_fkey(*,job_history(*))']],
    headers: {},
    origin: 'warm-up',
  });
  reqs.push({ method: 'GET', path: '/rpc/fuzz_echo', query: [['msg', 'x']], headers: {}, origin: 'warm-up' });
  reqs.push({
    method: 'POST',
    path: '/rpc/fuzz_people',
    query: [],
    headers: { 'content-type': 'application/json' },
    body: '{"q": "a"}',
    origin: 'warm-up',
  });
  for (const r of reqs) await send(base, r);
}

const EXPOSED_RELATIONS_FOR_WARMUP = [...registry.relations.keys()];

// ---------------------------------------------------------------------------------------------
// Shrinking a failing request to a small one that fails the same way

async function shrink(
  base: string,
  original: FuzzRequest,
  key: string,
  logs: string[],
  budget = 400,
): Promise<{ req: FuzzRequest; out: Outcome; log: string[] } | undefined> {
  let best: FuzzRequest = clone(original);
  let bestOut: Outcome | undefined;
  let bestLog: string[] = [];
  let tries = 0;
  const fails = async (cand: FuzzRequest): Promise<boolean> => {
    if (tries++ >= budget) return false;
    const before = logs.length;
    const out = await send(base, cand);
    if (out.unsendable || !out.problem || failureKey(out) !== key) return false;
    best = cand;
    bestOut = out;
    bestLog = logs.slice(before);
    return true;
  };
  // A failure that does not happen again (a stack overflow near the limit, say) is reported as it was.
  if (!(await fails(best))) return undefined;
  // Whole parts first: headers, body, parameters.
  for (const h of Object.keys(best.headers)) {
    const c = clone(best);
    delete c.headers[h];
    await fails(c);
  }
  if (best.body !== undefined) {
    const c = clone(best);
    c.body = undefined;
    await fails(c);
  }
  if (best.rawQuery !== undefined) {
    const c = clone(best);
    delete c.rawQuery;
    await fails(c);
  }
  for (let i = best.query.length - 1; i >= 0; i--) {
    const c = clone(best);
    c.query.splice(i, 1);
    await fails(c);
  }
  // Then the strings: remove chunks, halving the chunk size (ddmin-like).
  const strings: { get: (r: FuzzRequest) => string | undefined; set: (r: FuzzRequest, v: string) => void }[] = [
    { get: (r) => r.rawQuery, set: (r, v) => (r.rawQuery = v) },
    { get: (r) => r.body, set: (r, v) => (r.body = v) },
    ...best.query.flatMap((_, i) => [
      { get: (r: FuzzRequest) => r.query[i]?.[1], set: (r: FuzzRequest, v: string) => (r.query[i]![1] = v) },
      { get: (r: FuzzRequest) => r.query[i]?.[0], set: (r: FuzzRequest, v: string) => (r.query[i]![0] = v) },
    ]),
    ...Object.keys(best.headers).map((h) => ({
      get: (r: FuzzRequest) => r.headers[h],
      set: (r: FuzzRequest, v: string) => (r.headers[h] = v),
    })),
  ];
  for (const s of strings) {
    let value = s.get(best);
    if (value === undefined) continue;
    for (let chunk = Math.max(1, Math.floor(value.length / 2)); chunk >= 1; chunk = Math.floor(chunk / 2)) {
      for (let at = 0; at < value.length && tries < budget;) {
        const c = clone(best);
        s.set(c, value.slice(0, at) + value.slice(at + chunk));
        if (await fails(c)) value = s.get(best)!;
        else at += chunk;
      }
      if (chunk === 1) break;
    }
  }
  return { req: best, out: bestOut!, log: bestLog };
}

/** "#123" for a generated request, "targeted 4" for a hand-written one. */
function label(index: number): string {
  return index < 0 ? `targeted ${-1 - index}` : `#${index}`;
}

function clone(r: FuzzRequest): FuzzRequest {
  return { ...r, query: r.query.map(([k, v]) => [k, v]), headers: { ...r.headers } };
}

// ---------------------------------------------------------------------------------------------
// The test

describe('the SQL audit', () => {
  it('passes what the statement builder writes and flags injected SQL', () => {
    const clean = [
      `SELECT NULL::bigint AS total, pg_catalog.count(_t) AS page_total, coalesce(json_agg(_t), '[]')::text AS body FROM (SELECT "people_1"."name" AS "pg_sleep(3); drop table ""fuzz_secret""" FROM "public"."people" AS "people_1" WHERE "people_1"."name" = $1 LIMIT $2::bigint) _t`,
      `WITH pgrst_source AS (INSERT INTO "public"."teams" ("name") SELECT "name" FROM json_populate_recordset(NULL::"public"."teams", $1::json) AS _rows RETURNING *) SELECT NULL::bigint AS total, pg_catalog.count(*) AS page_total, NULL::text AS body FROM pgrst_source`,
      'SET TRANSACTION READ ONLY',
    ];
    for (const sql of clean) expect(auditStatement(sql, AUDIT)).toEqual([]);
    const injected = [
      `SELECT * FROM "public"."people" AS "p" WHERE "p"."name" = '' OR pg_sleep(3) IS NULL`,
      `SELECT * FROM "public"."people" AS "p"; DELETE FROM "public"."people"`,
      `SELECT * FROM "public"."fuzz_secret" AS "f"`,
      `SELECT * FROM "public"."schema_migrations" AS "m"`,
      `SELECT "public"."fuzz_touch"() AS v`,
      `SELECT * FROM "public"."people" AS "p" WHERE "p"."name" = 'x'`,
      `SELECT * FROM "public"."people" AS "p" -- "`,
      `SELECT * FROM "public"."people" AS "p" WHERE "p"."name" = $$x$$`,
      `SELECT "pg_sleep"(3)`,
      `SELECT * FROM "public"."people" AS "a" WHERE "a"."x" = "unterminated`,
      `SELECT * FROM fuzz_secret`,
    ];
    for (const sql of injected) expect(auditStatement(sql, AUDIT), sql).not.toEqual([]);
  });
});

describe.each(databaseKinds())('fuzz /api/db on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: pg.Client | undefined;
  const statements: StatementLog = { count: 0, problems: [], recording: false };
  const serverLog: string[] = [];
  const originalError = console.error;

  beforeAll(async () => {
    // Server log lines (the REST handler logs a 500's cause with console.error) are kept for the
    // report; the pool noise from terminating connections for the statistics (PostgreSQL) is dropped.
    console.error = (...args: unknown[]) => {
      const line = args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' ');
      if (line.startsWith('postgres pool error: terminating connection due to administrator command')) return;
      if (statements.recording) serverLog.push(line);
      else originalError(...args);
    };
    test = await openTestDatabase(kind);
    for (const sql of SENTINELS_SQL) await test.db.query(sql);
    await seed(test.db);
    await test.db.query(`INSERT INTO fuzz_secret_link VALUES ('${T2}', '${P4}', 'linked secret')`);
    if (kind === 'postgres') {
      admin = new pg.Client({ connectionString: test.url });
      await admin.connect();
    }
    renewCredentials = async () => {
      credentials = (await createTestUser(test.db, 'admin')).headers;
    };
    await renewCredentials();
    app = await startOpsdeck({
      port: 0,
      host: '127.0.0.1',
      // Only /api/db is under test: no scheduler statements in the audit.
      engines: false,
      database: recordingDatabase(test.db, statements),
      registry,
    });
  });

  afterAll(async () => {
    console.error = originalError;
    await app?.close();
    await admin?.end();
    await test?.close();
  });

  it(
    'answers generated and mutated requests without a 5xx, leak or injected statement',
    async () => {
      const before = await snapshot(test.db);
      expect(before.fuzzSecret).toHaveLength(2);
      const statsBefore = await accessStats(kind, test.db, admin);

      await warmUp(app.url);
      statements.recording = true;

      // The targeted requests (negative indices) first, then the generated ones.
      const targeted = targetedRequests();
      const indices =
        ONLY !== undefined
          ? [ONLY]
          : [...targeted.map((_, i) => -1 - i), ...Array.from({ length: requestCount(kind) }, (_, i) => i)];
      const histogram = new Map<number, number>();
      const origins = new Map<string, number>();
      const failures = new Map<
        string,
        { count: number; examples: { index: number; req: FuzzRequest; out: Outcome }[] }
      >();
      let maxMs = 0;
      let maxMsRequest = '';
      const slowest: { ms: number; index: number; desc: string }[] = [];
      let sleepRequests = 0;
      let maxSleepMs = 0;
      let unsendable = 0;
      let next = 0;
      const started = performance.now();

      const worker = async () => {
        while (next < indices.length) {
          const index = indices[next++]!;
          if (index > 0 && index % RESEED_EVERY === 0) await seed(test.db);
          const req = index < 0 ? targeted[-1 - index]! : requestFor(SEED, index);
          const out = await send(app.url, req);
          if (out.unsendable) {
            unsendable++;
            continue;
          }
          histogram.set(out.status, (histogram.get(out.status) ?? 0) + 1);
          const family = req.origin.startsWith('mutated') ? 'mutated' : req.origin;
          origins.set(family, (origins.get(family) ?? 0) + 1);
          if (slowest.length < 5 || out.ms > slowest[slowest.length - 1]!.ms) {
            slowest.push({ ms: out.ms, index, desc: describeRequest(req).slice(0, 300) });
            slowest.sort((a, b) => b.ms - a.ms);
            slowest.length = Math.min(slowest.length, 5);
          }
          if (out.ms > maxMs) {
            maxMs = out.ms;
            maxMsRequest = describeRequest(req).slice(0, 200);
          }
          if (/pg_sleep/.test(requestTarget(req) + (req.body ?? ''))) {
            sleepRequests++;
            maxSleepMs = Math.max(maxSleepMs, out.ms);
          }
          if (out.problem) {
            const key = failureKey(out);
            const f = failures.get(key) ?? { count: 0, examples: [] };
            f.count++;
            if (f.examples.length < 3) f.examples.push({ index, req, out });
            failures.set(key, f);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      const elapsed = (performance.now() - started) / 1000;
      const sent = [...histogram.values()].reduce((a, b) => a + b, 0);

      // Shrink one example per failure class (one at a time, so the log lines are its own).
      // A slow answer counts when it is slow again on its own: under load (another test run on
      // the machine, a GC pause) anything can take a moment, while a pg_sleep(3) always does.
      const transient: string[] = [];
      for (const [key, f] of [...failures]) {
        if (!key.startsWith('slow')) continue;
        const confirmed: typeof f.examples = [];
        for (const ex of f.examples) {
          const again = await send(app.url, ex.req);
          if (again.problem?.startsWith('slow')) confirmed.push({ ...ex, out: again });
          else
            transient.push(
              `${label(ex.index)} ${Math.round(ex.out.ms)} ms, then ${Math.round(again.ms)} ms alone: ${describeRequest(ex.req).slice(0, 200)}`,
            );
        }
        if (confirmed.length) failures.set(key, { count: f.count, examples: confirmed });
        else failures.delete(key);
      }

      const reports: string[] = [];
      let shrunk = 0;
      for (const [key, f] of failures) {
        const first = f.examples[0]!;
        const lines = [`• ${key} — ${f.count} request(s); first: ${label(first.index)} (${first.req.origin})`];
        lines.push(`    original: ${describeRequest(first.req)}`);
        // Slow ones were confirmed above and are not shrunk: every attempt could take seconds.
        if (!key.startsWith('slow') && shrunk++ < 10) {
          const min = await shrink(app.url, first.req, key, serverLog);
          if (min) {
            lines.push(`    minimal:  ${describeRequest(min.req)}`);
            lines.push(`    response: ${min.out.status} ${min.out.body.slice(0, 400)}`);
            for (const l of min.log.slice(0, 3))
              lines.push(`    server:   ${l.split('\n').slice(0, 6).join('\n              ')}`);
          } else {
            lines.push(
              `    response: ${first.out.status} ${first.out.body.slice(0, 300)} (did not fail again when re-sent)`,
            );
          }
        } else lines.push(`    response: ${first.out.status} ${first.out.body.slice(0, 300)}`);
        reports.push(lines.join('\n'));
      }

      statements.recording = false;
      const statsAfter = await accessStats(kind, test.db, admin);
      const after = await snapshot(test.db);
      const coreMissing: string[] = [];
      for (const t of CORE_TABLES) {
        const { rows } = await test.db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
          `public.${t}`,
        ]);
        if (rows[0]?.found == null) coreMissing.push(t);
      }

      const summary = [
        `fuzz /api/db on ${kind}: seed ${SEED} (0x${SEED.toString(16)}), ${sent} requests in ${elapsed.toFixed(1)} s (${Math.round(sent / elapsed)}/s, concurrency ${CONCURRENCY})${unsendable ? `, ${unsendable} unsendable by fetch (skipped)` : ''}`,
        `  by origin:  ${[...origins].map(([k, v]) => `${k} ${v}`).join(', ')}`,
        `  statuses:   ${[...histogram]
          .sort((a, b) => a[0] - b[0])
          .map(([s, n]) => `${s}×${n}`)
          .join('  ')}`,
        `  latency:    max ${Math.round(maxMs)} ms (${maxMsRequest}); ${sleepRequests} requests carried pg_sleep, slowest ${Math.round(maxSleepMs)} ms`,
        ...slowest.map((x) => `    ${Math.round(x.ms)} ms ${label(x.index)}: ${x.desc}`),
        ...(transient.length
          ? [
              `  slow once, not when re-sent alone (not counted): ${transient.length}`,
              ...transient.slice(0, 5).map((t) => `    ${t}`),
            ]
          : []),
        `  statements: ${statements.count} recorded, ${statements.problems.length} failed the audit`,
        `  sentinels:  fuzz_secret scans ${statsBefore.fuzz_secret?.scans}→${statsAfter.fuzz_secret?.scans}, writes ${statsBefore.fuzz_secret?.writes}→${statsAfter.fuzz_secret?.writes}; schema_migrations scans ${statsBefore.schema_migrations?.scans}→${statsAfter.schema_migrations?.scans}, writes ${statsBefore.schema_migrations?.writes}→${statsAfter.schema_migrations?.writes}`,
        `  failures:   ${failures.size === 0 ? 'none' : `${[...failures.values()].reduce((a, f) => a + f.count, 0)} in ${failures.size} class(es)`}`,
        ...reports,
      ];
      console.log(summary.join('\n'));
      for (const p of statements.problems.slice(0, 5)) {
        console.log(
          `  audit: ${p.problems.join('; ')}\n    sql: ${p.sql.slice(0, 600)}\n    params: ${JSON.stringify(p.params).slice(0, 300)}`,
        );
      }

      expect(sent).toBeGreaterThanOrEqual(indices.length * 0.99);
      expect(reports, 'requests answered with a 5xx, a malformed error or too slowly').toEqual([]);
      expect(statements.problems, 'statements that fail the SQL audit').toEqual([]);
      // A fuzz run that never gets past the front door proves nothing (say, /api/db starts to
      // require a sign-in): insist that a fair share reached the database and succeeded.
      const succeeded = [...histogram].filter(([st]) => st >= 200 && st < 300).reduce((a, [, n]) => a + n, 0);
      expect(succeeded, 'requests answered 2xx (is the fuzzer still getting through?)').toBeGreaterThan(sent * 0.03);
      expect(statements.count, 'statements run (is the fuzzer still reaching the database?)').toBeGreaterThan(
        sent * 0.15,
      );
      expect(after.fuzzSecret).toEqual(before.fuzzSecret);
      expect(after.fuzzSecretLink).toEqual(before.fuzzSecretLink);
      expect(after.schemaMigrations).toEqual(before.schemaMigrations);
      expect(after.relations).toEqual(before.relations);
      expect(after.functions).toEqual(before.functions);
      expect(coreMissing).toEqual([]);
      expect(statsAfter).toEqual(statsBefore);
    },
    15 * 60_000,
  );
});
