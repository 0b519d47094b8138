// `npm run bench -- catalog`: the catalog screens' reads on a catalog of 100,000 items and
// 1,000,000 changes (PostgreSQL database opsdeck_bench_catalog_queries): p50/p95 of POST /api/catalog/summary,
// a filtered list page through /api/db/config_items with count=exact, POST /api/catalog/changes with
// filters, and related_configs_recursive at depth 10, each against its goal.
//
// Data (generate_series inside PostgreSQL, the same rows every time; ids md5('ci-<n>')::uuid):
// Kubernetes namespaces → deployments → replica sets → pods (parent links), services related to
// deployments (config_relationships), config maps, nodes, EC2 instances, RDS databases and S3
// buckets over 4 clusters and 100 namespaces; 5% of the pods deleted; changes spread over the 30 days
// before generation; insights on 20% of the items; the maintained counts (changes, analysis) filled
// in as the catalog engine keeps them.
//
// The server is node server/dist/main.js (engines off) with DATABASE_URL; requests are sequential,
// signed in with the console's session cookie. Times of the changes requests are absolute, anchored
// at the generation time, so --reuse measures the same rows.
//
// Flags: --items 100000 --changes 1000000 --requests 40 --reuse --explain (EXPLAIN ANALYZE of the
// endpoint queries, built by the server's own code).
import { createHash } from 'node:crypto';
import os from 'node:os';
import { openPostgres, type Database } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { changesSql, type ChangesRequest } from '../server/src/catalog/queries/changes.js';
import { summarySql, type SummaryRequest } from '../server/src/catalog/queries/summary.js';
import {
  TICK_MS,
  backendTicksBetween,
  databaseExists,
  databaseUrl,
  ensureServerBuilt,
  freePort,
  numberFlag,
  parseFlags,
  percentile,
  postgresBackendTicks,
  printTable,
  processTicks,
  recreateDatabase,
  serverMain,
  startChild,
  waitForHttp,
} from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const ITEMS = numberFlag(flags, 'items', 100_000);
const CHANGES = numberFlag(flags, 'changes', 1_000_000);
const REQUESTS = numberFlag(flags, 'requests', 40);
// Not opsdeck_bench_catalog: the scraper benchmark (bench/catalog-scrape.ts) recreates that one.
const DB_NAME = 'opsdeck_bench_catalog_queries';
const ADMIN_EMAIL = 'bench-admin@opsdeck.local';
const ADMIN_PASSWORD = 'opsdeck-bench-password';
const log = (s: string) => console.log(s);
const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : '-');

const SELECT_LIST =
  'id,type,config_class,status,health,labels,name,tags,created_at,updated_at,deleted_at,cost_per_minute,' +
  'cost_total_1d,cost_total_7d,cost_total_30d,changes,analysis,agent:agents(id,name)';

// ---------------------------------------------------------------------------------------------
// Data

/** Item number ranges of each kind, scaled to --items (the proportions of a 100,000-item catalog). */
function layout(items: number) {
  const n = (share: number) => Math.max(1, Math.round(items * share));
  const kinds = [
    { key: 'ns', type: 'Kubernetes::Namespace', cls: 'Namespace', count: n(0.001) },
    { key: 'deploy', type: 'Kubernetes::Deployment', cls: 'Deployment', count: n(0.1) },
    { key: 'rs', type: 'Kubernetes::ReplicaSet', cls: 'ReplicaSet', count: n(0.1) },
    { key: 'pod', type: 'Kubernetes::Pod', cls: 'Pod', count: n(0.5) },
    { key: 'svc', type: 'Kubernetes::Service', cls: 'Service', count: n(0.05) },
    { key: 'cm', type: 'Kubernetes::ConfigMap', cls: 'ConfigMap', count: n(0.1) },
    { key: 'node', type: 'Kubernetes::Node', cls: 'Node', count: n(0.001) },
    { key: 'ec2', type: 'AWS::EC2::Instance', cls: 'VirtualMachine', count: n(0.1) },
    { key: 'rds', type: 'AWS::RDS::DBInstance', cls: 'Database', count: n(0.03) },
  ];
  let start = 1;
  const out = kinds.map((k) => {
    const r = { ...k, first: start, last: start + k.count - 1 };
    start += k.count;
    return r;
  });
  // S3 buckets fill the rest.
  out.push({ key: 's3', type: 'AWS::S3::Bucket', cls: 'Bucket', count: items - start + 1, first: start, last: items });
  return Object.fromEntries(out.map((k) => [k.key, k])) as Record<string, (typeof out)[number]>;
}

