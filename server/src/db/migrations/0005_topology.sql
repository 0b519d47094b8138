-- Topology: Topology resources, the component trees their runs build (stable ids across runs,
-- soft-deleted when no longer produced), links from components to checks, configs, teams and
-- other components, and the views the console reads (spec/2 §7).

CREATE TABLE topologies (
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
CREATE UNIQUE INDEX topologies_name_key ON topologies (agent_id, namespace, name) WHERE deleted_at IS NULL;
CREATE INDEX topologies_due_idx ON topologies (next_runtime) WHERE deleted_at IS NULL;

CREATE TABLE components (
  id            uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  topology_id   uuid REFERENCES topologies (id) ON DELETE CASCADE,
  parent_id     uuid REFERENCES components (id) ON DELETE CASCADE,
  agent_id      uuid NOT NULL DEFAULT '00000000-0000-0000-0000-000000000000',
  external_id   text,
  name          text NOT NULL,
  text          text,
  tooltip       text,
  type          text,
  icon          text,
  labels        jsonb NOT NULL DEFAULT '{}',
  -- [{name, label, type, text, value, max, min, unit, headline, icon, color, tooltip, status, links, order}]
  properties    jsonb NOT NULL DEFAULT '[]',
  -- Rolled up from own_health, the linked checks and the children.
  health        text NOT NULL DEFAULT 'unknown' CHECK (health IN ('healthy', 'unhealthy', 'warning', 'unknown')),
  -- The health the spec or a lookup gave the component itself (null: none given).
  own_health    text CHECK (own_health IN ('healthy', 'unhealthy', 'warning', 'unknown')),
  -- As the spec or a lookup reported it (e.g. "Running"); free text.
  status        text,
  status_reason text,
  -- Dot-separated ids of the ancestors, root first; '' for a root.
  path          text NOT NULL DEFAULT '',
  is_leaf       boolean NOT NULL DEFAULT true,
  owner         text,
  hidden        boolean NOT NULL DEFAULT false,
  -- The config selectors of the spec, kept for the catalog to resolve.
  configs       jsonb,
  -- The component selectors of the spec.
  selectors     jsonb,
  summary       jsonb NOT NULL DEFAULT '{"checks": {"healthy": 0, "unhealthy": 0, "warning": 0}, "incidents": 0, "insights": 0}',
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now(),
  deleted_at    timestamptz
);
-- A component's identity across runs: its topology, its ancestors, its name and type.
CREATE UNIQUE INDEX components_identity_key ON components (topology_id, path, name, (coalesce(type, '')))
  WHERE deleted_at IS NULL;
CREATE INDEX components_topology_id_idx ON components (topology_id);
CREATE INDEX components_parent_id_idx ON components (parent_id) WHERE deleted_at IS NULL;
-- Subtree reads: path LIKE '<ancestors>.%'.
CREATE INDEX components_path_idx ON components (path text_pattern_ops) WHERE deleted_at IS NULL;
CREATE INDEX components_roots_idx ON components (name) WHERE deleted_at IS NULL AND parent_id IS NULL;
CREATE INDEX components_type_idx ON components (type) WHERE deleted_at IS NULL;
CREATE INDEX components_external_id_idx ON components (external_id) WHERE deleted_at IS NULL;

-- A component shown under another one by a selector or a parent lookup (relationship_id is the
-- component that selects, component_id the one selected).
CREATE TABLE component_relationships (
  component_id    uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  relationship_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  selector_id     text NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  deleted_at      timestamptz
);
CREATE UNIQUE INDEX component_relationships_key ON component_relationships (component_id, relationship_id, selector_id)
  WHERE deleted_at IS NULL;
CREATE INDEX component_relationships_relationship_id_idx ON component_relationships (relationship_id);

CREATE TABLE check_component_relationships (
  check_id     uuid NOT NULL REFERENCES checks (id) ON DELETE CASCADE,
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  canary_id    uuid NOT NULL REFERENCES canaries (id) ON DELETE CASCADE,
  -- Which selector of the spec linked them ('manual' for links made by hand).
  selector_id  text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX check_component_relationships_key ON check_component_relationships (component_id, check_id, selector_id)
  WHERE deleted_at IS NULL;
CREATE INDEX check_component_relationships_check_id_idx ON check_component_relationships (check_id);

CREATE TABLE team_components (
  team_id      uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  selector_id  text,
  role         text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, component_id)
);
CREATE INDEX team_components_component_id_idx ON team_components (component_id);

-- config_id has no foreign key yet (the catalog comes later). A row without config_id is a
-- selector still to be resolved by the catalog; 'manual' rows are links made by hand.
CREATE TABLE config_component_relationships (
  component_id uuid NOT NULL REFERENCES components (id) ON DELETE CASCADE,
  config_id    uuid,
  selector_id  text NOT NULL,
  selector     jsonb,
  created_at   timestamptz NOT NULL DEFAULT now(),
  updated_at   timestamptz NOT NULL DEFAULT now(),
  deleted_at   timestamptz
);
CREATE UNIQUE INDEX config_component_relationships_key ON config_component_relationships
  (component_id, (coalesce(config_id, '00000000-0000-0000-0000-000000000000')), selector_id) WHERE deleted_at IS NULL;
CREATE INDEX config_component_relationships_config_id_idx ON config_component_relationships (config_id);

-- Pickers and breadcrumbs: the live components by name.
CREATE VIEW component_names AS
  SELECT id, name, type, icon, text, external_id, topology_id, parent_id, path, health, status, agent_id, hidden,
         created_at, updated_at
  FROM components WHERE deleted_at IS NULL;

-- The label filter of the topology page: every key and value in use.
CREATE VIEW component_labels AS
  SELECT DISTINCT l.key, l.value
  FROM components c, jsonb_each_text(c.labels) AS l(key, value)
  WHERE c.deleted_at IS NULL;

-- The Checks panel of a component.
CREATE VIEW checks_by_component AS
  SELECT DISTINCT r.component_id, c.id, c.canary_id, c.type, c.name, c.namespace, c.description, c.icon, c.status,
         c.severity, c.owner, c.labels, c.endpoint, c.last_runtime, c.last_transition_time, c.agent_id
  FROM check_component_relationships r
  JOIN checks c ON c.id = r.check_id
  WHERE r.deleted_at IS NULL AND c.deleted_at IS NULL;
