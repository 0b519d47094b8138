// Shapes of the topology area (spec/2 §3): the card answer of GET /api/topology, component
// properties and teams, and the rows of the side panel's /api/db views.

/** A component property (spec/2 §3 "Component property"). */
export interface ComponentProperty {
  name: string;
  label?: string;
  tooltip?: string;
  icon?: string;
  type?: string;
  color?: string;
  headline?: boolean;
  text?: string;
  value?: number;
  unit?: string;
  max?: number;
  min?: number;
  status?: string;
  links?: unknown[];
  order?: number;
}

export interface ComponentSummary {
  checks?: { healthy?: number; unhealthy?: number; warning?: number };
  incidents?: number;
  insights?: number;
}

export interface CardTeam {
  team_id: string;
  name: string;
  icon: string | null;
}

/** One card of GET /api/topology, with its children nested. */
export interface TopologyComponent {
  id: string;
  topology_id: string | null;
  parent_id: string | null;
  agent_id: string;
  external_id: string | null;
  /** Its log selectors (names for the logs viewer), when the answer carries them. */
  logs?: Array<{ name: string }> | null;
  name: string;
  text: string | null;
  tooltip: string | null;
  type: string | null;
  icon: string | null;
  labels: Record<string, string>;
  properties: ComponentProperty[];
  health: string;
  status: string;
  status_reason: string | null;
  /** Dot-separated ids of the ancestors, root first; '' for a root. */
  path: string;
  is_leaf: boolean;
  owner: string | null;
  hidden: boolean;
  summary: ComponentSummary;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  teams: CardTeam[];
  components: TopologyComponent[];
}

export interface TopologyResponse {
  components: TopologyComponent[];
  teams: string[];
  types: string[];
  healthStatuses: string[];
}

export interface ComponentName {
  id: string;
  name: string;
  type: string | null;
}
