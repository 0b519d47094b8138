// The hypothesis tree of an incident (spec/2 §4): root → factor → solution, built from the flat
// rows; children in creation order; a row whose parent is missing is shown at the top level.

export interface TreeNode<T> {
  row: T;
  children: TreeNode<T>[];
}

interface TreeRow {
  id: string;
  parent_id: string | null;
  created_at: string;
}

export function buildHypothesisTree<T extends TreeRow>(rows: readonly T[]): TreeNode<T>[] {
  const sorted = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  const nodes = new Map(sorted.map((row) => [row.id, { row, children: [] as TreeNode<T>[] }]));
  const top: TreeNode<T>[] = [];
  for (const node of nodes.values()) {
    const parent = node.row.parent_id ? nodes.get(node.row.parent_id) : undefined;
    if (parent && parent !== node) parent.children.push(node);
    else top.push(node);
  }
  return top;
}

/** Every row of a subtree, the node itself first (for deleting a hypothesis with its children). */
export function subtreeRows<T>(node: TreeNode<T>): T[] {
  return [node.row, ...node.children.flatMap(subtreeRows)];
}
