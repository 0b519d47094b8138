// `npm run bench -- health-sketch`: what the health summary's figures cost at 10,000 checks × 30
// days since they come from duration sketches (issue 20, migration 0029): the summary query of each
// range computed on request (sketch merge) next to the figures before sketches (run-weighted mean
// of per-bucket percentiles), the refresher of the usual ranges, and the request path of a
// precomputed range without any in-memory answer. Run straight against the database (no HTTP):
// the times are the server's query times.
//
// Data (generated once per database, kept with --reuse): --checks checks (100 per canary), raw
// check_statuses at one run per check and minute for the last 24 h (durations 80–360 ms, skewed
// low; 1 % failing), their hourly and daily roll-ups by the engine's rollupCheckStatuses, and
// the 29 days before as copies of the last 24 hours' hourly rows and of the last whole day's row,
// shifted back by whole days. A stopped generation resumes with --reuse. The ranges end at the generation time.
//
// Flags: --db postgres|pglite|all (default postgres), --checks 10000, --pglite-checks (default
// --checks), --runs 4, --reuse, --pglite-dir /tmp/opsdeck-bench-sketch-pglite, --wire 9 (the figures
// with the edge rows by binary COPY and as base64, alternated), --compare (also the
// summary computed in SQL: the sketch merge and the mean of percentiles; minutes per range),
// --process N (also answers computed on request over HTTP by N server processes: the first after
// start, then after the summary's idle time; healthSketchProcess.ts), --process-profile DIR (their
// CPU profiles), --process-node-args "…" (their node flags), --process-answers K (answers after the
// idle time per process, default 3), --only-process (that part alone, after the edge job).
import fs from 'node:fs';
import { openPglite, openPostgres, type Database, type Queryable } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { rollupCheckStatuses } from '../server/src/health/rollup.js';
import { buildSketchEdges } from '../server/src/health/edgeJob.js';
import { edgeFigures } from '../server/src/health/edgeFigures.js';
import { SummaryTemplates } from '../server/src/health/summaryTemplates.js';
import { measureViews } from './healthSketchViews.js';
import { measureNewProcess } from './healthSketchProcess.js';
import {
  PRECOMPUTED_RANGES,
  PRECOMPUTED_SUMMARY_SQL,
  refreshSummary,
  summarySqlFor,
} from '../server/src/health/summary.js';
import { SUMMARY_RAW_UP_TO_MS } from '../server/src/health/summaryStats.js';
import {
  databaseExists,
  databaseUrl,
  loadavg,
  median,
  numberFlag,
  parseFlags,
  percentile,
  printTable,
  recreateDatabase,
} from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const dbChoice = String(flags.db ?? 'postgres');
const checks = numberFlag(flags, 'checks', 10_000);
const pgliteChecks = numberFlag(flags, 'pglite-checks', checks);
const runs = numberFlag(flags, 'runs', 4);
const pgliteDir = String(flags['pglite-dir'] ?? '/tmp/opsdeck-bench-sketch-pglite');
const DB_NAME = 'opsdeck_bench_sketch';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const log = (s: string) => console.log(s);

