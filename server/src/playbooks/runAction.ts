// One attempt of one action of a run (runner.ts calls it from the retry loop, retry.ts): the wait
// before it (delay or backoff; the row `sleeping`, then `running`), the action's strings rendered as
// Go templates, its body checked against the type's schema after rendering, then the type's `run`
// under the action's timeout (capped by what is left of the playbook's), stopped when the run's
// signal aborts (cancel, lost lease, stopping server). Never throws: an error is the outcome's `error`.
import type { Mailer } from '../auth/mailer.js';
import type { Database } from '../db/database.js';
import { renderTemplate } from '../expr/index.js';
import { formatDuration, parseDuration } from '../connections/duration.js';
import { actionTypes } from './actions/index.js';
import type { ActionSpec } from './playbook.js';

export const CANCELLED_ERROR = 'the run was cancelled';

export interface ActionContext {
  db: Database;
  mail: { mailer: Mailer; from: string };
  playbook: { id: string; name: string; namespace: string };
  /** Aborted with the reason the run stopped (its message becomes the action's error). */
  runSignal: AbortSignal;
  /** Epoch ms when the playbook's own timeout runs out (Infinity without one). */
  deadline: number;
}

export interface ActionOutcome {
  result: Record<string, unknown> | null;
  error?: string;
}

/** Every string of an action's body rendered as a Go template (those holding `{{`), except `skip` keys at the top. */
function renderBody(value: unknown, vars: Record<string, unknown>, skip: readonly string[] = []): unknown {
  if (typeof value === 'string') return value.includes('{{') ? renderTemplate(value, vars) : value;
  if (Array.isArray(value)) return value.map((v) => renderBody(v, vars));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, skip.includes(k) ? v : renderBody(v, vars)]));
  return value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** One action: its delay (sleeping), templates, then the type's run under its timeout. */
export async function runAction(
  ctx: ActionContext,
  action: ActionSpec,
  rowId: string,
  delay: number,
  scope: Record<string, unknown>,
): Promise<ActionOutcome> {
  const { runSignal, deadline } = ctx;
  const stopped = () => (runSignal.reason instanceof Error ? runSignal.reason.message : CANCELLED_ERROR);
  if (delay > 0) {
    try {
      await sleep(delay, runSignal);
    } catch {
      return { result: null, error: stopped() };
    }
    await ctx.db.query(
      `UPDATE playbook_run_actions SET status = 'running', start_time = coalesce(start_time, now()) WHERE id = $1`,
      [rowId],
    );
  }
  const type = actionTypes.get(action.type)!;
  let body: Record<string, unknown>;
  try {
    body = renderBody(action.body, scope, type.untemplated?.(action.body) ?? []) as Record<string, unknown>;
  } catch (e) {
    return { result: null, error: `template: ${(e as Error).message}` };
  }
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { result: null, error: "the playbook's timeout ran out before this action" };
  const timeoutMs = Math.min(parseDuration(action.timeout ?? '5m'), remaining);
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new Error(`timed out after ${formatDuration(timeoutMs)}`)), timeoutMs);
  const parsed = type.schema.safeParse(body);
  if (!parsed.success) {
    clearTimeout(timer);
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || action.type}: ${i.message}`);
    return { result: null, error: `after templates, the ${action.type} action is not valid: ${issues.join('; ')}` };
  }
  try {
    const outcome = await type.run(parsed.data, {
      db: ctx.db,
      signal: AbortSignal.any([runSignal, timeout.signal]),
      timeoutMs,
      playbook: ctx.playbook,
      actionId: rowId,
      mail: ctx.mail,
    });
    if (runSignal.aborted) return { result: outcome.result, error: stopped() };
    return outcome;
  } catch (e) {
    if (runSignal.aborted) return { result: null, error: stopped() };
    return { result: null, error: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}
