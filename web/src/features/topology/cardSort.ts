// Card sorting (spec/2 §2.6): the health order (unhealthy 1, warning 2, healthy 3, info 4), the
// sort choices (Health, Name, Type, Last Updated and the headline properties of the cards), the
// stored choice, and a comparator matching the server's order. Pure.
import type { SortOrder } from './topologyParams';
import type { TopologyComponent } from './types';

export const HEALTH_ORDER: Record<string, number> = { unhealthy: 1, warning: 2, healthy: 3, info: 4 };

/** The rank of a health word; anything not listed sorts with info. */
export function healthRank(health: string | null | undefined): number {
  return HEALTH_ORDER[(health ?? '').toLowerCase()] ?? 4;
}

export interface SortChoice {
  value: string;
  label: string;
}

export const BASE_SORT_CHOICES: SortChoice[] = [
  { value: 'status', label: 'Health' },
  { value: 'name', label: 'Name' },
  { value: 'type', label: 'Type' },
  { value: 'updated_at', label: 'Last Updated' },
];

/** The base choices plus every headline property name of the cards (and their children). */
export function sortChoices(components: readonly TopologyComponent[]): SortChoice[] {
  const names = new Set<string>();
  const visit = (list: readonly TopologyComponent[], depth: number) => {
    for (const c of list) {
      for (const p of c.properties ?? []) if (p.headline && p.name) names.add(p.name);
      if (depth < 1) visit(c.components ?? [], depth + 1);
    }
  };
  visit(components, 0);
  const base = new Set(BASE_SORT_CHOICES.map((c) => c.value));
  return [
    ...BASE_SORT_CHOICES,
    ...[...names]
      .filter((n) => !base.has(n))
      .sort((a, b) => a.localeCompare(b))
      .map((n) => ({ value: n, label: n })),
  ];
}

export const SORT_STORAGE_KEY = 'topologyCardsSort';

export interface StoredSort {
  sortBy: string;
  sortOrder: SortOrder;
}

export function isStoredSort(v: unknown): v is StoredSort {
  if (!v || typeof v !== 'object') return false;
  const s = v as Record<string, unknown>;
  return typeof s.sortBy === 'string' && s.sortBy !== '' && (s.sortOrder === 'asc' || s.sortOrder === 'desc');
}

/** The sort in effect: the query string first, then the stored choice, then status descending. */
export function effectiveSort(
  view: { sortBy: string | undefined; sortOrder: SortOrder | undefined },
  stored: StoredSort | null,
): StoredSort {
  return {
    sortBy: view.sortBy ?? stored?.sortBy ?? 'status',
    sortOrder: view.sortOrder ?? (view.sortBy ? 'desc' : (stored?.sortOrder ?? 'desc')),
  };
}

function propertyValue(c: TopologyComponent, name: string): number | string | null {
  const p = (c.properties ?? []).find((x) => x.name === name);
  if (!p) return null;
  return p.value ?? p.text ?? null;
}

/** Orders cards like the server: descending health puts unhealthy first; ties by name. */
export function compareCards(sortBy: string, order: SortOrder) {
  const dir = order === 'asc' ? 1 : -1;
  const byName = (a: TopologyComponent, b: TopologyComponent) => a.name.localeCompare(b.name);
  return (a: TopologyComponent, b: TopologyComponent): number => {
    let d: number;
    switch (sortBy) {
      case 'status':
      case 'health':
        // Rank 1 is the most severe: "descending" severity lists it first.
        d = healthRank(b.health) - healthRank(a.health);
        break;
      case 'name':
        d = a.name.localeCompare(b.name);
        break;
      case 'type':
        d = (a.type ?? '').localeCompare(b.type ?? '');
        break;
      case 'updated_at':
        d = Date.parse(a.updated_at) - Date.parse(b.updated_at);
        break;
      default: {
        const va = propertyValue(a, sortBy);
        const vb = propertyValue(b, sortBy);
        if (va === null || vb === null) return va === vb ? byName(a, b) : va === null ? 1 : -1;
        d = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
      }
    }
    return dir * d || byName(a, b);
  };
}
