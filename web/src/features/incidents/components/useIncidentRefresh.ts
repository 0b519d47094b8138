// Refetches the parts of an incident a write changed (and its changelog, which the server writes).
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { incidentKeys } from '../keys';

export function useIncidentRefresh(incidentId: string) {
  const queryClient = useQueryClient();
  return useCallback(
    (...parts: Array<'incident' | 'hypotheses' | 'comments' | 'responders'>) => {
      for (const part of parts) void queryClient.invalidateQueries({ queryKey: incidentKeys[part](incidentId) });
      void queryClient.invalidateQueries({ queryKey: incidentKeys.history(incidentId) });
      void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
    },
    [queryClient, incidentId],
  );
}
