// `npm run bench -- agents`: two parts.
// push: an upstream server process (`node --import tsx server/src/main.ts`, engines on) on a fresh
//   PostgreSQL database (and on embedded PGlite for reference); --agents agents generated through
//   POST /api/agent/generate as the admin (session cookie), each with a canary and --checks-per-agent
//   checks pushed first; then one pusher per agent, all concurrent, sends gzip batches of --batch
//   check_statuses (the agent's batchRows default: 1,000) back to back for --seconds, honouring 429
//   Retry-After as pusher.ts does. Reported: accepted statuses/s (total, per agent), p50/p99 request
//   time, 429s, upstream CPU and PostgreSQL backends' CPU (share of one core), and this process's CPU
//   (it builds and gzips the batches on the same machine).
// rss: a real agent process (`node server/dist/cli.js agent`) with --rss-checks tcp checks
//   to a loopback port (@every 30s, 50 per canary) pushing to an upstream for --rss-seconds; VmRSS
//   sampled every second: at listening, max, steady (median of the last half) and at the end; first
//   start (the agent creates its database in a short-lived child process, see agentProcess.ts) and a
//   restart on the same data dir; the goal (< 250 MB) is checked against the max. --agent-from dist|src (default dist when server/dist/cli.js exists).
// Flags: --part push|rss|all, --db postgres|pglite|all (push); the rest in scripts/bench.mjs.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  backendTicksBetween,
  type Child,
  databaseUrl,
  dropDatabase,
  freePort,
  loadavg,
  median,
  numberFlag,
  parseFlags,
  percentile,
  postgresBackendTicks,
  printTable,
  processTicks,
  recreateDatabase,
  rssBytes,
  sleep,
  startChild,
  TICK_MS,
  waitForHttp,
} from './lib.js';

const flags = parseFlags(process.argv.slice(2));
const part = String(flags.part ?? 'all');
const which = String(flags.db ?? 'all');
const agentCount = numberFlag(flags, 'agents', 10);
const seconds = numberFlag(flags, 'seconds', 20);
const batch = numberFlag(flags, 'batch', 1_000);
const checksPerAgent = numberFlag(flags, 'checks-per-agent', 100);
const rssChecks = numberFlag(flags, 'rss-checks', 500);
const rssSeconds = numberFlag(flags, 'rss-seconds', 300);
/** The goal of issue 17 for an agent with 500 checks. */
const RSS_GOAL_MB = 250;
const BENCH_DB = 'opsdeck_bench_agents';
const ADMIN = { ADMIN_EMAIL: 'bench@opsdeck.local', ADMIN_PASSWORD: 'bench-password-1234' };
const NO_AGENT = '00000000-0000-0000-0000-000000000000';

interface Upstream {
  child: Child;
  url: string;
  cookie: string;
  dataDir: string;
}

async function startUpstream(kind: 'postgres' | 'pglite'): Promise<Upstream> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-agents-'));
  if (kind === 'postgres') await recreateDatabase(BENCH_DB);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...ADMIN,
    PORT: String(port),
    HOST: '127.0.0.1',
    OPSDECK_DEMO: 'false',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  if (kind === 'postgres') env.DATABASE_URL = databaseUrl(BENCH_DB);
  else delete env.DATABASE_URL;
  const child = startChild(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], env);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/api/about`, child, { timeoutMs: 180_000, intervalMs: 100 });
  const cookie = await signInCookie(url);
  return { child, url, cookie, dataDir };
}

async function stopUpstream(kind: 'postgres' | 'pglite', up: Upstream): Promise<void> {
  await up.child.stop();
  fs.rmSync(up.dataDir, { recursive: true, force: true });
  if (kind === 'postgres') await dropDatabase(BENCH_DB);
}

async function generateAgent(up: Upstream, name: string): Promise<{ id: string; token: string }> {
  const r = await fetch(`${up.url}/api/agent/generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: up.cookie, origin: up.url },
    body: JSON.stringify({ name }),
  });
  const body = (await r.json()) as { id: string; access_token: string };
  if (r.status !== 201) throw new Error(`generate ${name}: ${r.status} ${JSON.stringify(body)}`);
  return { id: body.id, token: body.access_token };
}

