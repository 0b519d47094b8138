// `outputs` for a check with dependsOn: the latest result of each check it names, read from the
// database (check_statuses), so the replica that runs the dependent sees what any replica recorded.
// As canary-checker binds them: outputs.<name> = {pass, message, duration, ...the result's data}
// (for http: code, headers, json, content, elapsed, sslAge; `results` for the types that have them),
// and only for a dependency whose latest result passed — a failed one is left out, so an expression
// reading it fails rather than judging stale data.
import type { Queryable } from '../db/database.js';
import { durationFromMs } from '../expr/duration.js';

/** Data fields canary-checker gives expressions as durations; stored as milliseconds. */
const DURATION_FIELDS = ['elapsed', 'sslAge'];

export async function loadOutputs(
  db: Queryable,
  canaryId: string,
  names: string[],
): Promise<Record<string, Record<string, unknown>>> {
  const outputs: Record<string, Record<string, unknown>> = {};
  if (!names.length) return outputs;
  const { rows } = await db.query<{
    name: string;
    status: boolean;
    message: string | null;
    duration: number;
    details: unknown;
  }>(
    `SELECT c.name, s.status, s.message, s.duration, s.details
       FROM checks c
       JOIN LATERAL (SELECT status, message, duration, details FROM check_statuses
                      WHERE check_id = c.id ORDER BY time DESC LIMIT 1) s ON true
      WHERE c.canary_id = $1 AND c.deleted_at IS NULL AND c.transformed_by IS NULL AND c.name = ANY($2)`,
    [canaryId, names],
  );
  for (const r of rows) {
    if (!r.status) continue;
    const data = r.details && typeof r.details === 'object' && !Array.isArray(r.details) ? { ...r.details } : {};
    const out: Record<string, unknown> = { pass: true, message: r.message ?? '', duration: r.duration };
    for (const [k, v] of Object.entries(data as Record<string, unknown>)) {
      if (k in out) continue;
      out[k] = DURATION_FIELDS.includes(k) && typeof v === 'number' ? durationFromMs(v) : v;
    }
    outputs[r.name] = out;
  }
  return outputs;
}
