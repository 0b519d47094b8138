// `npm run bench -- start`: seconds from spawning `node server/dist/main.js` until GET /api/about
// answers 200. Cold: empty data directory (PGlite initdb + migrations) or empty PostgreSQL
// database; warm: the same directory / database again. Each start is stopped with SIGTERM.
//
// Flags: --warm 3 (warm starts per database), --no-postgres (skip the PostgreSQL rows),
// --profile (one more warm PGlite start under --cpu-prof, summarised).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  TICK_MS,
  databaseUrl,
  dropDatabase,
  ensureServerBuilt,
  freePort,
  machineTicks,
  median,
  numberFlag,
  parseFlags,
  printTable,
  processTicks,
  recreateDatabase,
  serverMain,
  startChild,
  waitForHttp,
} from './lib.js';
import { summarizeProfile } from './profile.js';

const flags = parseFlags(process.argv.slice(2));
const warmRuns = numberFlag(flags, 'warm', 3);
const DB_NAME = 'opsdeck_bench_start';
const profiles: { label: string; dir: string }[] = [];
const WARM_GOAL_S = 2;

interface Start {
  /** spawn → first 200 from /api/about */
  readyS: number;
  /** the "ready in X s" the server logs itself (from its own start, after Node loaded the bundle) */
  selfReportedS: number | null;
  /** SIGTERM → exit */
  stopS: number;
  /** Busy share of the machine (all CPUs) from spawn to ready not used by the server or this process. */
  otherBusy: number;
  /** CPU seconds the server used from spawn to ready. */
  serverCpuS: number;
}

async function startOnce(env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<Start> {
  const port = await freePort();
  const m0 = machineTicks();
  const self0 = process.cpuUsage();
  const spawned = performance.now();
  const child = startChild(process.execPath, [...nodeArgs, serverMain], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    OPSDECK_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ...env,
  });
  try {
    const readyMs = await waitForHttp(`http://127.0.0.1:${port}/api/about`, child, { since: spawned, intervalMs: 5 });
    const serverTicks = processTicks(child.process.pid);
    const m1 = machineTicks();
    const self1 = process.cpuUsage(self0);
    const selfTicks = (self1.user + self1.system) / 1000 / TICK_MS;
    const otherBusy = Math.max(0, m1.busy - m0.busy - serverTicks - selfTicks) / Math.max(1, m1.total - m0.total);
    const self = /ready in ([\d.]+) s/.exec(child.output());
    const stopping = performance.now();
    await child.stop(30_000);
    const { code, signal } = await child.exited;
    if (code !== 0) console.warn(`  (the server exited with ${code ?? signal} on SIGTERM)`);
    return {
      readyS: readyMs / 1000,
      selfReportedS: self ? Number(self[1]) : null,
      stopS: (performance.now() - stopping) / 1000,
      otherBusy,
      serverCpuS: (serverTicks * TICK_MS) / 1000,
    };
  } finally {
    await child.stop(1_000);
  }
}

async function series(label: string, env: NodeJS.ProcessEnv, reset: () => Promise<void>, profile = false) {
  await reset();
  process.stdout.write(`  ${label}: cold… `);
  const cold = await startOnce(env);
  process.stdout.write(`${cold.readyS.toFixed(2)} s; warm… `);
  const warm: Start[] = [];
  for (let i = 0; i < warmRuns; i++) warm.push(await startOnce(env));
  console.log(warm.map((w) => `${w.readyS.toFixed(2)} s`).join(', '));
  if (profile) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-prof-'));
    const profiled = await startOnce(env, ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-interval=250']);
    console.log(
      `  ${label}: one more warm start under --cpu-prof: ${profiled.readyS.toFixed(2)} s (profile in ${dir})`,
    );
    profiles.push({ label, dir });
  }
  return { label, cold, warm };
}

async function main() {
  ensureServerBuilt();
  console.log(
    `Start time of node server/dist/main.js until GET /api/about answers 200 (${warmRuns} warm starts each; ` +
      `${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)} now):`,
  );

  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-start-'));
  const dataDir = path.join(tmp, 'data');
  const results = [];
  try {
    results.push(
      await series(
        'embedded PGlite',
        { DATA_DIR: dataDir },
        async () => {
          fs.rmSync(dataDir, { recursive: true, force: true });
          fs.mkdirSync(dataDir);
        },
        Boolean(flags.profile),
      ),
    );
    if (!flags['no-postgres']) {
      results.push(
        await series('PostgreSQL', { DATABASE_URL: databaseUrl(DB_NAME), DATA_DIR: dataDir }, () =>
          recreateDatabase(DB_NAME),
        ),
      );
      await dropDatabase(DB_NAME);
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  const s = (v: number | null) => (v === null ? '-' : v.toFixed(2));
  console.log('');
  printTable(
    [
      'database',
      'cold s',
      'warm min s',
      'warm median s',
      'warm runs s',
      'server-logged ready s (cold / warm median)',
      'stop s (median)',
      'server CPU s to ready (warm median)',
      'other processes busy (median, of all CPUs)',
    ],
    results.map(({ label, cold, warm }) => [
      label,
      s(cold.readyS),
      s(Math.min(...warm.map((w) => w.readyS))),
      s(median(warm.map((w) => w.readyS))),
      warm.map((w) => w.readyS.toFixed(2)).join(' '),
      `${s(cold.selfReportedS)} / ${s(median(warm.map((w) => w.selfReportedS ?? NaN)))}`,
      s(median([cold, ...warm].map((w) => w.stopS))),
      s(median(warm.map((w) => w.serverCpuS))),
      `${(100 * median([cold, ...warm].map((w) => w.otherBusy))).toFixed(0)}%`,
    ]),
  );
  const pglite = results[0]!;
  const warmMedian = median(pglite.warm.map((w) => w.readyS));
  console.log(
    `\nwarm start (embedded PGlite, median): ${warmMedian.toFixed(2)} s — goal < ${WARM_GOAL_S} s: ${warmMedian < WARM_GOAL_S ? 'met' : 'NOT met'}`,
  );
  console.log('PostgreSQL rows are for information (cold = empty database, migrations run; warm = migrated).');

  for (const { label, dir } of profiles) {
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (file) summarizeProfile(path.join(dir, file), (l) => console.log(l), 20);
    else console.log(`\n${label}: no .cpuprofile was written`);
  }
}

await main();
