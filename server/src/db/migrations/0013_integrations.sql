-- Settings → Integrations (spec/3 §2 "Integrations"): one list of the resources that bring data in,
-- with the last run of each. integration_type names the detail route (/settings/integrations/{type}/{id}):
-- 'topologies' or 'scrapers'. Log backends ('logging_backends') join this union once their table
-- exists; there is none yet.
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
  ) i
  -- The newest run of each (job_history_resource_idx finds a resource's runs).
  LEFT JOIN LATERAL (
    SELECT h.status, h.details, h.name, h.time_start
    FROM job_history h
    WHERE h.resource_type = i.job_resource_type AND h.resource_id = i.id::text
    ORDER BY h.time_start DESC, h.created_at DESC
    LIMIT 1
  ) j ON true;
