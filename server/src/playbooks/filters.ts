// A playbook's `filters` (mission-control's spec.filters): CEL expressions over the resource a run
// targets (`config`, `component`, `check`, the others null) and the caller (`user`); every one must
// be true for the playbook to apply. Compiled at apply time; evaluated for the list of playbooks
// runnable on a resource (false hides the playbook), for a run request (false refuses it) and for a
// run a trigger would start (false: not started, triggeredRun.ts).
import { checkCel, evaluateCel, ExpressionError } from '../expr/index.js';
import type { Path } from '../resources/yaml.js';

/** Apply-time check: each filter compiles, reported at its own position. */
export function checkFilters(filters: readonly string[] | undefined, error: (path: Path, message: string) => void) {
  filters?.forEach((f, i) => {
    try {
      checkCel(f);
    } catch (e) {
      error(['spec', 'filters', i], `not a valid CEL expression: ${(e as Error).message}`);
    }
  });
}

export interface FilterVerdict {
  ok: boolean;
  /** Why not, for a person: the filter that was false or could not be evaluated. */
  reason?: string;
  /** A filter failed to evaluate (rather than being false). */
  failed?: boolean;
}

/** Whether every filter is true for these variables (a filter that fails to evaluate counts as false). */
export function evaluateFilters(filters: readonly string[] | undefined, vars: Record<string, unknown>): FilterVerdict {
  for (const f of filters ?? []) {
    let value: unknown;
    try {
      value = evaluateCel(f, vars);
    } catch (e) {
      const message = e instanceof ExpressionError || e instanceof Error ? e.message : String(e);
      return { ok: false, failed: true, reason: `the filter ${JSON.stringify(f)} could not be evaluated: ${message}` };
    }
    if (value !== true) {
      const got = typeof value === 'boolean' ? 'false' : `${JSON.stringify(value)}, not true or false`;
      return { ok: false, reason: `the filter ${JSON.stringify(f)} is ${got}` };
    }
  }
  return { ok: true };
}
