// `npm run bench -- health-ui`: the /health dashboard with many checks in headless Chromium.
//
// A PostgreSQL database gets --checks http checks (canaries of --per-canary checks applied through the
// engine's own parseCanary + applyCanary; engines off, so nothing runs them) with --history-minutes
// of raw statuses each (one a minute, about 2% of the checks failing) and their status, last run and
// transition set from that history. `node server/dist/main.js` serves the console built into
// --web-dir (a private directory, so other people's web/dist is left alone). For each scenario and
// each of --runs page loads, a fresh browser context (cold cache, with the session cookie of one
// sign-in through the API) opens
// the page and the benchmark records, from the moment navigation starts:
//   - rows: the first check row is in the DOM and visible;
//   - interactive: a click on a check row was handled (the drawer's ?checkId= is in the URL), i.e.
//     the main thread was free again after rendering;
// plus the summary request (server time, bytes), the check rows in the DOM, and the longest main
// thread task and the total time of long tasks (> 50 ms) up to "interactive". Goal: interactive < 2 s.
//
// Flags: --checks 10000, --per-canary 100, --history-minutes 60, --runs 5, --reuse (keep the
// database when it has the same shape), --no-build (use --web-dir as it is), --web-dir /tmp/web-health-ui-bench.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { openPostgres } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import { parseCanary } from '../server/src/health/canary.js';
import type { Checker } from '../server/src/health/checker.js';
import { httpChecker } from '../server/src/health/checkers/http.js';
import { applyCanary } from '../server/src/health/store.js';
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
const webDir = path.resolve(String(flags['web-dir'] ?? path.join(os.tmpdir(), 'web-health-ui-bench')));

const DB = 'opsdeck_bench_health_ui';
const ADMIN_EMAIL = 'bench-admin@opsdeck.local';
const ADMIN_PASSWORD = 'opsdeck-bench-password';
const GOAL_MS = 2_000;
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

interface Sample {
  rowsMs: number;
  interactiveMs: number;
  summaryServerMs: number;
  summaryMs: number;
  summaryBytes: number;
  domRows: number;
  longestTaskMs: number;
  longTasksMs: number;
}

type Session = Awaited<ReturnType<BrowserContext['storageState']>>;

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

async function loadOnce(browser: Browser, origin: string, session: Session, query: string): Promise<Sample> {
  const context = await browser.newContext({
    baseURL: origin,
    viewport: { width: 1440, height: 900 },
    storageState: session,
  });
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    // As a string: this file is type-checked without the DOM library.
    await page.addInitScript({
      content: `window.__longTasks = [];
        new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); })
          .observe({ type: 'longtask', buffered: true });`,
    });
    let summaryServerMs = NaN;
    let summaryBytes = 0;
    let summaryMs = NaN;
    page.on('requestfinished', (req) => {
      if (!req.url().includes('/api/canary/api/summary')) return;
      const timing = req.timing();
      summaryMs = timing.responseEnd - timing.requestStart;
      void req
        .response()
        .then((r) => r?.body())
        .then((body) => {
          if (!body) return;
          summaryBytes = body.length;
          summaryServerMs = (JSON.parse(body.toString()) as { duration: number }).duration;
        })
        .catch(() => undefined);
    });
    const t0 = performance.now();
    await page.goto(`/health?${query}`, { waitUntil: 'commit' });
    const rows = page.getByTestId('check-row');
    await rows.first().waitFor({ state: 'visible' });
    const rowsMs = performance.now() - t0;
    // Interactive: a click on a row (the tenth, or the last when fewer) is handled by the app.
    const count = await rows.count();
    const target = rows.nth(Math.min(9, count - 1));
    const id = await target.getAttribute('data-check-id');
    await target.click();
    await page.waitForURL((u) => u.searchParams.get('checkId') === id);
    const interactiveMs = performance.now() - t0;
    const tasks = (await page.evaluate('window.__longTasks')) as number[];
    return {
      rowsMs,
      interactiveMs,
      summaryServerMs,
      summaryMs,
      summaryBytes,
      domRows: count,
      longestTaskMs: Math.max(0, ...tasks),
      longTasksMs: tasks.reduce((a, b) => a + b, 0),
    };
  } finally {
    await context.close();
  }
}

async function main() {
  ensureServerBuilt();
  buildWeb();
  await prepareDatabase();
  log(
    `/health with ${checks} checks in headless Chromium (${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')})`,
  );
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = startChild(process.execPath, [serverMain], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    DATABASE_URL: databaseUrl(DB),
    WEB_DIR: webDir,
    OPSDECK_ENGINES: 'false',
    OPSDECK_DEMO: 'false',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    // Repeated benchmark runs sign in more often than the production limit (10 a minute) allows.
    SIGN_IN_RATE_LIMIT: '1000',
    LOG_LEVEL: 'warn',
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    await waitForHttp(`${origin}/api/about`, server);
    const scenarios: Array<[string, string]> = [
      ['all checks, grouped by canary (default grouping)', 'hidePassing=false'],
      ['all checks, no grouping', 'hidePassing=false&groupBy=no-group'],
      ['defaults (Hide Passing on)', ''],
    ];
    const out: (string | number)[][] = [];
    const verdicts: string[] = [];
    // One load first to warm the server (its first summary query plans and caches).
    const session = await signIn(browser, origin);
    await loadOnce(browser, origin, session, scenarios[0]![1]);
    for (const [label, query] of scenarios) {
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) samples.push(await loadOnce(browser, origin, session, query));
      const med = (f: (s: Sample) => number) => median(samples.map(f));
      const worst = Math.max(...samples.map((s) => s.interactiveMs));
      out.push([
        label,
        samples[0]!.domRows,
        med((s) => s.summaryServerMs).toFixed(0),
        med((s) => s.summaryMs).toFixed(0),
        (med((s) => s.summaryBytes) / 1024 / 1024).toFixed(1),
        med((s) => s.rowsMs).toFixed(0),
        med((s) => s.interactiveMs).toFixed(0),
        worst.toFixed(0),
        med((s) => s.longestTaskMs).toFixed(0),
        med((s) => s.longTasksMs).toFixed(0),
      ]);
      verdicts.push(
        `${label}: interactive < 2 s ${med((s) => s.interactiveMs) < GOAL_MS ? 'met' : 'NOT met'} (median)`,
      );
    }
    log(
      `\nMedians of ${runs} cold page loads each (ms from navigation start; load average now ${os.loadavg()[0]!.toFixed(2)}):`,
    );
    printTable(
      [
        'scenario',
        'check rows in DOM',
        'summary server ms',
        'summary request ms',
        'summary MB',
        'rows visible ms',
        'interactive ms',
        'interactive max ms',
        'longest task ms',
        'long tasks total ms',
      ],
      out,
    );
    for (const v of verdicts) log(v);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();
