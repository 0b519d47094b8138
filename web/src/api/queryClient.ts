// The react-query client: 5-minute stale time (spec/1 §9), no retries for answers the server
// meant (4xx), one retry for transport failures. Failed queries are reported through onError
// (the app toasts them) unless the query is marked `meta: { silent: true }` because its page
// shows the failure itself; a 401 is never reported (the browser is on its way to sign in).
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

export function createQueryClient(onError?: (error: unknown) => void): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (query.meta?.silent === true) return;
        if (error instanceof ApiError && error.status === 401) return;
        if (error instanceof DOMException && error.name === 'AbortError') return;
        onError?.(error);
      },
    }),
    defaultOptions: {
      queries: {
        // Requests go out even when the browser says it is offline, so the user gets 'No internet
        // connection. Please try again.' instead of a silently paused page.
        networkMode: 'always',
        staleTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
          return failureCount < 1;
        },
      },
      mutations: { networkMode: 'always' },
    },
  });
}
