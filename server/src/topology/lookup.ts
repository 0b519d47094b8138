// Lookups: a check spec fragment (`{http: [{url, display: {javascript}}]}`) run by the health
// engine's checkers and runner; each check's display is the result, parsed as JSON when it is JSON
// (a list of components, a list of properties, a value).
import type { Queryable } from '../db/database.js';
import type { Checker } from '../health/checker.js';
import { runCheck, type CanaryRow } from '../health/runner.js';
import { NO_AGENT } from '../db/agents.js';
import type { LookupSpec } from './topology.js';

/** The display text → JSON when it parses, else the text itself. */
export function parseDisplay(message: string | null): unknown {
  if (message === null || message.trim() === '') return [];
  const text = message.trim();
  if (/^[[{"]|^-?\d|^(true|false|null)$/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // Not JSON after all: the text is the result.
    }
  }
  return message;
}

/** A lookup runner for the builder: one value per check, in the order written; a failed check throws. */
export function lookupRunner(
  db: Queryable,
  checkers: ReadonlyMap<string, Checker>,
  topology: CanaryRow,
): (spec: LookupSpec, name: string) => Promise<unknown[]> {
  return async (spec, name) => {
    const out: unknown[] = [];
    for (const [type, entries] of Object.entries(spec)) {
      const checker = checkers.get(type);
      if (!checker) throw new Error(`check type "${type}" is not supported`);
      for (const [i, entry] of entries.entries()) {
        const parsed = checker.schema.safeParse({ name, ...entry });
        if (!parsed.success) {
          const issue = parsed.error.issues[0]!;
          throw new Error(`${type}[${i}].${issue.path.join('.')}: ${issue.message}`);
        }
        const checkSpec = parsed.data as Record<string, unknown> & { name: string };
        const { result } = await runCheck(
          checker,
          { id: NO_AGENT, canary_id: topology.id, type, name: checkSpec.name, spec: checkSpec },
          topology,
          db,
        );
        if (!result.pass) throw new Error(`${type} lookup "${checkSpec.name}" failed: ${result.error ?? 'failed'}`);
        out.push(parseDisplay(result.message));
      }
    }
    return out;
  };
}
