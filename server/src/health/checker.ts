// The interface every check type implements (one module per type under checkers/), and what the
// runner gives it. The runner applies the common frame afterwards: test, display, transform, metrics.
import type { z } from 'zod';
import type { TimedConnectionContext } from '../connections/resolve.js';

// EnvValue and ResolvedConnection belong to the connection plumbing; re-exported for the checkers.
export type { EnvValue } from '../connections/envValue.js';
export type { ResolvedConnection } from '../connections/resolve.js';

/** Connections, secrets and the check's time limit (`signal` aborts on the check's timeout, default 30 s). */
export interface CheckContext extends TimedConnectionContext {
  canary: { id: string; name: string; namespace: string; labels: Record<string, string> };
}

export interface Metric {
  name: string;
  type?: 'gauge' | 'counter' | 'histogram';
  value: number;
  labels?: Record<string, string>;
}

export interface CheckResult {
  /** Passed the type's own rules (status code, threshold, content, ...). */
  pass: boolean;
  /** The spec itself is wrong (bad URL, missing field): shown as invalid rather than a target failure. */
  invalid?: boolean;
  /** Wall time of the check in ms; the runner fills it when the checker leaves it out. */
  durationMs?: number;
  /** Shown in history when the check passes. */
  message?: string;
  /** Why the check failed, for a person to act on. */
  error?: string;
  /**
   * Variables for test.expr / display / transform, e.g. for http: code, headers, elapsed, sslAge,
   * content, json. Keep it JSON-serialisable.
   */
  data: Record<string, unknown>;
  /**
   * canary-checker's result detail (its AddDetails): bound as `results` for expressions and kept in
   * the stored details, e.g. exec {stdout, stderr, exitCode}, SQL {rows, count}. Set by the runner's
   * caller only here, never copied into `data`.
   */
  results?: unknown;
  metrics?: Metric[];
}

export interface Checker<S extends { name: string } = { name: string }> {
  /** The key under `spec:` in a Canary, e.g. "http". */
  type: string;
  /** Validates one entry of that list; unknown fields are kept (z.looseObject). */
  schema: z.ZodType<S>;
  /** What the check points at, for display (URL, host:port, path...). */
  endpoint(spec: S): string;
  run(spec: S, ctx: CheckContext): Promise<CheckResult>;
}
