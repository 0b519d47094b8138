// Runs checks: the type's checker, then the common frame — test (pass/fail), display (message),
// transform (more results from one check). Expression errors fail the result with their text.
import { evaluateBoolean, evaluateScript, evaluateString } from '../expr/index.js';
import type { Script } from '../expr/types.js';
import type { Queryable } from '../db/database.js';
import { parseDuration } from '../connections/duration.js';
import { resolveEnvValue } from '../connections/envValue.js';
import { connectionResolver } from '../connections/resolve.js';
import type { CheckContext, CheckResult, Checker, Metric } from './checker.js';
import type { StoredResult } from './store.js';
import { evaluateMetrics } from './customMetrics.js';
import { dependsOnOf } from './dependsOn.js';
import { endpointOf, expressionVars } from './environment.js';
import { loadOutputs } from './outputs.js';
import { readTransform } from './transform.js';

export const DEFAULT_CHECK_TIMEOUT_MS = 30_000;
const MAX_DETAIL_BYTES = 64 * 1024;

export interface CheckRow {
  id: string;
  canary_id: string;
  type: string;
  name: string;
  spec: Record<string, unknown>;
}

export interface CanaryRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string>;
}

/** A result produced by a transform: becomes (or updates) a check of its own. */
export interface TransformedResult extends StoredResult {
  name: string;
  description?: string;
  labels?: Record<string, string>;
}

export interface RunOutcome {
  /** `metrics`: what the check type reports (http response_code, ...) and its metrics[] evaluated, for /metrics. */
  result: StoredResult & { metrics?: Metric[] };
  transformed: TransformedResult[];
}

function timeoutOf(spec: Record<string, unknown>): number {
  const t = spec.timeout;
  if (typeof t === 'number' && t > 0) return t * 1000;
  if (typeof t === 'string') {
    try {
      return parseDuration(t);
    } catch {
      return DEFAULT_CHECK_TIMEOUT_MS;
    }
  }
  return DEFAULT_CHECK_TIMEOUT_MS;
}

function asScript(v: unknown): Script | undefined {
  if (!v || typeof v !== 'object') return undefined;
  const s = v as Record<string, unknown>;
  const script: Script = {};
  if (typeof s.expr === 'string' && s.expr) script.expr = s.expr;
  if (typeof s.template === 'string' && s.template) script.template = s.template;
  if (typeof s.javascript === 'string' && s.javascript) script.javascript = s.javascript;
  if (typeof s.jsonPath === 'string' && s.jsonPath) script.jsonPath = s.jsonPath;
  return Object.keys(script).length ? script : undefined;
}

/**
 * Details kept with a status: the check's data and `results`, trimmed to a size a history row can
 * carry. A dependent check's `outputs` are read from these (outputs.ts).
 */
function details(r: CheckResult): unknown {
  const out: Record<string, unknown> = { ...r.data };
  if (r.results !== undefined) out.results = r.results;
  if (r.metrics?.length) out.metrics = r.metrics;
  const text = JSON.stringify(out);
  if (text.length <= MAX_DETAIL_BYTES) return out;
  // Drop the bulkiest fields first (response bodies), then the results, keep the rest.
  const { content: _content, json: _json, ...rest } = out;
  if (JSON.stringify(rest).length <= MAX_DETAIL_BYTES) return { ...rest, truncated: true };
  const { results: _results, ...least } = rest;
  return JSON.stringify(least).length <= MAX_DETAIL_BYTES ? { ...least, truncated: true } : { truncated: true };
}

export async function runCheck(
  checker: Checker,
  check: CheckRow,
  canary: CanaryRow,
  db: Queryable,
): Promise<RunOutcome> {
  const timeoutMs = timeoutOf(check.spec);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  const ctx: CheckContext = {
    canary: { id: canary.id, name: canary.name, namespace: canary.namespace, labels: canary.labels },
    signal: controller.signal,
    timeoutMs,
    connection: connectionResolver(db),
    resolve: resolveEnvValue,
  };
  const started = performance.now();
  let r: CheckResult;
  try {
    // A checker that ignores the signal still cannot outlive its timeout.
    r = await Promise.race([
      checker.run(check.spec as { name: string }, ctx),
      new Promise<never>((_, reject) =>
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason)),
      ),
    ]);
  } catch (e) {
    r = { pass: false, error: (e as Error).message || String(e), data: {} };
  } finally {
    clearTimeout(timer);
  }
  let durationMs = r.durationMs ?? performance.now() - started;
  let pass = r.pass;
  let message = r.message ?? null;
  let error = r.error ?? null;
  const dependencies = dependsOnOf(check.spec);
  let outputs: Record<string, unknown> | undefined;
  if (dependencies.length) {
    try {
      outputs = await loadOutputs(db, check.canary_id, dependencies);
    } catch (e) {
      outputs = {};
      pass = false;
      error = `the results of dependsOn (${dependencies.join(', ')}) could not be read: ${(e as Error).message}`;
    }
  }
  const vars = expressionVars({
    check,
    canary,
    endpoint: endpointOf(checker, check),
    result: { ...r, pass, message, error, durationMs },
    outputs,
  });

  const test = asScript(check.spec.test);
  if (pass && !r.invalid && test) {
    try {
      if (!(await evaluateBoolean(test, vars))) {
        pass = false;
        error = `test failed: ${test.expr ?? test.template ?? test.javascript}`;
      }
    } catch (e) {
      pass = false;
      error = `test could not be evaluated: ${(e as Error).message}`;
    }
  }
  const display = asScript(check.spec.display);
  if (display) {
    try {
      message = await evaluateString(display, vars);
    } catch (e) {
      pass = false;
      error = `display could not be evaluated: ${(e as Error).message}`;
    }
  }
  const transformed: TransformedResult[] = [];
  let invalid = !!r.invalid;
  let kept: CheckResult = r;
  const transform = asScript(check.spec.transform);
  if (transform && !r.invalid) {
    try {
      const own = { name: check.name, markFailOnEmpty: check.spec.markFailOnEmpty === true };
      const out = readTransform(await evaluateScript(transform, vars), own, durationMs);
      transformed.push(...out.created);
      const t = out.inline;
      if (t) {
        pass = t.pass ?? pass;
        invalid = t.invalid ?? invalid;
        durationMs = t.durationMs ?? durationMs;
        message = t.message ?? message;
        error = t.error ?? (t.pass === true ? null : error);
        kept = {
          ...r,
          data: t.data ? { ...r.data, ...t.data } : r.data,
          results: t.detail === undefined ? r.results : (t.detail ?? undefined),
        };
      }
    } catch (e) {
      pass = false;
      error = `transform could not be evaluated: ${(e as Error).message}`;
    }
  }
  let metrics: Metric[] = [];
  if (!invalid) {
    try {
      // As canary-checker: the metrics see the result after its test.
      metrics = await evaluateMetrics(check.spec.metrics, {
        ...vars,
        pass,
        message: message ?? '',
        error: error ?? '',
      });
    } catch (e) {
      pass = false;
      error = (e as Error).message;
    }
  }
  return {
    result: {
      pass,
      invalid,
      durationMs,
      message,
      error,
      details: details(kept),
      metrics: [...(r.metrics ?? []), ...metrics],
    },
    transformed,
  };
}
