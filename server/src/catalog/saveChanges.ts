// Change rows of a catalog save: the severity of a diff (changes.severity rules) and the writes, repeats in the window counted.
import type { Queryable } from '../db/database.js';
import { evaluateCel } from '../expr/index.js';
import type { ConfigDiff } from './changes.js';
import type { SaveOptions } from './save.js';
import { batched } from './saveRows.js';

export interface PendingChange {
  configId: string;
  changeType: 'diff' | 'DELETE';
  severity: string;
  summary: string;
  diff: string | null;
  patches: string | null;
  details: Record<string, unknown>;
  fingerprint: string;
  source: string;
}

export function severityOf(
  rules: SaveOptions['severityRules'],
  change: ConfigDiff,
  config: unknown,
  previous: unknown,
  errors: string[],
) {
  for (const rule of rules) {
    try {
      const vars = { change: { type: 'diff', summary: change.summary, paths: change.paths }, config, previous };
      if (evaluateCel(rule.expr, vars) === true) return rule.severity;
    } catch (e) {
      errors.push(`changes.severity ${rule.expr}: ${(e as Error).message}`);
    }
  }
  return 'info';
}

/** Inserts changes; one seen again inside the window (same fingerprint) counts on its row instead. */
export async function writeChanges(tx: Queryable, changes: PendingChange[], windowMs: number): Promise<number> {
  if (!changes.length) return 0;
  const repeats = new Map<string, string>();
  if (windowMs > 0) {
    await batched(changes, async (chunk) => {
      const { rows } = await tx.query<{ id: string; config_id: string; fingerprint: string }>(
        `SELECT DISTINCT ON (config_id, fingerprint) id, config_id, fingerprint FROM config_changes
         WHERE config_id = ANY($1::uuid[]) AND fingerprint = ANY($2::text[])
           AND created_at >= now() - make_interval(secs => $3::double precision / 1000)
         ORDER BY config_id, fingerprint, created_at DESC`,
        [chunk.map((c) => c.configId), chunk.map((c) => c.fingerprint), windowMs],
      );
      for (const r of rows) repeats.set(`${r.config_id}/${r.fingerprint}`, r.id);
    });
  }
  const again = changes.filter((c) => repeats.has(`${c.configId}/${c.fingerprint}`));
  const fresh = changes.filter((c) => !repeats.has(`${c.configId}/${c.fingerprint}`));
  await batched(again, (chunk) =>
    tx.query(`UPDATE config_changes SET count = count + 1, created_at = now() WHERE id = ANY($1::uuid[])`, [
      chunk.map((c) => repeats.get(`${c.configId}/${c.fingerprint}`)!),
    ]),
  );
  await batched(fresh, (chunk) =>
    tx.query(
      `INSERT INTO config_changes (config_id, change_type, severity, source, summary, details, patches, diff, fingerprint, first_observed, created_at)
       SELECT r.config_id, r.change_type, r.severity, r.source, r.summary, r.details, r.patches, r.diff, r.fingerprint, now(), now()
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, change_type text, severity text, source text, summary text,
         details jsonb, patches text, diff text, fingerprint text)`,
      [
        JSON.stringify(
          chunk.map((c) => ({
            config_id: c.configId,
            change_type: c.changeType,
            severity: c.severity,
            source: c.source,
            summary: c.summary,
            details: c.details,
            patches: c.patches,
            diff: c.diff,
            fingerprint: c.fingerprint,
          })),
        ),
      ],
    ),
  );
  return changes.length;
}
