// The relationship graph (spec/2 §2.5) with @xyflow/react and a dagre layout: direction LR or TB,
// bezier or smoothstep edges, rank spacing 120, node spacing 100, 300 ms animation when the layout
// changes; same-type groups of three or more behind an expandable node. Loaded lazily with its
// libraries, so they stay out of the initial bundle.
import {
  Background,
  Controls,
  Handle,
  Position,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  type Edge,
  type Node,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { createContext, useContext, useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { cn } from '../../../ui/cn';
import { buildRelationshipGraph, type GroupNode, type RelatedConfig } from '../graph';
import { layoutGraph, LAYOUT, type LayoutDirection } from '../graphLayout';
import { formatCount, HEALTH_COLOR, isHealth } from '../format';

export type EdgeStyle = 'bezier' | 'smoothstep';

const DirectionContext = createContext<LayoutDirection>('LR');
const ToggleContext = createContext<(groupId: string) => void>(() => {});

type ConfigNodeData = { config: RelatedConfig; root: boolean };
type GroupNodeData = { group: GroupNode };

function handles(direction: LayoutDirection) {
  return direction === 'LR'
    ? { target: Position.Left, source: Position.Right }
    : { target: Position.Top, source: Position.Bottom };
}

function ConfigNodeView({ data }: NodeProps<Node<ConfigNodeData>>) {
  const direction = useContext(DirectionContext);
  const { config, root } = data;
  const h = isHealth(config.health) ? config.health : 'unknown';
  const pos = handles(direction);
  return (
    <div
      data-testid="graph-node"
      data-root={root || undefined}
      className={cn(
        'flex h-16 w-60 flex-col justify-center rounded-md border bg-surface px-3 text-left shadow-sm',
        root ? 'border-primary ring-2 ring-primary/30' : 'border-border',
        config.deleted_at && 'opacity-60',
      )}
    >
      <Handle type="target" position={pos.target} className="!bg-border-strong" />
      <div className="flex items-center gap-1.5">
        <span className={cn('size-2 shrink-0 rounded-full', HEALTH_COLOR[h])} aria-hidden />
        <Link to={`/catalog/${config.id}`} className="truncate text-[13px] font-medium hover:underline">
          {config.name ?? config.id}
        </Link>
        {!!config.changes && <span className="ml-auto text-[11px] text-muted">{formatCount(config.changes)}</span>}
      </div>
      <div className="truncate text-[11.5px] text-muted">
        {config.type}
        {config.status ? ` · ${config.status}` : ''}
      </div>
      <Handle type="source" position={pos.source} className="!bg-border-strong" />
    </div>
  );
}

function GroupNodeView({ data }: NodeProps<Node<GroupNodeData>>) {
  const direction = useContext(DirectionContext);
  const toggle = useContext(ToggleContext);
  const { group } = data;
  const pos = handles(direction);
  return (
    <div
      data-testid="graph-group"
      data-expanded={group.expanded}
      className="flex h-12 w-[200px] items-center rounded-full border border-dashed border-border-strong bg-surface-muted px-3"
    >
      <Handle type="target" position={pos.target} className="!bg-border-strong" />
      <button
        type="button"
        className="nodrag flex w-full cursor-pointer items-center gap-1.5 text-[12.5px]"
        aria-expanded={group.expanded}
        aria-label={`${group.expanded ? 'Collapse' : 'Expand'} ${group.childIds.length} ${group.type}`}
        onClick={() => toggle(group.id)}
      >
        {group.expanded ? <ChevronDown className="size-3.5" /> : <ChevronRight className="size-3.5" />}
        <span className="truncate">{group.type}</span>
        <span className="ml-auto rounded-full bg-surface px-1.5 text-[11px] tabular-nums">{group.childIds.length}</span>
      </button>
      <Handle type="source" position={pos.source} className="!bg-border-strong" />
    </div>
  );
}

// Not 'group': that is a built-in node type of React Flow with its own frame.
const nodeTypes = { config: ConfigNodeView, configGroup: GroupNodeView };

function Graph({
  root,
  rows,
  direction,
  edgeStyle,
}: {
  root: RelatedConfig;
  rows: RelatedConfig[];
  direction: LayoutDirection;
  edgeStyle: EdgeStyle;
}) {
  const [expanded, setExpanded] = useState<Record<string, boolean>>({});
  const graph = useMemo(() => buildRelationshipGraph(root, rows, expanded), [root, rows, expanded]);
  const positions = useMemo(() => layoutGraph(graph.nodes, graph.edges, direction), [graph, direction]);
  const nodes = useMemo<Node[]>(
    () =>
      graph.nodes.map((n) => {
        const p = positions.get(n.id)!;
        return {
          id: n.id,
          type: n.kind === 'group' ? 'configGroup' : 'config',
          position: { x: p.x, y: p.y },
          data: n.kind === 'config' ? { config: n.config, root: n.root } : { group: n },
          style: { transition: `transform ${LAYOUT.animationMs}ms ease` },
          draggable: false,
        };
      }),
    [graph, positions],
  );
  const edges = useMemo<Edge[]>(
    () =>
      graph.edges.map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        type: edgeStyle === 'bezier' ? 'default' : 'smoothstep',
        // 'parent' (the owner link) says nothing the layout does not show already.
        label: e.label === 'parent' ? undefined : e.label,
        labelStyle: { fontSize: 10 },
      })),
    [graph, edgeStyle],
  );
  const flow = useReactFlow();
  useEffect(() => {
    const t = setTimeout(() => void flow.fitView({ duration: LAYOUT.animationMs, padding: 0.15 }), 0);
    return () => clearTimeout(t);
  }, [flow, nodes.length, direction]);

  const toggle = (id: string) =>
    setExpanded((prev) => {
      const group = graph.nodes.find((n) => n.id === id);
      const current = group?.kind === 'group' ? group.expanded : false;
      return { ...prev, [id]: !current };
    });

  return (
    <DirectionContext.Provider value={direction}>
      <ToggleContext.Provider value={toggle}>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          fitView
          minZoom={0.1}
          nodesConnectable={false}
          proOptions={{ hideAttribution: true }}
          data-direction={direction}
        >
          <Background />
          <Controls showInteractive={false} />
        </ReactFlow>
      </ToggleContext.Provider>
    </DirectionContext.Provider>
  );
}

export default function RelationshipGraph(props: {
  root: RelatedConfig;
  rows: RelatedConfig[];
  direction: LayoutDirection;
  edgeStyle: EdgeStyle;
}) {
  return (
    <div
      className="h-[65vh] rounded-lg border border-border bg-surface"
      data-testid="relationship-graph"
      data-direction={props.direction}
      data-edge-style={props.edgeStyle}
    >
      <ReactFlowProvider>
        <Graph {...props} />
      </ReactFlowProvider>
    </div>
  );
}
