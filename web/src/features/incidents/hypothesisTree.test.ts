import { describe, expect, it } from 'vitest';
import { buildHypothesisTree, subtreeRows } from './hypothesisTree';

const row = (id: string, parent_id: string | null, minute: number) => ({
  id,
  parent_id,
  created_at: `2026-01-01T00:${String(minute).padStart(2, '0')}:00Z`,
});

describe('hypothesis tree', () => {
  it('nests root, factor and solution in creation order', () => {
    const tree = buildHypothesisTree([row('s1', 'f1', 3), row('f2', 'r', 4), row('r', null, 0), row('f1', 'r', 1)]);
    expect(tree.map((n) => n.row.id)).toEqual(['r']);
    expect(tree[0].children.map((n) => n.row.id)).toEqual(['f1', 'f2']);
    expect(tree[0].children[0].children.map((n) => n.row.id)).toEqual(['s1']);
    expect(subtreeRows(tree[0]).map((r) => r.id)).toEqual(['r', 'f1', 's1', 'f2']);
  });

  it('shows rows whose parent is gone at the top level', () => {
    expect(buildHypothesisTree([row('a', 'missing', 1), row('b', null, 0)]).map((n) => n.row.id)).toEqual(['b', 'a']);
  });
});
