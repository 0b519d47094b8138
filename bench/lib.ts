// Shared helpers of the benchmarks: the server bundle, PostgreSQL admin, child processes, ports,
// readiness polling and table printing. Benchmarks print tables; they assert nothing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

export const repoRoot = path.resolve(import.meta.dirname, '..');
export const serverMain = path.join(repoRoot, 'server/dist/main.js');

/** The PostgreSQL server the benchmarks use; BENCH_DATABASE_URL overrides it (its database is ignored). */
export const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

// ---------------------------------------------------------------------------------------------
// Arguments

export interface Flags {
  [name: string]: string | boolean;
}

/** --name, --name=value and --name value (when the next argument is not a flag). */
export function parseFlags(argv: string[]): Flags {
  const flags: Flags = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) throw new Error(`unexpected argument "${arg}"`);
    const eq = arg.indexOf('=');
    if (eq !== -1) flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    else if (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('--')) flags[arg.slice(2)] = argv[++i]!;
    else flags[arg.slice(2)] = true;
  }
  return flags;
}

export function numberFlag(flags: Flags, name: string, fallback: number): number {
  const raw = flags[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number`);
  return n;
}

// ---------------------------------------------------------------------------------------------
// Server bundle

/** Builds server/dist/main.js when it is missing (npm run build) or older than the server sources. */
export function ensureServerBuilt(): void {
  if (!fs.existsSync(serverMain)) {
    console.log('server/dist/main.js is missing: running npm run build…');
    const r = spawnSync('npm', ['run', 'build'], { cwd: repoRoot, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('npm run build failed');
    return;
  }
  const built = fs.statSync(serverMain).mtimeMs;
  const changed = ['server/src', 'common/src', 'server/build.mjs'].map(newestSource).find((s) => s.mtime > built);
  if (changed) {
    console.log(`server/dist/main.js is older than ${changed.file}: rebuilding the server bundle…`);
    const r = spawnSync(process.execPath, ['build.mjs'], { cwd: path.join(repoRoot, 'server'), stdio: 'inherit' });
    if (r.status !== 0) throw new Error('building the server failed');
  }
}

function newestSource(rel: string): { mtime: number; file: string } {
  let best = { mtime: 0, file: rel };
  const visit = (abs: string) => {
    const stat = fs.statSync(abs, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of fs.readdirSync(abs)) visit(path.join(abs, entry));
    } else if (!/\.test\.tsx?$/.test(abs) && stat.mtimeMs > best.mtime) {
      best = { mtime: stat.mtimeMs, file: path.relative(repoRoot, abs) };
    }
  };
  visit(path.join(repoRoot, rel));
  return best;
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL administration

export async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function databaseExists(name: string): Promise<boolean> {
  return withAdmin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

export async function dropDatabase(name: string): Promise<void> {
  await withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

export async function recreateDatabase(name: string): Promise<void> {
  await withAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${quoteIdent(name)}`);
  });
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

// ---------------------------------------------------------------------------------------------
// Processes and ports

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface Child {
  process: ChildProcess;
  /** Combined stdout and stderr so far (the last 64 kB). */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
  /** SIGTERM, then SIGKILL after graceMs; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

const children = new Set<Child>();

/** Spawns a server process and keeps its output; every child is killed when the benchmark exits. */
export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const proc = spawn(command, args, { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 65536) out = out.slice(-65536);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    proc.once('exit', (code, signal) => {
      done = true;
      resolve({ code, signal });
    });
    proc.once('error', (e) => {
      out += `\n${e.message}`;
      done = true;
      resolve({ code: null, signal: null });
    });
  });
  const child: Child = {
    process: proc,
    output: () => out,
    exited,
    hasExited: () => done,
    async stop(graceMs = 10_000) {
      if (!done) {
        proc.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
        const gone = await Promise.race([exited.then(() => true), timeout]);
        clearTimeout(timer);
        if (!gone) {
          proc.kill('SIGKILL');
          await exited;
        }
      }
      children.delete(child);
    },
  };
  children.add(child);
  return child;
}

function killChildren() {
  for (const c of children) if (!c.hasExited()) c.process.kill('SIGKILL');
}
process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killChildren();
    process.exit(130);
  });
}

/**
 * Starts the loopback receiver (bench/notifications-receiver.mjs) and waits for its port.
 * received: resource/check id → receive times (ms), in arrival order.
 */
export async function startReceiver(): Promise<{ child: Child; port: number; received: Map<string, number[]> }> {
  const child = startChild(
    process.execPath,
    [path.join(import.meta.dirname, 'notifications-receiver.mjs')],
    process.env,
  );
  const received = new Map<string, number[]>();
  let buffer = '';
  let port = 0;
  child.process.stdout!.on('data', (d: Buffer) => {
    buffer += d.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop()!;
    for (const line of lines) {
      const listening = /^listening (\d+)/.exec(line);
      if (listening) port = Number(listening[1]);
      else {
        const [id, at] = line.split(' ');
        if (id && at) received.set(id, [...(received.get(id) ?? []), Number(at)]);
      }
    }
  });
  while (!port) {
    if (child.hasExited()) throw new Error(`receiver exited: ${child.output()}`);
    await sleep(20);
  }
  return { child, port, received };
}

