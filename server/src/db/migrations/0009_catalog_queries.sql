-- The catalog's read side: the views and functions the catalog screens read through /api/db
-- (spec/2 §2.1–§2.5, §7), and the indexes behind the list, summary, changes and graph queries.

-- One item with what its detail page shows around it: the scraper, the agent and the tab counts.
CREATE VIEW config_detail AS
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
           -- Playbooks are not stored yet: no runs to count.
           'playbook_runs', 0
         ) AS summary
  FROM config_items ci
  LEFT JOIN config_scrapers s ON s.id = ci.scraper_id
  LEFT JOIN agents a ON a.id = ci.agent_id;

-- Filter options of the catalog list: every tag and label key/value of live items.
CREATE VIEW config_tags AS
  SELECT DISTINCT t.key, t.value
  FROM config_items ci, jsonb_each_text(ci.tags) AS t(key, value)
  WHERE ci.deleted_at IS NULL;

CREATE VIEW config_labels AS
  SELECT DISTINCT l.key, l.value
  FROM config_items ci, jsonb_each_text(ci.labels) AS l(key, value)
  WHERE ci.deleted_at IS NULL;

-- Pickers and breadcrumbs: items by name (deleted ones too, flagged by deleted_at).
CREATE VIEW config_names AS
  SELECT id, name, type, config_class, status, health, agent_id, scraper_id, tags, created_at, updated_at, deleted_at
  FROM config_items;

-- Distinct values read by skipping through an index (one probe per value, not a scan of every row).
CREATE VIEW config_types AS
  WITH RECURSIVE t(type) AS (
    SELECT min(type) FROM config_items WHERE deleted_at IS NULL
    UNION ALL
    SELECT (SELECT min(ci.type) FROM config_items ci WHERE ci.deleted_at IS NULL AND ci.type > t.type)
    FROM t WHERE t.type IS NOT NULL
  )
  SELECT type FROM t WHERE type IS NOT NULL;

CREATE VIEW config_classes AS
  WITH RECURSIVE t(config_class) AS (
    SELECT min(config_class) FROM config_items WHERE deleted_at IS NULL
    UNION ALL
    SELECT (SELECT min(ci.config_class) FROM config_items ci
            WHERE ci.deleted_at IS NULL AND ci.config_class > t.config_class)
    FROM t WHERE t.config_class IS NOT NULL
  )
  SELECT config_class FROM t WHERE config_class IS NOT NULL;

CREATE VIEW config_statuses AS
  WITH RECURSIVE t(status) AS (
    SELECT min(status) FROM config_items WHERE deleted_at IS NULL
    UNION ALL
    SELECT (SELECT min(ci.status) FROM config_items ci WHERE ci.deleted_at IS NULL AND ci.status > t.status)
    FROM t WHERE t.status IS NOT NULL
  )
  SELECT status FROM t WHERE status IS NOT NULL;

CREATE VIEW config_analysis_analyzers AS
  SELECT DISTINCT analyzer FROM config_analysis;

CREATE VIEW change_types AS
  WITH RECURSIVE t(change_type) AS (
    SELECT min(change_type) FROM config_changes
    UNION ALL
    SELECT (SELECT min(cc.change_type) FROM config_changes cc WHERE cc.change_type > t.change_type)
    FROM t WHERE t.change_type IS NOT NULL
  )
  SELECT change_type FROM t WHERE change_type IS NOT NULL;

-- Insights with the item they are about (the Insights tab and its filters).
CREATE VIEW config_analysis_items AS
  SELECT a.id, a.config_id, a.scraper_id, a.analyzer, a.analysis_type, a.severity, a.message, a.summary, a.status,
         a.source, a.analysis, a.first_observed, a.last_observed, a.created_at, a.updated_at,
         ci.type AS config_type, ci.config_class, ci.name AS config_name, ci.deleted_at AS config_deleted_at,
         json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class) AS config
  FROM config_analysis a
  JOIN config_items ci ON ci.id = a.config_id;

