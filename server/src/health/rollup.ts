// Hourly and daily roll-ups of check statuses. Runs periodically on one replica at a time (an
// advisory lock), recorded in job history. Each run records its transaction time in
// check_statuses_rollup_mark: the summary of long ranges reads roll-ups before that time and raw
// statuses after it. Deleting old raw rows and roll-ups is retention's (server/src/retention/).
import os from 'node:os';
import type { Database } from '../db/database.js';
import { noteHealthWrite } from './store.js';

// Each row also keeps the duration sketch of its runs (sketch_keys/sketch_counts, see sketch.ts):
// hourly from the raw durations, daily the merge of its hours once the day is over (the first
// roll-up after midnight; merging the day so far on every run cost 20 s at 10,000 checks). A whole
// day's percentiles are read from its merged sketch (within 1 % of the exact ones); the current
// day's are the run-weighted mean of its hours' until then; the hourly ones are exact.
const ROLLUP_HOURLY = `
WITH b AS (
  SELECT check_id, date_trunc('hour', time) AS hour, check_sketch_key(duration) AS k, count(*)::int AS c
  FROM check_statuses WHERE time >= date_trunc('hour', $1::timestamptz) GROUP BY 1, 2, 3
),
sk AS (SELECT check_id, hour, array_agg(k ORDER BY k) AS keys, array_agg(c ORDER BY k) AS counts FROM b GROUP BY 1, 2)
INSERT INTO check_statuses_1h (check_id, created_at, total, passed, failed, duration_avg, duration_max,
  last_pass, last_fail, duration_p95, duration_p97, duration_p99, sketch_keys, sketch_counts)
SELECT a.*, sk.keys, sk.counts FROM (
  SELECT check_id, date_trunc('hour', time) AS hour, count(*), count(*) FILTER (WHERE status), count(*) FILTER (WHERE NOT status),
         round(avg(duration))::int, max(duration), max(time) FILTER (WHERE status), max(time) FILTER (WHERE NOT status),
         percentile_disc(0.95) WITHIN GROUP (ORDER BY duration), percentile_disc(0.97) WITHIN GROUP (ORDER BY duration),
         percentile_disc(0.99) WITHIN GROUP (ORDER BY duration)
  FROM check_statuses WHERE time >= date_trunc('hour', $1::timestamptz)
  GROUP BY 1, 2
) a JOIN sk ON sk.check_id = a.check_id AND sk.hour = a.hour
ON CONFLICT (check_id, created_at) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
  failed = EXCLUDED.failed, duration_avg = EXCLUDED.duration_avg, duration_max = EXCLUDED.duration_max,
  last_pass = EXCLUDED.last_pass, last_fail = EXCLUDED.last_fail, duration_p95 = EXCLUDED.duration_p95,
  duration_p97 = EXCLUDED.duration_p97, duration_p99 = EXCLUDED.duration_p99,
  sketch_keys = EXCLUDED.sketch_keys, sketch_counts = EXCLUDED.sketch_counts`;

const ROLLUP_DAILY = `
WITH b AS (
  SELECT h.check_id, date_trunc('day', h.created_at) AS day, u.k, sum(u.c)::int AS c
  FROM check_statuses_1h h, unnest(h.sketch_keys, h.sketch_counts) AS u(k, c)
  WHERE h.created_at >= date_trunc('day', $1::timestamptz) AND h.created_at < date_trunc('day', now())
  GROUP BY 1, 2, 3
),
w AS (
  SELECT check_id, day, k, c, sum(c) OVER (PARTITION BY check_id, day ORDER BY k) AS run,
         sum(c) OVER (PARTITION BY check_id, day) AS n
  FROM b
),
sk AS (
  SELECT check_id, day, array_agg(k ORDER BY k) AS keys, array_agg(c ORDER BY k) AS counts,
         check_sketch_value(min(k) FILTER (WHERE run >= ceil(0.95::float8 * n))) AS p95,
         check_sketch_value(min(k) FILTER (WHERE run >= ceil(0.97::float8 * n))) AS p97,
         check_sketch_value(min(k) FILTER (WHERE run >= ceil(0.99::float8 * n))) AS p99
  FROM w GROUP BY 1, 2
)
INSERT INTO check_statuses_1d (check_id, created_at, total, passed, failed, duration_avg, duration_max,
  last_pass, last_fail, duration_p95, duration_p97, duration_p99, sketch_keys, sketch_counts)
SELECT a.check_id, a.day, a.total, a.passed, a.failed, a.duration_avg, a.duration_max, a.last_pass, a.last_fail,
       coalesce(sk.p95, a.p95), coalesce(sk.p97, a.p97), coalesce(sk.p99, a.p99), sk.keys, sk.counts
FROM (
  SELECT check_id, date_trunc('day', created_at) AS day, sum(total) AS total, sum(passed) AS passed, sum(failed) AS failed,
         round(sum(duration_avg::bigint * total) / nullif(sum(total), 0))::int AS duration_avg, max(duration_max) AS duration_max,
         max(last_pass) AS last_pass, max(last_fail) AS last_fail,
         round(sum(coalesce(duration_p95, duration_avg)::bigint * total) / nullif(sum(total), 0))::int AS p95,
         round(sum(coalesce(duration_p97, duration_avg)::bigint * total) / nullif(sum(total), 0))::int AS p97,
         round(sum(coalesce(duration_p99, duration_avg)::bigint * total) / nullif(sum(total), 0))::int AS p99
  FROM check_statuses_1h WHERE created_at >= date_trunc('day', $1::timestamptz)
  GROUP BY 1, 2
) a LEFT JOIN sk ON sk.check_id = a.check_id AND sk.day = a.day
ON CONFLICT (check_id, created_at) DO UPDATE SET total = EXCLUDED.total, passed = EXCLUDED.passed,
  failed = EXCLUDED.failed, duration_avg = EXCLUDED.duration_avg, duration_max = EXCLUDED.duration_max,
  last_pass = EXCLUDED.last_pass, last_fail = EXCLUDED.last_fail, duration_p95 = EXCLUDED.duration_p95,
  duration_p97 = EXCLUDED.duration_p97, duration_p99 = EXCLUDED.duration_p99,
  sketch_keys = EXCLUDED.sketch_keys, sketch_counts = EXCLUDED.sketch_counts`;

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