async function generate(db: Database, n: number): Promise<Date> {
  const t0 = performance.now();
  await migrate(db);
  // Resumable: a run stopped half-way keeps the checks and raw runs it wrote.
  const { rows: have } = await db.query<{ n: number; last: Date | null }>(
    `SELECT (SELECT count(*) FROM checks)::int AS n, (SELECT max(time) FROM check_statuses) AS last`,
  );
  let until: Date;
  if (have[0]!.n === n && have[0]!.last) {
    until = new Date(Math.ceil(new Date(have[0]!.last).getTime() / 60_000) * 60_000);
    log(`  resuming: ${n} checks and raw runs up to ${until.toISOString()} already there`);
  } else {
    await db.query(
      `INSERT INTO canaries (name, namespace, spec) SELECT 'bench-' || i, 'bench', '{}' FROM generate_series(1, $1::int) i`,
      [Math.ceil(n / 100)],
    );
    await db.query(
      `INSERT INTO checks (canary_id, type, name, status)
       SELECT ca.id, 'http', 'check-' || j, 'healthy' FROM canaries ca CROSS JOIN generate_series(1, 100) j
       ORDER BY ca.name, j LIMIT $1`,
      [n],
    );
    const { rows } = await db.query<{ now: Date }>(`SELECT date_trunc('minute', now()) AS now`);
    until = new Date(rows[0]!.now);
    const hourNow = Math.floor(until.getTime() / HOUR) * HOUR;
    for (let h = 24; h >= 0; h--) {
      const from = new Date(hourNow - h * HOUR);
      const to = new Date(Math.min(hourNow - (h - 1) * HOUR, until.getTime()));
      await db.query(
        `INSERT INTO check_statuses (check_id, time, status, duration)
         SELECT c.id, g.t + (abs(hashtext(c.id::text)) % 60000) * interval '1 millisecond',
                (abs(hashtext(c.id::text || (extract(epoch FROM g.t)::bigint / 300)::text)) % 100) <> 0,
                round(80 * exp(random() * random() * 1.5))::int
         FROM checks c CROSS JOIN generate_series($1::timestamptz, $2::timestamptz - interval '1 minute', interval '1 minute') g(t)
         ORDER BY g.t`,
        [from, to],
      );
      process.stdout.write(`\r  raw hour ${25 - h}/25 (${((performance.now() - t0) / 1000).toFixed(0)} s)   `);
    }
    log('');
  }
  const hourNow = Math.floor(until.getTime() / HOUR) * HOUR;
  // The hourly and daily roll-ups of the raw runs (the engine's own job).
  await rollupCheckStatuses(db, new Date(hourNow - 25 * HOUR));
  log(`  rolled up (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
  // The 29 days before: the last 24 whole hours' roll-ups shifted back by whole days, and the last
  // whole day's row likewise (rolling 29 days of hours up into days would only cost time here).
  const dayNow = (await db.query<{ d: Date }>(`SELECT date_trunc('day', $1::timestamptz) AS d`, [until])).rows[0]!.d;
  const yesterday = new Date(new Date(dayNow).getTime() - DAY);
  for (let k = 1; k <= 29; k++) {
    await db.query(
      `INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration_avg, duration_max,
         last_pass, last_fail, duration_p95, duration_p97, duration_p99, sketch_keys, sketch_counts)
       SELECT check_id, created_at - $3::int * interval '1 day', total, passed, failed, duration_avg, duration_max,
              last_pass - $3::int * interval '1 day', last_fail - $3::int * interval '1 day',
              duration_p95, duration_p97, duration_p99, sketch_keys, sketch_counts
       FROM check_statuses_1h WHERE created_at >= $1 AND created_at < $2
       ON CONFLICT DO NOTHING`,
      [new Date(hourNow - 24 * HOUR), new Date(hourNow), k],
    );
    await db.query(
      `INSERT INTO check_statuses_1d (check_id, created_at, total, passed, failed, duration_avg, duration_max,
         last_pass, last_fail, duration_p95, duration_p97, duration_p99, sketch_keys, sketch_counts)
       SELECT check_id, created_at - $2::int * interval '1 day', total, passed, failed, duration_avg, duration_max,
              last_pass - $2::int * interval '1 day', last_fail - $2::int * interval '1 day',
              duration_p95, duration_p97, duration_p99, sketch_keys, sketch_counts
       FROM check_statuses_1d WHERE created_at = $1
       ON CONFLICT (check_id, created_at) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
         failed = EXCLUDED.failed, sketch_keys = EXCLUDED.sketch_keys, sketch_counts = EXCLUDED.sketch_counts`,
      [yesterday, k],
    );
    process.stdout.write(`\r  older roll-ups, day -${k} (${((performance.now() - t0) / 1000).toFixed(0)} s)   `);
  }
  log('');
  await db.query(`UPDATE check_statuses_rollup_mark SET rolled_at = $1`, [until]);
  await db.exec('VACUUM ANALYZE');
  await db.exec(
    `CREATE TABLE bench_sketch_meta (checks int, until timestamptz); INSERT INTO bench_sketch_meta VALUES (${n}, '${until.toISOString()}')`,
  );
  log(`  generated in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return until;
}

