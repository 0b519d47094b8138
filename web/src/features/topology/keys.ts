// Query keys of the topology area, so a config link or a run refreshes exactly what it changed.
export const topologyKeys = {
  all: ['topology'] as const,
  cards: (query: Record<string, string>) => [...topologyKeys.all, 'cards', query] as const,
  names: (ids: readonly string[]) => [...topologyKeys.all, 'names', ids] as const,
  labels: () => [...topologyKeys.all, 'labels'] as const,
  agents: () => [...topologyKeys.all, 'agents'] as const,
  component: (id: string) => [...topologyKeys.all, 'component', id] as const,
  panel: (id: string, section: string) => [...topologyKeys.component(id), 'panel', section] as const,
  configSearch: (text: string) => [...topologyKeys.all, 'config-search', text] as const,
};
