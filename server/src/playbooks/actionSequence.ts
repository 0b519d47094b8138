// One playbook run's actions in order (their rows, `if` / `delay`, retries, results), as runner.ts runs each claimed run.
import type { Database } from '../db/database.js';
import { parseDuration } from '../connections/duration.js';
import { delayMs, evaluateCondition, type RunState } from './conditions.js';
import { parseStoredPlaybook, type ActionSpec } from './playbook.js';
import { recordRetry, withRetries } from './retry.js';
import { runAction, type ActionContext } from './runAction.js';
import { openSecretParams, redactSecrets, secretValues } from './secretParams.js';
import { runSubjects } from './store.js';
import { actionRows, ENDED, RELEASED_NOTE } from './handBack.js';

export interface RunRow {
  id: string;
  playbook_id: string;
  spec: Record<string, unknown>;
  parameters: Record<string, string>;
  /** Sealed values of `secret` parameters (secretParams.ts). */
  secret_parameters: Record<string, string> | null;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  created_by: string | null;
  request: Record<string, unknown> | null; // a webhook run's request (.request)
  playbook_name: string;
  playbook_namespace: string;
  playbook_title: string | null;
}

/** Stops a run: cancelled, interrupted by a shutdown, or its lease lost. */
export class RunStopped extends Error {}
/** A graceful shutdown: the run goes back to the queue, its current action to be run again. */
export class RunReleased extends RunStopped {}
export const RELEASED = 'released' as const;