async function timeQuery(db: Database, sql: string, params: unknown[]): Promise<number> {
  const t = performance.now();
  await db.query(sql, params);
  return performance.now() - t;
}

/**
 * The figures from the edges (migration 0031), as requests and the refresher get them: the first
 * edge job (it builds the history from the roll-ups and raw runs), then a tail of 2 minutes of
 * runs after the latest edge (the most a request reads raw), then each range back from now and
 * two custom ones: the figures (edgeFigures) and the JSON of every check (summaryTemplates.ts),
 * as a server's first answer after it started (no item templates), a range never asked before
 * (templates kept from other answers) and warm (the same range again).
 */
async function measureEdges(label: string, open: () => Promise<Database>): Promise<void> {
  const db = await open();
  const out: (string | number)[][] = [];
  try {
    const { rows: st } = await db.query<{ built_to: Date | null }>(`SELECT built_to FROM check_sketch_state`);
    if (!st[0]!.built_to) {
      // A benchmark stopped during the first job leaves its lease behind.
      await db.query(`UPDATE check_sketch_state SET lease_until = NULL, lease_owner = NULL`);
      const t = performance.now();
      const r = await buildSketchEdges(db);
      log(`  first edge job: ${((performance.now() - t) / 1000).toFixed(1)} s, ${r.points} instants, ${r.rows} rows`);
      // The statistics a deployment's autovacuum (PostgreSQL) or db/embeddedMaintenance.ts (PGlite)
      // takes of the new rows: without them PGlite's planner probed the index once per check.
      await db.exec('ANALYZE check_sketch_edges');
    }
    const t = performance.now();
    const again = await buildSketchEdges(db);
    log(
      `  edge job when up to date: ${Math.round(performance.now() - t)} ms (${again.points} new instants, ${again.rows} rows)`,
    );
    // The most a request reads raw: 2 minutes of runs of every check since the latest edge (edges
    // every minute, the job every minute).
    const { rows: b } = await db.query<{ built_to: Date }>(`SELECT built_to FROM check_sketch_state`);
    await db.query(`DELETE FROM check_statuses WHERE time >= $1`, [b[0]!.built_to]);
    await db.query(
      `INSERT INTO check_statuses (check_id, time, status, duration)
       SELECT c.id, $1::timestamptz + g * interval '1 minute' + (abs(hashtext(c.id::text)) % 60000) * interval '1 millisecond',
              true, round(80 * exp(random() * random() * 1.5))::int
       FROM checks c CROSS JOIN generate_series(0, 1) g`,
      [b[0]!.built_to],
    );
  } finally {
    await db.close();
  }
  if (flags['only-process']) return;
  const now = Date.now();
  const ranges: Array<[string, number, number]> = [
    ['1h', now - HOUR, now],
    ['24h', now - DAY, now],
    ['7d', now - 7 * DAY, now],
    ['30d', now - 30 * DAY, now],
    ['custom 3d-17m … 1d5h3m', now - 3 * DAY - 17 * 60_000, now - DAY - 5 * HOUR - 3 * 60_000],
    ['custom 20d-41m … 2d7m', now - 20 * DAY - 41 * 60_000, now - 2 * DAY - 7 * 60_000],
  ];
  // Templates kept across ranges (what a running server has once it answered any range).
  const kept = new SummaryTemplates();
  for (const [name, s, e] of ranges) {
    // Opened after the cold answers' own: PGlite takes one instance on its directory at a time (two
    // at once damaged the benchmark's database).
    let pool: Database | undefined;
    try {
      const once = async (templates: SummaryTemplates, format: 'json' | 'console', db: Database) => {
        // As the server does: the figures and the checks' templates read at the same time, then
        // the answer written: the FORMATS.md JSON, or the console rows (what the page asks for).
        const t0 = performance.now();
        const figures = edgeFigures(db, new Date(s), new Date(e)).then((f) => {
          if (!f) throw new Error('the edges did not answer');
          return f;
        });
        const a = await templates.answer(db, null, figures, { rows: format === 'console' });
        const t1 = performance.now();
        const bytes = format === 'json' ? a.bytes().length : a.rows().length;
        const t2 = performance.now();
        return { figures: t1 - t0, json: t2 - t1, total: t2 - t0, bytes, n: a.ids.length };
      };
      // Cold: a new pool and no template (a server's first answer after it started), JSON and
      // console; medians of `runs`, each on a pool of its own.
      const cold: Array<Awaited<ReturnType<typeof once>>> = [];
      const coldConsole: number[] = [];
      for (let i = 0; i < Math.max(runs, 3); i++)
        for (const format of ['json', 'console'] as const) {
          const own = await open();
          try {
            const got = await once(new SummaryTemplates(), format, own);
            if (format === 'json') cold.push(got);
            else coldConsole.push(got.total);
          } finally {
            await own.close();
          }
        }
      // A range never asked before on a server that has answered others (templates kept).
      pool = await open();
      if (!kept.size) await once(kept, 'json', pool);
      const first = await once(kept, 'json', pool);
      const warm: Array<Awaited<ReturnType<typeof once>>> = [];
      const warmConsole: number[] = [];
      for (let i = 0; i < Math.max(runs, 3); i++) {
        warm.push(await once(kept, 'json', pool));
        warmConsole.push((await once(kept, 'console', pool)).total);
      }
      const coldTotals = cold.map((c) => c.total);
      const med = (k: 'figures' | 'json' | 'total') => Math.round(median(warm.map((w) => w[k])));
      out.push([
        name,
        cold[0]!.n,
        Math.round(median(coldTotals)),
        Math.round(percentile(coldTotals, 95)),
        Math.round(median(coldConsole)),
        Math.round(percentile(coldConsole, 95)),
        Math.round(first.figures),
        Math.round(first.json),
        Math.round(first.total),
        med('figures'),
        med('json'),
        med('total'),
        Math.round(median(warmConsole)),
        (cold[0]!.bytes / 1e6).toFixed(1),
      ]);
    } finally {
      await pool?.close();
    }
  }
  log(
    `\n${label}: summary from the edges (ms; first answer after start: no item templates kept, medians and p95 of ${Math.max(runs, 3)} on new pools; load ${loadavg()})`,
  );
  printTable(
    [
      'range',
      'checks',
      'first answer after start: JSON',
      'p95',
      'console',
      'p95',
      'new range: figures ∥ checks',
      'JSON',
      'total',
      'warm: figures ∥ checks',
      'JSON',
      'total',
      'console total',
      'JSON MB',
    ],
    out,
  );
  if (flags.wire) await compareWire(label, open, ranges);
  const db2 = await open();
  try {
    const { rows } = await db2.query<{ rows: string; bytes: string; packs: string; sketch: string; times: string }>(
      `SELECT count(*)::text AS rows, pg_total_relation_size('check_sketch_edges')::text AS bytes,
              pg_total_relation_size('check_sketch_edge_packs')::text AS packs,
              round(avg(octet_length(sketch)))::text AS sketch, (SELECT count(*) FROM check_sketch_edge_times)::text AS times
       FROM check_sketch_edges`,
    );
    const r = rows[0]!;
    log(`\n${label}: edges storage`);
    printTable(
      ['instants', 'rows', 'table + indexes MB', 'packs MB', 'bytes per sketch (avg)'],
      [[r.times, r.rows, (Number(r.bytes) / 1e6).toFixed(0), (Number(r.packs) / 1e6).toFixed(0), r.sketch]],
    );
  } finally {
    await db2.close();
  }
}

