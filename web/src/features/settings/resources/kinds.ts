// The settings resource tables with generic list and edit pages (spec/3 "Settings list and edit
// pages"): which table, what it is called, who may read and write it, which feature flag turns it
// off and which fields its form has. Schemas live in ./schemas.ts (loaded with the edit page).
// Adding a kind here adds its /settings/<table> and /settings/<table>/:id routes.
import type { Feature } from '@opsdeck/common/features';
import type { Resource } from '@opsdeck/common/resources';

export type ResourceField = 'name' | 'icon' | 'namespace' | 'labels' | 'schedule' | 'spec';

export interface SettingsResourceKind {
  table: string;
  /** Plural, for the list and the breadcrumb. */
  title: string;
  /** Singular, for "Add Team" and toasts. */
  singular: string;
  description: string;
  /** The RBAC resource of the table (read to list, write to add, edit and delete). */
  resource: Resource;
  feature: Feature;
  fields: readonly ResourceField[];
  /** The table has a deleted_at column: deletes are soft. */
  softDelete: boolean;
}

export const SETTINGS_RESOURCE_KINDS: readonly SettingsResourceKind[] = [
  {
    table: 'teams',
    title: 'Teams',
    singular: 'Team',
    description: 'Teams group people and own components; their spec routes notifications.',
    resource: 'database',
    feature: 'settings.teams',
    fields: ['name', 'icon', 'spec'],
    softDelete: true,
  },
];

export function settingsResourceKind(table: string): SettingsResourceKind | undefined {
  return SETTINGS_RESOURCE_KINDS.find((k) => k.table === table);
}