function dataStatements(items: number, changes: number): { label: string; sql: string }[] {
  const L = layout(items);
  const id = (expr: string) => `md5('ci-' || (${expr}))::uuid`;
  // Local index j (0-based) of item i in its kind; the namespace number (1-based) of k8s items.
  const j = (k: string) => `(i - ${L[k]!.first})`;
  const nsOfDeploy = (dj: string) => `(1 + (${dj}) % ${L.ns!.count})`;
  const kindCase = (pick: (k: (typeof L)[string]) => string) =>
    `CASE ${Object.values(L)
      .map((k) => `WHEN i BETWEEN ${k.first} AND ${k.last} THEN ${pick(k)}`)
      .join(' ')} END`;
  const nsNumber = `CASE
      WHEN i BETWEEN ${L.ns!.first} AND ${L.ns!.last} THEN ${j('ns')} + 1
      WHEN i BETWEEN ${L.deploy!.first} AND ${L.deploy!.last} THEN ${nsOfDeploy(j('deploy'))}
      WHEN i BETWEEN ${L.rs!.first} AND ${L.rs!.last} THEN ${nsOfDeploy(j('rs'))}
      WHEN i BETWEEN ${L.pod!.first} AND ${L.pod!.last} THEN ${nsOfDeploy(`${j('pod')} % ${L.rs!.count}`)}
      WHEN i BETWEEN ${L.svc!.first} AND ${L.svc!.last} THEN ${nsOfDeploy(`(${j('svc')} * 2) % ${L.deploy!.count}`)}
      WHEN i BETWEEN ${L.cm!.first} AND ${L.cm!.last} THEN 1 + ${j('cm')} % ${L.ns!.count}
      ELSE NULL END`;
  const parent = `CASE
      WHEN i BETWEEN ${L.deploy!.first} AND ${L.deploy!.last} THEN ${id(`${L.ns!.first} + ${j('deploy')} % ${L.ns!.count}`)}
      WHEN i BETWEEN ${L.rs!.first} AND ${L.rs!.last} THEN ${id(`${L.deploy!.first} + ${j('rs')}`)}
      WHEN i BETWEEN ${L.pod!.first} AND ${L.pod!.last} THEN ${id(`${L.rs!.first} + ${j('pod')} % ${L.rs!.count}`)}
      WHEN i BETWEEN ${L.cm!.first} AND ${L.cm!.last} THEN ${id(`${L.ns!.first} + ${j('cm')} % ${L.ns!.count}`)}
      ELSE NULL END`;
  const isPod = `i BETWEEN ${L.pod!.first} AND ${L.pod!.last}`;
  const isK8s = `i <= ${L.node!.last}`;
  const CHANGE_TYPES = `ARRAY['diff','Pulled','Created','Started','Killing','BackOff','ScalingReplicaSet',
    'SuccessfulCreate','Unhealthy','FailedScheduling','UpdateSucceeded','CostChange']`;
  return [
    {
      label: 'scraper and agents',
      sql: `INSERT INTO config_scrapers (id, name, spec) VALUES (md5('scraper-1')::uuid, 'bench-kubernetes', '{}');
        INSERT INTO agents (id, name) SELECT md5('agent-' || a)::uuid, 'agent-' || a FROM generate_series(1, 10) a`,
    },
    {
      label: `config_items (${items})`,
      sql: `INSERT INTO config_items (id, scraper_id, agent_id, external_id, type, config_class, name, description, status,
          health, labels, tags, parent_id, cost_per_minute, cost_total_1d, cost_total_7d, cost_total_30d, config,
          created_at, updated_at, deleted_at, last_scraped_time)
        SELECT ${id('i')}, md5('scraper-1')::uuid,
          CASE WHEN i % 10 = 0 THEN md5('agent-' || (1 + i % 7))::uuid END,
          'ext-' || i,
          ${kindCase((k) => `'${k.type}'`)},
          ${kindCase((k) => `'${k.cls}'`)},
          ${kindCase((k) => `'${k.key}-' || (i - ${k.first})`)},
          'bench item ' || i,
          CASE WHEN ${isPod} THEN (ARRAY['Running','Running','Running','Pending','Succeeded','CrashLoopBackOff'])[1 + i % 6]
               WHEN ${isK8s} THEN (ARRAY['Active','Running','Ready'])[1 + i % 3]
               ELSE (ARRAY['running','stopped','available'])[1 + i % 3] END,
          (ARRAY['healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy','healthy',
                 'healthy','healthy','healthy','healthy','healthy','healthy','unhealthy','unhealthy','warning','unknown'])[1 + (i * 7) % 20],
          CASE WHEN ${isK8s} THEN jsonb_build_object('app', 'app-' || (i % 500), 'team', 'team-' || (i % 12))
               ELSE jsonb_build_object('owner', 'team-' || (i % 12)) END,
          CASE WHEN (${nsNumber}) IS NOT NULL
               THEN jsonb_build_object('cluster', 'cluster-' || ((${nsNumber}) % 4), 'namespace', 'ns-' || (${nsNumber}))
               WHEN ${isK8s} THEN jsonb_build_object('cluster', 'cluster-' || (i % 4))
               ELSE jsonb_build_object('account', 'acct-' || (i % 5), 'region', (ARRAY['eu-west-1','us-east-1'])[1 + i % 2]) END,
          ${parent},
          CASE WHEN NOT ${isK8s} THEN ((i % 97) + 1) / 10000.0 END,
          CASE WHEN NOT ${isK8s} THEN ((i % 97) + 1) * 0.144 END,
          CASE WHEN NOT ${isK8s} THEN ((i % 97) + 1) * 1.008 END,
          CASE WHEN NOT ${isK8s} THEN ((i % 97) + 1) * 4.32 END,
          jsonb_build_object('metadata', jsonb_build_object('name', 'item-' || i, 'uid', md5(i::text)),
                             'spec', jsonb_build_object('replicas', i % 5, 'image', 'registry/app:' || (i % 50))),
          now() - interval '90 days', now() - (i % 1000) * interval '1 minute',
          CASE WHEN ${isPod} AND i % 20 = 0 THEN now() - (i % 100) * interval '1 hour' END,
          now() - (i % 60) * interval '1 second'
        FROM generate_series(1, ${items}) AS i`,
    },
    {
      label: `config_relationships (${L.svc!.count} service → deployment)`,
      sql: `INSERT INTO config_relationships (config_id, related_id, relation, selector_id)
        SELECT ${id('i')}, ${id(`${L.deploy!.first} + ((i - ${L.svc!.first}) * 2) % ${L.deploy!.count}`)}, 'ServiceDeployment', 'rule-0'
        FROM generate_series(${L.svc!.first}, ${L.svc!.last}) AS i`,
    },
    {
      label: `config_changes (${changes})`,
      sql: `INSERT INTO config_changes (config_id, change_type, severity, source, summary, details, diff, count,
          created_at, first_observed)
        SELECT ${id(`1 + (c::bigint * 7919) % ${items}`)},
          (${CHANGE_TYPES})[1 + (c * 13) % 12],
          (ARRAY['info','info','info','info','info','info','info','low','low','medium','medium','high','high','critical'])[1 + (c * 31) % 14],
          (ARRAY['kubernetes','aws','github'])[1 + c % 3],
          'change ' || c || ' of item ' || (1 + (c::bigint * 7919) % ${items}),
          jsonb_build_object('path', 'spec.replicas', 'from', c % 5, 'to', (c + 1) % 5),
          E'--- a\n+++ b\n@@ -1 +1 @@\n-replicas: ' || (c % 5) || E'\n+replicas: ' || ((c + 1) % 5),
          1 + c % 3,
          t, t
        FROM generate_series(1, ${changes}) AS c,
          LATERAL (SELECT (SELECT generated FROM bench_catalog_meta) - ((c * 2654435761::bigint) % 2592000) * interval '1 second' AS t) x`,
    },
    {
      label: 'config_analysis (20% of the items)',
      sql: `INSERT INTO config_analysis (config_id, analyzer, analysis_type, severity, message, status, first_observed, last_observed)
        SELECT ${id('i')}, (ARRAY['trivy','kube-score','aws-trusted-advisor','cost-explorer'])[1 + i % 4],
          (ARRAY['security','reliability','cost','performance'])[1 + i % 4],
          (ARRAY['info','low','medium','high','critical'])[1 + i % 5],
          'finding on item ' || i, CASE WHEN i % 10 = 0 THEN 'resolved' ELSE 'open' END,
          now() - interval '40 days', now() - (i % 20) * interval '1 day'
        FROM generate_series(1, ${items}, 5) AS i`,
    },
    {
      label: 'maintained counts (changes of 30 days, open insights by severity)',
      sql: `UPDATE config_items ci SET changes = x.n FROM (
          SELECT config_id, count(*)::int AS n FROM config_changes
          WHERE created_at >= (SELECT generated FROM bench_catalog_meta) - interval '30 days' GROUP BY config_id) x
        WHERE x.config_id = ci.id;
        UPDATE config_items ci SET analysis = x.a FROM (
          SELECT config_id, jsonb_object_agg(severity, n) AS a FROM (
            SELECT config_id, severity, count(*) AS n FROM config_analysis WHERE status = 'open' GROUP BY 1, 2) s
          GROUP BY config_id) x
        WHERE x.config_id = ci.id`,
    },
  ];
}