/**
 * --wire N: a range's figures with its edge rows read by binary COPY (PostgreSQL's path) and as one
 * packed base64 value (PGlite's path, and PostgreSQL's before), alternated N times on one pool.
 */
async function compareWire(label: string, open: () => Promise<Database>, ranges: Array<[string, number, number]>) {
  const n = numberFlag(flags, 'wire', 9);
  const db = await open();
  try {
    if (!db.copyOut) return log(`\n${label}: no binary COPY on this database (--wire)`);
    const base64: Queryable = { query: db.query.bind(db) };
    const out: (string | number)[][] = [];
    for (const [name, s, e] of ranges) {
      const t = { copy: [] as number[], base64: [] as number[] };
      for (let i = 0; i < n; i++)
        for (const [k, q] of [
          ['copy', db],
          ['base64', base64],
        ] as const) {
          const t0 = performance.now();
          await edgeFigures(q, new Date(s), new Date(e));
          t[k].push(performance.now() - t0);
        }
      out.push([name, Math.round(median(t.copy)), Math.round(median(t.base64))]);
    }
    log(`\n${label}: the figures alone, edge rows by binary COPY or as base64 (medians of ${n}; load ${loadavg()})`);
    printTable(['range', 'binary COPY ms', 'base64 ms'], out);
  } finally {
    await db.close();
  }
}

