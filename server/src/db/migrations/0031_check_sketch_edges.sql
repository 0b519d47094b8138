-- Any range of the health summary from two rows per check (issue 20). An edge is, for one check and
-- one instant `at`, everything about its runs before `at`: how many, passed, failed, the sum of
-- their durations, the last pass and failure, and the cumulative duration sketch (the bins of
-- migration 0029, stored compact: server/src/health/sketchDense.ts). A range's figures are the end
-- edge's minus the start edge's (sketch counts subtract like they add); a range that reaches now
-- adds the raw runs since the latest edge. Edges sit on a grid (every minute for 15 minutes, every
-- 5 minutes for 3 hours, every hour for 8 days, every day after that) and are written by one replica at a time
-- (server/src/health/edgeJob.ts) from the runs in change_seq order, so runs recorded late or
-- backfilled are added to the edges after them.
CREATE TABLE check_sketch_edges (
  at           timestamptz NOT NULL,
  check_id     uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  total        bigint NOT NULL,
  passed       bigint NOT NULL,
  failed       bigint NOT NULL,
  duration_sum bigint NOT NULL,
  last_pass    timestamptz,
  last_fail    timestamptz,
  sketch       bytea NOT NULL,
  PRIMARY KEY (at, check_id)
);
CREATE INDEX check_sketch_edges_check_idx ON check_sketch_edges (check_id, at);

-- The instants that have edges (a range's ends are rounded to the nearest one).
CREATE TABLE check_sketch_edge_times (at timestamptz PRIMARY KEY);

-- One row: the last change_seq folded into the edges, the latest edge, when the first run before
-- the edges was (ranges starting before it start from nothing), and the job's lease.
CREATE TABLE check_sketch_state (
  id          boolean PRIMARY KEY DEFAULT true CHECK (id),
  seq         bigint NOT NULL DEFAULT 0,
  built_to    timestamptz,
  origin      timestamptz,
  lease_until timestamptz,
  lease_owner text
);
INSERT INTO check_sketch_state (id) VALUES (true);

-- A clean cut of the change_seq stream: every statement inserting statuses holds this lock shared
-- until its transaction ends, so the edge job, taking it exclusively, waits for the inserts under
-- way; once it has it, every change_seq drawn so far is committed (or rolled back) and any later
-- insert draws a higher one.
CREATE FUNCTION check_statuses_cut_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(7253004);
  RETURN NULL;
END
$$;
CREATE TRIGGER check_statuses_cut_lock BEFORE INSERT ON check_statuses
  FOR EACH STATEMENT EXECUTE FUNCTION check_statuses_cut_lock();
