-- The configuration catalog: ScrapeConfig resources, the items their runs read, each item's
-- change history and insights, relationships between items, and links to checks and components.

CREATE TABLE config_scrapers (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name          text NOT NULL,
  namespace     text NOT NULL DEFAULT 'default',
  labels        jsonb NOT NULL DEFAULT '{}',
  -- The whole resource as written (apiVersion, kind, metadata, spec).
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
CREATE UNIQUE INDEX config_scrapers_name_key ON config_scrapers (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX config_scrapers_due_idx ON config_scrapers (next_runtime) WHERE deleted_at IS NULL;

CREATE TABLE config_items (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  scraper_id        uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  -- null: this instance; otherwise the agent that pushed the item.
  agent_id          uuid REFERENCES agents (id),
  -- The item's identity in its source (with scraper_id and type: stable across scrapes).
  external_id       text NOT NULL,
  type              text NOT NULL,
  config_class      text NOT NULL,
  name              text,
  description       text,
  status            text,
  health            text CHECK (health IN ('healthy', 'unhealthy', 'warning', 'unknown')),
  ready             boolean,
  labels            jsonb NOT NULL DEFAULT '{}',
  -- Tags are the item's placement (cluster, namespace, account, region...).
  tags              jsonb NOT NULL DEFAULT '{}',
  properties        jsonb,
  -- The item as read, normalized (keys sorted); format 'json' or 'yaml' for display.
  config            jsonb,
  format            text NOT NULL DEFAULT 'json',
  source            text,
  parent_id         uuid REFERENCES config_items (id) ON DELETE SET NULL,
  -- Dot-separated ids of the ancestors, root first; '' for a root.
  path              text NOT NULL DEFAULT '',
  cost_per_minute   numeric(16, 4),
  cost_total_1d     numeric(16, 4),
  cost_total_7d     numeric(16, 4),
  cost_total_30d    numeric(16, 4),
  -- Counts the list shows, maintained by the catalog engine: changes in the last 30 days, and
  -- open insights by severity ({"critical": 1, "high": 2, ...}).
  changes           integer NOT NULL DEFAULT 0,
  analysis          jsonb NOT NULL DEFAULT '{}',
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz NOT NULL DEFAULT now(),
  deleted_at        timestamptz,
  delete_reason     text,
  last_scraped_time timestamptz
);
-- Not partial: an item that reappears after a soft delete is the same item again.
CREATE UNIQUE INDEX config_items_identity_key ON config_items
  ((coalesce(scraper_id, '00000000-0000-0000-0000-000000000000')), type, external_id);
CREATE INDEX config_items_type_name_idx ON config_items (type, name);
CREATE INDEX config_items_class_idx ON config_items (config_class);
CREATE INDEX config_items_scraper_idx ON config_items (scraper_id) WHERE deleted_at IS NULL;
CREATE INDEX config_items_parent_idx ON config_items (parent_id);
CREATE INDEX config_items_live_idx ON config_items (type, name) WHERE deleted_at IS NULL;
CREATE INDEX config_items_labels_idx ON config_items USING gin (labels jsonb_path_ops);
CREATE INDEX config_items_tags_idx ON config_items USING gin (tags jsonb_path_ops);

CREATE TABLE config_changes (
  id                  uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id           uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  external_change_id  text,
  change_type         text NOT NULL,
  severity            text NOT NULL DEFAULT 'info',
  source              text,
  summary             text,
  -- {unifiedDiff-free extras: changed paths, before/after of small values, event fields}
  details             jsonb,
  -- JSON merge patch (RFC 7396) from the previous config to the new one, as text.
  patches             text,
  -- Unified diff of the normalized YAML renderings.
  diff                text,
  -- Same fingerprint inside the repeat window: count goes up instead of a new row.
  fingerprint         text,
  count               integer NOT NULL DEFAULT 1,
  tags                jsonb,
  created_by          uuid REFERENCES people (id),
  external_created_by text,
  first_observed      timestamptz NOT NULL DEFAULT now(),
  created_at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX config_changes_config_created_idx ON config_changes (config_id, created_at DESC);
CREATE INDEX config_changes_created_idx ON config_changes (created_at DESC);
CREATE INDEX config_changes_type_created_idx ON config_changes (change_type, created_at DESC);
CREATE INDEX config_changes_fingerprint_idx ON config_changes (config_id, fingerprint, created_at DESC);
CREATE UNIQUE INDEX config_changes_external_key ON config_changes (config_id, external_change_id)
  WHERE external_change_id IS NOT NULL;

CREATE TABLE config_analysis (
  id             uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  config_id      uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  scraper_id     uuid REFERENCES config_scrapers (id) ON DELETE SET NULL,
  analyzer       text NOT NULL,
  analysis_type  text NOT NULL DEFAULT 'other',
  severity       text NOT NULL DEFAULT 'info',
  message        text,
  summary        text,
  status         text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved', 'silenced')),
  source         text,
  analysis       jsonb,
  first_observed timestamptz NOT NULL DEFAULT now(),
  last_observed  timestamptz NOT NULL DEFAULT now(),
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX config_analysis_key ON config_analysis (config_id, analyzer);
CREATE INDEX config_analysis_status_idx ON config_analysis (status, last_observed DESC);

-- relation: e.g. 'ReplicaSetPod', 'NamespaceDeployment'; selector_id: the rule that made it
-- ('parent', a transform.relationship index, 'manual').
CREATE TABLE config_relationships (
  config_id   uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  related_id  uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  relation    text,
  selector_id text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (config_id, related_id, selector_id)
);
CREATE INDEX config_relationships_related_idx ON config_relationships (related_id);

-- Checks linked to configs (a check's relationships tab, a config's Checks tab).
CREATE TABLE check_config_relationships (
  check_id    uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  config_id   uuid NOT NULL REFERENCES config_items (id) ON DELETE CASCADE,
  canary_id   uuid REFERENCES canaries (id) ON DELETE CASCADE,
  selector_id text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz,
  PRIMARY KEY (check_id, config_id, selector_id)
);
CREATE INDEX check_config_relationships_config_idx ON check_config_relationships (config_id);

-- Component ↔ config links now point at real items (rows without config_id are selectors still
-- to be resolved by the catalog engine).
ALTER TABLE config_component_relationships
  ADD CONSTRAINT config_component_relationships_config_id_fkey
  FOREIGN KEY (config_id) REFERENCES config_items (id) ON DELETE CASCADE;

-- Jobs History names the scraper of catalog runs too (resource_type 'config_scraper').
CREATE OR REPLACE VIEW job_histories AS
  SELECT j.id, j.name, j.success_count, j.error_count, j.details, j.hostname, j.duration_millis,
    j.resource_type, j.resource_id, j.status, j.agent_id, j.time_start, j.time_end, j.created_at,
    CASE j.resource_type
      WHEN 'canary' THEN (SELECT c.namespace || '/' || c.name FROM canaries c WHERE c.id::text = j.resource_id)
      WHEN 'topology' THEN (SELECT t.namespace || '/' || t.name FROM topologies t WHERE t.id::text = j.resource_id)
      WHEN 'config_scraper' THEN (SELECT s.namespace || '/' || s.name FROM config_scrapers s WHERE s.id::text = j.resource_id)
      ELSE NULL
    END AS resource_name
  FROM job_history j;
