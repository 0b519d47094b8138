-- Playbook approvals and triggers (spec/3 §2, §4; issue 16): a run of a playbook with `approval`
-- waits as pending_approval until its approvers approve (playbook_approvals), runs started by `on`
-- triggers record what started them (trigger, and a webhook's request), schedules of `on.schedule`
-- are rows claimed by one replica each, webhook paths are unique among live playbooks, and
-- event-triggered runs are debounced per (playbook, resource) through one row that replicas lock.

ALTER TABLE playbook_runs DROP CONSTRAINT playbook_runs_status_check;
ALTER TABLE playbook_runs ADD CONSTRAINT playbook_runs_status_check
  CHECK (status IN ('pending_approval', 'pending', 'scheduled', 'running', 'completed', 'failed', 'cancelled'));

-- What started the run: {type: manual|event|schedule|webhook, event?, schedule?, path?}.
ALTER TABLE playbook_runs ADD COLUMN trigger jsonb NOT NULL DEFAULT '{"type":"manual"}';
-- A webhook run's request as templates see it (.request): {headers, json?, content, params}.
ALTER TABLE playbook_runs ADD COLUMN request jsonb;
CREATE INDEX playbook_runs_approval_idx ON playbook_runs (created_at DESC) WHERE status = 'pending_approval';

CREATE TABLE playbook_approvals (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  run_id      uuid NOT NULL REFERENCES playbook_runs (id) ON DELETE CASCADE,
  person_id   uuid NOT NULL REFERENCES people (id),
  -- The listed team the approver counted for, when they were not listed in person.
  team_id     uuid REFERENCES teams (id),
  status      text NOT NULL CHECK (status IN ('approved', 'rejected')),
  reason      text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (run_id, person_id)
);

-- `on.webhook.path` of the live playbook that owns it.
ALTER TABLE playbooks ADD COLUMN webhook_path text;
CREATE UNIQUE INDEX playbooks_webhook_path_key ON playbooks (webhook_path)
  WHERE deleted_at IS NULL AND webhook_path IS NOT NULL;

-- One row per `on.schedule` entry of a live playbook; a due row is locked (FOR UPDATE SKIP LOCKED),
-- its run queued and its next_runtime moved on in one transaction, so one replica runs each.
CREATE TABLE playbook_schedules (
  id              uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_id     uuid NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
  schedule_index  integer NOT NULL,
  schedule        text NOT NULL,
  next_runtime    timestamptz NOT NULL,
  last_runtime    timestamptz,
  UNIQUE (playbook_id, schedule_index)
);
CREATE INDEX playbook_schedules_due_idx ON playbook_schedules (next_runtime);

-- The last event-triggered run per (playbook, resource): a storm of events inside the window starts
-- one run; `skipped` counts the events debounced since.
CREATE TABLE playbook_trigger_debounce (
  playbook_id  uuid NOT NULL REFERENCES playbooks (id) ON DELETE CASCADE,
  resource_id  uuid NOT NULL,
  run_id       uuid REFERENCES playbook_runs (id) ON DELETE SET NULL,
  last_run_at  timestamptz NOT NULL DEFAULT now(),
  skipped      integer NOT NULL DEFAULT 0,
  PRIMARY KEY (playbook_id, resource_id)
);

-- The runs list shows what started a run.
CREATE OR REPLACE VIEW playbook_run_list AS
  SELECT r.id, r.playbook_id, r.status, r.parameters, r.config_id, r.component_id, r.check_id, r.parent_id,
         r.error, r.scheduled_time, r.start_time, r.end_time, r.created_at, r.created_by, r.agent_id,
         json_build_object('id', p.id, 'name', p.name, 'title', p.title, 'icon', p.icon, 'category', p.category) AS playbooks,
         EXTRACT(EPOCH FROM (coalesce(r.end_time, now()) - r.start_time)) * 1000 AS duration_ms,
         r.trigger
  FROM playbook_runs r JOIN playbooks p ON p.id = r.playbook_id;
