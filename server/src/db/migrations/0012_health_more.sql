-- Health, second part: roll-ups that can answer the summary of long ranges on their own
-- (GET /api/canary/api/summary reads them instead of the raw statuses for ranges over 6 hours).

-- Per hour (day): the last passing and failing run, and latency percentiles. Hourly percentiles are
-- exact; daily ones are the run-weighted mean of the hourly ones. Null in rows written before.
ALTER TABLE check_statuses_1h
  ADD COLUMN last_pass timestamptz,
  ADD COLUMN last_fail timestamptz,
  ADD COLUMN duration_p95 integer,
  ADD COLUMN duration_p97 integer,
  ADD COLUMN duration_p99 integer;
ALTER TABLE check_statuses_1d
  ADD COLUMN last_pass timestamptz,
  ADD COLUMN last_fail timestamptz,
  ADD COLUMN duration_p95 integer,
  ADD COLUMN duration_p97 integer,
  ADD COLUMN duration_p99 integer;

-- The summary and the retention read the roll-ups of all checks by time.
CREATE INDEX check_statuses_1h_created_idx ON check_statuses_1h (created_at);
CREATE INDEX check_statuses_1d_created_idx ON check_statuses_1d (created_at);

-- When the roll-ups last read the raw statuses (the transaction time of the last roll-up): the
-- summary takes raw rows from then on, and roll-up rows before. One row.
CREATE TABLE check_statuses_rollup_mark (
  id        boolean PRIMARY KEY DEFAULT true CHECK (id),
  rolled_at timestamptz NOT NULL
);
