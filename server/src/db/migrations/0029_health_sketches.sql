-- Health summary percentiles from mergeable sketches (issue 20): every hourly and daily roll-up row
-- carries a DDSketch of its runs' durations as two arrays, the bin keys ascending and their counts
-- (server/src/health/sketch.ts: bin k holds (γ^(k-1), γ^k] ms with γ = 1.0045/0.9955, key -1 holds
-- durations of 0; a reported percentile is within 1 % of the exact one). Written by the roll-up job
-- (server/src/health/rollup.ts) with the rest of the row, never per check run; the summary of a range
-- merges the sketches of the hours (days) inside it with the raw runs at its edges.
ALTER TABLE check_statuses_1h ADD COLUMN sketch_keys integer[], ADD COLUMN sketch_counts integer[];
ALTER TABLE check_statuses_1d ADD COLUMN sketch_keys integer[], ADD COLUMN sketch_counts integer[];

-- The bin of a duration (ms).
CREATE FUNCTION check_sketch_key(d integer) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN d <= 0 THEN -1
              ELSE ceil(ln(d::float8) / ln(1.0045::float8 / 0.9955::float8) - 1e-9)::integer END
$$;

-- What a bin reports (whole ms): the one integer it holds, else the middle of the bin rounded.
CREATE FUNCTION check_sketch_value(k integer) RETURNS integer LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN k IS NULL THEN NULL
              WHEN k < 0 THEN 0
              WHEN floor(power(1.0045::float8 / 0.9955::float8, k)) - floor(power(1.0045::float8 / 0.9955::float8, k - 1)) = 1
                THEN floor(power(1.0045::float8 / 0.9955::float8, k))::integer
              ELSE round(2 * power(1.0045::float8 / 0.9955::float8, k) / (1.0045::float8 / 0.9955::float8 + 1))::integer END
$$;

-- The roll-ups already written get their sketches from the raw runs still kept (older hours whose
-- raw rows retention has deleted keep none: they count in uptime, not in percentiles).
UPDATE check_statuses_1h h SET sketch_keys = s.keys, sketch_counts = s.counts
FROM (
  SELECT check_id, hour, array_agg(k ORDER BY k) AS keys, array_agg(c ORDER BY k) AS counts
  FROM (SELECT check_id, date_trunc('hour', time) AS hour, check_sketch_key(duration) AS k, count(*)::integer AS c
        FROM check_statuses GROUP BY 1, 2, 3) b
  GROUP BY 1, 2
) s
WHERE h.check_id = s.check_id AND h.created_at = s.hour;

UPDATE check_statuses_1d d SET sketch_keys = s.keys, sketch_counts = s.counts
FROM (
  SELECT check_id, day, array_agg(k ORDER BY k) AS keys, array_agg(c ORDER BY k) AS counts
  FROM (SELECT h.check_id, date_trunc('day', h.created_at) AS day, u.k, sum(u.c)::integer AS c
        FROM check_statuses_1h h, unnest(h.sketch_keys, h.sketch_counts) AS u(k, c) GROUP BY 1, 2, 3) b
  GROUP BY 1, 2
) s
WHERE d.check_id = s.check_id AND d.created_at = s.day;
