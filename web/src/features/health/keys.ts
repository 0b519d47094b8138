// Query keys of the health area, so Run Now and canary edits invalidate exactly what they changed.
export const healthKeys = {
  all: ['health'] as const,
  summaries: () => [...healthKeys.all, 'summary'] as const,
  summary: (range: { start: string }) => [...healthKeys.summaries(), range] as const,
  checks: () => [...healthKeys.all, 'check'] as const,
  check: (id: string) => [...healthKeys.checks(), id] as const,
  stats: (id: string, range: Record<string, unknown>) => [...healthKeys.check(id), 'stats', range] as const,
  history: (id: string, filters: Record<string, unknown>) => [...healthKeys.check(id), 'history', filters] as const,
  relationships: (id: string, kind: 'components' | 'configs') =>
    [...healthKeys.check(id), 'relationships', kind] as const,
  agents: (ids: readonly string[]) => [...healthKeys.all, 'agents', ids] as const,
};
