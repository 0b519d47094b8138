// `npm run bench -- health-replicas`: how the health engine scales out. The same measurement as
// `bench health` (bench/healthRuns.ts: http checks on `@every 1m` against a loopback target process,
// every planned run time recorded by a trigger, lateness = check start − planned time, missed runs
// counted as infinitely late) with 1 and with 3 server processes (node server/dist/main.js, engines
// on) sharing one fresh PostgreSQL database. For each replica count the load goes up through
// --checks (checks per minute) until p99 lateness (missed runs included) is 2 s or more; the highest
// load that met it is what that many replicas sustain. Printed: a table of every run, the sustained
// checks per minute per replica count, and the ratio (goal: 3 replicas ≥ 2.5 × one); for every run the
// CPU spent per 1,000 check runs by the servers, the target, PostgreSQL with the rest of the machine
// (kernel, loopback networking), and the whole machine: what sizes a deployment.
//
// Flags: --replicas 1,3, --checks 2000,4000,8000,16000 (tried in order; a count stops at its first
// miss), --minutes 3 (measured), --warmup 60 (s), --drain 60 (s), --per-canary 100, --pool 10
// (DATABASE_POOL_SIZE of each replica), --per-replica (the --checks levels are per replica: n
// replicas try n × each level, so both counts start at the same load per replica), --cpu-limit C
// (each replica in a CPU cgroup of its own with a quota of C CPUs, as a container's CPU limit does;
// cgroup v1 `cpu` or v2, needs root: on a machine with fewer cores than replicas this is how the
// engine's scaling is measured rather than the machine's — without it three replicas and
// PostgreSQL compete for the same two CPUs), --cpu-period-ms 100 (the quota's CFS period: a replica
// that spent its quota waits for the next period, so a shorter one makes a shorter wait),
// --cpu-profile DIR (each server under `node --cpu-prof`, its profile in DIR; printed after each run:
// the longest stretches its thread was busy without a break, when, and what was on the stack),
// --spread-s 60 (the canaries' first runs at random over this many seconds, so their phases over the
// period: a fleet in steady state; 30 is how applyCanary spreads canaries applied at once, a burst
// every minute at twice the average load).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openPostgres } from '../server/src/db/database.js';
import { migrate } from '../server/src/db/migrate.js';
import {
  databaseUrl,
  ensureServerBuilt,
  loadavg,
  machineTicks,
  processTicks,
  TICK_MS,
  numberFlag,
  parseFlags,
  percentile,
  printTable,
  recreateDatabase,
  sleep,
  startServer,
  type Child,
} from './lib.js';
import { longestStretches } from './profile.js';
import {
  LATENESS_GOAL_MS,
  PERIOD_MS,
  PLANNED_SQL,
  analyse,
  applyCanaries,
  drainPlanned,
  startTarget,
} from './healthRuns.js';

