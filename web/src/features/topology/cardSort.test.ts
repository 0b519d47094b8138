import { describe, expect, it } from 'vitest';
import { compareCards, effectiveSort, healthRank, isStoredSort, sortChoices } from './cardSort';
import type { TopologyComponent } from './types';

const card = (name: string, extra: Partial<TopologyComponent> = {}): TopologyComponent => ({
  id: name,
  topology_id: null,
  parent_id: null,
  agent_id: '00000000-0000-0000-0000-000000000000',
  external_id: null,
  name,
  text: null,
  tooltip: null,
  type: null,
  icon: null,
  labels: {},
  properties: [],
  health: 'unknown',
  status: 'unknown',
  status_reason: null,
  path: '',
  is_leaf: true,
  owner: null,
  hidden: false,
  summary: {},
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  deleted_at: null,
  teams: [],
  components: [],
  ...extra,
});

describe('card sorting', () => {
  it('ranks health unhealthy 1, warning 2, healthy 3, info (and anything else) 4', () => {
    expect(['unhealthy', 'warning', 'healthy', 'info', 'unknown', undefined].map(healthRank)).toEqual([
      1, 2, 3, 4, 4, 4,
    ]);
  });

  it('puts the most severe first by default (status, descending), ties by name', () => {
    const cards = [
      card('b', { health: 'healthy' }),
      card('a', { health: 'healthy' }),
      card('c', { health: 'unhealthy' }),
      card('d', { health: 'warning' }),
      card('e', { health: 'unknown' }),
    ];
    expect([...cards].sort(compareCards('status', 'desc')).map((c) => c.name)).toEqual(['c', 'd', 'a', 'b', 'e']);
    expect([...cards].sort(compareCards('status', 'asc')).map((c) => c.name)).toEqual(['e', 'a', 'b', 'd', 'c']);
  });

  it('sorts by name, type, last updated and a headline property (missing values last)', () => {
    const cards = [
      card('x', { type: 'Pod', updated_at: '2026-01-03T00:00:00Z', properties: [{ name: 'cpu', value: 5 }] }),
      card('y', { type: 'Node', updated_at: '2026-01-01T00:00:00Z' }),
      card('z', { type: 'App', updated_at: '2026-01-02T00:00:00Z', properties: [{ name: 'cpu', value: 9 }] }),
    ];
    const names = (by: string, order: 'asc' | 'desc') => [...cards].sort(compareCards(by, order)).map((c) => c.name);
    expect(names('name', 'desc')).toEqual(['z', 'y', 'x']);
    expect(names('type', 'asc')).toEqual(['z', 'y', 'x']);
    expect(names('updated_at', 'desc')).toEqual(['x', 'z', 'y']);
    expect(names('cpu', 'desc')).toEqual(['z', 'x', 'y']);
    expect(names('cpu', 'asc')).toEqual(['x', 'z', 'y']);
  });

  it('offers Health, Name, Type, Last Updated and the headline properties of the cards', () => {
    const cards = [
      card('a', { properties: [{ name: 'rps', headline: true }, { name: 'cpu' }] }),
      card('b', { components: [card('b1', { properties: [{ name: 'latency', headline: true }] })] }),
    ];
    expect(sortChoices(cards).map((c) => c.label)).toEqual([
      'Health',
      'Name',
      'Type',
      'Last Updated',
      'latency',
      'rps',
    ]);
  });

  it('uses the query string, then the stored choice, then status descending', () => {
    expect(effectiveSort({ sortBy: undefined, sortOrder: undefined }, null)).toEqual({
      sortBy: 'status',
      sortOrder: 'desc',
    });
    const stored = { sortBy: 'name', sortOrder: 'asc' as const };
    expect(effectiveSort({ sortBy: undefined, sortOrder: undefined }, stored)).toEqual(stored);
    expect(effectiveSort({ sortBy: 'type', sortOrder: undefined }, stored)).toEqual({
      sortBy: 'type',
      sortOrder: 'desc',
    });
    expect(isStoredSort(stored)).toBe(true);
    expect(isStoredSort({ sortBy: 'name', sortOrder: 'up' })).toBe(false);
    expect(isStoredSort('name')).toBe(false);
  });
});
