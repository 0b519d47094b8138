// Hourly and daily roll-ups of check statuses. Runs periodically on one replica at a time (an
// advisory lock), recorded in job history. Each run records its transaction time in
// check_statuses_rollup_mark: the summary of long ranges reads roll-ups before that time and raw
// statuses after it. Deleting old raw rows and roll-ups is retention's (server/src/retention/).
import os from 'node:os';
import type { Database } from '../db/database.js';
import { noteHealthWrite } from './store.js';

const ROLLUP_HOURLY = `
INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration_avg, duration_max,
  last_pass, last_fail, duration_p95, duration_p97, duration_p99)
SELECT check_id, date_trunc('hour', time), count(*), count(*) FILTER (WHERE status), count(*) FILTER (WHERE NOT status),
       round(avg(duration))::int, max(duration), max(time) FILTER (WHERE status), max(time) FILTER (WHERE NOT status),
       percentile_disc(0.95) WITHIN GROUP (ORDER BY duration), percentile_disc(0.97) WITHIN GROUP (ORDER BY duration),
       percentile_disc(0.99) WITHIN GROUP (ORDER BY duration)
FROM check_statuses WHERE time >= date_trunc('hour', $1::timestamptz)
GROUP BY 1, 2
ON CONFLICT (check_id, created_at) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
  failed = EXCLUDED.failed, duration_avg = EXCLUDED.duration_avg, duration_max = EXCLUDED.duration_max,
  last_pass = EXCLUDED.last_pass, last_fail = EXCLUDED.last_fail, duration_p95 = EXCLUDED.duration_p95,
  duration_p97 = EXCLUDED.duration_p97, duration_p99 = EXCLUDED.duration_p99`;

const ROLLUP_DAILY = `
INSERT INTO check_statuses_1d (check_id, created_at, total, passed, failed, duration_avg, duration_max,
  last_pass, last_fail, duration_p95, duration_p97, duration_p99)
SELECT check_id, date_trunc('day', created_at), sum(total), sum(passed), sum(failed),
       round(sum(duration_avg::bigint * total) / nullif(sum(total), 0))::int, max(duration_max),
       max(last_pass), max(last_fail),
       round(sum(coalesce(duration_p95, duration_avg)::bigint * total) / nullif(sum(total), 0))::int,
       round(sum(coalesce(duration_p97, duration_avg)::bigint * total) / nullif(sum(total), 0))::int,
       round(sum(coalesce(duration_p99, duration_avg)::bigint * total) / nullif(sum(total), 0))::int
FROM check_statuses_1h WHERE created_at >= date_trunc('day', $1::timestamptz)
GROUP BY 1, 2
ON CONFLICT (check_id, created_at) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
  failed = EXCLUDED.failed, duration_avg = EXCLUDED.duration_avg, duration_max = EXCLUDED.duration_max,
  last_pass = EXCLUDED.last_pass, last_fail = EXCLUDED.last_fail, duration_p95 = EXCLUDED.duration_p95,
  duration_p97 = EXCLUDED.duration_p97, duration_p99 = EXCLUDED.duration_p99`;

export interface RollupResult {
  ran: boolean;
  hourly: number;
  daily: number;
}

/**
 * Rolls up everything since `since` (default: the last two hours, or from an hour before the last
 * roll-up when that is older, e.g. after downtime; on the first run, the last `firstRunDays` days).
 */
export async function rollupCheckStatuses(db: Database, since?: Date, firstRunDays = 30): Promise<RollupResult> {
  const started = new Date();
  const result = await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock(7253003) AS locked');
    if (!rows[0]!.locked) return { ran: false, hourly: 0, daily: 0 };
    let from = since;
    if (!from) {
      const mark = await tx.query<{ rolled_at: Date }>('SELECT rolled_at FROM check_statuses_rollup_mark');
      const twoHours = Date.now() - 2 * 3_600_000;
      const last = mark.rows[0]
        ? new Date(mark.rows[0].rolled_at).getTime() - 3_600_000
        : Date.now() - firstRunDays * 86_400_000;
      from = new Date(Math.min(twoHours, last));
    }
    const hourly = (await tx.query(ROLLUP_HOURLY, [from])).affectedRows ?? 0;
    const daily = (await tx.query(ROLLUP_DAILY, [from])).affectedRows ?? 0;
    await tx.query(`INSERT INTO check_statuses_rollup_mark (id, rolled_at) VALUES (true, now())
      ON CONFLICT (id) DO UPDATE SET rolled_at = EXCLUDED.rolled_at`);
    return { ran: true, hourly, daily };
  });
  noteHealthWrite();
  if (result.ran) {
    await db.query(
      `INSERT INTO job_history (name, success_count, details, hostname, duration_millis, resource_type, status, time_start, time_end)
       VALUES ('CheckStatusRollup', $1, $2, $3, $4, 'check_statuses', 'SUCCESS', $5, now())`,
      [result.hourly + result.daily, JSON.stringify(result), os.hostname(), Date.now() - started.getTime(), started],
    );
  }
  return result;
}
