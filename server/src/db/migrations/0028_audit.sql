-- The audit trail (who changed which resource, when, from where; written by server/src/audit/) and
-- the leases of the retention jobs (server/src/retention/: one replica at a time per table).

-- One row per change a person, token or agent made through the API. Never holds secrets: details
-- name the fields a write set, not their values (audit/record.ts).
CREATE TABLE audit_log (
  id             bigserial PRIMARY KEY,
  at             timestamptz NOT NULL DEFAULT now(),
  actor_id       uuid,
  actor_email    text,
  actor_name     text,
  actor_kind     text NOT NULL CHECK (actor_kind IN ('person', 'token', 'agent', 'system')),
  -- apply, create, update, delete, role_change, token_create, token_revoke, ...
  action         text NOT NULL,
  resource_type  text NOT NULL,
  resource_id    text,
  resource_name  text,
  source_ip      text,
  user_agent     text,
  details        jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, at DESC);
CREATE INDEX audit_log_resource_type_idx ON audit_log (resource_type, at DESC);
CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC);

-- A retention job's lease (name = the table it prunes) and when it last finished: a replica takes
-- the lease only when it is free (or expired) and the last run is older than the interval.
CREATE TABLE retention_leases (
  name         text PRIMARY KEY,
  owner        text,
  lease_until  timestamptz,
  last_run_at  timestamptz
);

-- What the retention jobs delete by, where no index served it yet.
CREATE INDEX event_queue_failed_created_idx ON event_queue (created_at) WHERE attempts >= 5;
