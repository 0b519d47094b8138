// The shapes the catalog screens read (spec/2 §3): items, the summary, changes, insights,
// relationships, scrapers and their job runs.

export interface ConfigListRow {
  id: string;
  type: string;
  config_class: string;
  name: string | null;
  status: string | null;
  health: string | null;
  labels: Record<string, string> | null;
  tags: Record<string, string> | null;
  created_at: string;
  updated_at: string | null;
  deleted_at: string | null;
  cost_per_minute: number | string | null;
  cost_total_1d: number | string | null;
  cost_total_7d: number | string | null;
  cost_total_30d: number | string | null;
  changes: number | null;
  analysis: Record<string, number> | null;
  agent: { id: string; name: string } | null;
}

export interface ConfigDetail extends Omit<ConfigListRow, 'agent'> {
  scraper_id: string | null;
  agent_id: string | null;
  external_id: string;
  description: string | null;
  ready: boolean | null;
  properties: unknown;
  config: unknown;
  format: string | null;
  source: string | null;
  parent_id: string | null;
  path: string | null;
  delete_reason: string | null;
  last_scraped_time: string | null;
  config_scrapers: { id: string; name: string } | null;
  agent: { id: string; name: string } | null;
  summary: {
    changes: number;
    analysis: number;
    relationships: number;
    playbook_runs: number;
    checks: number;
  } | null;
}

export interface SummaryGroup {
  [groupKey: string]: unknown;
  count: number;
  health?: Partial<Record<'healthy' | 'unhealthy' | 'warning' | 'unknown', number>>;
  status?: Record<string, number>;
  analysis?: Record<string, number>;
  changes?: number;
  cost_total_30d?: number | string | null;
}

export interface SummaryRequest {
  groupBy: string[];
  deleted?: boolean;
  filter?: Record<string, string>;
  health?: string;
  status?: string;
  changes: { since: string };
  analysis: { since: string };
  cost: string;
  search?: string;
  /** 'local' or an agent id; left out for every agent. */
  agent?: string;
}

export interface ChangeRow {
  id: string;
  config_id: string;
  change_type: string;
  summary: string | null;
  severity: string | null;
  source: string | null;
  created_at: string;
  first_observed: string | null;
  count: number | null;
  created_by: string | null;
  external_created_by: string | null;
  tags: Record<string, string> | null;
  config: { id: string; name: string | null; type: string; config_class?: string; deleted_at?: string | null } | null;
}

export interface ChangeDetail extends Omit<ChangeRow, 'config'> {
  details: unknown;
  patches: string | null;
  diff: string | null;
  fingerprint: string | null;
}

export interface ChangesRequest {
  id?: string;
  config_type?: string[];
  change_type?: string[];
  severity?: string[];
  from?: string;
  to?: string;
  summary?: string;
  source?: string;
  created_by?: string;
  external_created_by?: string;
  /** key → value, '!value' to exclude. */
  tags?: Record<string, string>;
  page: number;
  page_size: number;
  sort_by?: string;
  sort_order?: 'asc' | 'desc';
  recursive?: 'all' | 'upstream' | 'downstream' | 'none';
  depth?: number;
  include_deleted_configs?: boolean;
}

export interface ChangesResponse {
  changes: ChangeRow[];
  total: number;
}

export interface InsightRow {
  id: string;
  config_id: string;
  analyzer: string;
  analysis_type: string;
  severity: string;
  message: string | null;
  summary: string | null;
  status: string;
  source: string | null;
  analysis?: unknown;
  first_observed: string | null;
  last_observed: string | null;
  config: { id: string; name: string | null; type: string; config_class?: string } | null;
}

export interface ComponentLink {
  component_id: string;
  config_id: string;
  selector_id: string;
  component?: { id: string; name: string; type?: string | null } | null;
}

export interface CheckForConfig {
  config_id: string;
  id: string;
  canary_id: string;
  type: string;
  name: string;
  status: string | null;
  severity: string | null;
  canary_name: string | null;
  last_runtime: string | null;
}

export interface ScraperRow {
  id: string;
  name: string;
  namespace: string;
  labels: Record<string, string> | null;
  spec: unknown;
  source: string | null;
  schedule: string | null;
  created_at: string;
  updated_at: string | null;
  last_runtime: string | null;
  next_runtime: string | null;
}

export interface JobRunRow {
  id: string;
  name: string;
  status: string;
  success_count: number | null;
  error_count: number | null;
  duration_millis: number | null;
  details: unknown;
  time_start: string | null;
  time_end: string | null;
  created_at: string;
}
