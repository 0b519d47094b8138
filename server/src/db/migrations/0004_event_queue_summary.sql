-- Settings → Event Queue: per event name, what waits, what failed and why.
CREATE VIEW event_queue_summary AS
  SELECT
    name,
    count(*) FILTER (WHERE attempts = 0) AS pending,
    count(*) FILTER (WHERE error IS NOT NULL) AS failed,
    round(avg(attempts), 2) AS average_attempts,
    min(last_attempt) FILTER (WHERE error IS NOT NULL) AS first_failure,
    max(last_attempt) FILTER (WHERE error IS NOT NULL) AS last_failure,
    mode() WITHIN GROUP (ORDER BY error) FILTER (WHERE error IS NOT NULL) AS most_common_error
  FROM event_queue
  GROUP BY name;
