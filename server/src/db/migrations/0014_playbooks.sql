-- Playbooks (mission-control.flanksource.com/v1 Playbook resources), their runs and the runs'
-- actions (spec/1 §3, §6; spec/3 §2 Playbooks, §3, §5). A run is queued as a row; the runner claims
-- due rows with a lease (FOR UPDATE SKIP LOCKED), so any replica may execute it, and writes one
-- playbook_run_actions row per action as it reaches it.

CREATE TABLE playbooks (
  id           uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name         text NOT NULL,
  namespace    text NOT NULL DEFAULT 'default',
  title        text,
  icon         text,
  description  text,
  category     text,
  labels       jsonb NOT NULL DEFAULT '{}',
  -- The whole resource as written (apiVersion, kind, metadata, spec).
  spec         jsonb NOT NULL,
  source       text NOT NULL DEFAULT 'UI',
  created_by   uuid REFERENCES people (id),
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX playbooks_name_key ON playbooks (namespace, name) WHERE deleted_at IS NULL;

CREATE TABLE playbook_runs (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_id     uuid NOT NULL REFERENCES playbooks (id),
  status          text NOT NULL DEFAULT 'pending'
                  CHECK (status IN ('pending', 'scheduled', 'running', 'completed', 'failed', 'cancelled')),
  -- The playbook's spec when the run was requested: an edit does not change a run under way.
  spec            jsonb NOT NULL,
  parameters      jsonb NOT NULL DEFAULT '{}',
  config_id       uuid REFERENCES config_items (id) ON DELETE SET NULL,
  component_id    uuid REFERENCES components (id) ON DELETE SET NULL,
  check_id        uuid REFERENCES checks (id) ON DELETE SET NULL,
  -- The run this one repeats (Re-run), if any.
  parent_id       uuid REFERENCES playbook_runs (id) ON DELETE SET NULL,
  error           text,
  scheduled_time  timestamptz NOT NULL DEFAULT now(),
  start_time      timestamptz,
  end_time        timestamptz,
  created_at      timestamptz NOT NULL DEFAULT now(),
  created_by      uuid REFERENCES people (id),
  agent_id        uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  lease_owner     text,
  lease_until     timestamptz
);
CREATE INDEX playbook_runs_due_idx ON playbook_runs (scheduled_time) WHERE status IN ('pending', 'scheduled');
CREATE INDEX playbook_runs_playbook_idx ON playbook_runs (playbook_id, created_at DESC);
CREATE INDEX playbook_runs_config_idx ON playbook_runs (config_id, created_at DESC) WHERE config_id IS NOT NULL;
CREATE INDEX playbook_runs_component_idx ON playbook_runs (component_id, created_at DESC) WHERE component_id IS NOT NULL;
CREATE INDEX playbook_runs_check_idx ON playbook_runs (check_id, created_at DESC) WHERE check_id IS NOT NULL;
CREATE INDEX playbook_runs_created_idx ON playbook_runs (created_at DESC);

CREATE TABLE playbook_run_actions (
  id               uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_run_id  uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  name             text NOT NULL,
  -- Position of the action in the spec's actions[].
  action_index     integer NOT NULL,
  status           text NOT NULL DEFAULT 'running'
                   CHECK (status IN ('scheduled', 'running', 'sleeping', 'completed', 'failed', 'skipped')),
  scheduled_time   timestamptz NOT NULL DEFAULT now(),
  start_time       timestamptz,
  end_time         timestamptz,
  -- What the action produced: exec {stdout, stderr, exitCode}, http {code, headers, content, json},
  -- sql {rows, count}, … and `logs` (lines written while it ran).
  result           jsonb,
  error            text
);
CREATE INDEX playbook_run_actions_run_idx ON playbook_run_actions (playbook_run_id, action_index);

-- The runs list (/playbooks/runs) and the resource sections read runs with their playbook's name.
CREATE VIEW playbook_run_list AS
  SELECT r.id, r.playbook_id, r.status, r.parameters, r.config_id, r.component_id, r.check_id, r.parent_id,
         r.error, r.scheduled_time, r.start_time, r.end_time, r.created_at, r.created_by, r.agent_id,
         json_build_object('id', p.id, 'name', p.name, 'title', p.title, 'icon', p.icon, 'category', p.category) AS playbooks,
         EXTRACT(EPOCH FROM (coalesce(r.end_time, now()) - r.start_time)) * 1000 AS duration_ms
  FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id;

-- The catalog item's tab badge now counts real runs.
CREATE OR REPLACE VIEW config_detail AS
  SELECT ci.id, ci.scraper_id, ci.agent_id, ci.external_id, ci.type, ci.config_class, ci.name, ci.description,
         ci.status, ci.health, ci.ready, ci.labels, ci.tags, ci.properties, ci.config, ci.format, ci.source,
         ci.parent_id, ci.path, ci.cost_per_minute, ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d,
         ci.changes, ci.analysis, ci.created_at, ci.updated_at, ci.deleted_at, ci.delete_reason,
         ci.last_scraped_time,
         CASE WHEN s.id IS NULL THEN NULL ELSE json_build_object('id', s.id, 'name', s.name) END AS config_scrapers,
         CASE WHEN a.id IS NULL THEN NULL ELSE json_build_object('id', a.id, 'name', a.name) END AS agent,
         json_build_object(
           'changes', (SELECT count(*) FROM config_changes cc WHERE cc.config_id = ci.id),
           'analysis', (SELECT count(*) FROM config_analysis ca WHERE ca.config_id = ci.id),
           'relationships', (
             SELECT count(DISTINCT x.other) FROM (
               SELECT r.related_id AS other FROM config_relationships r
                 WHERE r.config_id = ci.id AND r.deleted_at IS NULL
               UNION ALL
               SELECT r.config_id FROM config_relationships r WHERE r.related_id = ci.id AND r.deleted_at IS NULL
               UNION ALL
               SELECT c.id FROM config_items c WHERE c.parent_id = ci.id AND c.deleted_at IS NULL
               UNION ALL
               SELECT ci.parent_id WHERE ci.parent_id IS NOT NULL
             ) x WHERE x.other <> ci.id),
           'checks', (SELECT count(DISTINCT r.check_id) FROM check_config_relationships r
                        WHERE r.config_id = ci.id AND r.deleted_at IS NULL),
           'playbook_runs', (SELECT count(*) FROM playbook_runs pr WHERE pr.config_id = ci.id)
         ) AS summary
  FROM config_items ci
  LEFT JOIN config_scrapers s ON s.id = ci.scraper_id
  LEFT JOIN agents a ON a.id = ci.agent_id;