interface PushOutcome {
  status: number;
  ms: number;
  accepted: number;
  stored: number;
  retryAfterS: number;
  text: string;
}

async function push(up: Upstream, token: string, body: unknown): Promise<PushOutcome> {
  const payload = gzipSync(JSON.stringify(body));
  const t0 = performance.now();
  const r = await fetch(`${up.url}/api/upstream/push`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}`,
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    },
    body: payload,
    signal: AbortSignal.timeout(120_000),
  });
  const text = await r.text();
  const ms = performance.now() - t0;
  let accepted = 0;
  let stored = 0;
  if (r.ok) {
    const res = JSON.parse(text) as { accepted: { check_statuses?: number }; stored: { check_statuses?: number } };
    accepted = res.accepted.check_statuses ?? 0;
    stored = res.stored.check_statuses ?? 0;
  }
  return { status: r.status, ms, accepted, stored, retryAfterS: Number(r.headers.get('retry-after') ?? 0), text };
}

/** A canary and its checks as an agent's to_jsonb rows would carry them. */
function seedBody(agentId: string, checkIds: string[]) {
  const canaryId = crypto.randomUUID();
  const now = new Date().toISOString();
  return {
    canaries: [
      { id: canaryId, name: `bench-${agentId.slice(0, 8)}`, namespace: 'bench', spec: {}, agent_id: NO_AGENT },
    ],
    checks: checkIds.map((id, i) => ({
      id,
      canary_id: canaryId,
      type: 'tcp',
      name: `check-${i}`,
      namespace: 'bench',
      status: 'healthy',
      agent_id: NO_AGENT,
      created_at: now,
      updated_at: now,
    })),
  };
}

/** One batch of distinct (check_id, time) statuses: every check gets batch/checks results 1 s apart. */
function statusBatch(checkIds: string[], startMs: number, rows: number) {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < rows; i++) {
    const checkId = checkIds[i % checkIds.length]!;
    const t = new Date(startMs + Math.floor(i / checkIds.length) * 1000).toISOString();
    const ok = i % 17 !== 0;
    const [message, error] = ok ? ['', null] : ['connection refused', 'dial tcp 127.0.0.1:9: connect refused'];
    out.push({ check_id: checkId, time: t, status: ok, invalid: false, duration: 3 + (i % 40), message, error });
  }
  return out;
}

async function pushScenario(kind: 'postgres' | 'pglite'): Promise<{ row: (string | number)[]; perAgent: number[] }> {
  const up = await startUpstream(kind);
  try {
    const agents: { id: string; token: string; checks: string[] }[] = [];
    for (let i = 0; i < agentCount; i++) {
      const a = await generateAgent(up, `bench-${i}`);
      const checks = Array.from({ length: checksPerAgent }, () => crypto.randomUUID());
      const seeded = await push(up, a.token, seedBody(a.id, checks));
      if (seeded.status !== 200) throw new Error(`seed push: ${seeded.status} ${seeded.text}`);
      agents.push({ ...a, checks });
    }
    // Warm-up: one batch each (the column cache, plans).
    const base = Date.UTC(2026, 0, 1);
    const next = agents.map(() => 0);
    const stepMs = Math.ceil(batch / checksPerAgent) * 1000;
    await Promise.all(
      agents.map(async (a, i) => {
        await push(up, a.token, { check_statuses: statusBatch(a.checks, base + next[i]!++ * stepMs, batch) });
      }),
    );
    const times: number[] = [];
    const accepted = agents.map(() => 0);
    let limited = 0;
    let stored = 0;
    let failed = 0;
    let firstFailure = '';
    const upTicks0 = processTicks(up.child.process.pid);
    const backends0 = kind === 'postgres' ? postgresBackendTicks(BENCH_DB) : new Map<string, number>();
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const deadline = started + seconds * 1000;
    await Promise.all(
      agents.map(async (a, i) => {
        while (performance.now() < deadline) {
          const body = { check_statuses: statusBatch(a.checks, base + next[i]!++ * stepMs, batch) };
          const o = await push(up, a.token, body);
          if (o.status === 200) {
            times.push(o.ms);
            accepted[i]! += o.accepted;
            stored += o.stored;
          } else if (o.status === 429) {
            limited++;
            await sleep(Math.max(1, o.retryAfterS) * 1000);
          } else {
            failed++;
            firstFailure ||= `${o.status} ${o.text.slice(0, 200)}`;
            await sleep(1000);
          }
        }
      }),
    );
    const wall = performance.now() - started;
    const upMs = (processTicks(up.child.process.pid) - upTicks0) * TICK_MS;
    const backendMs =
      kind === 'postgres' ? backendTicksBetween(backends0, postgresBackendTicks(BENCH_DB)) * TICK_MS : 0;
    const cpu = process.cpuUsage(cpu0);
    if (firstFailure) console.error(`${kind}: first failed push: ${firstFailure}`);
    const total = accepted.reduce((s, n) => s + n, 0);
    const perAgent = accepted.map((n) => Math.round(n / (wall / 1000)));
    const pct = (ms: number) => `${((ms / wall) * 100).toFixed(0)} %`;
    return {
      perAgent,
      row: [
        kind,
        Math.round(wall / 1000),
        times.length,
        total,
        stored,
        Math.round(total / (wall / 1000)),
        `${Math.min(...perAgent)}–${Math.max(...perAgent)}`,
        Math.round(percentile(times, 50)),
        Math.round(percentile(times, 99)),
        limited,
        failed,
        (times.length / (wall / 1000) / agentCount).toFixed(1),
        pct(upMs),
        kind === 'postgres' ? pct(backendMs) : '-',
        pct((cpu.user + cpu.system) / 1000),
      ],
    };
  } finally {
    await stopUpstream(kind, up);
  }
}

const agentFrom = String(flags['agent-from'] ?? (fs.existsSync('server/dist/cli.js') ? 'dist' : 'src'));
const agentArgs = agentFrom === 'dist' ? ['server/dist/cli.js'] : ['--import', 'tsx', 'server/src/cli.ts'];

async function signInCookie(url: string): Promise<string> {
  const r = await fetch(`${url}/api/auth/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: url },
    body: JSON.stringify({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD }),
  });
  if (r.status !== 200) throw new Error(`signing in to ${url}: ${r.status} ${await r.text()}`);
  return r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0]!)
    .join('; ');
}