async function prepare(): Promise<{ generated: Date }> {
  const wanted = `${ITEMS} items, ${CHANGES} changes`;
  const url = databaseUrl(DB_NAME);
  if (flags.reuse && (await databaseExists(DB_NAME))) {
    const db = await openPostgres(url, 1);
    try {
      const { rows } = await db.query<{ v: string; generated: Date }>('SELECT v, generated FROM bench_catalog_meta');
      if (rows[0]?.v === wanted) {
        await migrate(db); // later migrations (new indexes) apply to the kept data
        await db.query('ANALYZE');
        log(`Reusing ${DB_NAME} (${wanted}, generated ${new Date(rows[0].generated).toISOString()}).`);
        return { generated: new Date(rows[0].generated) };
      }
    } catch {
      // no meta table: regenerate
    } finally {
      await db.close();
    }
  }
  log(`Creating ${DB_NAME}: ${wanted}…`);
  await recreateDatabase(DB_NAME);
  const db = await openPostgres(url, 1);
  try {
    await migrate(db);
    await db.exec(
      `CREATE TABLE bench_catalog_meta (v text, generated timestamptz);
       INSERT INTO bench_catalog_meta VALUES ('${wanted}', date_trunc('second', now()))`,
    );
    // The changes load faster without their secondary indexes: built once afterwards, as defined.
    const { rows: indexes } = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = 'public' AND tablename = 'config_changes' AND indexname <> 'config_changes_pkey'`,
    );
    for (const ix of indexes) await db.exec(`DROP INDEX ${ix.indexname}`);
    for (const s of dataStatements(ITEMS, CHANGES)) {
      const t = performance.now();
      await db.exec(s.sql);
      log(`  ${s.label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
      if (s.label.startsWith('config_changes')) {
        const ti = performance.now();
        for (const ix of indexes) await db.exec(ix.indexdef);
        log(`  config_changes indexes (${indexes.length}): ${((performance.now() - ti) / 1000).toFixed(1)} s`);
      }
    }
    const t = performance.now();
    await db.exec('VACUUM ANALYZE');
    log(`  VACUUM ANALYZE: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const { rows } = await db.query<{ generated: Date }>('SELECT generated FROM bench_catalog_meta');
    return { generated: new Date(rows[0]!.generated) };
  } finally {
    await db.close();
  }
}

// ---------------------------------------------------------------------------------------------
// Requests

interface Scenario {
  name: string;
  goalMs: number | null;
  /** The i-th request (varied ids and pages, the same sequence every run). */
  request(i: number): { method: 'GET' | 'POST'; path: string; body?: unknown; headers?: Record<string, string> };
  /** A check of the first answer, so a fast wrong answer is not reported as a result. */
  check(status: number, body: unknown, headers: Headers): string | null;
}

function scenarios(generated: Date): Scenario[] {
  const L = layout(ITEMS);
  const iso = (msBack: number) => new Date(generated.getTime() - msBack).toISOString();
  const day = 86_400_000;
  const uuidOf = (n: number) => {
    // md5('ci-<n>')::uuid computed in Node: the same ids as the generator.
    const h = md5(`ci-${n}`);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  const hasGroups = (_s: number, b: unknown) =>
    (b as { groups?: unknown[] }).groups?.length ? null : `no groups: ${JSON.stringify(b).slice(0, 200)}`;
  const hasChanges = (_s: number, b: unknown) => {
    const r = b as { changes?: unknown[]; total?: number };
    return r.changes?.length && (r.total ?? 0) > 0 ? null : `no changes: ${JSON.stringify(b).slice(0, 200)}`;
  };
  return [
    {
      name: 'summary (config_class, type; 30d changes, insights, cost)',
      goalMs: 300,
      request: () => ({
        method: 'POST',
        path: '/api/catalog/summary',
        body: {
          groupBy: ['config_class', 'type'],
          deleted: false,
          changes: { since: '30d' },
          analysis: { since: '30d' },
          cost: '30d',
        },
      }),
      check: hasGroups,
    },
    {
      name: 'summary by tags.namespace, pods, health filter',
      goalMs: 300,
      request: () => ({
        method: 'POST',
        path: '/api/catalog/summary',
        body: { groupBy: ['tags.namespace'], filter: { type: 'Kubernetes::Pod' }, health: ['unhealthy', 'warning'] },
      }),
      check: hasGroups,
    },
    {
      name: 'list page: pods, live, by name, pages 1-20, count=exact',
      goalMs: 100,
      request: (i) => ({
        method: 'GET',
        path:
          `/api/db/config_items?select=${SELECT_LIST}&type=eq.Kubernetes::Pod&deleted_at=is.null` +
          `&order=name.asc&limit=50&offset=${(i % 20) * 50}`,
        headers: { prefer: 'count=exact' },
      }),
      check: (s, b, h) =>
        (s === 200 || s === 206) && Array.isArray(b) && b.length === 50 && /\/\d+$/.test(h.get('content-range') ?? '')
          ? null
          : `status ${s}, content-range ${h.get('content-range')}`,
    },
    {
      // Information: an ILIKE search reads every live item (no trigram index: PGlite has no pg_trgm here).
      name: 'list page: search over name/type/description/namespace',
      goalMs: null,
      request: (i) => {
        const q = `*pod-${100 + (i % 50)}*`;
        return {
          method: 'GET',
          path:
            `/api/db/config_items?select=${SELECT_LIST}&deleted_at=is.null` +
            `&or=(name.ilike.${q},type.ilike.${q},description.ilike.${q},tags->>namespace.ilike.${q})` +
            `&order=type,name.asc&limit=50&offset=0`,
          headers: { prefer: 'count=exact' },
        };
      },
      check: (s, b) => ((s === 200 || s === 206) && Array.isArray(b) ? null : `status ${s}`),
    },
    {
      name: 'changes: last 2 days, page 1 of 200',
      goalMs: 150,
      request: () => ({ method: 'POST', path: '/api/catalog/changes', body: { from: iso(2 * day), page_size: 200 } }),
      check: hasChanges,
    },
    {
      name: 'changes: 7 days, pods, severity ≥ high, !diff, page n',
      goalMs: 150,
      request: (i) => ({
        method: 'POST',
        path: '/api/catalog/changes',
        body: {
          from: iso(7 * day),
          to: iso(0),
          config_type: 'Kubernetes::Pod',
          severity: 'high',
          type: '!diff',
          page: 1 + (i % 5),
          page_size: 200,
        },
      }),
      check: hasChanges,
    },
    {
      name: 'changes: one deployment and related (all, depth 5), 30 days',
      goalMs: 150,
      request: (i) => ({
        method: 'POST',
        path: '/api/catalog/changes',
        body: { id: uuidOf(L.deploy!.first + ((i * 97) % L.deploy!.count)), recursive: 'all', from: iso(30 * day) },
      }),
      check: hasChanges,
    },
    {
      name: 'related_configs_recursive: deployment, depth 10',
      goalMs: 200,
      request: (i) => ({
        method: 'GET',
        path: `/api/db/rpc/related_configs_recursive?config_id=${uuidOf(L.deploy!.first + ((i * 97) % L.deploy!.count))}&max_depth=10&type_filter=all`,
      }),
      check: (s, b) =>
        s === 200 && Array.isArray(b) && b.length > 3 ? null : `status ${s}, ${JSON.stringify(b).slice(0, 200)}`,
    },
    {
      name: 'related_configs_recursive: namespace (≈1,000 nodes), depth 10',
      goalMs: 200,
      request: (i) => ({
        method: 'GET',
        path: `/api/db/rpc/related_configs_recursive?config_id=${uuidOf(L.ns!.first + (i % L.ns!.count))}&max_depth=10`,
      }),
      check: (s, b) =>
        s === 200 && Array.isArray(b) && b.length > 100 ? null : `status ${s}, ${JSON.stringify(b).slice(0, 200)}`,
    },
  ];
}

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

async function signIn(origin: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: ADMIN_EMAIL, password: ADMIN_PASSWORD }),
  });
  const text = await res.text();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (res.status !== 200 || !cookie) throw new Error(`signing in failed: ${res.status} ${text}`);
  return cookie;
}

async function explain(db: Database, generated: Date): Promise<void> {
  // As the endpoints run them (withIndexFriendlyPlanner).
  await db.query('SET random_page_cost = 1.1');
  const show = async (title: string, sql: string, params: unknown[]) => {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, params);
    log(`\nEXPLAIN ANALYZE — ${title}:`);
    for (const r of rows) log(`  ${r['QUERY PLAN']}`);
  };
  const s: SummaryRequest = {
    groupBy: ['config_class', 'type'],
    changes: { since: '30d' },
    analysis: { since: '30d' },
  };
  const q = summarySql(s);
  await show('summary', q.sql, q.params);
  const day = 86_400_000;
  const c1: ChangesRequest = { from: new Date(generated.getTime() - 2 * day).toISOString(), page_size: 200 };
  const c2: ChangesRequest = {
    from: new Date(generated.getTime() - 7 * day).toISOString(),
    config_type: 'Kubernetes::Pod',
    severity: 'high',
    type: '!diff',
  };
  for (const [title, req] of [
    ['changes, 2 days', c1],
    ['changes, filtered', c2],
  ] as const) {
    const c = changesSql(req, generated);
    await show(title, c.sql, c.params);
  }
}

async function main() {
  const { generated } = await prepare();
  const url = databaseUrl(DB_NAME);
  {
    const db = await openPostgres(url, 1);
    const sizes = await db.query<{ rel: string; n: string; size: string }>(
      `SELECT relname AS rel, reltuples::bigint::text AS n, pg_size_pretty(pg_total_relation_size(oid)) AS size
       FROM pg_class WHERE relname IN ('config_items', 'config_changes', 'config_analysis', 'config_relationships')
       ORDER BY relname`,
    );
    log('');
    printTable(
      ['table', 'rows (estimate)', 'size with indexes'],
      sizes.rows.map((r) => [r.rel, Number(r.n).toLocaleString('en-US'), r.size]),
    );
    if (flags.explain) await explain(db, generated);
    await db.close();
  }

  ensureServerBuilt();
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
    DATABASE_URL: url,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
  });
  try {
    await waitForHttp(`${origin}/api/about`, child);
    const cookie = await signIn(origin);
    const loadAtStart = os.loadavg()[0]!;
    const rows: (string | number)[][] = [];
    for (const s of scenarios(generated)) {
      const one = async (i: number) => {
        const r = s.request(i);
        const t = performance.now();
        const res = await fetch(origin + r.path, {
          method: r.method,
          headers: {
            cookie,
            origin,
            ...(r.body ? { 'content-type': 'application/json' } : {}),
            ...r.headers,
          },
          body: r.body ? JSON.stringify(r.body) : undefined,
        });
        const text = await res.text();
        const ms = performance.now() - t;
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: the check reports it
        }
        return { ms, status: res.status, body, headers: res.headers, bytes: text.length };
      };
      process.stdout.write(`  ${s.name}: `);
      const first = await one(0);
      const problem = s.check(first.status, first.body, first.headers);
      if (problem) {
        log(`wrong answer, not measured (${problem})`);
        rows.push([s.name, 0, '-', '-', '-', '-', '-', '-', s.goalMs ?? '-', 'wrong answer']);
        continue;
      }
      await one(1); // warm-up
      const lat: number[] = [];
      let bytes = 0;
      let errors = 0;
      const pgBefore = postgresBackendTicks(DB_NAME);
      const serverBefore = processTicks(child.process.pid);
      for (let i = 0; i < REQUESTS; i++) {
        const r = await one(i + 2);
        lat.push(r.ms);
        bytes = r.bytes;
        if (r.status >= 400) errors++;
      }
      const pgCpu = (backendTicksBetween(pgBefore, postgresBackendTicks(DB_NAME)) * TICK_MS) / REQUESTS;
      const serverCpu = ((processTicks(child.process.pid) - serverBefore) * TICK_MS) / REQUESTS;
      log(`${REQUESTS} requests`);
      const p95 = percentile(lat, 95);
      const met = s.goalMs === null ? '-' : errors === 0 && p95 < s.goalMs ? 'met' : 'NOT met';
      rows.push([
        s.name,
        REQUESTS,
        fmt(percentile(lat, 50)),
        fmt(p95),
        fmt(percentile(lat, 100)),
        `${(bytes / 1024).toFixed(0)} kB`,
        fmt(serverCpu),
        fmt(pgCpu),
        s.goalMs ?? '-',
        met,
      ]);
    }
    log('');
    printTable(
      ['request', 'n', 'p50 ms', 'p95 ms', 'max ms', 'body', 'server CPU ms', 'PG CPU ms', 'goal p95 ms', 'goal'],
      rows,
    );
    log('(Sequential requests, one at a time, through HTTP with a session cookie; times include JSON over loopback.)');
    log(
      '(CPU ms per request from /proc: the server process, and the PostgreSQL backends of the database — ' +
        'parallel workers not included; 10 ms ticks averaged over the requests.)',
    );
    log(
      `Machine: ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(1)} at the end ` +
        `(${loadAtStart.toFixed(1)} at the start): other processes share the CPUs.`,
    );
  } finally {
    await child.stop();
  }
}

await main();
