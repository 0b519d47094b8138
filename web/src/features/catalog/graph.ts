// The relationship graph's model (spec/2 §2.5), without React or a layout library: the direction
// toggles and their forcing rule, the related_configs_recursive arguments they make, and the
// nodes and edges drawn from its rows, where three or more same-type items hanging off one node
// collapse into an expandable intermediary node (expanded by default with 3 or fewer children).

export interface RelatedConfig {
  id: string;
  name: string | null;
  type: string;
  status?: string | null;
  health?: string | null;
  deleted_at?: string | null;
  tags?: Record<string, string> | null;
  changes?: number | null;
  related_ids?: string[] | null;
  relation?: string | null;
  direction?: 'incoming' | 'outgoing' | string | null;
  depth?: number | null;
}

// ---------------------------------------------------------------------------------------------
// Toggles

export interface RelationshipToggles {
  outgoing: boolean;
  incoming: boolean;
  soft: boolean;
}

export const DEFAULT_TOGGLES: RelationshipToggles = { outgoing: true, incoming: false, soft: false };

/** Applies one toggle; turning incoming off forces outgoing on (something is always shown). */
export function applyToggle(
  current: RelationshipToggles,
  key: keyof RelationshipToggles,
  value: boolean,
): RelationshipToggles {
  const next = { ...current, [key]: value };
  if (key === 'incoming' && !value) next.outgoing = true;
  if (key === 'outgoing' && !value && !next.incoming) next.outgoing = true;
  return next;
}

/** Related-config recursion depth. */
export const RELATED_MAX_DEPTH = 10;

/** The query of GET /api/db/rpc/related_configs_recursive for the toggles. */
export function relatedConfigsArgs(
  configId: string,
  toggles: RelationshipToggles,
  includeDeleted: boolean,
): Record<string, string | number | boolean> {
  const typeFilter = toggles.incoming && toggles.outgoing ? 'all' : toggles.incoming ? 'incoming' : 'outgoing';
  const relation = toggles.soft ? 'both' : 'hard';
  return {
    config_id: configId,
    include_deleted_configs: includeDeleted,
    max_depth: RELATED_MAX_DEPTH,
    type_filter: typeFilter,
    incoming_relation: relation,
    outgoing_relation: relation,
  };
}

// ---------------------------------------------------------------------------------------------
// Nodes and edges

export interface ConfigNode {
  kind: 'config';
  id: string;
  config: RelatedConfig;
  root: boolean;
}

export interface GroupNode {
  kind: 'group';
  id: string;
  type: string;
  parentId: string;
  childIds: string[];
  expanded: boolean;
}

export type GraphNode = ConfigNode | GroupNode;

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label?: string;
}

export interface RelationshipGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** Groups of this many same-type siblings or more collapse into an intermediary node. */
export const GROUP_MIN_SIZE = 3;
/** Groups of this many children or fewer start expanded. */
export const GROUP_EXPANDED_MAX = 3;

export const groupNodeId = (parentId: string, type: string) => `group:${parentId}:${type}`;

interface TreeEdge {
  parent: string;
  child: string;
  /** The edge points from the child to the parent (an incoming relationship). */
  towardParent: boolean;
  label?: string;
}

