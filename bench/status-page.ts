// `npm run bench -- status-page`: a public status page with 500 entries (checks by label selector in
// five sections) over 90 days of daily roll-ups, today's raw statuses and a few open incidents and
// maintenance windows, on PostgreSQL (database opsdeck_bench_status) or embedded PGlite (--db pglite).
// Opsdeck runs in this process (engines off); anonymous requests go over real HTTP.
//
// Prints: node CPU per request (this process: the server and the client's fetch), server time (the Server-Timing the handler reports) p50/p95 for GET /status/{slug} (HTML)
// and GET /api/status/{slug} (JSON), one at a time, computed on every request (STATUS_PAGE_CACHE_MS=0)
// and as served with the default 5 s cache; bytes sent gzipped and plain; then 200 concurrent
// anonymous readers (--readers) for --rounds rounds, one second apart: errors and round-trip p95.
//
// Goals (issue 21): server time p95 < 50 ms, < 100 KB gzipped, no errors with 200 readers.
//
// Flags: --db postgres|pglite --entries 500 --requests 100 --warmup 10 --readers 200 --rounds 5
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startOpsdeck } from '../server/src/app.js';
import { openPglite, openPostgres, type Database } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import {
  databaseUrl,
  loadavg,
  numberFlag,
  parseFlags,
  percentile,
  printTable,
  recreateDatabase,
  sleep,
} from './lib.js';

const DB_NAME = 'opsdeck_bench_status';
const flags = parseFlags(process.argv.slice(2));
const kind = flags.db === 'pglite' ? 'pglite' : 'postgres';
const entries = numberFlag(flags, 'entries', 500);
const requests = numberFlag(flags, 'requests', 100);
const warmup = numberFlag(flags, 'warmup', 10);
const readers = numberFlag(flags, 'readers', 200);
const rounds = numberFlag(flags, 'rounds', 5);
const SECTIONS = 5;

/** Checks, 90 days of roll-ups, today's raw runs, incidents and maintenance; then the page. */
async function generate(db: Database): Promise<void> {
  await migrate(db);
  const statements = [
    `INSERT INTO canaries (name, spec) VALUES ('bench', '{}')`,
    `INSERT INTO checks (canary_id, type, name, labels, status, spec)
     SELECT c.id, 'http', 'service-' || lpad(g::text, 4, '0'), jsonb_build_object('section', 's' || (g % ${SECTIONS})),
            CASE WHEN g % 50 = 0 THEN 'unhealthy' ELSE 'healthy' END,
            jsonb_build_object('url', 'https://user:secret@internal-' || g || '.example/health')
     FROM canaries c, generate_series(1, ${entries}) g`,
    `INSERT INTO check_statuses_1d (check_id, created_at, total, passed, failed, duration_avg, duration_max)
     SELECT c.id, date_trunc('day', now()) - d * interval '1 day', 1440,
            1440 - CASE WHEN (hashtext(c.id::text) + d) % 17 = 0 THEN 30 ELSE 0 END,
            CASE WHEN (hashtext(c.id::text) + d) % 17 = 0 THEN 30 ELSE 0 END, 120, 900
     FROM checks c, generate_series(1, 89) d`,
    `INSERT INTO check_statuses (check_id, time, status, duration, error)
     SELECT c.id, now() - m * interval '10 minutes', NOT (c.status = 'unhealthy' AND m < 3), 100 + m, 'secret error text'
     FROM checks c, generate_series(0, 23) m`,
    `INSERT INTO check_statuses_rollup_mark (rolled_at) VALUES (now() - interval '4 hours')
     ON CONFLICT (id) DO UPDATE SET rolled_at = EXCLUDED.rolled_at`,
    `INSERT INTO components (name, health) SELECT 'component-' || g, 'healthy' FROM generate_series(1, 5) g`,
    `INSERT INTO incidents (title, severity, status, component_id)
     SELECT 'Incident ' || g, 'high', 'open', (SELECT id FROM components ORDER BY name LIMIT 1) FROM generate_series(1, 3) g`,
    `INSERT INTO maintenance_windows (name, message, starts_at, ends_at, status_pages)
     VALUES ('Upgrade', 'Rolling upgrade', now() + interval '1 day', now() + interval '1 day 2 hours', '{bench}')`,
  ];
  for (const sql of statements) await db.query(sql);
  const spec = {
    title: 'Bench status',
    description: `${entries} checks in ${SECTIONS} sections`,
    sections: [
      ...Array.from({ length: SECTIONS }, (_, s) => ({
        name: `Section ${s}`,
        checks: [{ labelSelector: `section=s${s}` }],
      })),
      { name: 'Components', components: [{ name: 'component-1' }] },
    ],
  };
  await db.query(`INSERT INTO status_pages (slug, spec) VALUES ('bench', $1)`, [JSON.stringify(spec)]);
  await db.query('ANALYZE');
}

