-- Topology, second part: the components the logs viewer offers (spec/2 §2.6, §2.9), and indexes the
-- health roll-up and the snapshot read by component.

-- A component has logs when it has an external id: that is what a log backend is queried by, and
-- what the View Logs link of a card requires (spec/2 §2.6).
CREATE VIEW components_with_logs AS
  SELECT id, name, type, icon, text, external_id, topology_id, parent_id, path, health, status, agent_id,
         labels, created_at, updated_at
  FROM components
  WHERE deleted_at IS NULL AND external_id IS NOT NULL AND external_id <> '';

-- Roll-up reads of links per component.
CREATE INDEX config_component_relationships_component_idx ON config_component_relationships (component_id)
  WHERE deleted_at IS NULL;
CREATE INDEX check_component_relationships_component_idx ON check_component_relationships (component_id)
  WHERE deleted_at IS NULL;

-- A component's level (0 for a root), kept by the database from its path, so the card query reads
-- only the levels it shows instead of computing the depth of every component of the subtree.
ALTER TABLE components ADD COLUMN depth integer GENERATED ALWAYS AS
  (CASE WHEN path = '' THEN 0 ELSE length(path) - length(replace(path, '.', '')) + 1 END) STORED;
CREATE INDEX components_depth_path_idx ON components (depth, path text_pattern_ops, name) WHERE deleted_at IS NULL;