-- Insights and changes of the items linked to a component (topology side panel, insight links).
CREATE VIEW analysis_by_component AS
  SELECT r.component_id, a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.message, a.summary,
         a.status, a.source, a.first_observed, a.last_observed,
         json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class) AS config
  FROM config_component_relationships r
  JOIN config_analysis a ON a.config_id = r.config_id
  JOIN config_items ci ON ci.id = a.config_id
  WHERE r.deleted_at IS NULL AND ci.deleted_at IS NULL;

CREATE VIEW changes_by_component AS
  SELECT r.component_id, cc.id, cc.config_id, cc.change_type, cc.severity, cc.source, cc.summary, cc.count,
         cc.created_by, cc.external_created_by, cc.first_observed, cc.created_at,
         ci.name, ci.type AS config_type,
         json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class) AS config
  FROM config_component_relationships r
  JOIN config_changes cc ON cc.config_id = r.config_id
  JOIN config_items ci ON ci.id = cc.config_id
  WHERE r.deleted_at IS NULL AND ci.deleted_at IS NULL;

-- The Checks tab of an item: its linked checks with their state and canary.
CREATE VIEW check_summary_for_config AS
  SELECT r.config_id, c.id, c.canary_id, c.type, c.name, c.namespace, c.description, c.icon, c.status, c.severity,
         c.owner, c.labels, c.endpoint, c.last_runtime, c.last_transition_time, c.agent_id, c.created_at,
         c.updated_at, ca.name AS canary_name
  FROM check_config_relationships r
  JOIN checks c ON c.id = r.check_id
  JOIN canaries ca ON ca.id = c.canary_id
  WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL;

-- Counts per type and class of the live items (a cheap overview; the summary endpoint is richer).
CREATE VIEW config_summary AS
  SELECT type, config_class, count(*) AS count,
         count(*) FILTER (WHERE health = 'healthy') AS healthy,
         count(*) FILTER (WHERE health = 'unhealthy') AS unhealthy,
         count(*) FILTER (WHERE health = 'warning') AS warning,
         count(*) FILTER (WHERE health IS NULL OR health = 'unknown') AS unknown,
         coalesce(sum(changes), 0) AS changes,
         coalesce(sum(cost_total_30d), 0) AS cost_total_30d
  FROM config_items
  WHERE deleted_at IS NULL
  GROUP BY type, config_class;

