// The calls of the catalog area (spec/2 §7): the item list and its filter options through /api/db,
// the grouped summary, changes and config links through /api/catalog, one item with its tab
// counts (config_detail), insights, related items (rpc/related_configs_recursive), linked checks
// and components, scrapers and their job runs.
import { NO_AGENT, type AgentFilter } from '@opsdeck/common/agents';
import { triStateSplit, type TriStateMap } from '@opsdeck/common/triState';
import { api, request } from '../../api/client';
import { db, quoteListItem, totalFromContentRange, type ListResult } from '../../api/postgrest';
import { splitLabel, type CatalogView, type InsightsView } from './catalogParams';
import type { RelatedConfig } from './graph';
import type {
  ChangeDetail,
  ChangesRequest,
  ChangesResponse,
  CheckForConfig,
  ComponentLink,
  ConfigDetail,
  ConfigListRow,
  InsightRow,
  JobRunRow,
  ScraperRow,
  SummaryGroup,
  SummaryRequest,
} from './types';

export const LIST_COLUMNS =
  'id,type,config_class,status,health,labels,name,tags,created_at,updated_at,deleted_at,cost_per_minute,cost_total_1d,cost_total_7d,cost_total_30d,changes,analysis,agent:agents(id,name)';

/** A value inside a logic tree (or=(…)): quoted when it holds PostgREST syntax. */
const logicValue = (v: string) => quoteListItem(v);

/**
 * The `and=(…)` conditions of the list: search over name, type, description and namespace; labels against
 * labels and tags; for the local agent filter, items without an agent (null or the all-zero id).
 */
export function listConditions(search: string, labels: TriStateMap, agent: AgentFilter = 'all'): string | undefined {
  const parts: string[] = [];
  if (agent === 'local') parts.push(`or(agent_id.is.null,agent_id.eq.${NO_AGENT})`);
  const text = search.trim().replace(/\*/g, '');
  if (text) {
    const pattern = logicValue(`*${text}*`);
    parts.push(
      `or(name.ilike.${pattern},type.ilike.${pattern},description.ilike.${pattern},tags->>namespace.ilike.${pattern})`,
    );
  }
  const { include, exclude } = triStateSplit(labels);
  for (const entry of include) {
    const kv = splitLabel(entry);
    if (!kv) continue;
    const json = logicValue(JSON.stringify({ [kv[0]]: kv[1] }));
    parts.push(`or(labels.cs.${json},tags.cs.${json})`);
  }
  for (const entry of exclude) {
    const kv = splitLabel(entry);
    if (!kv) continue;
    const json = logicValue(JSON.stringify({ [kv[0]]: kv[1] }));
    parts.push(`labels.not.cs.${json}`, `tags.not.cs.${json}`);
  }
  return parts.length ? `(${parts.join(',')})` : undefined;
}

const enc = encodeURIComponent;

