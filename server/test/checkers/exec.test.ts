// The exec checker with real bash child processes: exit codes, stderr in the error, env values,
// the server's secrets kept out, and a timeout that kills the script and what it started.
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execChecker, execSchema, type ExecSpec } from '../../src/health/checkers/exec.js';
import { testCheckContext } from '../helpers/checkContext.js';

const pidFile = path.join(os.tmpdir(), `exec-test-${process.pid}.pid`);

afterAll(async () => {
  await rm(pidFile, { force: true });
});

const run = (fields: Partial<ExecSpec>, ctx = testCheckContext()) =>
  execChecker.run(execSchema.parse({ name: 'exec-test', ...fields }), ctx);

/** Running (a zombie waiting for a reaper that never comes in some containers counts as gone). */
async function alive(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

async function gone(pid: number, withinMs: number): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (await alive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((res) => setTimeout(res, 50));
  }
  return true;
}

describe('exec', () => {
  it('passes on exit code 0 and exposes stdout, stderr and exitCode', async () => {
    const r = await run({ script: 'echo hello; echo warn >&2' });
    expect(r.error).toBeUndefined();
    expect(r.pass).toBe(true);
    expect(r.data).toEqual({});
    expect(r.results).toEqual({ stdout: 'hello', stderr: 'warn', exitCode: 0 });
    expect(r.message).toBe('hello');
  });

  it('fails on a non-zero exit code, naming the code and stderr', async () => {
    const r = await run({ script: 'echo partial; echo "disk /data is full" >&2; exit 3' });
    expect(r.pass).toBe(false);
    expect(r.error).toBe('exit code 3: disk /data is full');
    expect(r.results).toMatchObject({ stdout: 'partial', exitCode: 3 });
    const quiet = await run({ script: 'exit 4' });
    expect(quiet.error).toBe('exit code 4 (nothing on stderr)');
  });

  it('passes env values to the script, and not the server environment', async () => {
    process.env.OPSDECK_TEST_SECRET = 'do-not-leak';
    try {
      const r = await run({
        script: 'echo "$GREETING $TARGET"; echo "secret=${OPSDECK_TEST_SECRET:-unset}"; pwd',
        env: [
          { name: 'GREETING', value: 'hello' },
          { name: 'TARGET', value: 'world' },
        ],
      });
      expect(r.pass).toBe(true);
      const lines = (r.results as { stdout: string }).stdout.split('\n');
      expect(lines[0]).toBe('hello world');
      expect(lines[1]).toBe('secret=unset');
      expect(lines[2]).toMatch(/opsdeck-exec-/);
    } finally {
      delete process.env.OPSDECK_TEST_SECRET;
    }
  });

  it('is invalid when an env value cannot be resolved', async () => {
    const r = await run({
      script: 'true',
      env: [{ name: 'TOKEN', valueFrom: { secretKeyRef: { name: 's', key: 'k' } } }],
    });
    expect(r.invalid).toBe(true);
    expect(r.error).toMatch(/^env\.TOKEN: /);
  });

  it('kills the script and its children on timeout', async () => {
    const started = Date.now();
    const r = await run({ script: `sleep 30 & echo $! > ${pidFile}; wait`, timeout: '500ms' });
    expect(r.pass).toBe(false);
    expect(r.error).toBe('timed out after 500 ms; the script was killed');
    expect(Date.now() - started).toBeLessThan(5000);
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await gone(child, 2_000)).toBe(true);
  });

  it('kills the script when the context aborts', async () => {
    const r = await run({ script: 'sleep 30' }, testCheckContext({ timeoutMs: 300 }));
    expect(r.pass).toBe(false);
    expect(r.error).toBe('timed out after 300 ms; the script was killed');
    expect((r.results as { exitCode: number }).exitCode).toBe(-1);
  });

  it('refuses git checkout, and requires a script', async () => {
    const r = await run({ script: 'true', checkout: { url: 'https://example.com/repo.git' } });
    expect(r.invalid).toBe(true);
    expect(r.error).toMatch(/checkout .* is not supported yet/);
    expect(execSchema.safeParse({ name: 'x' }).error?.issues[0]?.message).toBe('script is required');
  });
});
