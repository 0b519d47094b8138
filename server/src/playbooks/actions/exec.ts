// `exec`: runs `script` with bash in a fresh temporary directory (removed afterwards), `env` added to
// a minimal environment; the whole process group is killed on timeout or cancel. Result: stdout,
// stderr, exitCode; a non-zero exit fails the action with the tail of stderr. The same runner as the
// health `exec` check (connections/script.ts). `artifacts: [{path}]` (globs, relative to the script's
// directory or absolute) are saved once the script ended, also when it failed (artifacts.ts); the
// result lists them (`artifacts`) and any file skipped (`artifactsSkipped`).
import { z } from 'zod';
import { SpecError } from '../../connections/errors.js';
import { envVarSchema } from '../../connections/envValue.js';
import { resolveField } from '../../connections/resolve.js';
import { BASH_MISSING, runScript, scriptData, scriptFailure } from '../../connections/script.js';
import { artifactsSchema, collectArtifacts, saveArtifacts, type Collected } from '../artifacts.js';
import { abortText, connectionContext, type PlaybookAction } from './action.js';

const notYet = (what: string) =>
  z.never({ error: `${what} is not supported yet; do it in the script or pass values with env` }).optional();

const schema = z.looseObject({
  script: z.string({ error: 'script is required' }).min(1, 'script is required'),
  env: z.array(envVarSchema).optional(),
  checkout: notYet('checkout (cloning a git repository)'),
  connections: notYet('connections (cloud credentials injected into the script)'),
  artifacts: artifactsSchema.optional(),
});
export type ExecActionSpec = z.infer<typeof schema>;

export const execAction: PlaybookAction<ExecActionSpec> = {
  type: 'exec',
  schema,
  async run(spec, ctx) {
    const cctx = connectionContext(ctx);
    const env: Record<string, string> = {};
    try {
      for (const e of spec.env ?? []) {
        env[e.name] = (await resolveField(cctx, `env.${e.name}`, { value: e.value, valueFrom: e.valueFrom })) ?? '';
      }
    } catch (e) {
      if (e instanceof SpecError) return { result: {}, error: e.message };
      throw e;
    }
    let collected: Collected | undefined;
    const artifacts = spec.artifacts;
    const r = await runScript(
      spec.script,
      env,
      ctx.signal,
      artifacts?.length ? async (cwd) => void (collected = await collectArtifacts(cwd, artifacts)) : undefined,
    );
    if (!r) return { result: {}, error: BASH_MISSING };
    const result = scriptData(r);
    const found = collected as Collected | undefined;
    if (found && ctx.actionId) {
      result.artifacts = await saveArtifacts(ctx.db, ctx.actionId, found.files);
      if (found.skipped.length) result.artifactsSkipped = found.skipped;
    }
    return { result, error: scriptFailure(r, () => abortText(ctx)) };
  },
};