const flags = parseFlags(process.argv.slice(2));
const list = (name: string, fallback: string) =>
  String(flags[name] ?? fallback)
    .split(',')
    .map((x) => {
      const n = Number(x);
      if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} takes positive whole numbers, e.g. ${fallback}`);
      return n;
    });
const replicaCounts = list('replicas', '1,3');
const levels = list('checks', '2000,4000,8000,16000');
const minutes = numberFlag(flags, 'minutes', 3);
const warmupS = numberFlag(flags, 'warmup', 60);
const drainS = numberFlag(flags, 'drain', 60);
const perCanary = numberFlag(flags, 'per-canary', 100);
const pool = numberFlag(flags, 'pool', 10);
const perReplica = flags['per-replica'] !== undefined;
const cpuLimit = flags['cpu-limit'] === undefined ? undefined : numberFlag(flags, 'cpu-limit', 1);
/** The quota's period (CFS): a process that spent its quota waits for the next period. */
const cpuPeriodMs = numberFlag(flags, 'cpu-period-ms', 100);
/** The canaries' first runs are spread at random over this many seconds (default: the period). */
const spreadS = numberFlag(flags, 'spread-s', PERIOD_MS / 1000);
/** Each server's CPU profile goes to DIR/<replicas>-replicas-<checks>/, summarised after its run. */
const cpuProfileDir = flags['cpu-profile'] === undefined ? undefined : String(flags['cpu-profile']);

/** The CPU controller's root: cgroup v1 `cpu` or the v2 unified hierarchy (cpu enabled). */
function cpuCgroupRoot(): { root: string; v2: boolean } {
  for (const root of ['/sys/fs/cgroup/cpu', '/sys/fs/cgroup/cpu,cpuacct']) {
    if (fs.existsSync(path.join(root, 'cpu.cfs_quota_us'))) return { root, v2: false };
  }
  const v2 = fs.existsSync('/sys/fs/cgroup/cgroup.controllers') ? '/sys/fs/cgroup' : '/sys/fs/cgroup/unified';
  if (fs.existsSync(path.join(v2, 'cgroup.subtree_control'))) return { root: v2, v2: true };
  throw new Error('--cpu-limit needs a cgroup cpu controller (/sys/fs/cgroup/cpu or cgroup v2)');
}

/** Puts a process into a cgroup of its own limited to `cpus` CPUs; returns a function that removes it. */
function limitCpu(pid: number, cpus: number): () => void {
  const { root, v2 } = cpuCgroupRoot();
  const dir = path.join(root, `opsdeck-bench-${pid}`);
  fs.mkdirSync(dir, { recursive: true });
  const period = Math.round(cpuPeriodMs * 1000);
  const quota = Math.round(cpus * period);
  if (v2) fs.writeFileSync(path.join(dir, 'cpu.max'), `${quota} ${period}`);
  else {
    fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(period));
    fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quota));
  }
  fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid));
  return () => {
    try {
      fs.rmdirSync(dir);
    } catch {
      // still has a process in it (a server that did not stop): left for the system to clean
    }
  };
}

const DB = 'opsdeck_bench_health_replicas';
const RATIO_GOAL = 2.5;
const log = (s: string) => console.log(s);
const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : v > 0 ? '∞' : '-');

interface Run {
  replicas: number;
  checks: number;
  perMinute: number;
  p50: number;
  p99: number;
  p99WithMissed: number;
  missed: number;
  expected: number;
  met: boolean;
  load: string;
  cpu: CpuPerThousand;
}

/**
 * CPU milliseconds per 1,000 check runs in the measured window, by who spent them. PostgreSQL is
 * what the machine spent besides the servers, the target and this benchmark (its backends, its own
 * processes, the kernel's loopback networking): a backend's ticks cannot be read once it has exited,
 * and the servers' pools close idle connections after 10 s.
 */
interface CpuPerThousand {
  servers: number;
  postgres: number;
  target: number;
  /** Everything the machine did (processes, interrupts), per 1,000 runs. */
  machine: number;
  /** The machine's CPUs busy over the window, in % of all of them. */
  busyPercent: number;
}

/** CPU ticks of the servers, the target, this benchmark and the whole machine. */
function cpuSnapshot(servers: Child[], target: Child) {
  return {
    servers: servers.reduce((sum, s) => sum + processTicks(s.process.pid), 0),
    target: processTicks(target.process.pid),
    bench: processTicks(process.pid),
    machine: machineTicks(),
  };
}

function cpuPerThousand(
  a: ReturnType<typeof cpuSnapshot>,
  b: ReturnType<typeof cpuSnapshot>,
  runs: number,
): CpuPerThousand {
  const per = (ticks: number) => (runs > 0 ? (ticks * TICK_MS * 1000) / runs : NaN);
  const total = b.machine.total - a.machine.total;
  const busy = b.machine.busy - a.machine.busy;
  return {
    servers: per(b.servers - a.servers),
    postgres: per(busy - (b.servers - a.servers) - (b.target - a.target) - (b.bench - a.bench)),
    target: per(b.target - a.target),
    machine: per(busy),
    busyPercent: total > 0 ? (100 * busy) / total : NaN,
  };
}

/** One load level: a fresh database, `replicas` servers, warm-up, the measured window, drain. */
async function run(replicas: number, checks: number): Promise<Run> {
  log(`\n== ${replicas} replica(s), ${checks} http checks on @every 1m (${minutes} min measured)`);
  const target = await startTarget();
  const servers: Child[] = [];
  const cleanups: (() => void)[] = [];
  try {
    await recreateDatabase(DB);
    const db = await openPostgres(databaseUrl(DB), 2);
    try {
      await migrate(db);
      await db.exec(PLANNED_SQL);
      const canaries = await applyCanaries(db, checks, target.url, perCanary);
      // First runs at random over --spread-s, starting 2 s from now: the phases of a fleet in steady
      // state (canaries applied over time) over the whole period by default; 30 s is what applyCanary's
      // firstRun does for canaries applied together.
      await db.query(
        `UPDATE canaries SET next_runtime = now() + interval '2 seconds' + random() * make_interval(secs => $1)
         WHERE deleted_at IS NULL`,
        [spreadS],
      );
      // The planned times start here: the times applyCanary planned are no run's (a gap of more than
      // a period between one of them and the time above would count as a skipped run).
      await db.query(
        `TRUNCATE bench_planned;
         INSERT INTO bench_planned (canary_id, planned) SELECT id, next_runtime FROM canaries WHERE deleted_at IS NULL`,
      );
      log(`  ${canaries} canaries × ${Math.min(perCanary, checks)} checks applied`);
    } finally {
      await db.close();
    }
    // The first replica is started alone (it would apply migrations if any were missing), the others together.
    const env = { DATABASE_URL: databaseUrl(DB), DATABASE_POOL_SIZE: String(pool) };
    // Each server's profile is written when it exits (summarised below).
    const profileDir = cpuProfileDir && path.resolve(cpuProfileDir, `${replicas}-replicas-${checks}`);
    const nodeArgs: string[] = [];
    if (profileDir) {
      fs.mkdirSync(profileDir, { recursive: true });
      nodeArgs.push('--cpu-prof', `--cpu-prof-dir=${profileDir}`);
    }
    servers.push((await startServer(env, nodeArgs)).child);
    servers.push(
      ...(await Promise.all(Array.from({ length: replicas - 1 }, () => startServer(env, nodeArgs)))).map(
        (s) => s.child,
      ),
    );
    // Limited once started: the start (bundle load, migrations check) is not what is measured.
    if (cpuLimit !== undefined) for (const s of servers) cleanups.push(limitCpu(s.process.pid!, cpuLimit));
    const windowStart = Date.now() + warmupS * 1000;
    const windowEnd = windowStart + minutes * 60_000;
    log(`  ${replicas} server(s) ready; warm-up ${warmupS} s`);
    let cpuAtStart: ReturnType<typeof cpuSnapshot> | undefined;
    while (Date.now() < windowEnd) {
      const dead = servers.find((s) => s.hasExited());
      if (dead) throw new Error(`a server exited:\n${dead.output()}`);
      if (!cpuAtStart && Date.now() >= windowStart) cpuAtStart = cpuSnapshot(servers, target.child);
      await sleep(1000);
    }
    const cpuAtEnd = cpuSnapshot(servers, target.child);
    const load = loadavg();
    // Let the runs planned before the end of the window finish.
    const probe = await openPostgres(databaseUrl(DB), 1);
    try {
      await drainPlanned(probe, windowEnd, drainS);
    } finally {
      await probe.close();
    }
    const stopAt = Date.now();
    await Promise.all(servers.map((s) => s.stop(60_000)));
    if (profileDir) {
      for (const f of fs.readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile'))) {
        const file = path.join(profileDir, f);
        longestStretches(file, log, { endedAt: fs.statSync(file).mtimeMs });
      }
    }
    const db2 = await openPostgres(databaseUrl(DB), 2);
    try {
      const r = await analyse(db2, windowStart, windowEnd, stopAt);
      const withMissed = new Float64Array(r.lateness.length + r.missedCheckRuns);
      withMissed.set(r.lateness);
      withMissed.fill(Infinity, r.lateness.length);
      const p99WithMissed = percentile(withMissed, 99);
      const perMinute = r.perMinute.reduce((a, b) => a + b, 0) / Math.max(1, r.perMinute.length);
      const result: Run = {
        replicas,
        checks,
        perMinute,
        p50: percentile(r.lateness, 50),
        p99: percentile(r.lateness, 99),
        p99WithMissed,
        missed: r.missedCheckRuns,
        expected: r.expectedCheckRuns,
        met: p99WithMissed < LATENESS_GOAL_MS && r.lateness.length > 0,
        load,
        cpu: cpuPerThousand(cpuAtStart ?? cpuAtEnd, cpuAtEnd, (perMinute * (windowEnd - windowStart)) / 60_000),
      };
      log(
        `  ${fmt(perMinute)} checks/min, lateness p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms, ` +
          `p99 with missed ${fmt(p99WithMissed)} ms, ${r.missedCheckRuns}/${r.expectedCheckRuns} missed — ` +
          `${result.met ? 'met' : 'NOT met'} (load average ${load}); CPU per 1,000 runs: servers ${fmt(result.cpu.servers)} ms, ` +
          `PostgreSQL and the rest ${fmt(result.cpu.postgres)} ms, target ${fmt(result.cpu.target)} ms, machine ${fmt(result.cpu.machine)} ms ` +
          `(${fmt(result.cpu.busyPercent)} % of the CPUs busy)`,
      );
      return result;
    } finally {
      await db2.close();
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop(10_000)));
    for (const cleanup of cleanups) cleanup();
    await target.child.stop();
  }
}

async function main() {
  ensureServerBuilt();
  log(
    `Health engine with ${replicaCounts.join(' and ')} replica(s) on one PostgreSQL (${os.cpus().length} CPUs, ` +
      `load average ${loadavg()} now): loads ${levels.join(', ')} checks/min${perReplica ? ' per replica' : ''} (@every ${PERIOD_MS / 1000} s), ` +
      `first runs spread over ${spreadS} s, ${minutes} min measured after ${warmupS} s of warm-up` +
      (cpuLimit === undefined
        ? ''
        : `, each replica limited to ${cpuLimit} CPU (cgroup quota, period ${cpuPeriodMs} ms)`) +
      `; the goal per run is p99 lateness < ${LATENESS_GOAL_MS / 1000} s with missed runs counted.`,
  );
  const runs: Run[] = [];
  for (const replicas of replicaCounts) {
    for (const level of levels) {
      const r = await run(replicas, perReplica ? level * replicas : level);
      runs.push(r);
      if (!r.met) break;
    }
  }
  log('\nAll runs:');
  printTable(
    [
      'replicas',
      'checks planned/min',
      'checks run/min',
      'lateness p50 ms',
      'p99 ms',
      'p99 with missed',
      'missed',
      'p99 < 2 s',
      'load average (1/5/15 min)',
      'CPU ms / 1,000 runs: servers',
      'PostgreSQL + rest',
      'target',
      'machine',
      'CPUs busy',
    ],
    runs.map((r) => [
      r.replicas,
      r.checks,
      fmt(r.perMinute),
      fmt(r.p50),
      fmt(r.p99),
      fmt(r.p99WithMissed),
      `${r.missed}/${r.expected}`,
      r.met ? 'met' : 'NOT met',
      r.load.split(' ').slice(0, 3).join(' '),
      fmt(r.cpu.servers),
      fmt(r.cpu.postgres),
      fmt(r.cpu.target),
      fmt(r.cpu.machine),
      `${fmt(r.cpu.busyPercent)} %`,
    ]),
  );
  const sustained = new Map(
    replicaCounts.map((n) => {
      const met = runs.filter((r) => r.replicas === n && r.met);
      return [n, met.length ? Math.max(...met.map((r) => r.perMinute)) : 0];
    }),
  );
  log('\nSustained (the highest load with p99 lateness < 2 s):');
  const base = sustained.get(replicaCounts[0]!) ?? 0;
  printTable(
    ['replicas', 'checks/min sustained', `× ${replicaCounts[0]} replica(s)`],
    replicaCounts.map((n) => [n, fmt(sustained.get(n)!), base ? `${(sustained.get(n)! / base).toFixed(2)}×` : '-']),
  );
  const top = replicaCounts[replicaCounts.length - 1]!;
  const topLevel = levels[levels.length - 1]! * (perReplica ? top : 1);
  const topLevelMet = runs.some((r) => r.replicas === top && r.met && r.checks === topLevel);
  if (replicaCounts.length > 1 && base) {
    const ratio = sustained.get(top)! / base;
    log(
      `${top} replicas sustain ${ratio.toFixed(2)}× what ${replicaCounts[0]} does — goal ≥ ${RATIO_GOAL}×: ${ratio >= RATIO_GOAL ? 'met' : 'NOT met'}` +
        (topLevelMet
          ? ` (a lower bound: ${top} replicas met the highest load tried; add a higher --checks level)`
          : ''),
    );
  }
}

await main();
