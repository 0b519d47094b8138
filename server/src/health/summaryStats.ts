// The per-check figures of a health summary range ($1 start, $2 end, both included): the `s` CTE
// (check_id, passed, failed, last_pass, last_fail, p95, p97, p99, rolling1h) that summary.ts joins
// with the checks, for a range computed on request and for the refresher's precomputed ranges.
//
// Short ranges read the raw statuses (exact percentile_disc). Longer ones cover the range with
// pieces that do not overlap: the raw runs from the start to the first whole hour, whole hours
// (check_statuses_1h) up to the first whole day, whole days (check_statuses_1d, long ranges only),
// then hours and raw runs again up to the end; from the last roll-up (check_statuses_rollup_mark)
// on, the raw runs (the roll-up rows of the hour and day of the mark hold the runs before it). The
// counts and the last pass and failure are exact; the percentiles come from merging the pieces'
// duration sketches (sketch.ts: within 1 % of the exact percentile_disc). When the start is older
// than the oldest raw run kept (retention), its hour is counted whole.

/** The exact figures from the raw statuses. */
export const RAW_STATS = `s AS (
  SELECT check_id,
    count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed,
    max(time) FILTER (WHERE status) AS last_pass, max(time) FILTER (WHERE NOT status) AS last_fail,
    percentile_disc(0.95) WITHIN GROUP (ORDER BY duration) AS p95,
    percentile_disc(0.97) WITHIN GROUP (ORDER BY duration) AS p97,
    percentile_disc(0.99) WITHIN GROUP (ORDER BY duration) AS p99,
    round(avg(duration) FILTER (WHERE time > now() - interval '1 hour')) AS rolling1h
  FROM check_statuses WHERE time >= $1 AND time <= $2 GROUP BY check_id
)`;

/**
 * The boundaries of the pieces: m the mark, dm its day (days before it have their sketches; the
 * mark's day is read from its hours), ch the first whole hour, cd the first whole day, fh and fd
 * the hour and day of the end, open: the range reaches the mark (its end pieces are the hours of
 * the mark's day and the raw runs after the mark).
 */
const BOUNDS = `mark AS (
  SELECT coalesce((SELECT rolled_at FROM check_statuses_rollup_mark), '-infinity'::timestamptz) AS at
),
b0 AS (
  SELECT $1::timestamptz AS s, $2::timestamptz AS e, (SELECT at FROM mark) AS m,
         CASE WHEN $1::timestamptz > date_trunc('hour', $1::timestamptz)
               AND $1::timestamptz >= coalesce((SELECT min(time) FROM check_statuses), 'infinity'::timestamptz)
              THEN date_trunc('hour', $1::timestamptz) + interval '1 hour'
              ELSE date_trunc('hour', $1::timestamptz) END AS ch
),
b AS (
  SELECT s, e, m, ch, e >= m AS open, date_trunc('hour', e) AS fh, date_trunc('day', e) AS fd, date_trunc('day', m) AS dm,
         CASE WHEN ch > date_trunc('day', ch) THEN date_trunc('day', ch) + interval '1 day' ELSE ch END AS cd
  FROM b0
)`;

const INF = `'infinity'::timestamptz`;
/** A bound of b as a scalar subquery (so each piece is an index range scan). */
const bound = (expr: string) => `(SELECT ${expr} FROM b)`;

/** The roll-up rows of one piece: [from, to) on created_at. */
const rolled = (table: string, from: string, to: string) => `
  SELECT check_id, passed, failed, last_pass, last_fail, sketch_keys, sketch_counts FROM ${table}
  WHERE created_at >= ${bound(from)} AND created_at < ${bound(to)}`;

/** The raw runs of one piece: [from, to) or, with `toIncluded`, [from, to]; none after the end. */
const raw = (from: string, to: string, toIncluded = false) => `
  SELECT check_id, time, status, duration FROM check_statuses
  WHERE time >= ${bound(from)} AND time ${toIncluded ? '<=' : '<'} ${bound(to)} AND time <= $2::timestamptz`;

