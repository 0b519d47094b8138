// `npm run bench -- health-ui`: the /health dashboard with many checks in headless Chromium.
//
// A PostgreSQL database gets --checks http checks (canaries of --per-canary checks applied through the
// engine's own parseCanary + applyCanary; engines off, so nothing runs them) with --history-minutes
// of raw statuses each (one a minute, about 2% of the checks failing) and their status, last run and
// transition set from that history. `node server/dist/main.js` serves the console built into
// --web-dir (a private directory, so other people's web/dist is left alone). For each scenario and
// each of --runs page loads, a fresh browser context (cold cache, with the session cookie of one
// sign-in through the API) opens the page; health-ui-page.ts records, from the moment navigation
// starts: the first check row visible, a click on a row handled (the first row clickable), the
// drawer showing that check, and from the click the drawer's history; a second drawer once the
// code is loaded; where the summary request sat; long tasks; the tab's JS heap (CDP
// Performance.getMetrics, then after a full GC) and DOM nodes. Goal: the drawer open < 1 s.
//
// The server keeps a live summary answer for 5 s and nothing precomputes it with the engines off, so
// a load that misses waits for the summary computed on request: from the summary's edges, which the
// benchmark builds first as a deployment's engines keep them (0.15–0.4 s at 10,000 checks), or from
// the raw statuses with --no-edges (~1 s). Each load asks for the summary once just before, as the
// deployment's precomputed 1h view would answer; --cold-summary leaves that out (the server's miss
// is then in the figures).
//
// Flags: --checks 10000, --per-canary 100, --history-minutes 60, --runs 5, --reuse (keep the
// database when it has the same shape), --no-build (use --web-dir as it is), --web-dir
// /tmp/web-health-ui-bench, --cold-summary, --cpu-profile DIR (the page's CPU profile per load),
// --per-load (each load's marks), --trace DIR (a Chrome trace per load, for chrome://tracing or
// Perfetto), --no-edges, --compare-web-dir DIR (another build, its loads alternated
// with --web-dir's on a second server: before/after figures from the same minutes), --compare-server
// CHECKOUT (that checkout's built server/dist/main.js serves the second variant), --latency MS (a
// round trip added to every request by Chromium's network emulation: a browser away from the server).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { openPostgres } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { parseCanary } from '../server/src/health/canary.js';
import type { Checker } from '../server/src/health/checker.js';
import { httpChecker } from '../server/src/health/checkers/http.js';
import { buildSketchEdges } from '../server/src/health/edgeJob.js';
import { applyCanary } from '../server/src/health/store.js';
import { loadOnce, type Sample, type Session } from './health-ui-page.js';
import { parseDocuments } from '../server/src/resources/yaml.js';
import {
  databaseExists,
  databaseUrl,
  ensureServerBuilt,
  freePort,
  median,
  numberFlag,
  parseFlags,
  printTable,
  recreateDatabase,
  repoRoot,
  serverMain,
  startChild,
  waitForHttp,
} from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const checks = numberFlag(flags, 'checks', 10_000);
const perCanary = numberFlag(flags, 'per-canary', 100);
const historyMinutes = numberFlag(flags, 'history-minutes', 60);
const runs = numberFlag(flags, 'runs', 5);
const latencyMs = numberFlag(flags, 'latency', 0);
const webDir = path.resolve(String(flags['web-dir'] ?? path.join(os.tmpdir(), 'web-health-ui-bench')));

const DB = 'opsdeck_bench_health_ui';
const ADMIN_EMAIL = 'bench-admin@opsdeck.local';
const ADMIN_PASSWORD = 'opsdeck-bench-password';
const GOAL_MS = 1_000;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
const only: ReadonlyMap<string, Checker> = new Map([['http', httpChecker as Checker]]);
const log = (s: string) => console.log(s);