async function measure(
  label: string,
  open: () => Promise<Database>,
  until: Date,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  await measureEdges(label, open);
  if (flags.process)
    await measureNewProcess(
      label,
      env,
      numberFlag(flags, 'process', 8),
      [
        ...(flags['process-profile'] ? ['--cpu-prof', '--cpu-prof-dir', String(flags['process-profile'])] : []),
        ...(flags['process-node-args'] ? String(flags['process-node-args']).split(/\s+/) : []),
      ],
      numberFlag(flags, 'process-answers', 3),
    );
  if (flags['only-process']) return;
  await measureViews(label, open, runs);
  if (!flags.compare) return;
  const end = until;
  const ranges: Array<[string, Date, Date]> = [
    ['1h', new Date(end.getTime() - HOUR), end],
    ['24h', new Date(end.getTime() - DAY), end],
    ['7d', new Date(end.getTime() - 7 * DAY), end],
    ['30d', new Date(end.getTime() - 30 * DAY), end],
    [
      'custom 3d-1d5h',
      new Date(end.getTime() - 3 * DAY - 17 * 60_000),
      new Date(end.getTime() - DAY - 5 * HOUR - 3 * 60_000),
    ],
    ['custom 20d-2d', new Date(end.getTime() - 20 * DAY - 41 * 60_000), new Date(end.getTime() - 2 * DAY - 7 * 60_000)],
  ];
  const out: (string | number)[][] = [];
  // Cold: a new connection (or a freshly opened PGlite) for each range's first query.
  for (const [name, s, e] of ranges) {
    const ms = e.getTime() - s.getTime();
    const variants: Array<[string, string]> =
      ms > SUMMARY_RAW_UP_TO_MS
        ? [
            ['sketch merge (accurate, not served)', summarySqlFor(s, e, true)],
            ['mean of percentiles (served: requests, refresher)', summarySqlFor(s, e, false)],
          ]
        : [['raw, percentile_disc', summarySqlFor(s, e)]];
    for (const [what, sql] of variants) {
      const db = await open();
      try {
        const cold = await timeQuery(db, sql, what.includes('figures only') ? [s, e] : [s, e, null]);
        const warm: number[] = [];
        for (let i = 0; i < runs - 1; i++)
          warm.push(await timeQuery(db, sql, what.includes('figures only') ? [s, e] : [s, e, null]));
        out.push([name, what, Math.round(cold), Math.round(median(warm))]);
        log(`  ${name} ${what}: cold ${Math.round(cold)} ms, warm ${warm.map((x) => Math.round(x)).join(' / ')} ms`);
      } finally {
        await db.close();
      }
    }
  }
  log(`\n${label}: summary computed on request (ms; cold = first query on a new connection; load ${loadavg()})`);
  printTable(['range', 'query', 'cold ms', 'warm ms (median)'], out);

  // The usual ranges: the refresher (background) and the request path without any in-memory answer.
  const db = await open();
  try {
    const rows: (string | number)[][] = [];
    for (const range of PRECOMPUTED_RANGES) {
      const r = await refreshSummary(db, range, 0);
      const read = await timeQuery(db, PRECOMPUTED_SUMMARY_SQL, [range.key, r.asOf, null]);
      const read2 = await timeQuery(db, PRECOMPUTED_SUMMARY_SQL, [range.key, r.asOf, null]);
      rows.push([range.key, Math.round(r.ms), r.checks, Math.round(read), Math.round(read2)]);
    }
    log(
      `\n${label}: precomputed ranges (refreshed now, so the raw tail since the mark is the generation's; load ${loadavg()})`,
    );
    printTable(['range', 'refresh ms', 'checks', 'answer from check_summaries ms (1st)', '(2nd)'], rows);
    const size = await db.query<{ t: string; rows: string; bytes: string; sketch: string; keys: string }>(
      `SELECT '1h' AS t, count(*)::text AS rows, pg_total_relation_size('check_statuses_1h')::text AS bytes,
              sum(pg_column_size(sketch_keys) + pg_column_size(sketch_counts))::text AS sketch,
              round(avg(cardinality(sketch_keys)), 1)::text AS keys FROM check_statuses_1h
       UNION ALL
       SELECT '1d', count(*)::text, pg_total_relation_size('check_statuses_1d')::text,
              sum(pg_column_size(sketch_keys) + pg_column_size(sketch_counts))::text,
              round(avg(cardinality(sketch_keys)), 1)::text FROM check_statuses_1d`,
    );
    log(`\n${label}: storage`);
    printTable(
      ['table', 'rows', 'table + indexes MB', 'sketch columns MB', 'keys per sketch (avg)'],
      size.rows.map((r) => [
        r.t,
        r.rows,
        (Number(r.bytes) / 1e6).toFixed(0),
        (Number(r.sketch) / 1e6).toFixed(0),
        r.keys,
      ]),
    );
  } finally {
    await db.close();
  }
}

