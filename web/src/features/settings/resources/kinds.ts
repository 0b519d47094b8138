// The settings resource tables with generic list and edit pages (spec/3 "Settings list and edit
// pages"): which table, what it is called, who may read and write it, which feature flag turns it
// off and which fields its form has. Schemas live in ./schemas.ts (loaded with the edit page).
// Adding a kind here adds its /settings/<table> and /settings/<table>/:id routes.
import type { Feature } from '@opsdeck/common/features';
import type { Resource } from '@opsdeck/common/resources';

export type ResourceField = 'name' | 'icon' | 'namespace' | 'labels' | 'schedule' | 'spec';

/** List columns after Name; 'checks' counts the rows of the `checks` table pointing at the row. */
export type ListColumn = 'namespace' | 'schedule' | 'labels' | 'checks' | 'source' | 'created_at' | 'updated_at';

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
  /** The edit page has a Members tab (teams: people in team_members). */
  members?: boolean;
  /** Columns of the list after Name; by default the kind's fields, source, created and updated. */
  listColumns?: readonly ListColumn[];
  /**
   * How documents are saved: 'rows' (default) writes the table through /api/db; 'canary' applies
   * Canary resources through /api/canary, the Code tab showing the whole resource.
   */
  store?: 'rows' | 'canary';
  /** job_history.resource_type of the kind's runs (the Job History tab). */
  jobResourceType?: string;
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
    members: true,
  },
  {
    table: 'canaries',
    title: 'Health Checks',
    singular: 'Health Check',
    description: 'Canaries run health checks on a schedule; each is a Canary resource (canaries.flanksource.com/v1).',
    resource: 'canaries',
    feature: 'settings.health',
    fields: ['name', 'namespace', 'labels', 'schedule', 'spec'],
    softDelete: true,
    listColumns: ['namespace', 'schedule', 'checks', 'source', 'created_at'],
    store: 'canary',
    jobResourceType: 'canary',
  },
];

export function settingsResourceKind(table: string): SettingsResourceKind | undefined {
  return SETTINGS_RESOURCE_KINDS.find((k) => k.table === table);
}
