// The exec check: runs script with `bash -c` in a fresh temporary directory, with env added to a
// minimal inherited environment; passes on exit code 0 and exposes stdout, stderr and exitCode.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { SpecError } from '../../connections/errors.js';
import { abortMessage, commonFields, deadline, fail, invalid, resolveValue } from './common.js';
import { durationSchema } from '../../connections/duration.js';
import { envVarSchema } from '../../connections/envValue.js';
import { head, tail } from '../../connections/text.js';
import { durationMs as toMs } from '../../connections/duration.js';
import { baseEnv, findOnPath, runProcess } from '../../connections/process.js';

export const execSchema = z.looseObject({
  ...commonFields,
  script: z.string({ error: 'script is required' }).min(1, 'script is required'),
  env: z.array(envVarSchema).optional(),
  checkout: z.looseObject({}).optional(),
  connections: z.looseObject({}).optional(),
  artifacts: z.array(z.unknown()).optional(),
  timeout: durationSchema.optional(),
});

export type ExecSpec = z.infer<typeof execSchema>;

async function run(spec: ExecSpec, ctx: CheckContext): Promise<CheckResult> {
  if (spec.checkout && Object.keys(spec.checkout).length) {
    return invalid(
      'checkout (cloning a git repository for the script) is not supported yet; clone it in the script instead',
    );
  }
  if (spec.connections && Object.values(spec.connections).some((v) => v !== undefined && v !== null)) {
    return invalid(
      'connections (cloud credentials injected into the script) are not supported yet; pass them with env instead',
    );
  }
  const extra: Record<string, string> = {};
  try {
    for (const e of spec.env ?? []) {
      extra[e.name] = (await resolveValue(ctx, { value: e.value, valueFrom: e.valueFrom }, `env.${e.name}`)) ?? '';
    }
  } catch (e) {
    if (e instanceof SpecError) return invalid(e.message);
    throw e;
  }
  const bash = await findOnPath('bash', process.env.PATH);
  if (!bash) return fail('bash is not installed on this server (Debian: apt-get install bash)');

  const signal = deadline(ctx, spec.timeout === undefined ? undefined : toMs(spec.timeout));
  const cwd = await mkdtemp(path.join(os.tmpdir(), 'opsdeck-exec-'));
  const started = performance.now();
  try {
    const r = await runProcess(bash, ['-c', spec.script], { env: baseEnv({ ...extra, PWD: cwd }), cwd, signal });
    const durationMs = Math.round(performance.now() - started);
    const data: Record<string, unknown> = {
      stdout: r.stdout.trim(),
      stderr: r.stderr.trim(),
      exitCode: r.exitCode ?? -1,
      ...(r.truncated ? { outputTruncated: true } : {}),
    };
    if (r.spawnError) return fail(`could not start bash: ${r.spawnError.message}`, data, { durationMs });
    if (r.aborted) return fail(`${abortMessage(signal, ctx)}; the script was killed`, data, { durationMs });
    if (r.exitCode === null) return fail(`the script was killed by ${r.signal ?? 'a signal'}`, data, { durationMs });
    if (r.exitCode !== 0) {
      const stderr = tail(r.stderr, 1_000);
      return fail(stderr ? `exit code ${r.exitCode}: ${stderr}` : `exit code ${r.exitCode} (nothing on stderr)`, data, {
        durationMs,
      });
    }
    const out = head(r.stdout.trim().split('\n')[0] ?? '', 200);
    return { pass: true, message: out || 'exit code 0', data, durationMs };
  } finally {
    await rm(cwd, { recursive: true, force: true }).catch(() => undefined);
  }
}

export const execChecker: Checker<ExecSpec> = {
  type: 'exec',
  schema: execSchema,
  endpoint: (spec) => head(spec.script.split('\n')[0] ?? '', 120),
  run,
};

export default execChecker;
