-- Incidents: the incident, its hypothesis tree (root → factor → solution) with evidence and
-- comments, responders, the changelog the server writes, and the rules that open incidents
-- from unhealthy components.

CREATE TABLE incident_rules (
  id         uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name       text NOT NULL,
  -- The whole resource as written (or just its spec): components selectors, filter
  -- {status, severity}, template, breakOnMatch, autoResolve, priority.
  spec       jsonb NOT NULL,
  source     text NOT NULL DEFAULT 'UI',
  created_by uuid REFERENCES people (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE UNIQUE INDEX incident_rules_name_key ON incident_rules (name) WHERE deleted_at IS NULL;

CREATE SEQUENCE incident_number_seq;

CREATE TABLE incidents (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The displayed Id.
  incident_id      text NOT NULL DEFAULT 'INC' || lpad(nextval('incident_number_seq')::text, 7, '0'),
  title            text NOT NULL CHECK (length(btrim(title)) > 0),
  description      text,
  type             text NOT NULL DEFAULT 'availability' CHECK (type IN
    ('cost', 'availability', 'performance', 'security', 'integration', 'compliance', 'technicalDebt', 'reliability')),
  severity         text NOT NULL DEFAULT 'low' CHECK (severity IN
    ('info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical')),
  status           text NOT NULL DEFAULT 'open' CHECK (status IN
    ('new', 'open', 'investigating', 'mitigated', 'resolved', 'closed')),
  created_by       uuid REFERENCES people (id),
  commander_id     uuid REFERENCES people (id),
  communicator_id  uuid REFERENCES people (id),
  incident_rule_id uuid REFERENCES incident_rules (id) ON DELETE SET NULL,
  -- The component a rule opened the incident for (auto-resolve, one open incident per rule and component).
  component_id     uuid REFERENCES components (id) ON DELETE SET NULL,
  acknowledged     timestamptz,
  resolved         timestamptz,
  closed           timestamptz,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX incidents_incident_id_key ON incidents (incident_id);
CREATE INDEX incidents_status_created_idx ON incidents (status, created_at DESC);
CREATE INDEX incidents_created_idx ON incidents (created_at DESC);
CREATE INDEX incidents_created_by_idx ON incidents (created_by);
CREATE INDEX incidents_rule_component_idx ON incidents (incident_rule_id, component_id)
  WHERE status NOT IN ('resolved', 'closed');

CREATE TABLE hypotheses (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  parent_id   uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  title       text,
  type        text NOT NULL DEFAULT 'root' CHECK (type IN ('root', 'factor', 'solution')),
  status      text CHECK (status IN ('Proven', 'Likely', 'Possible', 'Unlikely', 'Improbable', 'Disproven')),
  created_by  uuid REFERENCES people (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX hypotheses_incident_idx ON hypotheses (incident_id);
CREATE INDEX hypotheses_parent_idx ON hypotheses (parent_id);

CREATE TABLE evidences (
  id                 uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  hypothesis_id      uuid NOT NULL REFERENCES hypotheses (id) ON DELETE CASCADE,
  type               text NOT NULL CHECK (type IN
    ('log', 'topology', 'config', 'check', 'config_change', 'config_analysis', 'comment')),
  description        text,
  -- The payload: log {lines, selected_lines}, config {lines, selected_lines}, check {check_id, includeMessages, start}...
  evidence           jsonb,
  component_id       uuid REFERENCES components (id) ON DELETE SET NULL,
  config_id          uuid REFERENCES config_items (id) ON DELETE SET NULL,
  check_id           uuid REFERENCES checks (id) ON DELETE SET NULL,
  config_change_id   uuid REFERENCES config_changes (id) ON DELETE SET NULL,
  config_analysis_id uuid REFERENCES config_analysis (id) ON DELETE SET NULL,
  definition_of_done boolean NOT NULL DEFAULT false,
  done               boolean,
  -- A CEL expression over the evidence's resource, evaluated by the server to set done.
  script             text,
  script_result      text,
  properties         jsonb,
  created_by         uuid REFERENCES people (id),
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX evidences_hypothesis_idx ON evidences (hypothesis_id);
CREATE INDEX evidences_component_idx ON evidences (component_id) WHERE component_id IS NOT NULL;
CREATE INDEX evidences_config_idx ON evidences (config_id) WHERE config_id IS NOT NULL;
CREATE INDEX evidences_check_idx ON evidences (check_id) WHERE check_id IS NOT NULL;
CREATE INDEX evidences_dod_script_idx ON evidences (id) WHERE definition_of_done AND script IS NOT NULL;

CREATE TABLE responders (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id      uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  type             text NOT NULL CHECK (type IN ('person', 'system')),
  team_id          uuid REFERENCES teams (id),
  person_id        uuid REFERENCES people (id),
  -- {responderType, plus the type's fields}
  properties       jsonb NOT NULL DEFAULT '{}',
  external_id      text,
  -- 'sent', 'recorded' (no connection of that type) or 'failed'; with the reason in delivery_error.
  delivery_status  text,
  delivery_error   text,
  created_by       uuid REFERENCES people (id),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  deleted_at       timestamptz,
  acknowledge_time timestamptz,
  signoff_time     timestamptz,
  close_time       timestamptz,
  CHECK (team_id IS NOT NULL OR person_id IS NOT NULL)
);
CREATE INDEX responders_incident_idx ON responders (incident_id) WHERE deleted_at IS NULL;

CREATE TABLE comments (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id         uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  hypothesis_id       uuid REFERENCES hypotheses (id) ON DELETE CASCADE,
  responder_id        uuid REFERENCES responders (id) ON DELETE SET NULL,
  comment             text NOT NULL CHECK (length(btrim(comment)) > 0),
  created_by          uuid REFERENCES people (id),
  external_created_by text,
  external_id         text,
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX comments_incident_idx ON comments (incident_id, created_at);
CREATE INDEX comments_hypothesis_idx ON comments (hypothesis_id);

CREATE TABLE incident_histories (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  incident_id   uuid NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
  type          text NOT NULL,
  description   text,
  created_by    uuid REFERENCES people (id),
  responder_id  uuid REFERENCES responders (id) ON DELETE SET NULL,
  evidence_id   uuid REFERENCES evidences (id) ON DELETE SET NULL,
  hypothesis_id uuid REFERENCES hypotheses (id) ON DELETE SET NULL,
  comment_id    uuid REFERENCES comments (id) ON DELETE SET NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX incident_histories_incident_idx ON incident_histories (incident_id, created_at DESC);
