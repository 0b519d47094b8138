-- Agents (docs/api.md "Agents"): a pushed row's identity includes its agent, the checks an operator
-- runs now on an agent are relayed to it, and the check_statuses a push carries stay keyed by check.

-- Two clusters both hold Kubernetes::Namespace/default: the catalog identity is per agent. A pushed
-- item has no scraper upstream (scraper_id is not carried), so without agent_id the second agent's
-- item collided with the first's. agent_id goes last: lookups by scraper, type and external id keep
-- using the index. Local items have agent_id NULL (coalesced to the all-zero id, as scraper_id is).
-- The other pushed identities already hold the agent: canaries_name_key (agent_id, namespace, name),
-- checks_canary_type_name_key (canary_id, ...) and config_changes/config_analysis (config_id, ...)
-- name a row of that agent; components_identity_key starts with topology_id, which a push does not
-- carry (NULL, never equal to another NULL in a unique index).
DROP INDEX config_items_identity_key;
CREATE UNIQUE INDEX config_items_identity_key ON config_items
  ((coalesce(scraper_id, '00000000-0000-0000-0000-000000000000')), type, external_id,
   (coalesce(agent_id, '00000000-0000-0000-0000-000000000000')));

-- Run Now on a check that an agent pushed (POST /api/canary/run/check/{id}) is not run upstream (the
-- wrong network): a request is queued for the agent, which claims it under a lease
-- (POST /api/upstream/check-run/claim), runs the check in its own engine at once and reports
-- (POST /api/upstream/check-run/{id}/report); the result itself arrives with the next push.
CREATE TABLE agent_check_runs (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  agent_id      uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
  check_id      uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  requested_by  uuid REFERENCES people (id) ON DELETE SET NULL,
  status        text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'claimed', 'done', 'failed')),
  -- A claim the agent did not report before lease_until is claimable again (at most 3 claims).
  lease_until   timestamptz,
  attempts      integer NOT NULL DEFAULT 0,
  error         text,
  created_at    timestamptz NOT NULL DEFAULT now(),
  claimed_at    timestamptz,
  done_at       timestamptz
);
-- One outstanding request per check: a second Run Now while one waits joins it.
CREATE UNIQUE INDEX agent_check_runs_waiting_key ON agent_check_runs (check_id) WHERE status = 'pending';
CREATE INDEX agent_check_runs_due_idx ON agent_check_runs (agent_id, created_at) WHERE status IN ('pending', 'claimed');
