// `npm run bench -- topology`: the topology engine and card query at size, on PostgreSQL.
//
// One Topology resource whose static spec produces 20,000 components in 5 levels (1 root, 10, 100,
// 1,000 and 18,889 leaves), built by the real builder (parse → build → save → roll-up); then 50,000
// checks linked to the leaves (5 % failing), rolled up; then the card query GET /api/topology over
// HTTP for the roots, the root by id and a mid-level (level 2) id: p50/p95/max; then a run after an
// apply that changes 1 % of the components (a property of 200 leaves), and a run that changes nothing.
//
// The server runs in this process (engines off: the benchmark drives the runs), against the
// database `opsdeck_bench_topology` (dropped and recreated every time).
//
// Flags: --components 20000 (the leaves are what is left after the first 1,111), --checks 50000,
// --requests 60 (per query), --warmup 5.
import { startOpsdeck } from '../server/src/app.js';
import { createToken } from '../server/src/auth/tokens.js';
import { openPostgres, type Database } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { checkers } from '../server/src/health/checkers/index.js';
import { parseDocuments } from '../server/src/resources/yaml.js';
import { recomputeHealth } from '../server/src/topology/healthRecompute.js';
import { applyTopology } from '../server/src/topology/store.js';
import { parseTopology } from '../server/src/topology/topology.js';
import { databaseUrl, numberFlag, parseFlags, percentile, printTable, recreateDatabase } from './lib.js';

const DB_NAME = 'opsdeck_bench_topology';
const flags = parseFlags(process.argv.slice(2));
const TOTAL = numberFlag(flags, 'components', 20_000);
const CHECKS = numberFlag(flags, 'checks', 50_000);
const REQUESTS = numberFlag(flags, 'requests', 60);
const WARMUP = numberFlag(flags, 'warmup', 5);

const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

interface Spec {
  name: string;
  type: string;
  properties?: { name: string; value: number }[];
  components?: Spec[];
}

/** 1 root + 10 + 100 + 1,000 + the rest as leaves under the level-3 components, round robin. */
function treeSpec(total: number, changed: Set<number>): { components: Spec[]; leaves: number } {
  const l1: Spec[] = [];
  const l3: Spec[] = [];
  for (let a = 0; a < 10; a++) {
    const s1: Spec = { name: `region-${a}`, type: 'Region', components: [] };
    l1.push(s1);
    for (let b = 0; b < 10; b++) {
      const s2: Spec = { name: `cluster-${a}-${b}`, type: 'Cluster', components: [] };
      s1.components!.push(s2);
      for (let c = 0; c < 10; c++) {
        const s3: Spec = { name: `namespace-${a}-${b}-${c}`, type: 'Namespace', components: [] };
        s2.components!.push(s3);
        l3.push(s3);
      }
    }
  }
  const leaves = total - 1 - 10 - 100 - 1_000;
  for (let i = 0; i < leaves; i++) {
    l3[i % l3.length]!.components!.push({
      name: `pod-${i}`,
      type: 'Pod',
      properties: [{ name: 'restarts', value: changed.has(i) ? 1 : 0 }],
    });
  }
  return { components: l1, leaves };
}

function resource(total: number, changed: Set<number>) {
  return {
    apiVersion: 'canaries.flanksource.com/v1',
    kind: 'Topology',
    metadata: { name: 'bench', namespace: 'bench' },
    spec: { schedule: '@every 24h', type: 'Platform', components: treeSpec(total, changed).components },
  };
}

async function applyJson(db: Database, value: unknown): Promise<string> {
  const [doc] = parseDocuments(JSON.stringify(value));
  return (await applyTopology(db, parseTopology(doc!, checkers), { source: 'bench' })).id;
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const out = await fn();
  return [out, performance.now() - t0];
}

