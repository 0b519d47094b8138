// Definition of done: evaluates the CEL script of every evidence in an incident's definition of
// done that is not done yet, over the resource the evidence points at, and marks it done when the
// script gives true (the trigger logs evidence.done). Errors go to script_result; nothing throws.
// Safe on replicas: marking done is idempotent and conditional on the row not being done.
//
// Variables (see DOD_SAMPLE_SCRIPTS in common/src/incidents.ts):
//   check     {id, name, type, status ('healthy'|'unhealthy'|null), healthy (bool),
//              last_transition_time, last_runtime (timestamps), age (duration since the last transition)}
//   component {id, name, type, health, status, status_reason, labels}
//   config    {id, name, type, config_class, health, status, labels, tags}
//   analysis  {id, config_id, analyzer, analysis_type, severity, status, message} (also `config_analysis`)
//   evidence  {id, type, description, evidence}
// Absent resources are null. Example: check.status == 'healthy' && age(check.last_transition_time) > duration('5m')
import type { Queryable } from '../db/database.js';
import { durationFromMs, evaluateCel } from '../expr/index.js';

interface DodRow {
  id: string;
  type: string;
  description: string | null;
  evidence: unknown;
  script: string;
  script_result: string | null;
  check: Record<string, unknown> | null;
  component: Record<string, unknown> | null;
  config: Record<string, unknown> | null;
  analysis: Record<string, unknown> | null;
}

const PENDING_SQL = `
SELECT e.id, e.type, e.description, e.evidence, e.script, e.script_result,
  (SELECT row_to_json(x) FROM (SELECT c.id, c.name, c.type, c.status, c.last_transition_time, c.last_runtime
     FROM checks c WHERE c.id = coalesce(e.check_id, (e.evidence->>'check_id')::uuid)) x) AS check,
  (SELECT row_to_json(x) FROM (SELECT c.id, c.name, c.type, c.health, c.status, c.status_reason, c.labels
     FROM components c WHERE c.id = e.component_id) x) AS component,
  (SELECT row_to_json(x) FROM (SELECT ci.id, ci.name, ci.type, ci.config_class, ci.health, ci.status, ci.labels, ci.tags
     FROM config_items ci WHERE ci.id = e.config_id) x) AS config,
  (SELECT row_to_json(x) FROM (SELECT a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.status, a.message
     FROM config_analysis a WHERE a.id = e.config_analysis_id) x) AS analysis
FROM evidences e
JOIN hypotheses h ON h.id = e.hypothesis_id
JOIN incidents i ON i.id = h.incident_id
WHERE e.definition_of_done AND e.script IS NOT NULL AND btrim(e.script) <> '' AND NOT coalesce(e.done, false)
  AND i.status <> 'closed'
ORDER BY e.updated_at
LIMIT $1`;

const toDate = (v: unknown): Date | null => (typeof v === 'string' ? new Date(v) : null);

/** The variables a script sees for one evidence. */
export function dodVariables(row: DodRow, now = Date.now()): Record<string, unknown> {
  let check: Record<string, unknown> | null = null;
  if (row.check) {
    const last = toDate(row.check.last_transition_time);
    check = {
      ...row.check,
      last_transition_time: last,
      last_runtime: toDate(row.check.last_runtime),
      healthy: row.check.status === 'healthy',
      age: last ? durationFromMs(Math.max(0, now - last.getTime())) : null,
    };
  }
  return {
    check,
    component: row.component,
    config: row.config,
    analysis: row.analysis,
    config_analysis: row.analysis,
    evidence: { id: row.id, type: row.type, description: row.description, evidence: row.evidence },
  };
}

export interface DodPassResult {
  evaluated: number;
  done: number;
  errors: number;
}

/** One pass over pending definition-of-done scripts. */
export async function evaluateDefinitionsOfDone(db: Queryable, limit = 500): Promise<DodPassResult> {
  // A check_id in the payload that is not a uuid would fail the cast for the whole query: skip such rows.
  const { rows } = await db.query<DodRow>(PENDING_SQL, [limit]).catch(async (e: unknown) => {
    if ((e as { code?: string }).code !== '22P02') throw e;
    return db.query<DodRow>(PENDING_SQL.replace("(e.evidence->>'check_id')::uuid", 'NULL::uuid'), [limit]);
  });
  const out: DodPassResult = { evaluated: 0, done: 0, errors: 0 };
  for (const row of rows) {
    out.evaluated++;
    let result: string;
    let done = false;
    try {
      const value = evaluateCel(row.script, dodVariables(row));
      if (typeof value !== 'boolean')
        throw new Error(`the script must give true or false, it gave ${JSON.stringify(value)}`);
      done = value;
      result = String(value);
    } catch (e) {
      out.errors++;
      result = `error: ${(e as Error).message}`.slice(0, 1000);
    }
    if (done) {
      const { rows: updated } = await db.query(
        `UPDATE evidences SET done = true, script_result = $2 WHERE id = $1 AND NOT coalesce(done, false) RETURNING id`,
        [row.id, result],
      );
      if (updated.length) out.done++;
    } else if (result !== row.script_result) {
      await db.query(`UPDATE evidences SET script_result = $2 WHERE id = $1`, [row.id, result]);
    }
  }
  return out;
}
