// The connection Test's one interface: a tester really connects to what a connection points at and
// says what it did, or throws an error worded for a person. One file per kind of system; the
// registry (index.ts) maps connection types to testers, and run.ts adds the time limit and redaction.
import type { ResolvedConnection } from '../resolve.js';

export interface TestContext {
  /** Aborted when the time limit is reached: a tester closes what it opened. */
  signal: AbortSignal;
  timeoutMs: number;
}

export interface TestOutcome {
  /** What was done and what answered, e.g. "SELECT 1 on db:5432/app answered". No secrets. */
  details: string;
}

export interface ConnectionTester {
  /** Canonical connection types (common/src/connections.ts) this tester handles. */
  types: readonly string[];
  test(conn: ResolvedConnection, ctx: TestContext): Promise<TestOutcome>;
}

/** The remote system refused or could not be reached: a 400 with this message. */
export class TestFailure extends Error {
  override name = 'TestFailure';
}

/** The connection lacks what its test needs (a field a form would have asked for). */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value === undefined || value === null || value === '') throw new TestFailure(`${what} is required`);
  return value;
}

/** A property as text ('' when unset). */
export function prop(conn: ResolvedConnection, key: string): string {
  const v = conn.properties[key];
  return v === undefined || v === null ? '' : String(v);
}
