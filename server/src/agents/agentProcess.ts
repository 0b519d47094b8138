// What `opsdeck agent` does to its own process before it starts, to stay small (bench/agents.ts
// measures it): an agent's memory is mostly its embedded database, and WebAssembly memory and
// compiled code only grow.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';

/**
 * V8 settings for a small process, set before the database is opened (its module is compiled once,
 * when loaded):
 * - the embedded database's WebAssembly compiled by the baseline compiler only (Liftoff): the
 *   optimizing tier compiles PostgreSQL's hot functions again in background threads, about 40 MB
 *   resident and seconds of CPU at start, for queries an agent runs a few times a second;
 * - the JavaScript heap grown by 10 % instead of doubling, favouring size over speed: garbage is
 *   collected before the heap reaches twice what is live (about 60 MB less).
 */
export function useSmallFootprint(): void {
  for (const flag of ['--liftoff-only', '--heap-growing-percent=10', '--optimize-for-size'])
    v8.setFlagsFromString(flag);
}

/**
 * A new data directory is created (initdb) and migrated in a short-lived child process
 * (`opsdeck migrate`), so that the agent opens an existing database: initdb runs a second
 * PostgreSQL instance and the migrations grow the WebAssembly heap, whose pages the agent would
 * otherwise keep for its whole life (about 90 MB). The child uses V8's optimizing tier: it is short-lived,
 * and initdb and the migrations run several times faster with it. `entry` is the command's script
 * (process.argv[1]).
 */
export function prepareDataDir(dataDir: string, entry: string, env: NodeJS.ProcessEnv = process.env): void {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return;
  fs.mkdirSync(dataDir, { recursive: true });
  const child = spawnSync(process.execPath, [...process.execArgv, entry, 'migrate'], {
    env: { ...env, DATA_DIR: dataDir, DATABASE_URL: '', OPSDECK_DEMO: 'false' },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (child.status !== 0)
    throw new Error(
      `creating the embedded database in ${dataDir} failed: ${child.error?.message ?? child.stderr.trim()}`,
    );
}
