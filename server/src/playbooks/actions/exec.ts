// `exec`: runs `script` with bash in a fresh temporary directory (removed afterwards), `env` added to
// a minimal environment; the whole process group is killed on timeout or cancel. Result: stdout,
// stderr, exitCode; a non-zero exit fails the action with the tail of stderr. The health `exec`
// checker does the work.
import { z } from 'zod';
import { envVarSchema } from '../../connections/envValue.js';
import { execChecker } from '../../health/checkers/exec.js';
import { checkContext, type PlaybookAction } from './action.js';

const notYet = (what: string) =>
  z.never({ error: `${what} is not supported yet; do it in the script or pass values with env` }).optional();

const schema = z.looseObject({
  script: z.string({ error: 'script is required' }).min(1, 'script is required'),
  env: z.array(envVarSchema).optional(),
  checkout: notYet('checkout (cloning a git repository)'),
  connections: notYet('connections (cloud credentials injected into the script)'),
  artifacts: notYet('artifacts'),
});
export type ExecActionSpec = z.infer<typeof schema>;

export const execAction: PlaybookAction<ExecActionSpec> = {
  type: 'exec',
  schema,
  async run(spec, ctx) {
    const r = await execChecker.run({ name: 'playbook-exec', script: spec.script, env: spec.env }, checkContext(ctx));
    return { result: r.data, error: r.pass ? undefined : (r.error ?? 'the script failed') };
  },
};
