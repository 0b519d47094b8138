-- Health checks: Canary resources, the checks they define, every run's result, and hourly and
-- daily roll-ups for long ranges.

CREATE TABLE canaries (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  namespace     text NOT NULL DEFAULT 'default',
  labels        jsonb NOT NULL DEFAULT '{}',
  spec          jsonb NOT NULL,
  source        text NOT NULL DEFAULT 'UI',
  schedule      text,
  agent_id      uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  created_by    uuid REFERENCES people (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz,
  -- Scheduling: the next run, and a lease held by the replica running it now.
  next_runtime  timestamptz,
  last_runtime  timestamptz,
  lease_until   timestamptz,
  lease_owner   text
);
CREATE UNIQUE INDEX canaries_name_key ON canaries (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX canaries_due_idx ON canaries (next_runtime) WHERE deleted_at IS NULL;

CREATE TABLE checks (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  canary_id            uuid NOT NULL REFERENCES canaries (id) ON DELETE CASCADE,
  agent_id             uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  type                 text NOT NULL,
  name                 text NOT NULL,
  namespace            text NOT NULL DEFAULT 'default',
  description          text,
  icon                 text,
  labels               jsonb NOT NULL DEFAULT '{}',
  owner                text,
  severity             text,
  endpoint             text,
  spec                 jsonb NOT NULL DEFAULT '{}',
  -- Checks created by a transform of another check point at it.
  transformed_by       uuid REFERENCES checks (id) ON DELETE CASCADE,
  status               text CHECK (status IN ('healthy', 'unhealthy')),
  last_runtime         timestamptz,
  next_runtime         timestamptz,
  last_transition_time timestamptz,
  silenced_at          timestamptz,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  deleted_at           timestamptz
);
CREATE UNIQUE INDEX checks_canary_type_name_key ON checks (canary_id, type, name) WHERE deleted_at IS NULL;
CREATE INDEX checks_canary_id_idx ON checks (canary_id);
CREATE INDEX checks_status_idx ON checks (status) WHERE deleted_at IS NULL;

CREATE TABLE check_statuses (
  check_id   uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  time       timestamptz NOT NULL,
  status     boolean NOT NULL,
  invalid    boolean NOT NULL DEFAULT false,
  duration   integer NOT NULL DEFAULT 0,
  message    text,
  error      text,
  details    jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (check_id, time)
);
CREATE INDEX check_statuses_time_idx ON check_statuses (time);

-- Roll-ups: one row per check and hour (day), kept longer than the raw statuses.
CREATE TABLE check_statuses_1h (
  check_id     uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  created_at   timestamptz NOT NULL,
  total        integer NOT NULL,
  passed       integer NOT NULL,
  failed       integer NOT NULL,
  duration_avg integer NOT NULL,
  duration_max integer NOT NULL,
  PRIMARY KEY (check_id, created_at)
);
CREATE TABLE check_statuses_1d (LIKE check_statuses_1h INCLUDING ALL);
ALTER TABLE check_statuses_1d ADD FOREIGN KEY (check_id) REFERENCES checks (id) ON DELETE CASCADE;

-- The job history list filters by status and sorts by time.
CREATE INDEX job_history_status_created_idx ON job_history (status, created_at DESC);
