// `bench rest --sequential N`: the cost of one request, measured with one request at a time, so it
// hardly depends on how busy the machine is: CPU time (from /proc/<pid>/task/*/schedstat, in ns) of the
// server process and of the PostgreSQL backends serving the benchmark database, per request, and
// the round-trip time. Background work of the server (Opsdeck's engines) is included.
import fs from 'node:fs';

/** CPU nanoseconds of a process (all its threads) so far; 0 when it is gone. */
function cpuNs(pid: number | string): number {
  let ns = 0;
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(fs.readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended meanwhile
      }
    }
  } catch {
    // the process is gone
  }
  return ns;
}

/** CPU nanoseconds of every PostgreSQL backend connected to the database, by pid. */
function backendsNs(database: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${database} `)) out.set(entry, cpuNs(entry));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

export interface SequentialCost {
  requests: number;
  /** ms per request */
  serverMs: number;
  postgresMs: number;
  wallMs: number;
}

/** Sends `requests` requests one after the other (after a warm-up) and returns their mean cost. */
export async function sequentialCost(
  urls: () => string,
  headers: Record<string, string>,
  serverPid: number,
  database: string,
  requests: number,
): Promise<SequentialCost> {
  const one = async () => {
    // Uncompressed, as the load generator asks (fetch would ask for gzip, which Opsdeck honours).
    const r = await fetch(urls(), { headers: { 'accept-encoding': 'identity', ...headers } });
    await r.arrayBuffer();
    if (r.status >= 400) throw new Error(`${r.status} from ${r.url}`);
  };
  for (let i = 0; i < Math.min(200, requests); i++) await one();
  const server0 = cpuNs(serverPid);
  const pg0 = backendsNs(database);
  const t0 = performance.now();
  for (let i = 0; i < requests; i++) await one();
  const wall = performance.now() - t0;
  const server1 = cpuNs(serverPid);
  let pg = 0;
  for (const [pid, ns] of backendsNs(database)) pg += ns - (pg0.get(pid) ?? 0);
  const per = (ns: number) => ns / 1e6 / requests;
  return { requests, serverMs: per(server1 - server0), postgresMs: per(pg), wallMs: wall / requests };
}