export const catalogApi = {
  async list(view: CatalogView, hideDeleted: boolean, signal?: AbortSignal): Promise<ListResult<ConfigListRow>> {
    const q = db<ConfigListRow>('config_items').select(LIST_COLUMNS);
    if (view.configType) q.eq('type', view.configType);
    q.includeExclude('status', triStateSplit(view.status));
    q.includeExclude('health', triStateSplit(view.health));
    if (view.agent !== 'all' && view.agent !== 'local') q.eq('agent_id', view.agent);
    if (hideDeleted) q.is('deleted_at', null);
    const ascending = view.sortOrder !== 'desc';
    if (view.sortBy === 'type') q.order('type', { ascending }).order('name', { ascending });
    else q.order(view.sortBy, { ascending, nulls: 'last' }).order('id');
    q.page(view.pageIndex, view.pageSize);
    const params = q.toSearchParams();
    const and = listConditions(view.search, view.labels, view.agent);
    if (and) params.set('and', and);
    const res = await request<ConfigListRow[]>('/api/db/config_items', {
      query: params,
      signal,
      headers: { Prefer: 'count=exact' },
    });
    return { data: res.data ?? [], total: totalFromContentRange(res.headers.get('content-range')) };
  },

  summary: (req: SummaryRequest, signal?: AbortSignal) =>
    api.post<{ groups: SummaryGroup[] }>('/api/catalog/summary', req, { signal }),

  async item(id: string, signal?: AbortSignal): Promise<ConfigDetail | null> {
    return (await db<ConfigDetail>('config_detail').select('*').eq('id', id).single(signal)) ?? null;
  },

  async types(signal?: AbortSignal): Promise<string[]> {
    const { data } = await db<{ type: string }>('config_types').select('type').order('type').limit(1000).list(signal);
    return data.map((r) => r.type);
  },
  async statuses(signal?: AbortSignal): Promise<string[]> {
    const { data } = await db<{ status: string }>('config_statuses')
      .select('status')
      .order('status')
      .limit(500)
      .list(signal);
    return data.map((r) => r.status);
  },
  /** `key=value` entries of labels and tags for the filter; tagEntries: those seen among tags. */
  async labelsAndTags(signal?: AbortSignal): Promise<{ entries: string[]; tagEntries: string[] }> {
    const [labels, tags] = await Promise.all([
      db<{ key: string; value: string }>('config_labels')
        .select('key,value')
        .order('key')
        .order('value')
        .limit(500)
        .list(signal),
      db<{ key: string; value: string }>('config_tags')
        .select('key,value')
        .order('key')
        .order('value')
        .limit(500)
        .list(signal),
    ]);
    const kv = (r: { key: string; value: string }) => `${r.key}=${r.value}`;
    return {
      entries: [...new Set([...tags.data, ...labels.data].map(kv))].sort(),
      tagEntries: tags.data.map(kv),
    };
  },
  async changeTypes(signal?: AbortSignal): Promise<string[]> {
    const { data } = await db<{ change_type: string }>('change_types').select('change_type').limit(500).list(signal);
    return data.map((r) => r.change_type);
  },
  async analyzers(signal?: AbortSignal): Promise<string[]> {
    const { data } = await db<{ analyzer: string }>('config_analysis_analyzers')
      .select('analyzer')
      .order('analyzer')
      .limit(500)
      .list(signal);
    return data.map((r) => r.analyzer);
  },

  changes: (req: ChangesRequest, signal?: AbortSignal) =>
    api.post<ChangesResponse>('/api/catalog/changes', req, { signal }),

  async change(id: string, signal?: AbortSignal): Promise<ChangeDetail | null> {
    return (await db<ChangeDetail>('config_changes').select('*').eq('id', id).single(signal)) ?? null;
  },

  insights(view: InsightsView & { configId?: string }, signal?: AbortSignal): Promise<ListResult<InsightRow>> {
    if (view.component) {
      // Links from topology cards: the insights of the items linked to the component.
      const q = db<InsightRow>('rpc/lookup_analysis_by_component').select('*');
      const params = q.toSearchParams();
      params.set('component_id', view.component);
      if (view.type) params.set('analysis_type', view.type);
      if (view.severity) params.set('severity', view.severity);
      params.set('status', view.status ?? 'open');
      params.set('order', 'last_observed.desc');
      params.set('limit', String(view.pageSize));
      params.set('offset', String(view.pageIndex * view.pageSize));
      return request<InsightRow[]>('/api/db/rpc/lookup_analysis_by_component', {
        query: params,
        signal,
        headers: { Prefer: 'count=exact' },
      }).then((res) => ({ data: res.data ?? [], total: totalFromContentRange(res.headers.get('content-range')) }));
    }
    const q = db<InsightRow>('config_analysis_items').select(
      'id,config_id,analyzer,analysis_type,severity,message,summary,status,source,analysis,first_observed,last_observed,config',
    );
    if (view.configId) q.eq('config_id', view.configId);
    if (view.type) q.eq('analysis_type', view.type);
    if (view.severity) q.eq('severity', view.severity);
    if (view.status) q.eq('status', view.status);
    if (view.analyzer) q.eq('analyzer', view.analyzer);
    return q.order('last_observed', { ascending: false }).order('id').page(view.pageIndex, view.pageSize).list(signal);
  },

  async related(args: Record<string, string | number | boolean>, signal?: AbortSignal): Promise<RelatedConfig[]> {
    const res = await request<RelatedConfig[]>('/api/db/rpc/related_configs_recursive', { query: args, signal });
    return res.data ?? [];
  },

  /** Components linked to the item, with the links made by hand (selector_id 'manual') unlinkable. */
  async componentLinks(configId: string, signal?: AbortSignal): Promise<ComponentLink[]> {
    const { data } = await db<ComponentLink>('config_component_relationships')
      .select('component_id,config_id,selector_id,component:components(id,name,type)')
      .eq('config_id', configId)
      .is('deleted_at', null)
      .limit(200)
      .list(signal);
    return data;
  },

  unlinkComponent: (link: { component_id: string; config_id: string }) =>
    request('/api/catalog/config-links', { method: 'DELETE', body: link }).then(() => undefined),

  async checks(configId: string, signal?: AbortSignal): Promise<CheckForConfig[]> {
    const { data } = await db<CheckForConfig>('check_summary_for_config')
      .select('config_id,id,canary_id,type,name,status,severity,canary_name,last_runtime')
      .eq('config_id', configId)
      .order('name')
      .limit(200)
      .list(signal);
    return data;
  },

  scrapers(page: { pageIndex: number; pageSize: number }, signal?: AbortSignal): Promise<ListResult<ScraperRow>> {
    return db<ScraperRow>('config_scrapers')
      .select('id,name,namespace,labels,source,schedule,created_at,updated_at,last_runtime,next_runtime')
      .is('deleted_at', null)
      .order('name')
      .page(page.pageIndex, page.pageSize)
      .list(signal);
  },

  async scraper(id: string, signal?: AbortSignal): Promise<ScraperRow | null> {
    return (
      (await db<ScraperRow>('config_scrapers')
        .select('id,name,namespace,labels,spec,source,schedule,created_at,updated_at,last_runtime,next_runtime')
        .eq('id', id)
        .single(signal)) ?? null
    );
  },

  scraperJobs(id: string, page: { pageIndex: number; pageSize: number }, signal?: AbortSignal) {
    return db<JobRunRow>('job_history')
      .select('id,name,status,success_count,error_count,duration_millis,details,time_start,time_end,created_at')
      .eq('resource_type', 'config_scraper')
      .eq('resource_id', id)
      .order('created_at', { ascending: false })
      .page(page.pageIndex, page.pageSize)
      .list(signal);
  },

  runScraper: (id: string) => api.post<unknown>(`/api/catalog/run/${enc(id)}`),
};
