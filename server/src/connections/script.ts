// Scripts run with `bash -c` in a fresh temporary directory (removed afterwards), with extra env on a
// minimal inherited environment; the whole process group is killed when the signal aborts. Used by
// the exec check and the playbook `exec` action, which word the outcome the same way.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { baseEnv, findOnPath, runProcess, type ProcessResult } from './process.js';
import { head, tail } from './text.js';

export const BASH_MISSING = 'bash is not installed on this server (Debian: apt-get install bash)';

export interface ScriptRun extends ProcessResult {
  durationMs: number;
}

/**
 * Runs `script` with bash; undefined when bash is not installed (BASH_MISSING says so). `collect`
 * sees the script's directory after it ended, before it is removed (a playbook's artifacts).
 */
export async function runScript(
  script: string,
  env: Record<string, string>,
  signal: AbortSignal,
  collect?: (cwd: string) => Promise<void>,
): Promise<ScriptRun | undefined> {
  const bash = await findOnPath('bash', process.env.PATH);
  if (!bash) return undefined;
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-exec-'));
  const started = performance.now();
  try {
    const r = await runProcess(bash, ['-c', script], { env: baseEnv({ ...env, PWD: cwd }), cwd, signal });
    const durationMs = Math.round(performance.now() - started);
    await collect?.(cwd);
    return { ...r, durationMs };
  } finally {
    await rm(cwd, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** What a run exposes: stdout, stderr (trimmed), exitCode (-1 when killed), outputTruncated when cut. */
export function scriptData(r: ScriptRun): Record<string, unknown> {
  return {
    stdout: r.stdout.trim(),
    stderr: r.stderr.trim(),
    exitCode: r.exitCode ?? -1,
    ...(r.truncated ? { outputTruncated: true } : {}),
  };
}

/**
 * Why a run failed, for a person, or undefined when it exited 0. `abortText` says why the signal
 * aborted ("timed out after 30 s"), asked for only when it did.
 */
export function scriptFailure(r: ScriptRun, abortText: () => string): string | undefined {
  if (r.spawnError) return `could not start bash: ${r.spawnError.message}`;
  if (r.aborted) return `${abortText()}; the script was killed`;
  if (r.exitCode === null) return `the script was killed by ${r.signal ?? 'a signal'}`;
  if (r.exitCode !== 0) {
    const stderr = tail(r.stderr, 1_000);
    return stderr ? `exit code ${r.exitCode}: ${stderr}` : `exit code ${r.exitCode} (nothing on stderr)`;
  }
  return undefined;
}

/** A successful run in one line: the first line of stdout, else "exit code 0". */
export function scriptSummary(r: ScriptRun): string {
  return head(r.stdout.trim().split('\n')[0] ?? '', 200) || 'exit code 0';
}