async function applyCanaries(agentUrl: string, targetPort: number): Promise<void> {
  const cookie = await signInCookie(agentUrl);
  const perCanary = 50;
  for (let c = 0; c * perCanary < rssChecks; c++) {
    const n = Math.min(perCanary, rssChecks - c * perCanary);
    const tcp = (i: number) => `    - name: tcp-${c}-${i}\n      endpoint: 127.0.0.1:${targetPort}\n`;
    const checks = Array.from({ length: n }, (_, i) => tcp(i)).join('');
    const r = await fetch(`${agentUrl}/api/canary`, {
      method: 'POST',
      headers: { cookie, origin: agentUrl, 'content-type': 'application/yaml' },
      body: `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata: {name: bench-${c}, namespace: bench}\nspec:\n  schedule: "@every 30s"\n  tcp:\n${checks}`,
    });
    const text = await r.text();
    if (r.status !== 201 && r.status !== 200) throw new Error(`apply canary ${c}: ${r.status} ${text}`);
  }
}

/** One run of the agent process on agentDir: RSS once listening, then sampled every second. */
async function agentPhase(
  label: string,
  up: Upstream,
  token: string,
  agentDir: string,
  targetPort: number | undefined,
): Promise<(string | number)[]> {
  const agentPort = await freePort();
  const agent = startChild(process.execPath, [...agentArgs, 'agent', '--upstream', up.url, '--name', 'bench-rss'], {
    ...process.env,
    ...ADMIN,
    OPSDECK_DEMO: 'false',
    HOST: '127.0.0.1',
    PORT: String(agentPort),
    DATA_DIR: agentDir,
    OPSDECK_AGENT_TOKEN: token,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
  });
  try {
    const agentUrl = `http://127.0.0.1:${agentPort}`;
    await waitForHttp(`${agentUrl}/api/about`, agent, { timeoutMs: 180_000, intervalMs: 100 });
    const startRss = rssBytes(agent.process.pid);
    if (targetPort !== undefined) await applyCanaries(agentUrl, targetPort);
    const samples: number[] = [];
    const ticks0 = processTicks(agent.process.pid);
    const started = performance.now();
    while (performance.now() - started < rssSeconds * 1000) {
      if (agent.hasExited()) throw new Error(`the agent exited:\n${agent.output()}`);
      samples.push(rssBytes(agent.process.pid));
      await sleep(1000);
    }
    const wall = performance.now() - started;
    const agentMs = (processTicks(agent.process.pid) - ticks0) * TICK_MS;
    const count = await fetch(`${up.url}/api/db/check_statuses?select=check_id&limit=1`, {
      headers: { cookie: up.cookie, prefer: 'count=exact', range: '0-0' },
    });
    await count.text();
    const received = count.headers.get('content-range')?.split('/')[1] ?? '?';
    const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
    return [
      label,
      rssChecks,
      Math.round(wall / 1000),
      mb(startRss),
      mb(Math.max(...samples)),
      mb(median(samples.slice(Math.floor(samples.length / 2)))),
      mb(samples.at(-1)!),
      `${((agentMs / wall) * 100).toFixed(1)} %`,
      received,
    ];
  } finally {
    await agent.stop();
  }
}