function canaryYaml(index: number, count: number, first: number): string {
  const lines = [
    'apiVersion: canaries.flanksource.com/v1',
    'kind: Canary',
    'metadata:',
    `  name: ui-${String(index).padStart(4, '0')}`,
    `  namespace: ns-${index % 8}`,
    `  labels: {team: team-${index % 12}, env: ${index % 3 === 0 ? 'prod' : 'staging'}}`,
    'spec:',
    '  schedule: "@every 1m"',
    '  http:',
  ];
  for (let i = first; i < first + count; i++) {
    lines.push(`    - name: check-${String(i).padStart(5, '0')}`);
    lines.push(`      description: Endpoint ${i} of service ${index}`);
    lines.push(`      url: http://127.0.0.1:9/c/${i}`);
  }
  return lines.join('\n') + '\n';
}

async function prepareDatabase(): Promise<void> {
  const wanted = `${checks} checks, ${perCanary} per canary, ${historyMinutes} min`;
  const url = databaseUrl(DB);
  if (flags.reuse && (await databaseExists(DB))) {
    const db = await openPostgres(url, 1);
    try {
      const { rows } = await db
        .query<{ v: string }>('SELECT v FROM bench_ui_meta')
        .catch(() => ({ rows: [] as { v: string }[] }));
      if (rows[0]?.v === wanted) {
        // Move the history to now, so the dashboard's derived range stays the last hour.
        await db.query(
          `WITH shift AS (SELECT now() - max(time) - interval '30 seconds' AS d FROM check_statuses)
           UPDATE check_statuses SET time = time + (SELECT d FROM shift)`,
        );
        await db.query(
          `UPDATE checks SET last_runtime = now() - interval '30 seconds',
             last_transition_time = now() - interval '20 minutes'`,
        );
        log(`Reusing database ${DB} (${wanted}), history moved up to now.`);
        return;
      }
    } finally {
      await db.close();
    }
  }
  log(`Creating database ${DB}: ${wanted}…`);
  await recreateDatabase(DB);
  const db = await openPostgres(url, 1);
  try {
    await migrate(db);
    const t0 = performance.now();
    let made = 0;
    for (let index = 0; made < checks; index++) {
      const n = Math.min(perCanary, checks - made);
      const [doc] = parseDocuments(canaryYaml(index, n, made));
      await applyCanary(db, parseCanary(doc!, only), { source: 'bench' });
      made += n;
    }
    // The engines are off, but keep the canaries from ever being due.
    await db.query(`UPDATE canaries SET next_runtime = now() + interval '10 years'`);
    log(`  ${checks} checks applied (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
    const t1 = performance.now();
    // One run a minute per check; 2% of the checks fail their runs of the last 20 minutes.
    const r = await db.query(`
      INSERT INTO check_statuses (check_id, time, status, duration, message, error)
      SELECT id, t, ok, d, CASE WHEN ok THEN '200 OK in ' || d || ' ms' END, CASE WHEN NOT ok THEN 'expected 200, got 503' END
      FROM (SELECT c.id, g.t,
                   NOT (abs(hashtext(c.id::text)) % 50 = 0 AND g.t > now() - interval '20 minutes') AS ok,
                   (5 + floor(random() * random() * 400))::int AS d
            FROM checks c CROSS JOIN generate_series(now() - interval '${historyMinutes} minutes', now() - interval '30 seconds', interval '1 minute') g(t)
            WHERE c.deleted_at IS NULL) s`);
    await db.query(`
      UPDATE checks c SET status = CASE WHEN abs(hashtext(c.id::text)) % 50 = 0 THEN 'unhealthy' ELSE 'healthy' END,
        last_runtime = now() - interval '30 seconds', last_transition_time = now() - interval '20 minutes',
        next_runtime = now() + interval '30 seconds'`);
    await db.exec('VACUUM ANALYZE');
    await db.exec(`CREATE TABLE bench_ui_meta (v text); INSERT INTO bench_ui_meta VALUES ('${wanted}')`);
    log(`  ${r.affectedRows} check_statuses rows (${((performance.now() - t1) / 1000).toFixed(1)} s)`);
  } finally {
    await db.close();
  }
}

/**
 * The summary's edges from the history as it now stands (edgeJob.ts), as the engines of a deployment
 * keep them: a summary computed on request reads them (without, it falls back to the raw statuses,
 * ~1 s at 10,000 checks). Fresh for 15 minutes (EDGES_STALE_MS), longer than a run of this benchmark.
 */
async function buildEdges(): Promise<void> {
  const db = await openPostgres(databaseUrl(DB), 1);
  try {
    await db.exec(`DELETE FROM check_sketch_edges; DELETE FROM check_sketch_edge_times;
      UPDATE check_sketch_state SET seq = 0, built_to = NULL, origin = NULL, lease_until = NULL, lease_owner = NULL`);
    const t = performance.now();
    const r = await buildSketchEdges(db);
    log(
      `  summary edges built: ${r.points} instants, ${r.rows} rows (${((performance.now() - t) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await db.close();
  }
}

function buildWeb(): void {
  if (flags['no-build'] && fs.existsSync(path.join(webDir, 'index.html'))) return;
  log(`Building the web console into ${webDir}…`);
  const vite = path.join(repoRoot, 'node_modules/vite/bin/vite.js');
  const r = spawnSync(process.execPath, [vite, 'build', '--outDir', webDir, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: path.join(repoRoot, 'web'),
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error('building the web console failed');
}

/** Signs in once (sign-ins are rate limited); every page load starts a fresh context with its cookie. */
async function signIn(browser: Browser, origin: string): Promise<Session> {
  const context = await browser.newContext({ baseURL: origin });
  try {
    const res = await context.request.post('/api/auth/sign-in/email', {
      data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      headers: { origin },
    });
    if (!res.ok()) throw new Error(`signing in failed: ${res.status()} ${await res.text()}`);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

async function main() {
  ensureServerBuilt();
  buildWeb();
  await prepareDatabase();
  if (!flags['no-edges']) await buildEdges();
  log(
    `/health with ${checks} checks in headless Chromium (${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')})`,
  );
  // --compare-web-dir: a second build served by a second server on the same database, its loads
  // alternated with the first's (load 1 of each, then 2 of each…), so both see the same machine.
  // --compare-server CHECKOUT: that checkout's built server (server/dist/main.js) serves the second.
  const compareWeb = flags['compare-web-dir'] ? path.resolve(String(flags['compare-web-dir'])) : undefined;
  const compareServer = flags['compare-server']
    ? path.join(path.resolve(String(flags['compare-server'])), 'server/dist/main.js')
    : undefined;
  const variants = [{ dir: webDir, main: serverMain, name: path.basename(webDir) }];
  if (compareWeb || compareServer)
    variants.push({
      dir: compareWeb ?? webDir,
      main: compareServer ?? serverMain,
      name: [compareWeb && path.basename(compareWeb), compareServer && `server of ${flags['compare-server']}`]
        .filter(Boolean)
        .join(', '),
    });
  const servers: Array<{ origin: string; name: string; server: ReturnType<typeof startChild> }> = [];
  for (const v of variants) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = startChild(process.execPath, [v.main], serverEnv(port, origin, v.dir));
    servers.push({ origin, name: v.name, server });
  }
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    for (const s of servers) await waitForHttp(`${s.origin}/api/about`, s.server);
    const scenarios: Array<[string, string]> = [
      ['all checks, grouped by canary (default grouping)', 'hidePassing=false'],
      ['all checks, no grouping', 'hidePassing=false&groupBy=no-group'],
      ['defaults (Hide Passing on)', ''],
    ];
    const times: (string | number)[][] = [];
    const details: (string | number)[][] = [];
    const verdicts: string[] = [];
    const warm = flags['cold-summary']
      ? () => undefined
      : (query: string) =>
          `/api/canary/api/summary?start=${new URLSearchParams(query).get('timeRange') ?? '1h'}&format=console`;
    // Cookies do not depend on the port: one sign-in serves every server.
    const session: Session = await signIn(browser, servers[0]!.origin);
    // One load first on each server to warm it (its first summary query plans and caches).
    for (const s of servers) await loadOnce(browser, s.origin, session, scenarios[0]![1], warm(scenarios[0]![1]));
    for (const [scenario, query] of scenarios) {
      const samples: Sample[][] = servers.map(() => []);
      for (let i = 0; i < runs; i++)
        for (const [v, s] of servers.entries()) {
          const label = servers.length > 1 ? `${scenario} [${s.name}]` : scenario;
          const profile = flags['cpu-profile']
            ? `${String(flags['cpu-profile'])}/${label.replace(/\W+/g, '-')}-${i}.cpuprofile`
            : undefined;
          const trace = flags.trace ? `${String(flags.trace)}/${label.replace(/\W+/g, '-')}-${i}.json` : undefined;
          const sample = await loadOnce(browser, s.origin, session, query, warm(query), profile, trace, latencyMs);
          samples[v]!.push(sample);
          if (flags['per-load'])
            log(
              `  ${label} #${i + 1}: rows ${sample.rowsMs.toFixed(0)}, clickable ${sample.clickableMs.toFixed(0)}, drawer ${sample.drawerMs.toFixed(0)}, summary sent ${sample.summarySentMs.toFixed(0)} done ${sample.summaryDoneMs.toFixed(0)} (${sample.summaryCache}, server ${sample.summaryServerMs} ms)`,
            );
        }
      for (const [v, s] of servers.entries()) {
        const label = servers.length > 1 ? `${scenario} [${s.name}]` : scenario;
        const got = samples[v]!;
        const med = (f: (s: Sample) => number, digits = 0) => median(got.map(f)).toFixed(digits);
        times.push([
          label,
          med((s) => s.rowsMs),
          med((s) => s.clickableMs),
          med((s) => s.drawerMs),
          Math.max(...got.map((s) => s.drawerMs)).toFixed(0),
          med((s) => s.clickToDrawerMs),
          med((s) => s.clickToHistoryMs),
          med((s) => s.secondDrawerMs),
          med((s) => s.longestTaskMs),
          med((s) => s.longTasksMs),
        ]);
        details.push([
          label,
          got[0]!.domRows,
          med((s) => s.summarySentMs),
          med((s) => s.summaryDoneMs),
          med((s) => s.summaryServerMs),
          [...new Set(got.map((s) => s.summaryCache))].join('/'),
          med((s) => s.summaryBytes / 1024 / 1024, 1),
          med((s) => s.heapUsedMb, 1),
          med((s) => s.heapTotalMb, 1),
          med((s) => s.heapAfterGcMb, 1),
          med((s) => s.domNodes),
        ]);
        const drawer = median(got.map((s) => s.drawerMs));
        verdicts.push(
          `${label}: drawer open < 1 s ${drawer < GOAL_MS ? 'met' : 'NOT met'} (median ${drawer.toFixed(0)} ms)`,
        );
      }
    }
    log(
      `\nMedians of ${runs} cold page loads each (ms; load average now ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}; summary ${flags['cold-summary'] ? 'as the server has it' : 'warmed just before each load'}${
        latencyMs ? `; ${latencyMs} ms added to each request` : ''
      }):`,
    );
    printTable(
      [
        'scenario',
        'nav → rows ms',
        'nav → row clickable ms',
        'nav → drawer open ms',
        'drawer open max ms',
        'click → drawer ms',
        'click → history ms',
        '2nd drawer ms',
        'longest task ms',
        'long tasks total ms',
      ],
      times,
    );
    log('');
    printTable(
      [
        'scenario',
        'check rows in DOM',
        'summary sent ms',
        'summary done ms',
        'summary server ms',
        'summary cache',
        'summary MB',
        'JS heap used MB',
        'JS heap total MB',
        'heap used after GC MB',
        'DOM nodes',
      ],
      details,
    );
    for (const v of verdicts) log(v);
  } finally {
    await browser.close();
    for (const s of servers) await s.server.stop();
  }
}

function serverEnv(port: number, origin: string, dir: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATABASE_URL: databaseUrl(DB),
    WEB_DIR: dir,
    OPSDECK_ENGINES: 'false',
    OPSDECK_DEMO: 'false',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    // Repeated benchmark runs sign in more often than the production limit (10 a minute) allows.
    SIGN_IN_RATE_LIMIT: '1000',
    LOG_LEVEL: 'warn',
  };
}

await main();
