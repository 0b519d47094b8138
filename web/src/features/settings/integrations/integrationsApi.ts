// Settings → Integrations (spec/3 §2): the resources that bring data in, read from the
// `integrations` view of /api/db (topologies, catalog scrapers and log backends, each with its last
// run), and the
// settings kind that edits each integration type.
import { db, type ListResult } from '../../../api/postgrest';
import { settingsKeys } from '../keys';

/** The detail route's {type}: scrapers, topologies or logging_backends (spec/3 §2). */
export type IntegrationType = 'scrapers' | 'topologies' | 'logging_backends';

export interface IntegrationRow {
  id: string;
  name: string;
  namespace: string | null;
  source: string | null;
  integration_type: IntegrationType;
  agent_id: string | null;
  labels: Record<string, string> | null;
  schedule: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  job_status: string | null;
  job_details: unknown;
  job_name: string | null;
  job_time_start: string | null;
}

export interface IntegrationPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

export const INTEGRATION_TYPE_LABELS: Record<IntegrationType, string> = {
  scrapers: 'Catalog Scraper',
  topologies: 'Topology',
  logging_backends: 'Log Backend',
};

/** The settings kind (SETTINGS_RESOURCE_KINDS table) whose edit page shows an integration of this type. */
const KIND_TABLE_OF_TYPE: Partial<Record<string, string>> = {
  topologies: 'topologies',
  scrapers: 'config_scrapers',
  logging_backends: 'logging_backends',
};

export function integrationKindTable(type: string | undefined): string | undefined {
  return type === undefined ? undefined : KIND_TABLE_OF_TYPE[type];
}

/** The columns a list row shows (the view's own names). */
const LIST_COLUMNS = [
  'id',
  'name',
  'namespace',
  'source',
  'integration_type',
  'agent_id',
  'labels',
  'schedule',
  'created_by',
  'created_at',
  'updated_at',
  'job_status',
  'job_details',
  'job_name',
  'job_time_start',
].join(',');

/** Sortable on the server: what the list's column ids name. */
const SORTABLE = new Set([
  'name',
  'integration_type',
  'namespace',
  'source',
  'job_time_start',
  'created_at',
  'updated_at',
]);

export const integrationKeys = {
  all: [...settingsKeys.all, 'integrations'] as const,
  list: (page: IntegrationPage) => [...integrationKeys.all, 'list', page] as const,
};

export const integrationsApi = {
  /** One page, counted (Prefer: count=exact), sorted on the server; ties broken by id so pages do not overlap. */
  list(page: IntegrationPage, signal?: AbortSignal): Promise<ListResult<IntegrationRow>> {
    const sortBy = page.sortBy && SORTABLE.has(page.sortBy) ? page.sortBy : 'name';
    return db<IntegrationRow>('integrations')
      .select(LIST_COLUMNS)
      .order(sortBy, { ascending: page.sortOrder === 'asc', nulls: 'last' })
      .order('id')
      .page(page.pageIndex, page.pageSize)
      .list(signal);
  },
};
