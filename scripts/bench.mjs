#!/usr/bin/env node
// `npm run bench -- <name> [flags]`: runs one benchmark from bench/ (TypeScript, through tsx).
// Without a name, lists them. Benchmarks print tables; they are not tests and assert nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

const benchmarks = {
  rest: {
    file: 'bench/rest.ts',
    summary: 'requests/s and p50/p99 latency of a fixed /api/db read mix, Opsdeck vs PostgREST 12 (100,000 rows)',
    flags:
      '--mix A|B|all --auth token|session --reuse --connections 32 --warmup 5 --duration 20 --rounds 2 --profile --force',
  },
  start: {
    file: 'bench/start.ts',
    summary: 'cold and warm start of node server/dist/main.js (embedded PGlite; PostgreSQL for information)',
    flags: '--warm 3 --no-postgres --profile',
  },
  health: {
    file: 'bench/health.ts',
    summary:
      'health engine: 10,000 http checks @every 1m (PostgreSQL) / 1,000 (PGlite): checks/min, lateness, RSS, CPU; summary endpoint over 30 days',
    flags:
      '--part engine|summary|all --db postgres|pglite|all --minutes 10 --checks 10000 --pglite-checks 1000 --per-canary 100 --pool 10,20 --warmup 60 --drain 60 --prefill-hours 2 --summary-checks 10000 --raw-hours 24 --rollup-days 30 --requests 20 --ranges 1h,24h,7d,30d --reuse',
  },
  catalog: {
    file: 'bench/catalog.ts',
    summary:
      'catalog reads on 100,000 items and 1,000,000 changes (PostgreSQL): p95 of summary, list page, changes, related configs',
    flags: '--items 100000 --changes 1000000 --requests 40 --reuse --explain',
  },
  incidents: {
    file: 'bench/incidents.ts',
    summary:
      'incident list (filters, embeds, count=exact) and detail reads on 50,000 incidents, 500,000 comments and evidences (PostgreSQL)',
    flags: '--incidents 50000 --comments 500000 --evidences 500000 --requests 200 --warmup 20 --reuse',
  },
  topology: {
    file: 'bench/topology.ts',
    summary:
      'topology: 20,000 components in 5 levels, 50,000 linked checks (PostgreSQL): build, roll-up, card query p95, run after 1 % changed',
    flags: '--components 20000 --checks 50000 --requests 60 --warmup 5',
  },
  'health-sketch': {
    file: 'bench/health-sketch.ts',
    summary:
      'health summary figures at 10,000 checks x 30 days: duration-sketch merge (exact counts, percentiles within 1 %) against the mean of per-bucket percentiles, cold and warm; refresher; roll-up storage',
    flags:
      '--db postgres|pglite|all --checks 10000 --pglite-checks 10000 --runs 4 --reuse --wire 9 --compare --pglite-dir /tmp/opsdeck-bench-sketch-pglite --process 8 --process-profile DIR --process-node-args "..." --only-process',
  },
  'health-ui': {
    file: 'bench/health-ui.ts',
    summary:
      "/health with 10,000 checks in headless Chromium: navigation → first row clickable → drawer open, the drawer's history, the tab's JS heap",
    flags:
      '--checks 10000 --per-canary 100 --history-minutes 60 --runs 5 --reuse --no-build --web-dir /tmp/web-health-ui-bench --cold-summary --cpu-profile DIR',
  },
  'health-summary-memory': {
    file: 'bench/health-summary-memory.ts',
    summary:
      'health summary at 10,000 checks (PostgreSQL): server RSS at baseline, after every preset and 20 custom ranges, after idle; bytes per answer and per unchanged poll (304)',
    flags: '--checks 10000 --per-canary 100 --raw-hours 2 --custom 20 --idle-s 20 --reuse',
  },
  'catalog-scrape': {
    file: 'bench/catalog-scrape.ts',
    summary:
      'catalog engine: 10,000 file items scraped (new, unchanged, one field changed each, reverted, repeated): time per scrape and changes written, PostgreSQL and PGlite',
    flags: '--items 10000 --db postgres|pglite|all --rounds 1',
  },
  notifications: {
    file: 'bench/notifications.ts',
    summary:
      'notifications: 10,000 check.failed events/min through 100 rules with CEL filters into a loopback webhook: event-to-delivery p50/p99, server CPU, PostgreSQL and PGlite',
    flags: '--db postgres|pglite|all --rate 10000 --minutes 1 --rules 100 --stage all|delivery',
  },
  'status-page': {
    file: 'bench/status-page.ts',
    summary:
      'a public status page with 500 entries and 90 days of roll-ups: server time p95 and CPU per request (computed, and with the 5 s cache), bytes gzipped, errors of 200 concurrent anonymous readers',
    flags: '--db postgres|pglite --entries 500 --requests 100 --warmup 10 --readers 200 --rounds 5',
  },
  logs: {
    file: 'bench/logs.ts',
    summary:
      'logs: POST /api/logs over a 1 GB log file (file backend): first page, searches and next pages p50/p95, server RSS',
    flags: '--size-mb 1024 --requests 40 --warmup 3',
  },
  'playbook-triggers': {
    file: 'bench/playbook-triggers.ts',
    summary:
      'playbooks: 1,000 check.failed events (distinct checks) starting runs of a one-action playbook on two server processes over one PostgreSQL: event-to-action-start p50/p99',
    flags: '--events 1000 --rate 1000 --action exec|http --timeout 300 --keep',
  },
  'db-size': {
    file: 'bench/db-size.ts',
    summary:
      'database size per 1,000 checks per month (PostgreSQL): days of results at 1/min, roll-ups and retention applied, pg_total_relation_size per table',
    flags: '--checks 1000 --days 2 --old-days 1 --keep',
  },
  'health-replicas': {
    file: 'bench/health-replicas.ts',
    summary:
      'health engine with 1 and 3 server processes on one PostgreSQL: checks/min sustained at p99 lateness < 2 s, and the ratio (goal ≥ 2.5×)',
    flags: '--replicas 1,3 --checks 2000,4000,8000,16000 --minutes 3 --warmup 60 --drain 60 --per-canary 100 --pool 10',
  },
  load: {
    file: 'bench/load.ts',
    summary:
      '200 concurrent readers on the console’s health summary, catalog, topology and incident list queries against 2 replicas, then 1 (no balancer): p50/p99 and errors per query',
    flags:
      '--duration 300 --warmup 10 --readers 200 --replicas 2,1 --checks 2000 --configs 10000 --components 1000 --incidents 5000 --pool 10',
  },
  agents: {
    file: 'bench/agents.ts',
    summary:
      "agents: check_statuses/s accepted by an upstream from 10 concurrent pushers (gzip batches of 1,000; PostgreSQL and PGlite), and an agent process's RSS with 500 tcp checks",
    flags:
      '--part push|rss|all --db postgres|pglite|all --agents 10 --seconds 20 --batch 1000 --checks-per-agent 100 --rss-checks 500 --rss-seconds 300 --agent-from dist|src',
  },
};

const [name, ...args] = process.argv.slice(2);

if (!name || name === '--help' || name === '-h') {
  console.log('Usage: npm run bench -- <benchmark> [flags]\n\nBenchmarks:');
  for (const [key, b] of Object.entries(benchmarks)) {
    console.log(`  ${key.padEnd(7)} ${b.summary}`);
    console.log(`  ${''.padEnd(7)} flags: ${b.flags}`);
  }
  console.log('\nPostgreSQL: postgres://postgres@127.0.0.1:5432 unless BENCH_DATABASE_URL is set.');
  process.exit(0);
}

const bench = benchmarks[name];
if (!bench) {
  console.error(`Unknown benchmark "${name}". Available: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(2);
}

const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs');
if (!fs.existsSync(tsx)) {
  console.error('tsx is not installed: run npm install first.');
  process.exit(1);
}
const { status, signal } = spawnSync(process.execPath, [tsx, path.join(root, bench.file), ...args], {
  cwd: root,
  stdio: 'inherit',
});
process.exit(status ?? (signal ? 1 : 0));