-- The items related to one item, walked through parent links and config_relationships up to
-- max_depth: 'outgoing' follows parent → child and config_id → related_id, 'incoming' the reverse.
-- A relation argument of 'hard' follows those links, 'soft' adds items of the same namespace (and
-- cluster) sharing a label with the item, 'both' does both. The item itself is the row at depth 0
-- (direction 'root'). related_ids: the returned items each row points to (the graph's edges).
CREATE FUNCTION related_configs_recursive(
  config_id uuid,
  include_deleted_configs boolean DEFAULT false,
  max_depth integer DEFAULT 10,
  type_filter text DEFAULT 'all',
  incoming_relation text DEFAULT 'hard',
  outgoing_relation text DEFAULT 'hard'
) RETURNS TABLE (
  id uuid, name text, type text, config_class text, status text, health text, deleted_at timestamptz, tags jsonb,
  changes integer, related_ids uuid[], relation text, direction text, depth integer
) LANGUAGE sql STABLE AS $$
  WITH RECURSIVE
  args AS (
    SELECT related_configs_recursive.config_id AS root,
           coalesce(related_configs_recursive.include_deleted_configs, false) AS with_deleted,
           least(greatest(coalesce(related_configs_recursive.max_depth, 10), 0), 50) AS max_depth,
           coalesce(type_filter, 'all') IN ('outgoing', 'all', 'downstream') AS outgoing,
           coalesce(type_filter, 'all') IN ('incoming', 'all', 'upstream') AS incoming,
           coalesce(outgoing_relation, 'hard') IN ('hard', 'both') AS out_hard,
           coalesce(outgoing_relation, 'hard') IN ('soft', 'both') AS out_soft,
           coalesce(incoming_relation, 'hard') IN ('hard', 'both') AS in_hard,
           coalesce(incoming_relation, 'hard') IN ('soft', 'both') AS in_soft
  ),
  walk(id, depth, direction, relation) AS (
    SELECT a.root, 0, d.direction, NULL::text
    FROM args a
    CROSS JOIN (VALUES ('outgoing'), ('incoming')) AS d(direction)
    WHERE (d.direction = 'outgoing' AND a.outgoing AND a.out_hard)
       OR (d.direction = 'incoming' AND a.incoming AND a.in_hard)
    UNION
    SELECT e.next_id, w.depth + 1, w.direction, e.relation
    FROM walk w
    CROSS JOIN LATERAL (
      SELECT c.id AS next_id, 'parent'::text AS relation
        FROM config_items c WHERE w.direction = 'outgoing' AND c.parent_id = w.id
      UNION ALL
      SELECT c.parent_id, 'parent' FROM config_items c
        WHERE w.direction = 'incoming' AND c.id = w.id AND c.parent_id IS NOT NULL
      UNION ALL
      SELECT r.related_id, coalesce(r.relation, r.selector_id) FROM config_relationships r
        WHERE w.direction = 'outgoing' AND r.config_id = w.id AND r.deleted_at IS NULL
      UNION ALL
      SELECT r.config_id, coalesce(r.relation, r.selector_id) FROM config_relationships r
        WHERE w.direction = 'incoming' AND r.related_id = w.id AND r.deleted_at IS NULL
    ) e
    JOIN config_items n ON n.id = e.next_id
    WHERE w.depth < (SELECT max_depth FROM args)
      AND (n.deleted_at IS NULL OR (SELECT with_deleted FROM args))
  ),
  hard AS (
    SELECT DISTINCT ON (w.id) w.id, w.depth, CASE WHEN w.depth = 0 THEN 'root' ELSE w.direction END AS direction,
           w.relation
    FROM walk w
    ORDER BY w.id, w.depth, w.direction DESC
  ),
  soft AS (
    SELECT s.id, 1 AS depth, CASE WHEN a.outgoing AND a.out_soft THEN 'outgoing' ELSE 'incoming' END AS direction,
           'soft'::text AS relation
    FROM args a
    JOIN config_items root ON root.id = a.root
    JOIN config_items s
      ON s.tags @> jsonb_strip_nulls(jsonb_build_object('namespace', root.tags -> 'namespace',
                                                         'cluster', root.tags -> 'cluster'))
    WHERE ((a.outgoing AND a.out_soft) OR (a.incoming AND a.in_soft))
      AND root.tags ? 'namespace'
      AND s.id <> root.id
      AND (s.deleted_at IS NULL OR a.with_deleted)
      AND (root.labels = '{}'::jsonb
           OR EXISTS (SELECT 1 FROM jsonb_each(root.labels) l WHERE s.labels @> jsonb_build_object(l.key, l.value)))
      AND NOT EXISTS (SELECT 1 FROM hard h WHERE h.id = s.id)
    ORDER BY s.name, s.id
    LIMIT 200
  ),
  root_row AS (
    -- The item itself, even when only soft relations were asked for.
    SELECT a.root AS id, 0 AS depth, 'root'::text AS direction, NULL::text AS relation
    FROM args a WHERE NOT EXISTS (SELECT 1 FROM hard h WHERE h.id = a.root)
  ),
  nodes AS (
    SELECT * FROM hard UNION ALL SELECT * FROM soft UNION ALL SELECT * FROM root_row
  ),
  -- The graph's edges between returned items: parent → child, config_id → related_id, and the soft
  -- links (the item → an outgoing soft relative, an incoming soft relative → the item).
  edges AS (
    SELECT c.parent_id AS src, c.id AS dst
    FROM nodes a JOIN config_items c ON c.parent_id = a.id JOIN nodes b ON b.id = c.id
    UNION
    SELECT r.config_id, r.related_id
    FROM nodes a JOIN config_relationships r ON r.config_id = a.id AND r.deleted_at IS NULL
    JOIN nodes b ON b.id = r.related_id
    UNION
    SELECT a.root, s.id FROM args a, soft s WHERE s.direction = 'outgoing'
    UNION
    SELECT s.id, a.root FROM args a, soft s WHERE s.direction = 'incoming'
  ),
  out_edges AS (
    SELECT src, array_agg(dst ORDER BY dst) AS related_ids FROM edges WHERE src <> dst GROUP BY src
  )
  SELECT ci.id, ci.name, ci.type, ci.config_class, ci.status, ci.health, ci.deleted_at, ci.tags, ci.changes,
         coalesce(e.related_ids, '{}') AS related_ids, n.relation, n.direction, n.depth
  FROM nodes n
  JOIN config_items ci ON ci.id = n.id
  LEFT JOIN out_edges e ON e.src = n.id
  ORDER BY n.depth, ci.type, ci.name, ci.id
$$;

-- Insights of the items linked to a component, with the filters of the topology card links.
CREATE FUNCTION lookup_analysis_by_component(
  component_id uuid,
  analysis_type text DEFAULT NULL,
  severity text DEFAULT NULL,
  status text DEFAULT 'open'
) RETURNS TABLE (
  id uuid, config_id uuid, analyzer text, analysis_type text, severity text, message text, summary text,
  status text, first_observed timestamptz, last_observed timestamptz, config json
) LANGUAGE sql STABLE AS $$
  SELECT DISTINCT ON (a.id) a.id, a.config_id, a.analyzer, a.analysis_type, a.severity, a.message, a.summary,
         a.status, a.first_observed, a.last_observed,
         json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class)
  FROM config_component_relationships r
  JOIN config_analysis a ON a.config_id = r.config_id
  JOIN config_items ci ON ci.id = a.config_id
  WHERE r.component_id = lookup_analysis_by_component.component_id
    AND r.deleted_at IS NULL AND ci.deleted_at IS NULL
    AND (lookup_analysis_by_component.analysis_type IS NULL
         OR a.analysis_type = lookup_analysis_by_component.analysis_type)
    AND (lookup_analysis_by_component.severity IS NULL OR a.severity = lookup_analysis_by_component.severity)
    AND (lookup_analysis_by_component.status IS NULL OR a.status = lookup_analysis_by_component.status)
  ORDER BY a.id
