// Real child processes in integration tests: a server (`server/dist/main.js`, or the sources through
// tsx) or an agent (`server/dist/cli.js agent`) spawned with node, its output collected, waited for
// until it answers, and stopped with SIGTERM (SIGKILL after a grace period where asked).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/** The repository root. */
export const root = path.resolve(import.meta.dirname, '../../..');
/** The built CLI (`opsdeck agent`, ...). */
export const cli = path.join(root, 'server/dist/cli.js');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A loopback port nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Polls `fn` (a throw counts as not yet) until it answers something truthy; throws after `timeoutMs`. */
export async function until<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(300);
  }
}

export interface Spawned {
  child: ChildProcess;
  /** Everything it wrote so far, stdout and stderr interleaved. */
  output: () => string;
}

/** `node <args>` with `env` over this process's environment, its output collected. */
export function spawnNode(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Spawned {
  let output = '';
  const child = spawn(process.execPath, args, {
    cwd,
    // Info lines are what several tests wait for (the test run itself logs at warn: vitest.config.ts).
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return { child, output: () => output };
}

export interface RunningServer extends Spawned {
  url: string;
}

/** A server process on a free loopback port (PORT), once GET /api/about answers; throws with its output when it exits or does not answer within `timeoutMs`. */
export async function startServerProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  opts: { cwd?: string; timeoutMs?: number; pollMs?: number } = {},
): Promise<RunningServer> {
  const { timeoutMs = 60_000, pollMs = 100 } = opts;
  const port = await freePort();
  const s = spawnNode(args, { ...env, PORT: String(port) }, opts.cwd);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (s.child.exitCode !== null) throw new Error(`server exited with ${s.child.exitCode}: ${s.output()}`);
    try {
      if ((await fetch(`${url}/api/about`)).ok) return { ...s, url };
    } catch {
      // not listening yet
    }
    await sleep(pollMs);
  }
  s.child.kill('SIGKILL');
  throw new Error(`server did not answer within ${timeoutMs / 1000} s: ${s.output()}`);
}

/** SIGTERM and its exit code; with `killAfterMs`, SIGKILL when it has not exited by then. */
export async function stopProcess(child: ChildProcess, killAfterMs?: number): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  if (killAfterMs === undefined) return exited;
  await Promise.race([exited, sleep(killAfterMs)]);
  if (child.exitCode === null) child.kill('SIGKILL');
  return child.exitCode;
}