/** First start (the embedded database is initialised in the process), then a restart on the same data. */
async function rssScenario(): Promise<(string | number)[][]> {
  const target = net.createServer((s) => s.end());
  await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  const targetPort = (target.address() as net.AddressInfo).port;
  const up = await startUpstream('pglite');
  const agentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-bench-agent-'));
  try {
    const a = await generateAgent(up, 'bench-rss');
    const first = await agentPhase('first start (initdb)', up, a.token, agentDir, targetPort);
    const restarted = await agentPhase('restarted', up, a.token, agentDir, undefined);
    return [first, restarted];
  } finally {
    await stopUpstream('pglite', up);
    target.close();
    fs.rmSync(agentDir, { recursive: true, force: true });
  }
}

const load0 = loadavg();
if (part === 'all' || part === 'push') {
  const rows: (string | number)[][] = [];
  const perAgentRows: (string | number)[][] = [];
  for (const kind of ['postgres', 'pglite'] as const) {
    if (which !== 'all' && which !== kind) continue;
    const r = await pushScenario(kind);
    rows.push(r.row);
    perAgentRows.push([kind, ...r.perAgent]);
  }
  console.log(
    `\nagents push: ${agentCount} concurrent agents, gzip batches of ${batch} check_statuses (${checksPerAgent} checks each), ` +
      `${seconds} s; ${os.cpus().length} CPUs; loadavg before: ${load0}; after: ${loadavg()}\n`,
  );
  const header = 'database|s|pushes|statuses|stored|statuses/s|per agent/s|p50 ms|p99 ms|429s|errors|pushes/s/agent';
  printTable([...header.split('|'), 'upstream CPU', 'PG backends CPU', 'bench CPU'], rows);
  console.log('');
  printTable(['statuses/s', ...Array.from({ length: agentCount }, (_, i) => `agent ${i}`)], perAgentRows);
}
if (part === 'all' || part === 'rss') {
  const rows = await rssScenario();
  console.log(
    `\nagent RSS: one agent process (node ${agentArgs.join(' ')} agent, embedded PGlite) with tcp checks @every 30s ` +
      `to a loopback port, pushing to an upstream (PGlite); loadavg now: ${loadavg()}\n`,
  );
  printTable(
    [
      'run',
      'checks',
      's',
      'RSS listening MB',
      'RSS max MB',
      'RSS steady MB',
      'RSS at end MB',
      'agent CPU',
      'statuses upstream',
    ],
    rows,
  );
  const worst = Math.max(...rows.map((r) => Number(r[4])));
  console.log(
    `\ngoal: RSS < ${RSS_GOAL_MB} MB with ${rssChecks} checks: ${worst < RSS_GOAL_MB ? 'met' : 'NOT met'} (max ${worst} MB)`,
  );
}
