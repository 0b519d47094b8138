-- The event queue's status (Settings → Event Queue), with one meaning for every column:
--   pending        events waiting for their first handling (error IS NULL: new, or put back by Retry);
--   failed         events whose last handling failed (error IS NOT NULL), whether the router will try
--                  them again (attempts < 5, at not_before) or has given up; pending + failed = all;
--   average_attempts  attempts of the failed events (NULL when none failed);
--   first_failure  when the earliest of the failed events first failed (a column of its own: an event's
--                  last_attempt moves on with every retry);
--   last_failure   the latest failed attempt;
--   next_attempt   when the router next retries one of them (NULL once all gave up);
--   most_common_error  the error text most of the failed events hold.
-- 5 is MAX_ATTEMPTS of server/src/jobs/eventQueue.ts.

ALTER TABLE event_queue ADD COLUMN first_failure timestamptz;
UPDATE event_queue SET first_failure = last_attempt WHERE error IS NOT NULL;

-- The router claims only events with attempts left: a partial index keeps the events that gave up
-- (they stay until an admin retries or discards them) out of every claim's scan.
DROP INDEX event_queue_claim_idx;
CREATE INDEX event_queue_claim_idx ON event_queue (priority DESC, created_at) WHERE attempts < 5;

DROP VIEW event_queue_summary;
CREATE VIEW event_queue_summary AS
  SELECT
    name,
    count(*) FILTER (WHERE error IS NULL) AS pending,
    count(*) FILTER (WHERE error IS NOT NULL) AS failed,
    round(avg(attempts) FILTER (WHERE error IS NOT NULL), 2) AS average_attempts,
    min(first_failure) FILTER (WHERE error IS NOT NULL) AS first_failure,
    max(last_attempt) FILTER (WHERE error IS NOT NULL) AS last_failure,
    min(not_before) FILTER (WHERE error IS NOT NULL AND attempts < 5) AS next_attempt,
    mode() WITHIN GROUP (ORDER BY error) FILTER (WHERE error IS NOT NULL) AS most_common_error
  FROM event_queue
  GROUP BY name;
