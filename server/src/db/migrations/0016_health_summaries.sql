-- Precomputed health summary figures for the usual ranges (1h, 1d, 7d, 30d back from now): the
-- dashboard polls them instead of aggregating raw statuses on every request. A refresher replaces a
-- range's rows in one transaction while holding its check_summary_ranges row lock.

CREATE TABLE check_summary_ranges (
  range_key    text PRIMARY KEY,
  -- The end of the window the rows were computed for; null before the first refresh.
  computed_at  timestamptz,
  refreshed_by text
);

CREATE TABLE check_summaries (
  range_key  text NOT NULL REFERENCES check_summary_ranges (range_key) ON DELETE CASCADE,
  check_id   uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  passed     bigint NOT NULL DEFAULT 0,
  failed     bigint NOT NULL DEFAULT 0,
  last_pass  timestamptz,
  last_fail  timestamptz,
  p95        integer,
  p97        integer,
  p99        integer,
  rolling1h  integer,
  PRIMARY KEY (range_key, check_id)
);
CREATE INDEX check_summaries_check_idx ON check_summaries (check_id);

-- Statuses written with a time well before a range's computed_at (imported or backfilled history,
-- not a run finishing now) would be missed until the next refresh: they send that range back to
-- being computed on request until then. Runs finishing now are merged at read time instead.
CREATE FUNCTION check_summaries_backdated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE check_summary_ranges SET computed_at = NULL
  WHERE computed_at IS NOT NULL AND (SELECT min(time) FROM new_statuses) < computed_at - interval '1 minute';
  RETURN NULL;
END $$;
CREATE TRIGGER check_summaries_backdated AFTER INSERT ON check_statuses
  REFERENCING NEW TABLE AS new_statuses FOR EACH STATEMENT EXECUTE FUNCTION check_summaries_backdated();