/** Polls url until it answers 200 (or, with okBelow500, any status below 500). Returns the elapsed ms. */
export async function waitForHttp(
  url: string,
  child: Child,
  opts: { timeoutMs?: number; intervalMs?: number; since?: number; okBelow500?: boolean } = {},
): Promise<number> {
  const since = opts.since ?? performance.now();
  const deadline = since + (opts.timeoutMs ?? 120_000);
  for (;;) {
    if (child.hasExited()) throw new Error(`the process exited before ${url} answered:\n${child.output()}`);
    const status = await fetch(url, { signal: AbortSignal.timeout(5_000) })
      .then(async (r) => {
        await r.arrayBuffer();
        return r.status;
      })
      .catch(() => 0);
    if (status === 200 || (opts.okBelow500 && status > 0 && status < 500)) return performance.now() - since;
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 in time:\n${child.output()}`);
    await sleep(opts.intervalMs ?? 20);
  }
}

/** `node [nodeArgs] server/dist/main.js` on a free loopback port (PostgreSQL or PGlite as `env` says), once it answers. */
export async function startServer(
  env: NodeJS.ProcessEnv,
  nodeArgs: string[] = [],
): Promise<{ child: Child; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const child = startChild(process.execPath, [...nodeArgs, serverMain], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: origin,
    OPSDECK_DEMO: 'false',
    LOG_LEVEL: 'warn',
    ...env,
  });
  await waitForHttp(`${origin}/api/about`, child);
  return { child, origin };
}

/** Signs in with email and password; the session cookie (sign-ins are rate limited: keep it). */
export async function signIn(origin: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${origin}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email, password }),
  });
  const text = await res.text();
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
  if (res.status !== 200 || !cookie) throw new Error(`signing in failed: ${res.status} ${text}`);
  return cookie;
}

// ---------------------------------------------------------------------------------------------
// Output

/** Prints rows as an aligned table; numbers are right-aligned. */
export function printTable(header: string[], rows: (string | number)[][]): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((r) => typeof r[i] === 'number' || /^[\d.,×%-]+$/.test(String(r[i]))),
  );
  const line = (r: string[]) =>
    r
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile of an unsorted sample. */
export function percentile(values: number[] | Float64Array, p: number): number {
  if (values.length === 0) return NaN;
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

// ---------------------------------------------------------------------------------------------
// CPU and memory from /proc (Linux; zeros elsewhere)

/** The machine's load averages (/proc/loadavg), printed with the results. */
export function loadavg(): string {
  return fs.readFileSync('/proc/loadavg', 'utf8').trim();
}

/** USER_HZ is 100 on Linux: one tick is 10 ms. */
export const TICK_MS = 10;

/** utime + stime of a process, in ticks (0 when it is gone). */
export function processTicks(pid: number | string | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime (fields 14 and 15)
  } catch {
    return 0;
  }
}

/** Resident set size of a process in bytes (0 when it is gone). */
export function rssBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * /proc/stat: busy and total ticks of all CPUs together; of the busy ticks, `interrupts` (irq and
 * softirq: e.g. loopback networking, not charged to any process) and `steal` (taken by the hypervisor).
 */
export function machineTicks(): { busy: number; total: number; interrupts: number; steal: number } {
  try {
    const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
    const total = cpu.slice(0, 8).reduce((a, b) => a + b, 0);
    return {
      busy: total - cpu[3]! - (cpu[4] ?? 0),
      total,
      interrupts: (cpu[5] ?? 0) + (cpu[6] ?? 0),
      steal: cpu[7] ?? 0,
    };
  } catch {
    return { busy: 0, total: 0, interrupts: 0, steal: 0 };
  }
}

/** CPU ticks per PostgreSQL backend serving `database` ("postgres: user <db> 127.0.0.1(port) idle"). */
export function postgresBackendTicks(database: string): Map<string, number> {
  const out = new Map<string, number>();
  if (process.platform !== 'linux') return out;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${database} `))
        out.set(entry, processTicks(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/**
 * CPU ticks of PostgreSQL's own processes (postmaster, checkpointer, WAL writer, autovacuum…): every
 * postgres process that is not a client backend. Shared by every database on the server.
 */
export function postgresAuxiliaryTicks(): Map<string, number> {
  const out = new Map<string, number>();
  if (process.platform !== 'linux') return out;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!/\d\)|\[local\]/.test(cmdline)) out.set(entry, processTicks(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** Ticks the backends used between two snapshots (a backend that appeared meanwhile counts from zero). */
export function backendTicksBetween(a: Map<string, number>, b: Map<string, number>): number {
  let sum = 0;
  for (const [pid, ticks] of b) sum += ticks - (a.get(pid) ?? 0);
  return sum;
}
