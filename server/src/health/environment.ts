// The variables a check's test, display, transform and metrics expressions see — canary-checker's
// environment (its Context.WithCheck + WithCheckResult), built in this one place for every check type:
//   canary {id, name, namespace, labels}, check {id, name, type, description, labels, endpoint},
//   duration (ms), error, message, pass, errorType ("" unless the type sets one),
//   every field of the result's data (http: code, headers, json, content, elapsed, sslAge; ...),
//   results — the result's detail (exec {stdout, stderr, exitCode}, folder {files, count, ...},
//             SQL {rows, count}, ...), only for the types that have one,
//   outputs — for a check with dependsOn: outputs.<name> of each dependency (outputs.ts).
import type { CheckResult, Checker } from './checker.js';
import type { CanaryRow, CheckRow } from './runner.js';

export interface EnvironmentInput {
  check: CheckRow;
  canary: CanaryRow;
  endpoint: string;
  result: Pick<CheckResult, 'data' | 'results'> & {
    pass: boolean;
    message: string | null;
    error: string | null;
    durationMs: number;
  };
  /** Bound only for a check with dependsOn (possibly empty: its dependencies failed or never ran). */
  outputs?: Record<string, unknown>;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

function stringLabels(v: unknown): Record<string, string> {
  if (!v || typeof v !== 'object') return {};
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, String(x)]));
}

/** What a check points at, for `check.endpoint` ('' when its checker cannot tell). */
export function endpointOf(checker: Checker, check: CheckRow): string {
  try {
    return checker.endpoint(check.spec as { name: string });
  } catch {
    return '';
  }
}

export function expressionVars(input: EnvironmentInput): Record<string, unknown> {
  const { check, canary, result } = input;
  const vars: Record<string, unknown> = {
    canary: { id: canary.id, name: canary.name, namespace: canary.namespace, labels: canary.labels },
    check: {
      id: check.id,
      name: check.name,
      type: check.type,
      description: text(check.spec.description),
      labels: stringLabels(check.spec.labels),
      endpoint: input.endpoint,
    },
    duration: Math.round(result.durationMs),
    error: result.error ?? '',
    message: result.message ?? '',
    pass: result.pass,
    errorType: '',
    ...result.data,
  };
  if (result.results !== undefined) vars.results = result.results;
  if (input.outputs) vars.outputs = input.outputs;
  return vars;
}
