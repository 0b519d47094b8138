// The permission matrix of spec/1 §6: role → resource → read/write. One module for server and web.
import { RESOURCES, type Action, type Resource } from './resources.js';

export const ROLES = ['admin', 'editor', 'commander', 'responder', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** Resources nobody but an admin may read. */
const ADMIN_ONLY: readonly Resource[] = ['rbac', 'identities', 'connections'];
/** What commanders and responders may change. */
const RESPONDER_WRITES: readonly Resource[] = ['responder', 'incident', 'evidences', 'comments'];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Roles as stored (possibly none, possibly unknown names) → known roles; no role means viewer. */
export function effectiveRoles(roles: readonly string[] | null | undefined): Role[] {
  const known = (roles ?? []).filter(isRole);
  return known.length ? [...new Set(known)] : ['viewer'];
}

function roleAllows(role: Role, resource: Resource, action: Action): boolean {
  switch (role) {
    case 'admin':
      return true;
    case 'editor':
      return !ADMIN_ONLY.includes(resource);
    case 'commander':
    case 'responder':
      if (ADMIN_ONLY.includes(resource)) return false;
      return action === 'read' || RESPONDER_WRITES.includes(resource);
    case 'viewer':
      return action === 'read' && !ADMIN_ONLY.includes(resource);
  }
}

export function can(roles: readonly string[] | null | undefined, resource: Resource, action: Action): boolean {
  return effectiveRoles(roles).some((role) => roleAllows(role, resource, action));
}

export type PermissionSet = Record<Resource, { read: boolean; write: boolean }>;

/** The effective permissions of a set of roles, as /api/auth/whoami returns them. */
export function permissionsFor(roles: readonly string[] | null | undefined): PermissionSet {
  const out = {} as PermissionSet;
  for (const r of RESOURCES) out[r] = { read: can(roles, r, 'read'), write: can(roles, r, 'write') };
  return out;
}

/** The highest of admin, editor and viewer, as the edit-user form shows it (spec/3 §5). */
export function displayRole(roles: readonly string[] | null | undefined): 'admin' | 'editor' | 'viewer' {
  const eff = effectiveRoles(roles);
  if (eff.includes('admin')) return 'admin';
  if (eff.includes('editor')) return 'editor';
  return 'viewer';
}

/** Run Now on a check (spec/1 §6): admin, editor, responder or commander. */
export function canRunChecks(roles: readonly string[] | null | undefined): boolean {
  return effectiveRoles(roles).some((r) => r === 'admin' || r === 'editor' || r === 'responder' || r === 'commander');
}

/**
 * Retry or discard the failed events of Settings → Event Queue: admins only. No resource of the
 * matrix fits (editors write `database`), so it is a role rule, shared by the server and the page.
 */
export function canManageEventQueue(roles: readonly string[] | null | undefined): boolean {
  return effectiveRoles(roles).includes('admin');
}
