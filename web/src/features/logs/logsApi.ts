// The calls of the logs area: the components and catalog items that have logs (components_with_logs
// and configs_with_logs, through the typed /api/db builder) and one page of lines (POST /api/logs,
// newest first, paged by cursor).
import { resolveTimeRange, type TimeRange } from '@opsdeck/common/timeRange';
import { api } from '../../api/client';
import { db } from '../../api/postgrest';
import { rangeToParams } from './logsParams';
import type { ComponentWithLogs, ConfigWithLogs, LogsRequest, LogsResponse } from './types';

const COMPONENT_COLUMNS = 'id,name,type,icon,path,external_id,logs';
const CONFIG_COLUMNS = 'id,name,type,config_class,external_id,logs';
/** The dropdown's size; a link to a component beyond it still works (it is read by id). */
export const COMPONENTS_LIMIT = 500;
export const PAGE_SIZE = 100;
/** The most lines a download gathers (pages of the server's largest size). */
export const DOWNLOAD_LIMIT = 10_000;
const DOWNLOAD_PAGE_SIZE = 1000;

export const logsKeys = {
  all: ['logs'] as const,
  components: () => [...logsKeys.all, 'components'] as const,
  component: (id: string) => [...logsKeys.all, 'component', id] as const,
  configs: () => [...logsKeys.all, 'configs'] as const,
  config: (id: string) => [...logsKeys.all, 'config', id] as const,
  lines: (filters: LogsFilters) => [...logsKeys.all, 'lines', filters] as const,
};

/** What the lines are read for; the query key of a result set. */
export interface LogsFilters {
  /** The component, or else the catalog item (configId), whose logs are read. */
  topologyId?: string;
  configId?: string;
  selector?: string;
  query?: string;
  range: TimeRange;
}

/**
 * start and end as the server reads them: relative expressions ('now-15m') and dates are sent as
 * they are; a quick range ('Today') is resolved here, since its expressions round ('now/d').
 */
export function requestWindow(range: TimeRange, now: Date): { start: string; end?: string } {
  if (range.type !== 'mapped') return rangeToParams(range);
  const { from, to } = resolveTimeRange(range, now);
  return { start: from.toISOString(), end: to.toISOString() };
}

/** The request body for one page of a result set. */
export function logsRequest(
  filters: LogsFilters,
  page: { cursor?: string; limit?: number } = {},
  now: Date = new Date(),
): LogsRequest {
  const { start, end } = requestWindow(filters.range, now);
  const owner: LogsRequest = filters.topologyId ? { id: filters.topologyId } : { config_id: filters.configId };
  const body: LogsRequest = { ...owner, start, limit: page.limit ?? PAGE_SIZE };
  if (end) body.end = end;
  if (filters.selector) body.selector = filters.selector;
  if (filters.query) body.query = filters.query;
  if (page.cursor) body.cursor = page.cursor;
  return body;
}

export const logsApi = {
  components(signal?: AbortSignal): Promise<ComponentWithLogs[]> {
    return db<ComponentWithLogs>('components_with_logs')
      .select(COMPONENT_COLUMNS)
      .order('name')
      .order('id')
      .limit(COMPONENTS_LIMIT)
      .list(signal)
      .then((r) => r.data);
  },
  async component(id: string, signal?: AbortSignal): Promise<ComponentWithLogs | null> {
    return (
      (await db<ComponentWithLogs>('components_with_logs').select(COMPONENT_COLUMNS).eq('id', id).single(signal)) ??
      null
    );
  },
  configs(signal?: AbortSignal): Promise<ConfigWithLogs[]> {
    return db<ConfigWithLogs>('configs_with_logs')
      .select(CONFIG_COLUMNS)
      .order('name')
      .order('id')
      .limit(COMPONENTS_LIMIT)
      .list(signal)
      .then((r) => r.data);
  },
  async config(id: string, signal?: AbortSignal): Promise<ConfigWithLogs | null> {
    return (await db<ConfigWithLogs>('configs_with_logs').select(CONFIG_COLUMNS).eq('id', id).single(signal)) ?? null;
  },
  lines(body: LogsRequest, signal?: AbortSignal): Promise<LogsResponse> {
    return api.post<LogsResponse>('/api/logs', body, { signal });
  },
  /** The whole result set for a download: pages followed until the end or DOWNLOAD_LIMIT lines. */
  async all(filters: LogsFilters, limit = DOWNLOAD_LIMIT): Promise<LogsResponse['results']> {
    const lines: LogsResponse['results'] = [];
    let cursor: string | undefined;
    do {
      const page = await logsApi.lines(
        logsRequest(filters, { cursor, limit: Math.min(DOWNLOAD_PAGE_SIZE, limit - lines.length) }),
      );
      lines.push(...page.results);
      cursor = page.nextCursor ?? undefined;
    } while (cursor && lines.length < limit);
    return lines;
  },
};
