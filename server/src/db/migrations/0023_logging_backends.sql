-- Logs (spec/2 §2.9, spec/3 §2 "Log backends"): the backends /api/logs reads (files, Loki,
-- OpenSearch, Kubernetes), where a component or catalog item keeps its logs (log selectors), the
-- components the viewer offers, and log backends in Settings → Integrations.

-- A LoggingBackend resource: spec is the resource's spec ({file: [...], loki: [...], opensearch: [...],
-- kubernetes: [...]}), written by /api/logging_backends (YAML) or by the form through /api/db.
CREATE TABLE logging_backends (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name        text NOT NULL,
  namespace   text NOT NULL DEFAULT 'default',
  labels      jsonb NOT NULL DEFAULT '{}',
  spec        jsonb NOT NULL DEFAULT '{}',
  source      text NOT NULL DEFAULT 'UI',
  created_by  uuid REFERENCES people (id),
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  deleted_at  timestamptz
);
CREATE UNIQUE INDEX logging_backends_name_key ON logging_backends (namespace, name) WHERE deleted_at IS NULL;

-- Where a component's (or catalog item's) logs are: [{name, backend, type, selector}] — name is what
-- the viewer's selector dropdown shows, backend a logging_backends name (null: the first backend,
-- of `type` when given), selector the labels that pick the stream (Loki labels, pod labels, the
-- labels of a file entry, OpenSearch fields). Components get it from `logs:` in the topology spec.
ALTER TABLE components ADD COLUMN log_selectors jsonb;
ALTER TABLE config_items ADD COLUMN log_selectors jsonb;

-- The components the logs viewer offers: those with log selectors, and (as before) those with an
-- external id, which the View Logs link of a card requires (spec/2 §2.6). `logs` lists the selectors.
DROP VIEW components_with_logs;
CREATE VIEW components_with_logs AS
  SELECT id, name, type, icon, text, external_id, topology_id, parent_id, path, health, status, agent_id,
         labels, created_at, updated_at,
         CASE WHEN jsonb_typeof(log_selectors) = 'array' THEN log_selectors ELSE '[]'::jsonb END AS logs
  FROM components
  WHERE deleted_at IS NULL
    AND ((jsonb_typeof(log_selectors) = 'array' AND jsonb_array_length(log_selectors) > 0)
      OR (external_id IS NOT NULL AND external_id <> ''));

-- Catalog items whose logs are known, for the same dropdown.
CREATE VIEW configs_with_logs AS
  SELECT id, name, type, config_class, external_id, agent_id, labels, health, status, created_at, updated_at,
         log_selectors AS logs
  FROM config_items
  WHERE deleted_at IS NULL AND jsonb_typeof(log_selectors) = 'array' AND jsonb_array_length(log_selectors) > 0;

-- Settings → Integrations, now with log backends ('logging_backends'; no schedule and no job runs).
DROP VIEW integrations;
CREATE VIEW integrations AS
  SELECT i.id, i.name, i.namespace, i.source, i.integration_type, i.agent_id, i.labels, i.schedule,
         i.created_by, i.created_at, i.updated_at,
         j.status AS job_status, j.details AS job_details, j.name AS job_name, j.time_start AS job_time_start
  FROM (
    SELECT t.id, t.name, t.namespace, t.source, 'topologies'::text AS integration_type, t.agent_id, t.labels,
           t.schedule, t.created_by, t.created_at, t.updated_at, 'topology'::text AS job_resource_type
    FROM topologies t
    WHERE t.deleted_at IS NULL
    UNION ALL
    SELECT s.id, s.name, s.namespace, s.source, 'scrapers'::text, s.agent_id, s.labels,
           s.schedule, s.created_by, s.created_at, s.updated_at, 'config_scraper'::text
    FROM config_scrapers s
    WHERE s.deleted_at IS NULL
    UNION ALL
    SELECT b.id, b.name, b.namespace, b.source, 'logging_backends'::text,
           '00000000-0000-0000-0000-000000000000'::uuid, b.labels,
           NULL::text, b.created_by, b.created_at, b.updated_at, 'logging_backend'::text
    FROM logging_backends b
    WHERE b.deleted_at IS NULL
  ) i
  -- The newest run of each (job_history_resource_idx finds a resource's runs).
  LEFT JOIN LATERAL (
    SELECT h.status, h.details, h.name, h.time_start
    FROM job_history h
    WHERE h.resource_type = i.job_resource_type AND h.resource_id = i.id::text
    ORDER BY h.time_start DESC, h.created_at DESC
    LIMIT 1
  ) j ON true;