async function main() {
  log(`recreating ${DB_NAME}`);
  await recreateDatabase(DB_NAME);
  const db = await openPostgres(databaseUrl(DB_NAME), 10);
  await migrate(db);
  const app = await startOpsdeck({ database: db, port: 0, host: '127.0.0.1', engines: false, demo: false });
  const rows: (string | number)[][] = [];
  try {
    const { rows: people } = await db.query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('Bench', 'bench@opsdeck.local') RETURNING id`,
    );
    await db.query(`INSERT INTO person_roles (person_id, role) VALUES ($1, 'admin')`, [people[0]!.id]);
    const { token } = await createToken(db, { name: 'bench', personId: people[0]!.id, createdBy: null });

    // 1. The first build: every component new.
    const [id, applyMs] = await timed(() => applyJson(db, resource(TOTAL, new Set())));
    rows.push(['apply (parse + validate + store) of the 20k-component spec', Math.round(applyMs), '']);
    log('first run');
    const [first, firstMs] = await timed(() => app.ctx.topology.runNow(id));
    if (typeof first === 'string') throw new Error(`run: ${first}`);
    rows.push([
      'first run (build, insert, roll-up)',
      Math.round(firstMs),
      `${first.components} components, ${first.created} created, ${first.status}`,
    ]);

    // 2. 50,000 checks on the leaves (5 % failing), linked by hand (the builder leaves 'manual' links alone).
    log(`linking ${CHECKS} checks`);
    await db.query(`INSERT INTO canaries (name, namespace, spec, source) VALUES ('bench', 'bench', '{}', 'bench')`);
    await db.query(
      `INSERT INTO checks (canary_id, type, name, status)
       SELECT (SELECT id FROM canaries WHERE name = 'bench'), 'http', 'check-' || i,
              CASE WHEN i % 20 = 0 THEN 'unhealthy' ELSE 'healthy' END
       FROM generate_series(0, $1::int - 1) AS i`,
      [CHECKS],
    );
    const { rows: leafCount } = await db.query<{ n: string }>(
      `SELECT count(*) AS n FROM components WHERE topology_id = $1 AND is_leaf AND deleted_at IS NULL`,
      [id],
    );
    await db.query(
      `WITH leaves AS (
         SELECT id, row_number() OVER (ORDER BY name) - 1 AS n
         FROM components WHERE topology_id = $1 AND is_leaf AND deleted_at IS NULL),
       numbered AS (SELECT id, canary_id, (row_number() OVER (ORDER BY name) - 1) % $2::int AS n FROM checks)
       INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id)
       SELECT c.id, l.id, c.canary_id, 'manual' FROM numbered c JOIN leaves l ON l.n = c.n`,
      [id, Number(leafCount[0]!.n)],
    );
    await db.query('ANALYZE');
    log('roll-up');
    const [rolled, rollMs] = await timed(() => recomputeHealth(db, { wait: true }));
    rows.push(['roll-up pass after linking the checks', Math.round(rollMs), `${rolled.updated} components changed`]);
    const [again, againMs] = await timed(() => recomputeHealth(db, { wait: true }));
    rows.push(['roll-up pass, nothing changed', Math.round(againMs), `${again.updated} components changed`]);

    // 3. The card query over HTTP.
    const { rows: picks } = await db.query<{ root: string; mid: string }>(
      `SELECT (SELECT id FROM components WHERE topology_id = $1 AND parent_id IS NULL) AS root,
              (SELECT id FROM components WHERE topology_id = $1 AND name = 'cluster-3-4') AS mid`,
      [id],
    );
    const queries: [string, string][] = [
      ['GET /api/topology (roots, depth 3)', '/api/topology'],
      ['GET /api/topology?id=<root>', `/api/topology?id=${picks[0]!.root}`],
      ['GET /api/topology?id=<level 2>', `/api/topology?id=${picks[0]!.mid}`],
      ['GET /api/topology?id=<root>&status=unhealthy', `/api/topology?id=${picks[0]!.root}&status=unhealthy`],
    ];
    const http: (string | number)[][] = [];
    for (const [label, path] of queries) {
      log(label);
      const times: number[] = [];
      let bytes = 0;
      let cards = 0;
      for (let i = 0; i < WARMUP + REQUESTS; i++) {
        const t0 = performance.now();
        const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
        const text = await res.text();
        const ms = performance.now() - t0;
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
        if (i >= WARMUP) times.push(ms);
        bytes = text.length;
        cards = (JSON.parse(text) as { components: unknown[] }).components.length;
      }
      http.push([
        label,
        REQUESTS,
        percentile(times, 50).toFixed(1),
        percentile(times, 95).toFixed(1),
        Math.max(...times).toFixed(1),
        cards,
        `${Math.round(bytes / 1024)} kB`,
      ]);
    }

    // 4. A run after 1 % of the components changed, and one after nothing changed.
    const leaves = TOTAL - 1_111;
    const changed = new Set(Array.from({ length: Math.round(TOTAL / 100) }, (_, i) => (i * 97) % leaves));
    log('run after 1 % changed');
    await applyJson(db, resource(TOTAL, changed));
    const [second, secondMs] = await timed(() => app.ctx.topology.runNow(id));
    if (typeof second === 'string') throw new Error(`run: ${second}`);
    rows.push([
      `run after 1 % changed (${changed.size} leaves)`,
      Math.round(secondMs),
      `${second.updated} updated, ${second.created} created, ${second.deleted} deleted, ${second.status}`,
    ]);
    const [third, thirdMs] = await timed(() => app.ctx.topology.runNow(id));
    if (typeof third === 'string') throw new Error(`run: ${third}`);
    rows.push(['run with nothing changed', Math.round(thirdMs), `${third.updated} updated`]);

    console.log(`\nTopology engine, ${TOTAL.toLocaleString('en')} components, ${CHECKS.toLocaleString('en')} checks\n`);
    printTable(['step', 'ms', 'result'], rows);
    console.log(`\nCard query (sequential requests, ${WARMUP} warm-up each; goal p95 < 200 ms)\n`);
    printTable(['query', 'requests', 'p50 ms', 'p95 ms', 'max ms', 'cards', 'size'], http);
  } finally {
    await app.close();
    await db.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
