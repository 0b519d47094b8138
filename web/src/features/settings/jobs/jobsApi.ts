// Job history (spec/3 "Job history", §7): paged, filtered and sorted on the server.
import { containsPattern, db } from '../../../api/postgrest';

export interface JobHistoryRow {
  id: string;
  name: string;
  resource_type: string | null;
  resource_id: string | null;
  status: string | null;
  success_count: number;
  error_count: number;
  duration_millis: number | null;
  time_start: string;
  time_end: string | null;
  created_at: string;
  hostname: string | null;
  details: { errors?: unknown; scrape_summary?: unknown; summary?: unknown } | null;
  agent_id: string | null;
}

export const JOB_STATUSES = [
  { value: 'RUNNING', label: 'Running' },
  { value: 'SUCCESS', label: 'Success' },
  { value: 'WARNING', label: 'Warning' },
  { value: 'FAILED', label: 'Failed' },
] as const;

export const RESOURCE_TYPES = [
  { value: 'canary', label: 'Canary' },
  { value: 'topology', label: 'Topology' },
  { value: 'config_scraper', label: 'Catalog Scraper' },
] as const;

/** Run-duration filter choices, as minimum milliseconds. */
export const DURATION_FILTERS = [
  { value: 0, label: 'Any duration' },
  { value: 1_000, label: 'Over 1s' },
  { value: 10_000, label: 'Over 10s' },
  { value: 60_000, label: 'Over 1m' },
  { value: 300_000, label: 'Over 5m' },
  { value: 900_000, label: 'Over 15m' },
] as const;

export interface JobFilters {
  resourceId?: string;
  resourceType?: string;
  name?: string;
  status: { include: string[]; exclude: string[] };
  minDurationMs?: number;
  from?: string;
  to?: string;
  search?: string;
}

export interface JobPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

export const jobsApi = {
  list(filters: JobFilters, page: JobPage, signal?: AbortSignal) {
    const q = db<JobHistoryRow>('job_history').select(
      'id,name,resource_type,resource_id,status,success_count,error_count,duration_millis,time_start,time_end,created_at,hostname,details,agent_id',
    );
    if (filters.resourceId) q.eq('resource_id', filters.resourceId);
    if (filters.resourceType) q.eq('resource_type', filters.resourceType);
    if (filters.name) q.eq('name', filters.name);
    if (filters.search) q.ilike('name', containsPattern(filters.search));
    q.includeExclude('status', filters.status);
    if (filters.minDurationMs) q.gte('duration_millis', filters.minDurationMs);
    if (filters.from) q.gt('created_at', filters.from);
    if (filters.to) q.lt('created_at', filters.to);
    q.order(page.sortBy ?? 'created_at', { ascending: page.sortOrder === 'asc' });
    return q.page(page.pageIndex, page.pageSize).list(signal);
  },
  names: (signal?: AbortSignal) =>
    db<{ name: string }>('job_history_names').select('name').order('name').limit(500).list(signal),
};

/** Whether a run has anything for the details dialog. */
export function hasJobDetails(row: JobHistoryRow): boolean {
  const d = row.details;
  if (!d) return false;
  const nonEmpty = (v: unknown) =>
    v !== undefined &&
    v !== null &&
    (Array.isArray(v) ? v.length > 0 : typeof v === 'object' ? Object.keys(v).length > 0 : String(v) !== '');
  return nonEmpty(d.errors) || nonEmpty(d.scrape_summary) || nonEmpty(d.summary);
}
