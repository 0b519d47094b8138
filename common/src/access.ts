// Access to a page or menu item (spec/1 §6): a required resource and action, an optional
// feature flag and the rule that hides Settings from viewers. Used by the route table, the
// sidebar and the route guards, with the permissions and disabled features from whoami.
import type { Feature } from './features.js';
import { effectiveRoles, type PermissionSet } from './rbac.js';
import type { Action, Resource } from './resources.js';

export interface AccessRequirement {
  resource?: Resource;
  /** Defaults to 'read' when a resource is given. */
  action?: Action;
  feature?: Feature;
  /** Hidden for users whose only role is viewer (the Settings menu). */
  hiddenForViewer?: boolean;
}

export interface AccessSubject {
  roles: readonly string[];
  permissions: Partial<PermissionSet>;
  disabledFeatures: readonly string[];
}

export type AccessDecision = 'allowed' | 'unauthorized' | 'feature-disabled';

export function checkAccess(requirement: AccessRequirement, subject: AccessSubject): AccessDecision {
  if (requirement.feature && subject.disabledFeatures.includes(requirement.feature)) return 'feature-disabled';
  if (requirement.hiddenForViewer && isOnlyViewer(subject.roles)) return 'unauthorized';
  if (requirement.resource) {
    const grant = subject.permissions[requirement.resource];
    if (!grant?.[requirement.action ?? 'read']) return 'unauthorized';
  }
  return 'allowed';
}

export function isOnlyViewer(roles: readonly string[]): boolean {
  const eff = effectiveRoles(roles);
  return eff.length === 1 && eff[0] === 'viewer';
}

export function hasPermission(subject: AccessSubject, resource: Resource, action: Action): boolean {
  return subject.permissions[resource]?.[action] ?? false;
}
