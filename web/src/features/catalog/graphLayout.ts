// Positions for the relationship graph with dagre (spec/2 §2.5): direction LR or TB, rank spacing
// 120, node spacing 100. Loaded only with the graph view.
import dagre from '@dagrejs/dagre';
import type { GraphEdge, GraphNode } from './graph';

export type LayoutDirection = 'LR' | 'TB';

export const LAYOUT = { rankSep: 120, nodeSep: 100, animationMs: 300 } as const;
export const NODE_SIZE = { config: { width: 240, height: 64 }, group: { width: 200, height: 48 } } as const;

export interface PositionedNode {
  id: string;
  /** Top-left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export function layoutGraph(
  nodes: readonly GraphNode[],
  edges: readonly GraphEdge[],
  direction: LayoutDirection,
): Map<string, PositionedNode> {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: direction, ranksep: LAYOUT.rankSep, nodesep: LAYOUT.nodeSep });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of nodes) g.setNode(n.id, { ...NODE_SIZE[n.kind] });
  for (const e of edges) g.setEdge(e.source, e.target);
  dagre.layout(g);
  const out = new Map<string, PositionedNode>();
  for (const n of nodes) {
    const p = g.node(n.id);
    const { width, height } = NODE_SIZE[n.kind];
    out.set(n.id, { id: n.id, x: p.x - width / 2, y: p.y - height / 2, width, height });
  }
  return out;
}