/** GET with gzip accepted and a fresh connection; the status once the whole body has arrived. */
function get(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'accept-encoding': 'gzip' }, agent: false }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function main() {
  let db: Database;
  let dataDir: string | undefined;
  if (kind === 'postgres') {
    await recreateDatabase(DB_NAME);
    db = await openPostgres(databaseUrl(DB_NAME), 10);
  } else {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-status-'));
    db = await openPglite(dataDir);
  }
  const t0 = performance.now();
  await generate(db);
  console.log(
    `Generated ${entries} checks with 90 days of roll-ups on ${kind} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const rows: (string | number)[][] = [];
  for (const cacheMs of [0, 5_000]) {
    const app = await startOpsdeck({
      database: db,
      port: 0,
      host: '127.0.0.1',
      engines: false,
      statusPageCacheMs: cacheMs,
    });
    try {
      for (const [name, p] of [
        ['GET /status/bench (HTML)', '/status/bench'],
        ['GET /api/status/bench (JSON)', '/api/status/bench'],
      ] as const) {
        const server: number[] = [];
        const trip: number[] = [];
        let gz = 0;
        let plain = 0;
        let cpu = process.cpuUsage();
        for (let i = 0; i < warmup + requests; i++) {
          if (i === warmup) cpu = process.cpuUsage();
          const start = performance.now();
          const res = await fetch(`${app.url}${p}`, { headers: { 'accept-encoding': 'gzip' } });
          const body = await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status}`);
          if (i < warmup) continue;
          trip.push(performance.now() - start);
          server.push(Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? NaN));
          gz = Number(res.headers.get('content-length') ?? body.byteLength);
          plain = body.byteLength; // fetch decompresses: the plain size
        }
        const used = process.cpuUsage(cpu);
        rows.push([
          name,
          cacheMs ? `${cacheMs / 1000} s` : 'none',
          ((used.user + used.system) / 1000 / requests).toFixed(1),
          percentile(server, 50).toFixed(1),
          percentile(server, 95).toFixed(1),
          percentile(trip, 95).toFixed(1),
          (gz / 1024).toFixed(1),
          (plain / 1024).toFixed(1),
        ]);
      }
      if (!cacheMs) continue;
      console.log(`\n${entries} entries, ${requests} requests each after ${warmup} warm-up (load ${loadavg()})`);
      printTable(
        [
          'request',
          'cache',
          'node CPU ms/req',
          'server p50 ms',
          'server p95 ms',
          'round trip p95 ms',
          'KB gzipped',
          'KB plain',
        ],
        rows,
      );

      const crowd: (string | number)[][] = [];
      for (let r = 0; r < rounds; r++) {
        const times: number[] = [];
        let errors = 0;
        const start = performance.now();
        await Promise.all(
          Array.from({ length: readers }, async (_, i) => {
            const t = performance.now();
            try {
              // The gzipped body is read, not inflated: the readers cost the server, not this process.
              const status = await get(`${app.url}${i % 4 === 3 ? '/api/status/bench' : '/status/bench'}`);
              if (status !== 200) errors++;
            } catch {
              errors++;
            }
            times.push(performance.now() - t);
          }),
        );
        crowd.push([r + 1, readers, errors, percentile(times, 95).toFixed(0), (performance.now() - start).toFixed(0)]);
        await sleep(1000);
      }
      console.log(`\n${readers} concurrent anonymous readers (3 of 4 the HTML, 1 of 4 the JSON)`);
      printTable(['round', 'readers', 'errors', 'round trip p95 ms', 'all done ms'], crowd);
    } finally {
      await app.close();
    }
  }
  await db.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}

await main();
