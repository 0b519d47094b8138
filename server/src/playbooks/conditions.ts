// When an action runs (`if`) and how long it waits first (`delay`), pure.
//
// `if` is CEL over the run's variables (params, config, component, check, user, run, playbook,
// actions, last_result) plus three booleans: `success` (every earlier action succeeded), `failure`
// (one failed) and `always` (true). mission-control's spellings `always()`, `success()`,
// `failure()` and the bare words "always" / "success" / "failure" mean the same. Without `if` an
// action runs only after success; an expression that names none of the three is also only
// evaluated after success (`params.x == 'y'` does not run after a failure: write
// `always() && params.x == 'y'` for that).
//
// `delay` is a duration ("30s", "5m") or a CEL expression returning one (a duration, text such as
// "10s", or a number of seconds).
import { compileCel, durationToMs, evaluateCel, ExpressionError, isDuration as isCelDuration } from '../expr/index.js';
import { isDuration, parseDuration } from '../connections/duration.js';

export interface RunState {
  /** Every earlier action succeeded (skipped ones do not count). */
  success: boolean;
  /** An earlier action failed. */
  failure: boolean;
}

const STATE_WORDS = /\b(always|success|failure)\s*\(\s*\)/g;
const NAMES_STATE = /\b(always|success|failure)\b/;

/** The CEL text of an `if`: the function spellings become the boolean variables. */
export function conditionExpression(text: string): string {
  return text.trim().replace(STATE_WORDS, '$1');
}

/** Throws an ExpressionError when the `if` does not compile (apply-time check). */
export function checkCondition(text: string): void {
  compileCel(conditionExpression(text));
}

export function evaluateCondition(text: string | undefined, vars: Record<string, unknown>, state: RunState): boolean {
  if (text === undefined || text.trim() === '') return state.success;
  const expr = conditionExpression(text);
  if (!NAMES_STATE.test(expr) && !state.success) return false;
  const result = evaluateCel(expr, { ...vars, success: state.success, failure: state.failure, always: true });
  if (typeof result === 'boolean') return result;
  throw new ExpressionError(`if must return true or false, got ${JSON.stringify(result)}`, {
    language: 'cel',
    expression: text,
  });
}

/** Throws when a `delay` is neither a duration nor CEL that compiles (apply-time check). */
export function checkDelay(text: string): void {
  if (!isDuration(text)) compileCel(text);
}

/** The delay in milliseconds (0 for none or a negative one). */
export function delayMs(text: string | undefined, vars: Record<string, unknown>): number {
  if (text === undefined || text.trim() === '') return 0;
  if (isDuration(text)) return Math.max(0, parseDuration(text));
  const value = evaluateCel(text, vars);
  let ms: number;
  if (isCelDuration(value)) ms = durationToMs(value);
  else if (typeof value === 'string' && isDuration(value)) ms = parseDuration(value);
  else if (typeof value === 'number' || typeof value === 'bigint') ms = Number(value) * 1000;
  else
    throw new ExpressionError(`delay must give a duration such as "30s", got ${JSON.stringify(value)}`, {
      language: 'cel',
      expression: text,
    });
  return Math.max(0, ms);
}
