// Insights of a catalog save: analyzer findings upserted, this scraper's open insights not found again resolved.
import type { Queryable } from '../db/database.js';
import type { Finding } from './analyzers/rules.js';
import { batched } from './saveRows.js';

/** Upserts findings by (config, analyzer); this scraper's open insights not found again are resolved. */
export async function writeInsights(
  tx: Queryable,
  scraperId: string,
  findings: Finding[],
  resolveMissing: boolean,
): Promise<number> {
  await batched(findings, (chunk) =>
    tx.query(
      `INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, message, summary, status, source,
         first_observed, last_observed)
       SELECT r.config_id, $2, r.analyzer, r.analysis_type, r.severity, r.message, r.summary, 'open', 'rules', now(), now()
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, analyzer text, analysis_type text, severity text, message text, summary text)
       ON CONFLICT (config_id, analyzer) DO UPDATE SET analysis_type = EXCLUDED.analysis_type, severity = EXCLUDED.severity,
         message = EXCLUDED.message, summary = EXCLUDED.summary, scraper_id = EXCLUDED.scraper_id,
         status = CASE WHEN config_analysis.status = 'silenced' THEN 'silenced' ELSE 'open' END,
         last_observed = now(), updated_at = now()`,
      [
        JSON.stringify(
          chunk.map((f) => ({
            config_id: f.configId,
            analyzer: f.analyzer,
            analysis_type: f.analysisType,
            severity: f.severity,
            message: f.message,
            summary: f.summary,
          })),
        ),
        scraperId,
      ],
    ),
  );
  // Rows written above have last_observed = now() (this transaction's time); older open ones were not seen.
  if (resolveMissing)
    await tx.query(
      `UPDATE config_analysis SET status = 'resolved', updated_at = now()
       WHERE scraper_id = $1 AND status = 'open' AND source = 'rules' AND last_observed < now()`,
      [scraperId],
    );
  return findings.length;
}
