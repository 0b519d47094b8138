// Query keys of the notifications area, so each save invalidates exactly what it changed.
export const notificationKeys = {
  all: ['notifications'] as const,
  history: () => [...notificationKeys.all, 'history'] as const,
  historyList: (filters: Record<string, unknown>) => [...notificationKeys.history(), 'list', filters] as const,
  historyEntry: (id: string) => [...notificationKeys.history(), 'entry', id] as const,
  rules: () => [...notificationKeys.all, 'rules'] as const,
  ruleList: (page: Record<string, unknown>) => [...notificationKeys.rules(), 'list', page] as const,
  rule: (id: string) => [...notificationKeys.rules(), 'detail', id] as const,
  silences: () => [...notificationKeys.all, 'silences'] as const,
  silenceList: (page: Record<string, unknown>) => [...notificationKeys.silences(), 'list', page] as const,
  silence: (id: string) => [...notificationKeys.silences(), 'detail', id] as const,
};
