// The exec check: runs script with `bash -c` in a fresh temporary directory, with env added to a
// minimal inherited environment (connections/script.ts); passes on exit code 0. Its result detail,
// bound as `results` as canary-checker binds it: {stdout (trimmed), stderr, exitCode}.
import { z } from 'zod';
import type { CheckContext, CheckResult, Checker } from '../checker.js';
import { SpecError } from '../../connections/errors.js';
import { abortMessage, commonFields, deadline, fail, invalid, resolveValue } from './common.js';
import { durationSchema } from '../../connections/duration.js';
import { envVarSchema } from '../../connections/envValue.js';
import { head } from '../../connections/text.js';
import { durationMs as toMs } from '../../connections/duration.js';
import { BASH_MISSING, runScript, scriptData, scriptFailure, scriptSummary } from '../../connections/script.js';

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
  const signal = deadline(ctx, spec.timeout === undefined ? undefined : toMs(spec.timeout));
  const r = await runScript(spec.script, extra, signal);
  if (!r) return fail(BASH_MISSING);
  // canary-checker's ExecDetails, bound as `results` by the runner.
  const { stdout, stderr, exitCode, ...data } = scriptData(r);
  const results = { stdout, stderr, exitCode };
  const error = scriptFailure(r, () => abortMessage(signal, ctx));
  if (error) return fail(error, data, { durationMs: r.durationMs, results });
  return { pass: true, message: scriptSummary(r), data, results, durationMs: r.durationMs };
}

export const execChecker: Checker<ExecSpec> = {
  type: 'exec',
  schema: execSchema,
  endpoint: (spec) => head(spec.script.split('\n')[0] ?? '', 120),
  run,
};

export default execChecker;