$$;

-- Indexes for the screens' queries. Items carry their config body, so their heap is wide (about
-- 1 kB a row): the summary and the joins of the changes list read narrow covering indexes instead.
-- Changes newest first with a stable tie-break (paging), with the columns the list filters on.
CREATE INDEX config_changes_created_id_idx ON config_changes (created_at DESC, id DESC)
  INCLUDE (config_id, change_type, severity);
-- Live items: what the summary groups, counts and sums, by the default grouping.
CREATE INDEX config_items_live_summary_idx ON config_items (config_class, type)
  INCLUDE (status, health, changes, analysis, cost_total_1d, cost_total_7d, cost_total_30d, agent_id, tags)
  WHERE deleted_at IS NULL;
-- Changes by severity (the minimum-severity filter reads only the matching ones).
CREATE INDEX config_changes_severity_created_idx ON config_changes (severity, created_at DESC)
  INCLUDE (config_id, change_type);
-- Live items of a type by id, with the fields the changes list filters on: joins without the heap.
CREATE INDEX config_items_live_type_id_idx ON config_items (type, id) INCLUDE (config_class, tags)
  WHERE deleted_at IS NULL;
-- The few deleted items: the changes list leaves their changes out with an anti-join.
CREATE INDEX config_items_deleted_id_idx ON config_items (id) WHERE deleted_at IS NOT NULL;
CREATE INDEX config_items_live_status_idx ON config_items (status) WHERE deleted_at IS NULL;
CREATE INDEX config_analysis_analyzer_idx ON config_analysis (analyzer);
