-- Health summary percentiles from mergeable sketches (issue 20): every hourly and daily roll-up row
-- carries a DDSketch of its runs' durations as two arrays, the bin keys ascending and their counts
-- (server/src/health/sketch.ts: bin k holds (γ^(k-1), γ^k] ms with γ = 1.0045/0.9955, key -1 holds
-- durations of 0; a reported percentile is within 1 % of the exact one). Written by the roll-up job
-- (server/src/health/rollup.ts) with the rest of the row, never per check run (a day's once it is
-- over); the summary's accurate figures (server/src/health/summaryStats.ts) merge the sketches of the
-- hours (days) inside a range with the raw runs at its edges.
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

-- Roll-ups written before this migration keep no sketch (they count in uptime, not in merged
-- percentiles) until retention deletes them: building theirs from every raw run kept (up to 30 days,
-- hundreds of millions of rows at 10,000 checks) would hold up the upgrade for a long time. The
-- roll-up job rewrites the last hours (and the previous day after midnight) with sketches.
