// The settings resource tables with generic list and edit pages (spec/3 "Settings list and edit
// pages"): which table, what it is called, who may read and write it, which feature flag turns it
// off and which fields its form has. Schemas live in ./schemas.ts (loaded with the edit page).
// Adding a kind here adds its /settings/<table> and /settings/<table>/:id routes.
//
// How a kind is saved (`store`):
// - 'rows' (default): the form's document is the row's editable part, written through /api/db.
// - an AppliedResourceApi: the kind is a Kubernetes-style resource applied through a service API
//   with the shapes of /api/canary: POST <api> with the YAML or JSON text (201 {applied: [{id, name,
//   namespace, created}]}, 400 {errors: [{message, line, column}]}), GET <api>/:id/spec, and
//   DELETE <api>/:id. The table's `spec` column holds the whole resource; the Code tab shows it
//   with apiVersion and kind, the form lifts name, namespace, labels and spec.schedule out of it.
//   For example a catalog scraper kind would be
//     store: { api: '/api/catalog', apiVersion: 'configs.flanksource.com/v1', kind: 'ScrapeConfig' }
import type { Feature } from '@opsdeck/common/features';
import type { Resource } from '@opsdeck/common/resources';

export type ResourceField = 'name' | 'icon' | 'namespace' | 'labels' | 'schedule' | 'spec';

/** List columns after Name; 'checks' counts the rows of the `checks` table pointing at the row. */
export type ListColumn = 'namespace' | 'schedule' | 'labels' | 'checks' | 'source' | 'created_at' | 'updated_at';

/** A kind applied as a resource through a service API (see the header). */
export interface AppliedResourceApi {
  /** The apply endpoint, e.g. '/api/topology'. */
  api: string;
  apiVersion: string;
  kind: string;
  /** spec.schedule of a new resource. */
  defaultSchedule?: string;
}

/** canaries.flanksource.com/v1 (spelled out here so the route table does not load the spec schemas). */
const FLANKSOURCE_CANARIES = 'canaries.flanksource.com/v1';

export const CANARY_RESOURCE_API: AppliedResourceApi = {
  api: '/api/canary',
  apiVersion: FLANKSOURCE_CANARIES,
  kind: 'Canary',
  defaultSchedule: '@every 5m',
};

export const TOPOLOGY_RESOURCE_API: AppliedResourceApi = {
  api: '/api/topology',
  apiVersion: FLANKSOURCE_CANARIES,
  kind: 'Topology',
  defaultSchedule: '@every 5m',
};

export const SCRAPE_CONFIG_RESOURCE_API: AppliedResourceApi = {
  api: '/api/catalog',
  apiVersion: 'configs.flanksource.com/v1',
  kind: 'ScrapeConfig',
  defaultSchedule: '@every 60m',
};

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
  /** How documents are saved: 'rows' (default) through /api/db, or applied through a service API. */
  store?: 'rows' | AppliedResourceApi;
  /** A specialised form above the spec editor: 'canary' (the HTTP check forms of health checks). */
  specForm?: 'canary';
  /** job_history.resource_type of the kind's runs (the Job History tab). */
  jobResourceType?: string;
  /** Where the user goes after updating or deleting one (default: back to the list). */
  returnTo?: string;
  /** The list the edit page links back to, when opened from elsewhere (e.g. the integrations). */
  list?: { to: string; title: string };
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
    store: CANARY_RESOURCE_API,
    specForm: 'canary',
    jobResourceType: 'canary',
  },
  {
    table: 'topologies',
    title: 'Topologies',
    singular: 'Topology',
    description:
      'Topologies build component trees from static specs and lookups; each is a Topology resource (canaries.flanksource.com/v1).',
    resource: 'topologies',
    feature: 'settings.topology',
    fields: ['name', 'namespace', 'labels', 'schedule', 'spec'],
    softDelete: true,
    listColumns: ['namespace', 'schedule', 'source', 'created_at', 'updated_at'],
    store: TOPOLOGY_RESOURCE_API,
    jobResourceType: 'topology',
    // spec/3 §2: after updating or deleting a topology the user returns to the integrations.
    returnTo: '/settings/integrations',
  },
  {
    table: 'config_scrapers',
    title: 'Catalog Scrapers',
    singular: 'Catalog Scraper',
    description:
      'Scrapers read configuration from files, HTTP endpoints, SQL queries, scripts and clusters into the catalog; each is a ScrapeConfig resource (configs.flanksource.com/v1).',
    resource: 'config_scrapers',
    feature: 'settings.config_scraper',
    fields: ['name', 'namespace', 'labels', 'schedule', 'spec'],
    softDelete: true,
    listColumns: ['namespace', 'schedule', 'source', 'created_at', 'updated_at'],
    store: SCRAPE_CONFIG_RESOURCE_API,
    jobResourceType: 'config_scraper',
    // spec/3 §2: after updating or deleting a scraper the user returns to the integrations.
    returnTo: '/settings/integrations',
  },
  {
    table: 'logging_backends',
    title: 'Log Backends',
    singular: 'Log Backend',
    description:
      'Log backends say where the logs viewer reads from: files on the server, Loki, OpenSearch and Kubernetes pods; components name one in their log selectors.',
    resource: 'logging_backends',
    // spec/3 §2: name, labels and spec, written as rows through /api/db (the server checks the
    // spec with the LoggingBackend rules before storing it).
    feature: 'settings.logging_backends',
    fields: ['name', 'namespace', 'labels', 'spec'],
    softDelete: true,
    listColumns: ['namespace', 'labels', 'source', 'created_at', 'updated_at'],
  },
  {
    table: 'incident_rules',
    title: 'Incident Rules',
    singular: 'Incident Rule',
    description:
      'Incident rules open an incident when a component matching their selectors becomes unhealthy, and can resolve it when the component recovers.',
    // Everyone reads the rules; changing them is configuration (editor or admin), as the server enforces.
    resource: 'database',
    feature: 'settings.incident_rules',
    fields: ['name', 'spec'],
    softDelete: true,
    listColumns: ['source', 'created_at', 'updated_at'],
  },
];

export function settingsResourceKind(table: string): SettingsResourceKind | undefined {
  return SETTINGS_RESOURCE_KINDS.find((k) => k.table === table);
}
