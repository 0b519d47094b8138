-- Health summaries built as checks run (issue 20): every hourly roll-up row carries the runs of its
-- hour (time, pass, duration; packed), the hour's duration sketch (DDSketch, 1 % relative error:
-- server/src/health/sketch.ts) and `cum`, the running tally of the check before the hour (counts,
-- duration sum, last pass and failure, sketch). The summary of any range is the running tally at its
-- end minus the one at its start: two rows per check, whatever the range. Daily rows carry the same
-- for their day. Rows written before this migration have nulls until their hour is rebuilt.
ALTER TABLE check_statuses_1h
  ADD COLUMN duration_sum bigint,
  ADD COLUMN duration_min integer,
  ADD COLUMN sketch bytea,
  ADD COLUMN runs bytea,
  ADD COLUMN cum bytea;
ALTER TABLE check_statuses_1d
  ADD COLUMN duration_sum bigint,
  ADD COLUMN duration_min integer,
  ADD COLUMN sketch bytea,
  ADD COLUMN cum bytea;

-- The hours whose runs changed and whose roll-up row (and the running tallies after it) must be
-- rebuilt: marked by every insert into check_statuses, taken by the store in the same transaction
-- for its own runs, and by the summary and the roll-up job for statuses written any other way
-- (imports, backfilled history).
CREATE TABLE check_sketch_dirty (
  check_id uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  hour     timestamptz NOT NULL,
  PRIMARY KEY (check_id, hour)
);

CREATE FUNCTION check_sketch_mark() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO check_sketch_dirty (check_id, hour)
  SELECT DISTINCT check_id, to_timestamp(floor(extract(epoch FROM time) / 3600) * 3600) FROM new_statuses
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER check_sketch_mark AFTER INSERT ON check_statuses
  REFERENCING NEW TABLE AS new_statuses FOR EACH STATEMENT EXECUTE FUNCTION check_sketch_mark();

-- The history already recorded is built on first use.
INSERT INTO check_sketch_dirty (check_id, hour)
SELECT DISTINCT check_id, to_timestamp(floor(extract(epoch FROM time) / 3600) * 3600) FROM check_statuses
ON CONFLICT DO NOTHING;

-- The precomputed ranges (0016) are no longer read: every range is answered from the running tallies.
DROP TRIGGER check_summaries_backdated ON check_statuses;
DROP FUNCTION check_summaries_backdated();
DROP TABLE check_summaries;
DROP TABLE check_summary_ranges;
