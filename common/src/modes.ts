// Deployment modes (OPSDECK_MODE): `full` (everything) or `health` — the same build with only the
// health engine, the /health page, status pages and the settings they need (users, teams, tokens,
// connections, health checks, notifications of failing checks). In health mode the features below are
// absent, not merely disabled: their API routes and /api/db relations answer 404 and the console has
// no sidebar entry nor route for them. Children of an absent feature (FEATURE_PARENT) are absent too.
import { FEATURE_PARENT, RESOURCE_FEATURE, type Feature } from './features.js';
import type { Resource } from './resources.js';

export const MODES = ['full', 'health'] as const;
export type Mode = (typeof MODES)[number];

export const isMode = (value: string): value is Mode => (MODES as readonly string[]).includes(value);

/** The features a health-only deployment does not have. */
export const HEALTH_MODE_ABSENT: readonly Feature[] = [
  'topology',
  'incidents',
  'config',
  'logs',
  'playbooks',
  'settings.integrations',
];

/** Whether a feature is absent in this mode (its parent's absence included). */
export function featureAbsent(mode: Mode | undefined, feature: Feature | undefined): boolean {
  if (mode !== 'health' || !feature) return false;
  for (let f: Feature | undefined = feature; f; f = FEATURE_PARENT[f]) if (HEALTH_MODE_ABSENT.includes(f)) return true;
  return false;
}

/** Whether an RBAC resource belongs to a feature absent in this mode. */
export const resourceAbsent = (mode: Mode | undefined, resource: Resource): boolean =>
  featureAbsent(mode, RESOURCE_FEATURE[resource]);
