-- Playbook actions (issue 16): retries counted on the action row, files an exec action saved
-- (`artifacts`), and secret parameters sealed apart from the parameters every read shows.

-- How many times the action was tried again after failing (retry.limit bounds it).
ALTER TABLE playbook_run_actions ADD COLUMN retry_count integer NOT NULL DEFAULT 0;

-- name → sealed value (SecretBox) of the run's `secret` parameters; `parameters` holds only a mask.
-- Never returned by a read (a secret column of the REST registry); opened by the runner alone.
ALTER TABLE playbook_runs ADD COLUMN secret_parameters jsonb;

-- Files an action saved (exec `artifacts`), downloadable from the run page. Each is capped in size
-- by the server (10 MB); the content lives here so every replica can serve it.
CREATE TABLE artifacts (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  playbook_run_action_id  uuid NOT NULL REFERENCES playbook_run_actions (id) ON DELETE CASCADE,
  -- Where the file was, as the action saw it (relative to the script's directory when it was there).
  path                    text NOT NULL,
  filename                text NOT NULL,
  size                    bigint NOT NULL,
  content_type            text NOT NULL DEFAULT 'application/octet-stream',
  content                 bytea NOT NULL,
  -- sha256 of the content, hex.
  checksum                text NOT NULL,
  created_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX artifacts_action_idx ON artifacts (playbook_run_action_id, created_at);
