-- Connections for the console, the event queue's retry schedule, and notifications (rules, silences,
-- send history). spec/3 §2-§5; FORMATS.md (Connection, Notification, NotificationSilence, Events).

-- Connections: the console shows whether a secret is set, and a secret/config-map reference (an
-- address, not a secret: stored unsealed as `secret://name/key` or `configmap://name/key`), without
-- ever reading the secret columns themselves.
ALTER TABLE connections
  ADD COLUMN has_password boolean GENERATED ALWAYS AS (coalesce(password, '') <> '') STORED,
  ADD COLUMN has_certificate boolean GENERATED ALWAYS AS (coalesce(certificate, '') <> '') STORED,
  ADD COLUMN password_ref text GENERATED ALWAYS AS (
    CASE WHEN password ~ '^(secret|configmap)://' THEN password END) STORED,
  ADD COLUMN certificate_ref text GENERATED ALWAYS AS (
    CASE WHEN certificate ~ '^(secret|configmap)://' THEN certificate END) STORED;
ALTER TABLE connections ALTER COLUMN source SET DEFAULT 'UI';

-- The event queue: an event is claimed (FOR UPDATE SKIP LOCKED) and handled by every consumer in one
-- transaction, then deleted. A failure keeps the row with attempts, error and last_attempt; it is
-- tried again at not_before (backoff) until the attempts run out; an admin may retry or discard it.
ALTER TABLE event_queue ADD COLUMN not_before timestamptz;

-- Notification rules (Notification resources). Durations are nanoseconds (FORMATS.md).
CREATE TABLE notifications (
  id                    uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name                  text NOT NULL,
  namespace             text NOT NULL DEFAULT 'default',
  title                 text,
  template              text,
  -- CEL over the event's resource (check, canary, component, config, incident, agent, event_time, permalink).
  filter                text,
  events                text[] NOT NULL,
  -- Recipients (spec/3 §2 Person, Team, Others): one of person, team, or custom_services entries
  -- [{name?, connection?, url?, email?, properties?}].
  person_id             uuid REFERENCES people (id),
  team_id               uuid REFERENCES teams (id),
  custom_services       jsonb,
  playbook_id           uuid,
  properties            jsonb,
  repeat_interval       bigint,
  wait_for              bigint,
  wait_for_eval_period  bigint,
  group_by              text[],
  group_by_interval     bigint,
  inhibitions           jsonb,
  -- {to: {...recipient}, delay: nanoseconds}
  fallback              jsonb,
  -- The whole resource as written (apiVersion, kind, metadata, spec): read back as YAML.
  spec                  jsonb,
  labels                jsonb NOT NULL DEFAULT '{}',
  source                text NOT NULL DEFAULT 'UI',
  -- The last evaluation error of the rule (a filter or template that fails at run time).
  error                 text,
  error_at              timestamptz,
  created_by            uuid REFERENCES people (id),
  created_at            timestamptz NOT NULL DEFAULT now(),
  updated_at            timestamptz NOT NULL DEFAULT now(),
  deleted_at            timestamptz
);
CREATE UNIQUE INDEX notifications_name_key ON notifications (namespace, name) WHERE deleted_at IS NULL;

-- Silences (NotificationSilence resources and the form): one resource, a namespace or a CEL filter.
CREATE TABLE notification_silences (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text,
  namespace     text,
  description   text,
  filter        text,
  selectors     jsonb,
  "from"        timestamptz NOT NULL DEFAULT now(),
  until         timestamptz NOT NULL,
  recursive     boolean NOT NULL DEFAULT false,
  config_id     uuid,
  check_id      uuid,
  canary_id     uuid,
  component_id  uuid,
  spec          jsonb,
  source        text NOT NULL DEFAULT 'UI',
  error         text,
  created_by    uuid REFERENCES people (id),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
CREATE INDEX notification_silences_active_idx ON notification_silences (until) WHERE deleted_at IS NULL;

-- Every decision about an event for a rule and recipient: sent, error, pending, cancelled, repeated,
-- silenced, inhibited, grouped. A pending row is a delivery to make: claimed with a lease by one
-- replica, retried with backoff (attempts, not_before) until it is sent or recorded as error.
CREATE TABLE notification_send_history (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  notification_id  uuid NOT NULL REFERENCES notifications (id),
  status           text NOT NULL DEFAULT 'pending'
                   CHECK (status IN ('pending', 'sent', 'error', 'cancelled', 'repeated', 'silenced',
                                     'inhibited', 'grouped')),
  source_event     text NOT NULL,
  resource_id      uuid,
  resource_type    text,
  -- The resource as the event saw it (name, type, status...), for the history and the template.
  resource         jsonb,
  resource_health  text,
  resource_status  text,
  person_id        uuid REFERENCES people (id),
  team_id          uuid REFERENCES teams (id),
  connection_id    uuid REFERENCES connections (id),
  -- Where it went, fit for display (an email address, a URL without secrets).
  recipient        text,
  title            text,
  body             text,
  body_payload     jsonb,
  error            text,
  duration_millis  integer,
  count            integer NOT NULL DEFAULT 1,
  first_observed   timestamptz NOT NULL DEFAULT now(),
  attempts         integer NOT NULL DEFAULT 0,
  not_before       timestamptz,
  lease_owner      text,
  lease_until      timestamptz,
  -- Why it was held: the silence, the inhibiting send, the group it joined, the send it repeats.
  silenced_by      uuid REFERENCES notification_silences (id),
  inhibited_by     uuid REFERENCES notification_send_history (id),
  group_id         uuid,
  parent_id        uuid REFERENCES notification_send_history (id),
  reason           text,
  dedup_key        text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notification_send_history_due_idx ON notification_send_history (not_before) WHERE status = 'pending';
CREATE INDEX notification_send_history_rule_idx ON notification_send_history (notification_id, created_at DESC);
CREATE INDEX notification_send_history_resource_idx ON notification_send_history (resource_id, notification_id, created_at DESC);
CREATE INDEX notification_send_history_created_idx ON notification_send_history (created_at DESC);