export function buildRelationshipGraph(
  root: RelatedConfig,
  rows: readonly RelatedConfig[],
  expanded: Readonly<Record<string, boolean>> = {},
): RelationshipGraph {
  // The function returns the item itself as the depth-0 row; it wins over the page's copy.
  const rootRow = rows.find((r) => r.id === root.id);
  const byId = new Map<string, RelatedConfig>([[root.id, { ...root, ...rootRow, depth: 0 }]]);
  for (const r of rows) if (r.id !== root.id && !byId.has(r.id)) byId.set(r.id, r);
  const depth = (id: string) => (id === root.id ? 0 : (byId.get(id)?.depth ?? 1));

  // One tree edge per related pair (related_ids: the items a row points to), from the node nearer
  // the root to the farther one, remembering which way the relationship really points.
  const treeEdges: TreeEdge[] = [];
  const seen = new Set<string>();
  const linked = new Set<string>([root.id]);
  const addTreeEdge = (source: string, target: string, label?: string) => {
    const key = [source, target].sort().join('|');
    if (seen.has(key)) return;
    seen.add(key);
    const [parent, child] = depth(source) <= depth(target) ? [source, target] : [target, source];
    treeEdges.push({ parent, child, towardParent: source === child, label });
    linked.add(source).add(target);
  };
  for (const row of byId.values())
    for (const target of row.related_ids ?? [])
      if (target !== row.id && byId.has(target))
        addTreeEdge(
          row.id,
          target,
          (byId.get(target === root.id ? row.id : target)?.relation ?? undefined) || undefined,
        );
  // A related item whose links were not returned still hangs off the root.
  for (const row of byId.values()) {
    if (linked.has(row.id)) continue;
    if (row.direction === 'incoming') addTreeEdge(row.id, root.id, row.relation ?? undefined);
    else addTreeEdge(root.id, row.id, row.relation ?? undefined);
  }

  // Same-type children of one parent, three or more: behind a group node.
  const groups = new Map<string, GroupNode>();
  const childrenOf = new Map<string, TreeEdge[]>();
  for (const e of treeEdges) childrenOf.set(e.parent, [...(childrenOf.get(e.parent) ?? []), e]);
  const groupOfEdge = new Map<TreeEdge, GroupNode>();
  for (const [parent, edges] of childrenOf) {
    const byType = new Map<string, TreeEdge[]>();
    for (const e of edges) {
      const type = byId.get(e.child)!.type;
      byType.set(type, [...(byType.get(type) ?? []), e]);
    }
    for (const [type, same] of byType) {
      if (same.length < GROUP_MIN_SIZE) continue;
      const id = groupNodeId(parent, type);
      const group: GroupNode = {
        kind: 'group',
        id,
        type,
        parentId: parent,
        childIds: same.map((e) => e.child),
        expanded: expanded[id] ?? same.length <= GROUP_EXPANDED_MAX,
      };
      groups.set(id, group);
      for (const e of same) groupOfEdge.set(e, group);
    }
  }

  const edges: GraphEdge[] = [];
  const addEdge = (from: string, to: string, towardParent: boolean, label?: string) => {
    const [source, target] = towardParent ? [to, from] : [from, to];
    const id = `${source}->${target}`;
    if (!edges.some((e) => e.id === id)) edges.push({ id, source, target, label });
  };
  for (const e of treeEdges) {
    const group = groupOfEdge.get(e);
    if (!group) {
      addEdge(e.parent, e.child, e.towardParent, e.label);
      continue;
    }
    addEdge(e.parent, group.id, e.towardParent);
    if (group.expanded) addEdge(group.id, e.child, e.towardParent, e.label);
  }

  // Only what is still connected to the root is drawn (a collapsed group hides its subtree).
  const adjacency = new Map<string, string[]>();
  for (const e of edges) {
    adjacency.set(e.source, [...(adjacency.get(e.source) ?? []), e.target]);
    adjacency.set(e.target, [...(adjacency.get(e.target) ?? []), e.source]);
  }
  const visible = new Set<string>([root.id]);
  const queue = [root.id];
  while (queue.length) {
    for (const next of adjacency.get(queue.shift()!) ?? []) {
      if (!visible.has(next)) {
        visible.add(next);
        queue.push(next);
      }
    }
  }

  const nodes: GraphNode[] = [];
  for (const config of byId.values())
    if (visible.has(config.id)) nodes.push({ kind: 'config', id: config.id, config, root: config.id === root.id });
  for (const group of groups.values()) if (visible.has(group.id)) nodes.push(group);
  return { nodes, edges: edges.filter((e) => visible.has(e.source) && visible.has(e.target)) };
}
