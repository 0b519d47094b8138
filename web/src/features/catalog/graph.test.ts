import { describe, expect, it } from 'vitest';
import {
  applyToggle,
  buildRelationshipGraph,
  DEFAULT_TOGGLES,
  groupNodeId,
  relatedConfigsArgs,
  type RelatedConfig,
} from './graph';
import { layoutGraph } from './graphLayout';

const root: RelatedConfig = { id: 'ns', name: 'default', type: 'Kubernetes::Namespace' };
const pod = (i: number, children: string[] = []): RelatedConfig => ({
  id: `pod${i}`,
  name: `pod-${i}`,
  type: 'Kubernetes::Pod',
  related_ids: children,
  direction: 'outgoing',
  depth: 1,
});
/** The depth-0 row of related_configs_recursive, pointing at its children. */
const rootRow = (ids: string[]): RelatedConfig => ({ ...root, related_ids: ids, direction: 'root', depth: 0 });

describe('relationship toggles', () => {
  it('defaults to outgoing only, and turning incoming off forces outgoing on', () => {
    expect(DEFAULT_TOGGLES).toEqual({ outgoing: true, incoming: false, soft: false });
    const both = applyToggle(applyToggle(DEFAULT_TOGGLES, 'incoming', true), 'outgoing', false);
    expect(both).toEqual({ outgoing: false, incoming: true, soft: false });
    expect(applyToggle(both, 'incoming', false)).toEqual({ outgoing: true, incoming: false, soft: false });
    // Outgoing cannot be turned off while incoming is off.
    expect(applyToggle(DEFAULT_TOGGLES, 'outgoing', false).outgoing).toBe(true);
  });

  it('asks for depth 10 with the direction and relation kinds of the toggles', () => {
    expect(relatedConfigsArgs('x', DEFAULT_TOGGLES, false)).toEqual({
      config_id: 'x',
      include_deleted_configs: false,
      max_depth: 10,
      type_filter: 'outgoing',
      incoming_relation: 'hard',
      outgoing_relation: 'hard',
    });
    expect(relatedConfigsArgs('x', { outgoing: true, incoming: true, soft: true }, true)).toMatchObject({
      type_filter: 'all',
      incoming_relation: 'both',
      include_deleted_configs: true,
    });
    expect(relatedConfigsArgs('x', { outgoing: false, incoming: true, soft: false }, true).type_filter).toBe(
      'incoming',
    );
  });
});

describe('relationship graph', () => {
  it('links two related items to the root directly', () => {
    const g = buildRelationshipGraph(root, [rootRow(['pod1', 'pod2']), pod(1), pod(2)]);
    expect(g.nodes.map((n) => n.id).sort()).toEqual(['ns', 'pod1', 'pod2']);
    expect(g.edges.map((e) => e.id).sort()).toEqual(['ns->pod1', 'ns->pod2']);
  });

  it('puts three same-type items behind an intermediary node, expanded by default', () => {
    const g = buildRelationshipGraph(root, [rootRow(['pod1', 'pod2', 'pod3']), pod(1), pod(2), pod(3)]);
    const group = g.nodes.find((n) => n.kind === 'group');
    expect(group).toMatchObject({
      id: groupNodeId('ns', 'Kubernetes::Pod'),
      expanded: true,
      childIds: ['pod1', 'pod2', 'pod3'],
    });
    expect(g.edges.map((e) => e.id).sort()).toEqual([
      'group:ns:Kubernetes::Pod->pod1',
      'group:ns:Kubernetes::Pod->pod2',
      'group:ns:Kubernetes::Pod->pod3',
      'ns->group:ns:Kubernetes::Pod',
    ]);
  });

  it('collapses groups of more than three by default and hides their children and subtrees', () => {
    const rows = [
      rootRow(['pod1', 'pod2', 'pod3', 'pod4']),
      pod(1, ['c1']),
      pod(2),
      pod(3),
      pod(4),
      { ...pod(9), id: 'c1', type: 'Container', depth: 2 },
    ];
    const g = buildRelationshipGraph(root, rows);
    expect(g.nodes.map((n) => n.id).sort()).toEqual(['group:ns:Kubernetes::Pod', 'ns']);
    const open = buildRelationshipGraph(root, rows, { 'group:ns:Kubernetes::Pod': true });
    expect(open.nodes).toHaveLength(7);
    expect(open.edges.some((e) => e.id === 'pod1->c1')).toBe(true);
  });

  it('points incoming relationships at the root', () => {
    const g = buildRelationshipGraph(root, [rootRow([]), { ...pod(1, ['ns']), direction: 'incoming' }]);
    expect(g.edges.map((e) => e.id)).toEqual(['pod1->ns']);
    // An item returned without its links still hangs off the root.
    expect(buildRelationshipGraph(root, [pod(7)]).edges.map((e) => e.id)).toEqual(['ns->pod7']);
  });

  it('lays nodes out left to right or top to bottom with rank spacing 120', () => {
    const g = buildRelationshipGraph(root, [rootRow(['pod1']), pod(1)]);
    const lr = layoutGraph(g.nodes, g.edges, 'LR');
    expect(lr.get('pod1')!.x - lr.get('ns')!.x).toBe(240 + 120);
    expect(lr.get('pod1')!.y).toBe(lr.get('ns')!.y);
    const tb = layoutGraph(g.nodes, g.edges, 'TB');
    expect(tb.get('pod1')!.y - tb.get('ns')!.y).toBe(64 + 120);
  });
});
