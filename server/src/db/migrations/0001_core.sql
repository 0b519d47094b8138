-- Core tables: people, teams, team members, feature-flag properties, agents,
-- access tokens, job history, the event queue and connections.

CREATE TABLE people (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  email       text,
  avatar      text,
  type        text,
  external_id text,
  properties  jsonb,
  last_login  timestamptz,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX people_email_key ON people (lower(email)) WHERE deleted_at IS NULL AND email IS NOT NULL;

CREATE TABLE teams (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  icon       text,
  spec       jsonb,
  source     text,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX teams_name_key ON teams (name) WHERE deleted_at IS NULL;

CREATE TABLE team_members (
  team_id   uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  person_id uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  PRIMARY KEY (team_id, person_id)
);
CREATE INDEX team_members_person_id_idx ON team_members (person_id);

CREATE TABLE properties (
  name       text PRIMARY KEY,
  value      text NOT NULL,
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE agents (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  hostname      text,
  description   text,
  ip            text,
  version       text,
  username      text,
  person_id     uuid REFERENCES people (id),
  properties    jsonb,
  tls           text,
  cleanup       boolean NOT NULL DEFAULT false,
  created_by    uuid REFERENCES people (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz,
  last_seen     timestamptz,
  last_received timestamptz
);
CREATE UNIQUE INDEX agents_name_key ON agents (name) WHERE deleted_at IS NULL;

CREATE TABLE access_tokens (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  value        text NOT NULL,
  person_id    uuid NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_by   uuid REFERENCES people (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  expires_at   timestamptz,
  last_used_at timestamptz
);
CREATE UNIQUE INDEX access_tokens_value_key ON access_tokens (value);

CREATE TABLE job_history (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name            text NOT NULL,
  success_count   integer NOT NULL DEFAULT 0,
  error_count     integer NOT NULL DEFAULT 0,
  details         jsonb,
  hostname        text,
  duration_millis integer,
  resource_type   text,
  resource_id     text,
  status          text,
  agent_id        uuid REFERENCES agents (id),
  time_start      timestamptz NOT NULL DEFAULT now(),
  time_end        timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX job_history_created_at_idx ON job_history (created_at DESC);
CREATE INDEX job_history_resource_idx ON job_history (resource_type, resource_id);
CREATE INDEX job_history_name_idx ON job_history (name);

-- The event queue: producers insert, consumers claim with FOR UPDATE SKIP LOCKED.
CREATE TABLE event_queue (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  properties   jsonb,
  error        text,
  attempts     integer NOT NULL DEFAULT 0,
  priority     integer NOT NULL DEFAULT 0,
  last_attempt timestamptz,
  created_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX event_queue_claim_idx ON event_queue (priority DESC, created_at) ;
CREATE INDEX event_queue_name_idx ON event_queue (name);

CREATE TABLE connections (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  namespace    text NOT NULL DEFAULT 'default',
  type         text NOT NULL,
  url          text,
  username     text,
  password     text,
  certificate  text,
  insecure_tls boolean NOT NULL DEFAULT false,
  properties   jsonb,
  source       text,
  created_by   uuid REFERENCES people (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX connections_name_key ON connections (namespace, name) WHERE deleted_at IS NULL;

-- Distinct job names for the job-history filter.
CREATE VIEW job_history_names AS
  SELECT DISTINCT name FROM job_history;
