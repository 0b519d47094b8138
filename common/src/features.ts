// Feature flags (spec/1 §6): a property named `{feature}.disable` with the value `true` turns a
// feature off, and a disabled parent turns off its children.
import type { Resource } from './resources.js';

export const FEATURES = [
  'topology',
  'health',
  'incidents',
  'config',
  'logs',
  'playbooks',
  'agents',
  'settings.connections',
  'settings.users',
  'settings.teams',
  'settings.incident_rules',
  'settings.config_scraper',
  'settings.topology',
  'settings.health',
  'settings.job_history',
  'settings.feature_flags',
  'settings.logging_backends',
  'settings.event_queue_status',
  'settings.integrations',
  'settings.notifications',
] as const;
export type Feature = (typeof FEATURES)[number];

/** A child feature is off when its parent is off. */
export const FEATURE_PARENT: Partial<Record<Feature, Feature>> = {
  'settings.config_scraper': 'config',
  'settings.topology': 'topology',
  'settings.health': 'health',
  'settings.job_history': 'health',
  'settings.incident_rules': 'incidents',
  'settings.logging_backends': 'logs',
};

/** The feature an RBAC resource belongs to: when the feature is off, the server refuses the resource. */
export const RESOURCE_FEATURE: Partial<Record<Resource, Feature>> = {
  canaries: 'health',
  topologies: 'topology',
  config_scrapers: 'config',
  incident: 'incidents',
  evidences: 'incidents',
  comments: 'incidents',
  responder: 'incidents',
  playbooks: 'playbooks',
  playbook_runs: 'playbooks',
  logging_backends: 'logs',
  agents: 'agents',
  notifications: 'settings.notifications',
  integrations: 'settings.integrations',
  connections: 'settings.connections',
};

export function isFeature(value: string): value is Feature {
  return (FEATURES as readonly string[]).includes(value);
}

/** The property that disables a feature. */
export const disableProperty = (feature: Feature) => `${feature}.disable`;

/** Properties (name → value) → the set of features that are off, parents applied. */
export function disabledFeatures(properties: ReadonlyArray<{ name: string; value: string }>): Set<Feature> {
  const off = new Set<Feature>();
  for (const p of properties) {
    if (!p.name.endsWith('.disable') || p.value.trim().toLowerCase() !== 'true') continue;
    const feature = p.name.slice(0, -'.disable'.length);
    if (isFeature(feature)) off.add(feature);
  }
  for (const f of FEATURES) {
    const parent = FEATURE_PARENT[f];
    if (parent && off.has(parent)) off.add(f);
  }
  return off;
}