const MAX_ERROR_LENGTH = 4_000;
export const clip = (text: string) => (text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}…` : text);

async function loadRun(db: Database, runId: string): Promise<RunRow> {
  const { rows } = await db.query<RunRow>(
    `SELECT r.id, r.playbook_id, r.spec, r.parameters, r.secret_parameters, r.config_id, r.component_id, r.check_id, r.created_by, r.request,
              p.name AS playbook_name, p.namespace AS playbook_namespace, p.title AS playbook_title
       FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id WHERE r.id = $1`,
    [runId],
  );
  if (!rows[0]) throw new Error(`run ${runId} disappeared`);
  return rows[0];
}

/** The variables templates and `if` see. */
async function variables(db: Database, run: RunRow): Promise<Record<string, unknown>> {
  const { resources, user } = await runSubjects(db, run);
  return {
    params: openSecretParams(run.parameters, run.secret_parameters),
    ...resources,
    user,
    request: run.request,
    run: { id: run.id },
    playbook: { id: run.playbook_id, name: run.playbook_name, title: run.playbook_title ?? run.playbook_name },
    actions: {},
    last_result: null,
  };
}

/** Runs the actions of a claimed run; RELEASED when a graceful shutdown hands it back. */
export async function runActions(
  { db, mail }: { db: Database; mail: ActionContext['mail'] },
  runId: string,
  runSignal: AbortSignal,
): Promise<{ status: 'completed' | 'failed'; error: string | null } | typeof RELEASED> {
  let run: RunRow;
  let vars: Record<string, unknown>;
  let actions: ActionSpec[];
  let deadline = Infinity;
  try {
    run = await loadRun(db, runId);
    const def = parseStoredPlaybook(run.spec);
    actions = def.spec.actions;
    if (def.spec.timeout) deadline = Date.now() + parseDuration(def.spec.timeout);
    vars = await variables(db, run);
  } catch (e) {
    return { status: 'failed', error: `the run could not start: ${(e as Error).message}` };
  }
  // Secret parameters are masked in whatever an action writes back.
  const secrets = secretValues(run!.secret_parameters);
  const actionCtx: ActionContext = {
    db,
    mail,
    playbook: { id: run!.playbook_id, name: run!.playbook_name, namespace: run!.playbook_namespace },
    runSignal,
    deadline,
  };
  const state: RunState = { success: true, failure: false };
  const results: Record<string, unknown> = {};
  let firstError: string | null = null;
  // A run handed back by a server that shut down: the actions it ended stay as they are, the one
  // it marked for retry runs again in its row.
  const before = await actionRows(db, runId);
  const released = () => runSignal.reason instanceof RunReleased;
  for (const [index, action] of actions.entries()) {
    if (runSignal.aborted) {
      if (released()) return RELEASED;
      break;
    }
    const earlier = before.get(index);
    if (earlier && ENDED.has(earlier.status)) {
      const error = earlier.status === 'failed' ? (earlier.error ?? 'failed') : null;
      results[action.name] = { result: earlier.result, status: earlier.status, error };
      if (earlier.status !== 'skipped') vars.last_result = earlier.result;
      if (error !== null) {
        state.success = false;
        state.failure = true;
        firstError ??= error;
      }
      continue;
    }
    const scope = { ...vars, actions: results };
    const insert = (status: string, delay = 0) =>
      earlier
        ? db.query<{ id: string }>(
            `UPDATE playbook_run_actions SET status = $2, error = NULL,
                 scheduled_time = now() + make_interval(secs => $3::double precision / 1000),
                 start_time = CASE WHEN $2 = 'sleeping' THEN NULL ELSE now() END,
                 end_time = CASE WHEN $2 = 'skipped' THEN now() ELSE NULL END
               WHERE id = $1 RETURNING id`,
            [earlier.id, status, delay],
          )
        : db.query<{ id: string }>(
            `INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, status, scheduled_time, start_time, end_time)
           VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000),
                   CASE WHEN $4 = 'sleeping' THEN NULL ELSE now() END, CASE WHEN $4 = 'skipped' THEN now() ELSE NULL END)
           RETURNING id`,
            [runId, action.name, index, status, delay],
          );
    const end = (id: string, status: 'completed' | 'failed', result: unknown, error: string | null) =>
      db.query(`UPDATE playbook_run_actions SET status = $2, result = $3, error = $4, end_time = now() WHERE id = $1`, [
        id,
        status,
        result === null ? null : JSON.stringify(redactSecrets(result, secrets)),
        error === null ? null : clip(redactSecrets(error, secrets)),
      ]);
    let runIt = false;
    let delay = 0;
    let phase = 'if';
    try {
      runIt = evaluateCondition(action.if, scope, state);
      phase = 'delay';
      if (runIt) delay = delayMs(action.delay, scope);
    } catch (e) {
      const error = `${phase}: ${(e as Error).message}`;
      const { rows } = await insert('running');
      await end(rows[0]!.id, 'failed', null, error);
      results[action.name] = { result: null, status: 'failed', error };
      state.success = false;
      state.failure = true;
      firstError ??= error;
      continue;
    }
    if (!runIt) {
      await insert('skipped');
      results[action.name] = { result: null, status: 'skipped', error: null };
      continue;
    }
    const { rows } = await insert(delay > 0 ? 'sleeping' : 'running', delay);
    const rowId = rows[0]!.id;
    const outcome = await withRetries(
      action.retry,
      delay,
      (wait) => runAction(actionCtx, action, rowId, wait, { ...scope }),
      (n, wait, error) => recordRetry(db, rowId, n, wait, clip(redactSecrets(error, secrets))),
      () => runSignal.aborted || Date.now() >= deadline,
    );
    if (released()) {
      await db.query(
        `UPDATE playbook_run_actions SET status = 'scheduled', error = $2, start_time = NULL
           WHERE id = $1 AND status IN ('running', 'sleeping')`,
        [rowId, RELEASED_NOTE],
      );
      return RELEASED;
    }
    await end(rowId, outcome.error === undefined ? 'completed' : 'failed', outcome.result, outcome.error ?? null);
    results[action.name] = {
      result: outcome.result,
      status: outcome.error === undefined ? 'completed' : 'failed',
      error: outcome.error ?? null,
    };
    vars.last_result = outcome.result;
    if (outcome.error !== undefined) {
      state.success = false;
      state.failure = true;
      firstError ??= outcome.error;
    }
  }
  // The failing actions carry their errors; the run's own error is for what stopped it outside an
  // action (it could not start, the server stopped, a cancel), shown as the run page's Initialization step.
  return { status: firstError === null ? 'completed' : 'failed', error: null };
}
