// Part of `npm run bench -- health-sketch` (--process N): answers computed on request as a server
// gives them over HTTP, where the in-process figures of health-sketch.ts run the summary's code in
// a process that has run it hundreds of times, and leave out the answer's validator and console
// stream. Each of N server processes (`server/dist/main.js` on the benchmark's database, its engines
// off: nothing precomputes, the edges are as the benchmark left them) is signed in to and asked:
// - once just after it started, as an operator meets it after a deploy or a restart: nothing kept,
//   and none of the summary's code compiled yet by V8;
// - then `afterIdle` more times (--process-answers, default 3), each after the summary's idle time
//   (HEALTH_SUMMARY_IDLE_MS, set to IDLE_MS here): nothing kept again, as a running server after a
//   quiet spell. The later half of them are also shown apart ("steady"): a server that has answered
//   a few times has the summary's code compiled, as one running for days has.
// One kind of answer per process, the three in turn: a custom range as the console asks
// (format=console, gzip) or as an API client does (the FORMATS.md JSON, uncompressed), or the last
// 30 days computed now (`Cache-Control: no-cache`: it reads the runs since the latest edge too) as
// the console asks. Printed: the server's own time (the answer's `duration`) and the request's time
// at the client (the console's includes deflating its 3–4 MB once; the JSON's, receiving its 7 MB),
// as median, p95 and max. `nodeArgs`: the server's node flags (--cpu-prof for a profile of each).
import { ensureServerBuilt, loadavg, median, percentile, printTable, signIn, sleep, startServer } from './lib.js';

const ADMIN_EMAIL = 'bench-admin@opsdeck.local';
const ADMIN_PASSWORD = 'opsdeck-bench-password';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The summary's idle time in the benchmark's servers (HEALTH_SUMMARY_IDLE_MS): after it, nothing is kept. */
const IDLE_MS = 2_000;

const log = (s: string) => console.log(s);

/** The server's `duration` in a summary answer (the JSON's last key; the console answer's too). */
function durationOf(body: string): number {
  const m = /"duration":(\d+)\}\s*$/.exec(body);
  if (!m) throw new Error(`no duration in the answer: …${body.slice(-200)}`);
  return Number(m[1]);
}

/**
 * `runs` new server processes per kind of answer on the database `env` names (DATABASE_URL, or
 * DATA_DIR for PGlite), each asked once just after it started and `afterIdle` times after the idle time.
 */
export async function measureNewProcess(
  label: string,
  env: NodeJS.ProcessEnv,
  runs: number,
  nodeArgs: string[] = [],
  afterIdle = 3,
): Promise<void> {
  ensureServerBuilt();
  const custom = (shiftMin: number) => {
    const now = Date.now() - shiftMin * 60_000;
    return `start=${new Date(now - 3 * DAY - 17 * 60_000).toISOString()}&end=${new Date(now - DAY - 5 * HOUR - 3 * 60_000).toISOString()}`;
  };
  const kinds = [
    {
      name: 'custom, console, gzip (the page)',
      query: (j: number) => `${custom(j)}&format=console`,
      encoding: 'gzip',
      cache: '',
    },
    {
      name: 'custom, JSON, identity (API)',
      query: (j: number) => `${custom(j)}&format=json`,
      encoding: 'identity',
      cache: '',
    },
    { name: '30d now, console, gzip', query: () => 'start=30d&format=console', encoding: 'gzip', cache: 'no-cache' },
  ];
  const got = kinds.map(() => ({
    server: [] as number[],
    client: [] as number[],
    idleServer: [] as number[],
    idleClient: [] as number[],
    steadyServer: [] as number[],
  }));
  // Signed in once (sign-ins are rate limited across processes); the session lives in the database.
  let cookie: string | undefined;
  for (let i = 0; i < runs; i++)
    for (let k = 0; k < kinds.length; k++) {
      const kind = kinds[(i + k) % kinds.length]!;
      const g = got[kinds.indexOf(kind)]!;
      const server = await startServer(
        {
          ...env,
          OPSDECK_ENGINES: 'false',
          ADMIN_EMAIL,
          ADMIN_PASSWORD,
          AUTH_SECRET: 'opsdeck-bench-health-sketch-process-secret',
          HEALTH_SUMMARY_IDLE_MS: String(IDLE_MS),
        },
        nodeArgs,
      );
      try {
        cookie ??= await signIn(server.origin, ADMIN_EMAIL, ADMIN_PASSWORD);
        // A request the server answers first, as the page's session check would be.
        const who = await fetch(`${server.origin}/api/auth/whoami`, { headers: { cookie } });
        if (who.status !== 200 || !(await who.text()).includes(ADMIN_EMAIL))
          throw new Error(`the session was not accepted by a new process: ${who.status}`);
        const ask = async (j: number) => {
          const t0 = performance.now();
          const res = await fetch(`${server.origin}/api/canary/api/summary?${kind.query(j)}`, {
            headers: { cookie: cookie!, 'accept-encoding': kind.encoding, 'cache-control': kind.cache },
          });
          const body = await res.text();
          const ms = performance.now() - t0;
          if (res.status !== 200) throw new Error(`summary: ${res.status} ${body.slice(0, 300)}`);
          const h = (k: string) => res.headers.get(k);
          // Computed now (not the 5-second answer cache), from the edges (they say what they cover).
          if (h('x-summary-source') !== 'live' || h('x-summary-cache') !== 'miss' || !h('x-summary-range'))
            throw new Error('the answer was not computed from the edges now (are they older than 15 minutes?)');
          return { server: durationOf(body), client: ms };
        };
        const first = await ask(0);
        g.server.push(first.server);
        g.client.push(first.client);
        // Then, on the same process, a range after the summary's idle time (nothing kept).
        for (let j = 1; j <= afterIdle; j++) {
          await sleep(IDLE_MS * 1.5);
          const later = await ask(j);
          g.idleServer.push(later.server);
          g.idleClient.push(later.client);
          if (j > afterIdle / 2) g.steadyServer.push(later.server);
        }
      } finally {
        await server.child.stop();
      }
    }
  const row = (xs: number[]) => [Math.round(median(xs)), Math.round(percentile(xs, 95)), Math.round(Math.max(...xs))];
  log(
    `\n${label}: answers computed on request over HTTP (custom: 3d−17m … 1d5h3m): the first of a server process just started (${runs} processes each), then ${afterIdle} more on it, each after the summary's idle time (nothing kept; ${runs * afterIdle} each; steady: the later half of them); ms, load ${loadavg()}`,
  );
  printTable(
    [
      'answer',
      'first: server median',
      'p95',
      'max',
      'client median',
      'p95',
      'after idle: server median',
      'p95',
      'max',
      'client median',
      'p95',
      'steady: server median',
      'p95',
    ],
    kinds.map((k, i) => {
      const g = got[i]!;
      const [cm, cp] = row(g.client);
      const [im, ip] = row(g.idleClient);
      const [sm, sp] = row(g.steadyServer);
      return [k.name, ...row(g.server), cm!, cp!, ...row(g.idleServer), im!, ip!, sm!, sp!];
    }),
  );
}
