// The signed-in session: who the user is, what they may do (whoami), the identity configuration
// and the server version. Shared by the shell, the route guards and the feature pages.
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { hasPermission, type AccessSubject } from '@opsdeck/common/access';
import type { Mode } from '@opsdeck/common/modes';
import type { PermissionSet } from '@opsdeck/common/rbac';
import type { Action, Resource } from '@opsdeck/common/resources';
import { api } from './client';

export interface Whoami {
  person: { id: string; name: string; email: string; avatar: string | null };
  roles: string[];
  permissions: PermissionSet;
  disabledFeatures: string[];
  twoFactorEnabled: boolean;
}

export interface AuthConfig {
  registration: boolean;
  oidc: { enabled: boolean; name: string };
  smtp: boolean;
}

export interface About {
  version: string;
  database: string;
  /** OPSDECK_MODE: `health` shows only the health area (common/src/modes.ts). */
  mode?: Mode;
}

/** The deployment mode; `full` until /api/about answered otherwise. */
export function useMode(): Mode {
  return useAbout().data?.mode ?? 'full';
}

export const sessionKeys = {
  all: ['session'] as const,
  whoami: () => [...sessionKeys.all, 'whoami'] as const,
  authConfig: () => [...sessionKeys.all, 'auth-config'] as const,
  about: () => [...sessionKeys.all, 'about'] as const,
};

export const fetchWhoami = (signal?: AbortSignal) => api.get<Whoami>('/api/auth/whoami', { signal });

/** An early whoami is used only this soon after it was asked for. */
const EARLY_WHOAMI_MS = 10_000;
let earlyWhoami: { at: number; answer: Promise<Whoami> } | undefined;
let whoamiPrefetched = false;

/**
 * Asks for the session as a signed-in page's code starts loading (once per page load). The shell
 * renders only once the router has that code, and asked then, whoami was one more round trip before
 * the page (~0.1–0.15 s of /health's first paint). A failure, a 401 included, is left to the shell's
 * own request, which handles it (sign-in, provisioning, error page).
 */
export function prefetchWhoami(): void {
  if (whoamiPrefetched) return;
  whoamiPrefetched = true;
  const answer = api.get<Whoami>('/api/auth/whoami', { on401: 'throw' });
  answer.catch(() => undefined);
  earlyWhoami = { at: Date.now(), answer };
}

/** The shell's whoami: the early answer the first time, if asked for lately, else a new request. */
function loadWhoami(signal?: AbortSignal): Promise<Whoami> {
  const early = earlyWhoami;
  earlyWhoami = undefined;
  if (!early || Date.now() - early.at > EARLY_WHOAMI_MS) return fetchWhoami(signal);
  return early.answer.catch(() => fetchWhoami(signal));
}

/** The current user. Roles are never served from cache: every mount of the shell asks again. */
export function useWhoamiQuery() {
  return useQuery({
    queryKey: sessionKeys.whoami(),
    queryFn: ({ signal }) => loadWhoami(signal),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: true,
    meta: { silent: true }, // the shell shows sign-in, provisioning or error pages itself
  });
}

/** Whether a session exists, without redirecting to sign-in on a 401 (for the identity pages). */
export function useOptionalWhoami() {
  return useQuery({
    queryKey: [...sessionKeys.whoami(), 'optional'],
    queryFn: ({ signal }) => api.get<Whoami>('/api/auth/whoami', { signal, on401: 'throw' }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { silent: true },
  });
}

export function useAuthConfig() {
  return useQuery({
    queryKey: sessionKeys.authConfig(),
    queryFn: ({ signal }) => api.get<AuthConfig>('/api/auth/config', { signal, on401: 'throw' }),
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
}

/** /api/about: public and fixed for the server's life. */
export const aboutQuery = {
  queryKey: sessionKeys.about(),
  queryFn: ({ signal }: { signal?: AbortSignal }) => api.get<About>('/api/about', { signal }),
  staleTime: Infinity,
  meta: { silent: true },
} as const;

export function useAbout() {
  return useQuery(aboutQuery);
}

export function refreshSession(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: sessionKeys.all });
}

export function useRefreshSession() {
  const queryClient = useQueryClient();
  return () => refreshSession(queryClient);
}

/** The loaded session, provided by the shell once whoami answered: guards read it synchronously. */
export const SessionContext = createContext<Whoami | null>(null);

export function useSession(): Whoami {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession() outside the signed-in shell');
  return session;
}

export function accessSubject(session: Whoami): AccessSubject {
  return { roles: session.roles, permissions: session.permissions, disabledFeatures: session.disabledFeatures };
}

/** Whether the current user may do `action` on `resource` (hides buttons; the server still refuses). */
export function useCan(resource: Resource, action: Action): boolean {
  return hasPermission(accessSubject(useSession()), resource, action);
}
