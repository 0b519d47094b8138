// Stable component ids, pure: a built tree + the topology's existing rows → the rows to write.
// A component is the same component across runs when its ancestors, name and type are the same:
// it keeps its id (a soft-deleted one comes back to life), anything else gets a new id, and live
// rows no longer produced are stale.
import type { BuiltComponent } from './builtComponent.js';

export interface ExistingComponent {
  id: string;
  path: string;
  name: string;
  type: string | null;
  deleted_at: string | Date | null;
}

export interface PlannedComponent {
  id: string;
  parentId: string | null;
  /** Dot-separated ancestor ids, root first; '' for the root. */
  path: string;
  isLeaf: boolean;
  /** 'new': insert; 'existing': update in place (reviving it when it was deleted). */
  state: 'new' | 'existing';
  node: BuiltComponent;
}

export interface ComponentPlan {
  /** Parents before children. */
  rows: PlannedComponent[];
  /** Live rows of the topology that this run did not produce. */
  stale: string[];
}

export const identityKey = (path: string, name: string, type: string | null): string =>
  `${path}\u0000${name}\u0000${type ?? ''}`;

const time = (v: string | Date | null): number => (v === null ? Infinity : new Date(v).getTime());

export function planComponents(
  root: BuiltComponent,
  existing: readonly ExistingComponent[],
  newId: () => string,
): ComponentPlan {
  // Per identity: the live row, else the most recently deleted one.
  const byKey = new Map<string, ExistingComponent>();
  for (const row of existing) {
    const key = identityKey(row.path, row.name, row.type);
    const seen = byKey.get(key);
    if (!seen || time(row.deleted_at) > time(seen.deleted_at)) byKey.set(key, row);
  }
  const rows: PlannedComponent[] = [];
  const used = new Set<string>();
  const queue: { node: BuiltComponent; parentId: string | null; path: string }[] = [
    { node: root, parentId: null, path: '' },
  ];
  for (let next = 0; next < queue.length; next++) {
    const { node, parentId, path } = queue[next]!;
    const match = byKey.get(identityKey(path, node.name, node.type));
    const reused = !!match && !used.has(match.id);
    const id = reused ? match.id : newId();
    used.add(id);
    rows.push({ id, parentId, path, isLeaf: node.children.length === 0, state: reused ? 'existing' : 'new', node });
    const childPath = path ? `${path}.${id}` : id;
    for (const child of node.children) queue.push({ node: child, parentId: id, path: childPath });
  }
  const stale = existing.filter((r) => r.deleted_at === null && !used.has(r.id)).map((r) => r.id);
  return { rows, stale };
}