/** The figures from roll-up sketches and raw edges; `days`: whole days from check_statuses_1d. */
const sketchStats = (days: boolean) => `${BOUNDS},
rolled AS (${
  days
    ? [
        rolled('check_statuses_1h', 'ch', `least(cd, CASE WHEN open THEN m ELSE fh END)`),
        rolled('check_statuses_1d', 'cd', `CASE WHEN open THEN dm ELSE fd END`),
        rolled(
          'check_statuses_1h',
          `greatest(CASE WHEN open THEN dm ELSE fd END, cd)`,
          `CASE WHEN open THEN m ELSE fh END`,
        ),
      ].join('\n  UNION ALL')
    : rolled('check_statuses_1h', 'ch', `CASE WHEN open THEN m ELSE fh END`)
}
),
raws AS (${[
  raw('s', 'least(ch, m)'),
  raw(`CASE WHEN open THEN ${INF} ELSE greatest(fh, ch) END`, 'e', true),
  raw('greatest(s, m)', 'e', true),
].join('\n  UNION ALL')}
),
parts AS (
  SELECT check_id, passed, failed, last_pass, last_fail FROM rolled
  UNION ALL
  SELECT check_id, status::int, (NOT status)::int, CASE WHEN status THEN time END, CASE WHEN NOT status THEN time END
  FROM raws
),
t AS (
  SELECT check_id, sum(passed) AS passed, sum(failed) AS failed, max(last_pass) AS last_pass, max(last_fail) AS last_fail
  FROM parts GROUP BY check_id
),
bins AS (
  SELECT check_id, k, sum(c) AS c FROM (
    SELECT check_id, u.k, u.c FROM rolled, unnest(sketch_keys, sketch_counts) AS u(k, c)
    UNION ALL
    SELECT check_id, check_sketch_key(duration), 1 FROM raws
  ) x GROUP BY check_id, k
),
w AS (
  SELECT check_id, k, sum(c) OVER (PARTITION BY check_id ORDER BY k) AS run, sum(c) OVER (PARTITION BY check_id) AS n
  FROM bins
),
q AS (
  SELECT check_id,
         check_sketch_value(min(k) FILTER (WHERE run >= ceil(0.95::float8 * n))) AS p95,
         check_sketch_value(min(k) FILTER (WHERE run >= ceil(0.97::float8 * n))) AS p97,
         check_sketch_value(min(k) FILTER (WHERE run >= ceil(0.99::float8 * n))) AS p99
  FROM w GROUP BY check_id
),
recent AS (
  SELECT check_id, sum(duration_avg::bigint * total) AS d, sum(total) AS n FROM check_statuses_1h
  WHERE created_at >= date_trunc('hour', now() - interval '1 hour') AND created_at < (SELECT at FROM mark)
  GROUP BY check_id
  UNION ALL
  SELECT check_id, sum(duration), count(*) FROM check_statuses
  WHERE time >= greatest(now() - interval '1 hour', (SELECT at FROM mark)) GROUP BY check_id
),
r AS (SELECT check_id, round(sum(d) / nullif(sum(n), 0)) AS rolling1h FROM recent GROUP BY check_id),
s AS MATERIALIZED (
  SELECT t.*, q.p95, q.p97, q.p99, r.rolling1h FROM t LEFT JOIN q USING (check_id) LEFT JOIN r USING (check_id)
)`;

/**
 * The figures a request over 6 h gets (as before the sketches): long ranges ($1 start, $2 end): the roll-ups (`table`, whole hours or days: the first one is
 * counted whole) up to the last roll-up, and the raw statuses since. Uptime counts and the last pass
 * and failure are exact; the latency percentiles are the run-weighted mean of the hourly (daily)
 * percentiles, an approximation; rolling1h is the mean duration since the start of the previous hour.
 */