async function untilOf(db: Database, n: number): Promise<Date | undefined> {
  const { rows } = await db
    .query<{ checks: number; until: Date }>(`SELECT checks, until FROM bench_sketch_meta`)
    .catch(() => ({ rows: [] as { checks: number; until: Date }[] }));
  return rows[0] && rows[0].checks === n ? new Date(rows[0].until) : undefined;
}

async function main() {
  log(`health-sketch: load average ${loadavg()}`);
  if (dbChoice === 'postgres' || dbChoice === 'all') {
    const url = databaseUrl(DB_NAME);
    let until: Date | undefined;
    if (flags.reuse && (await databaseExists(DB_NAME))) {
      const db = await openPostgres(url, 1);
      until = await untilOf(db, checks);
      await db.close();
    }
    if (!until) {
      log(`PostgreSQL: generating ${DB_NAME} (${checks} checks)…`);
      if (!flags.reuse || !(await databaseExists(DB_NAME))) await recreateDatabase(DB_NAME);
      const db = await openPostgres(url, 1);
      until = await generate(db, checks);
      await db.close();
    }
    await measure(`PostgreSQL, ${checks} checks`, () => openPostgres(url, 4, 300_000), until, { DATABASE_URL: url });
  }
  if (dbChoice === 'pglite' || dbChoice === 'all') {
    let until: Date | undefined;
    if (flags.reuse && fs.existsSync(pgliteDir)) {
      const db = await openPglite(pgliteDir);
      until = await untilOf(db, pgliteChecks);
      await db.close();
    }
    if (!until) {
      if (!flags.reuse) fs.rmSync(pgliteDir, { recursive: true, force: true });
      log(`PGlite: generating ${pgliteDir} (${pgliteChecks} checks)…`);
      const db = await openPglite(pgliteDir);
      until = await generate(db, pgliteChecks);
      await db.close();
    }
    await measure(`PGlite, ${pgliteChecks} checks`, () => openPglite(pgliteDir), until, { DATA_DIR: pgliteDir });
  }
}

await main();
