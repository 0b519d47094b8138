// Child processes for checks, scrapers and actions (exec, icmp): run in their own process group, output
// captured up to a cap, the whole group killed (TERM, then KILL) when the caller's signal aborts.
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { CappedBuffer } from './text.js';

const MAX_OUTPUT_BYTES = 1024 * 1024;
/** Environment variables a child process inherits from the server; everything else (secrets) stays out. */
const INHERITED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'TZ',
  'TMPDIR',
  'HOSTNAME',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
  'http_proxy',
  'https_proxy',
  'no_proxy',
];

export function baseEnv(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const k of INHERITED_ENV) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** The first executable called `name` in a PATH-style list of directories. */
export async function findOnPath(name: string, pathEnv: string | undefined): Promise<string | undefined> {
  for (const dir of (pathEnv ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export interface ProcessResult {
  exitCode: number | null;
  /** The signal that ended the process, if one did. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** The check's signal aborted and the process group was killed. */
  aborted: boolean;
  /** The process could not be started (ENOENT, EACCES...). */
  spawnError?: NodeJS.ErrnoException;
}

export interface ProcessOptions {
  env: Record<string, string>;
  cwd?: string;
  signal: AbortSignal;
  /** Time between SIGTERM and SIGKILL after an abort. */
  killGraceMs?: number;
  maxBytes?: number;
}

function killGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      // already gone
    }
  }
}

export function runProcess(command: string, args: string[], opts: ProcessOptions): Promise<ProcessResult> {
  const maxBytes = opts.maxBytes ?? MAX_OUTPUT_BYTES;
  const stdout = new CappedBuffer(maxBytes);
  const stderr = new CappedBuffer(maxBytes);
  return new Promise((resolve) => {
    let aborted = false;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so a timeout kills what it started too
    });
    const finish = (r: Omit<ProcessResult, 'stdout' | 'stderr' | 'truncated' | 'aborted'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      clearTimeout(closeTimer);
      opts.signal.removeEventListener('abort', onAbort);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({
        ...r,
        stdout: stdout.toString(),
        stderr: stderr.toString(),
        truncated: stdout.truncated || stderr.truncated,
        aborted,
      });
    };
    const onAbort = () => {
      if (settled || child.pid === undefined) return;
      aborted = true;
      killGroup(child.pid, 'SIGTERM');
      killTimer = setTimeout(
        () => child.pid !== undefined && killGroup(child.pid, 'SIGKILL'),
        opts.killGraceMs ?? 2_000,
      );
    };
    child.stdout?.on('data', (c: Buffer) => stdout.push(c));
    child.stderr?.on('data', (c: Buffer) => stderr.push(c));
    child.once('error', (e: NodeJS.ErrnoException) => finish({ exitCode: null, signal: null, spawnError: e }));
    child.once('close', (code, sig) => finish({ exitCode: code, signal: sig }));
    child.once('exit', (code, sig) => {
      // Something it started in the background may hold the pipes open: do not wait for it long.
      closeTimer = setTimeout(() => {
        if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
        finish({ exitCode: code, signal: sig });
      }, 1_000);
    });
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });
  });
}
