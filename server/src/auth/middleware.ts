// Authentication, CSRF and permission checks for every /api endpoint.
import { can, RESOURCE_FEATURE, type Action, type Resource } from '@opsdeck/common';
import type { Context, MiddlewareHandler } from 'hono';
import { CLIENT_IP_HEADER } from './betterAuth.js';
import type { Identity, Principal } from './identity.js';

export type AuthEnv = { Variables: { principal: Principal } };

/** Endpoints anyone may call: sign-in flows handle their own checks. */
function isPublic(method: string, path: string): boolean {
  if (path === '/api/about' || path === '/api/auth/config') return true;
  if (path === '/api/auth/invite' || path === '/api/auth/invite/accept') return true;
  // Playbook webhooks authenticate with the playbook's own on.webhook.authentication (playbooks/webhook.ts).
  if (method === 'POST' && path.startsWith('/api/playbook/webhook/')) return true;
  // Status pages and badges: public unless private; they check a caller who signed in themselves (statuspages/api.ts).
  if ((method === 'GET' || method === 'HEAD') && (path.startsWith('/api/status/') || path.startsWith('/api/badge/')))
    return true;
  // better-auth's own endpoints (sign-in, sign-out, reset, verify, 2FA, OAuth callbacks).
  return path.startsWith('/api/auth/') && path !== '/api/auth/whoami';
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class HttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 429,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** `error` for the console's own endpoints, `message` as PostgREST clients read it; both the same text. */
export function errorBody(e: HttpError) {
  return { error: e.message, message: e.message, code: e.code, ...(e.field ? { field: e.field } : {}) };
}

/** The origin the request was addressed to, from its Host header. */
function ownOrigin(c: Context, publicUrl: string): string {
  const proto = new URL(publicUrl).protocol;
  return `${proto}//${c.req.header('host') ?? ''}`;
}

export function authenticate(identity: Identity, publicUrl: string, trustProxy: boolean): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    if (c.req.path.startsWith('/api/auth/')) {
      // better-auth rate-limits by client address: give it the socket's, never a client-chosen header.
      const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
      const forwarded = trustProxy ? c.req.header('x-forwarded-for')?.split(',')[0]?.trim() : undefined;
      const ip = forwarded || incoming?.socket?.remoteAddress || 'unknown';
      c.req.raw.headers.set(CLIENT_IP_HEADER, ip);
    }
    if (isPublic(c.req.method, c.req.path)) return next();
    const principal = await identity.authenticate(c.req.raw.headers);
    if (!principal) return c.json(errorBody(new HttpError(401, 'UNAUTHENTICATED', 'Sign in to continue.')), 401);
    if (principal.via === 'session' && !SAFE_METHODS.has(c.req.method)) {
      // Cookie-authenticated writes must come from the console's own origin.
      const origin = c.req.header('origin');
      const allowed = [new URL(publicUrl).origin, ownOrigin(c, publicUrl)];
      if (!origin || !allowed.includes(origin)) {
        const refused = new HttpError(
          403,
          'CSRF',
          'Cross-site request refused: the Origin header does not match this server.',
        );
        return c.json(errorBody(refused), 403);
      }
    }
    c.set('principal', principal);
    return next();
  };
}

/** Throws 403 unless the caller's roles allow the action and the resource's feature is on. */
export async function requirePermission(identity: Identity, principal: Principal, resource: Resource, action: Action) {
  const feature = RESOURCE_FEATURE[resource];
  if (feature && (await identity.disabledFeatures()).has(feature)) {
    throw new HttpError(403, 'FEATURE_DISABLED', `The ${feature} feature is disabled`);
  }
  if (!can(principal.roles, resource, action)) {
    throw new HttpError(403, 'FORBIDDEN', `Your role cannot ${action} ${resource}.`);
  }
}
