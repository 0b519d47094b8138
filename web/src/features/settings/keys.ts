// Query keys of the settings area, so each mutation invalidates exactly what it changed.
export const settingsKeys = {
  all: ['settings'] as const,
  users: () => [...settingsKeys.all, 'users'] as const,
  userList: (page: { pageIndex: number; pageSize: number }) => [...settingsKeys.users(), 'list', page] as const,
  featureFlags: () => [...settingsKeys.all, 'feature-flags'] as const,
  featureFlagList: (page: { pageIndex: number; pageSize: number; sortBy?: string; sortOrder: string }) =>
    [...settingsKeys.featureFlags(), 'list', page] as const,
  connections: () => [...settingsKeys.all, 'connections'] as const,
  connectionList: (page: { pageIndex: number; pageSize: number; sortBy?: string; sortOrder: string }) =>
    [...settingsKeys.connections(), 'list', page] as const,
  jobs: () => [...settingsKeys.all, 'jobs'] as const,
  jobList: (filters: Record<string, unknown>) => [...settingsKeys.jobs(), 'list', filters] as const,
  jobNames: () => [...settingsKeys.jobs(), 'names'] as const,
  resources: (table: string) => [...settingsKeys.all, 'resources', table] as const,
  resourceList: (table: string, page: Record<string, unknown>) =>
    [...settingsKeys.resources(table), 'list', page] as const,
  resource: (table: string, id: string) => [...settingsKeys.resources(table), 'detail', id] as const,
  teamMembers: (teamId: string) => [...settingsKeys.all, 'team-members', teamId] as const,
  /** Everyone who can be added to a team (not deleted), by name. */
  people: () => [...settingsKeys.all, 'people'] as const,
};
