-- Settings → Jobs History reads job runs with the name of the resource they ran for.
CREATE VIEW job_histories AS
  SELECT j.id, j.name, j.success_count, j.error_count, j.details, j.hostname, j.duration_millis,
    j.resource_type, j.resource_id, j.status, j.agent_id, j.time_start, j.time_end, j.created_at,
    CASE j.resource_type
      WHEN 'canary' THEN (SELECT c.namespace || '/' || c.name FROM canaries c WHERE c.id::text = j.resource_id)
      WHEN 'topology' THEN (SELECT t.namespace || '/' || t.name FROM topologies t WHERE t.id::text = j.resource_id)
      ELSE NULL
    END AS resource_name
  FROM job_history j;
