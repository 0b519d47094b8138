// Query keys of the incident area, so each write invalidates exactly what it changed.
export const incidentKeys = {
  all: ['incidents'] as const,
  lists: () => [...incidentKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...incidentKeys.lists(), query] as const,
  detail: (id: string) => [...incidentKeys.all, 'detail', id] as const,
  incident: (id: string) => [...incidentKeys.detail(id), 'incident'] as const,
  hypotheses: (id: string) => [...incidentKeys.detail(id), 'hypotheses'] as const,
  comments: (id: string) => [...incidentKeys.detail(id), 'comments'] as const,
  responders: (id: string) => [...incidentKeys.detail(id), 'responders'] as const,
  history: (id: string) => [...incidentKeys.detail(id), 'history'] as const,
  people: (search: string) => [...incidentKeys.all, 'people', search] as const,
  teams: () => [...incidentKeys.all, 'teams'] as const,
  components: () => [...incidentKeys.all, 'components'] as const,
};