export const meanOfPercentilesStats = (
  table: 'check_statuses_1h' | 'check_statuses_1d',
  unit: 'hour' | 'day',
) => `mark AS (
  SELECT coalesce((SELECT rolled_at FROM check_statuses_rollup_mark), '-infinity'::timestamptz) AS at
),
parts AS (
  SELECT check_id, created_at AS time, total, passed, failed, last_pass, last_fail, duration_avg,
         coalesce(duration_p95, duration_avg) AS p95, coalesce(duration_p97, duration_avg) AS p97,
         coalesce(duration_p99, duration_avg) AS p99
  FROM ${table}
  WHERE created_at >= date_trunc('${unit}', $1::timestamptz) AND created_at <= $2 AND created_at < (SELECT at FROM mark)
  UNION ALL
  SELECT check_id, time, 1, status::int, (NOT status)::int, CASE WHEN status THEN time END,
         CASE WHEN NOT status THEN time END, duration, duration, duration, duration
  FROM check_statuses WHERE time >= greatest($1::timestamptz, (SELECT at FROM mark)) AND time <= $2
),
recent AS (
  SELECT check_id, sum(duration_avg::bigint * total) AS d, sum(total) AS n FROM check_statuses_1h
  WHERE created_at >= date_trunc('hour', now() - interval '1 hour') AND created_at < (SELECT at FROM mark)
  GROUP BY check_id
  UNION ALL
  SELECT check_id, sum(duration), count(*) FROM check_statuses
  WHERE time >= greatest(now() - interval '1 hour', (SELECT at FROM mark)) GROUP BY check_id
),
r AS (SELECT check_id, round(sum(d) / nullif(sum(n), 0)) AS rolling1h FROM recent GROUP BY check_id),
t AS (
  SELECT check_id, sum(passed) AS passed, sum(failed) AS failed, max(last_pass) AS last_pass, max(last_fail) AS last_fail,
         round(sum(p95::bigint * total) / nullif(sum(total), 0)) AS p95,
         round(sum(p97::bigint * total) / nullif(sum(total), 0)) AS p97,
         round(sum(p99::bigint * total) / nullif(sum(total), 0)) AS p99
  FROM parts GROUP BY check_id
),
s AS (SELECT t.*, r.rolling1h FROM t LEFT JOIN r USING (check_id))`;

/** Up to this range the summary reads raw statuses; up to SUMMARY_HOURLY_UP_TO_MS hourly roll-ups; then daily. */
export const SUMMARY_RAW_UP_TO_MS = 6 * 3_600_000;
export const SUMMARY_HOURLY_UP_TO_MS = 3 * 86_400_000;
const HOURLY_STATS = sketchStats(false);
const DAILY_STATS = sketchStats(true);
const HOURLY_MEAN = meanOfPercentilesStats('check_statuses_1h', 'hour');
const DAILY_MEAN = meanOfPercentilesStats('check_statuses_1d', 'day');

/**
 * The `s` CTE of a range ($1 start, $2 end) with exact counts and percentiles within 1 % (sketches).
 * Not on the request path yet: merging the sketches in SQL measured 20–40× the mean of per-bucket
 * percentiles at 10,000 checks (15–22 s against 0.4–1 s on PostgreSQL, bench/health-sketch.ts).
 */
export function statsFor(start: Date, end: Date): string {
  const ms = end.getTime() - start.getTime();
  return ms <= SUMMARY_RAW_UP_TO_MS ? RAW_STATS : ms <= SUMMARY_HOURLY_UP_TO_MS ? HOURLY_STATS : DAILY_STATS;
}

/**
 * The `s` CTE of a range as requests and the refresher of the usual ranges compute it: raw and
 * exact up to 6 h, then the figures from before the sketches (first bucket counted whole,
 * run-weighted mean of per-bucket percentiles), which stay the cheaper read.
 */
export function liveStatsFor(start: Date, end: Date): string {
  const ms = end.getTime() - start.getTime();
  return ms <= SUMMARY_RAW_UP_TO_MS ? RAW_STATS : ms <= SUMMARY_HOURLY_UP_TO_MS ? HOURLY_MEAN : DAILY_MEAN;
}
