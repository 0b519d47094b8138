// The catalog screens' state in the query string (spec/2 §2.1, §2.3, §2.4). Reading fills in the
// defaults; writing a default or empty value removes the parameter, so links stay short.
//
//   /catalog                configType, search, labels, status, health, agent, groupBy (config_class,type),
//                           sortBy (type), sortOrder (asc), groupByProp, pageIndex, pageSize
//   /catalog/changes        id, summary, source, created_by, external_created_by, changeType,
//                           severity, configTypes, tags, downstream, upstream, page, pageSize, sortBy,
//                           sortDirection (+ the time range, default now-2d)
//   /catalog/insights       component, type, severity, status, analyzer, pageIndex, pageSize (50)
import { readAgentFilter, type AgentFilter } from '@opsdeck/common/agents';
import { decodeTriStateList, encodeTriStateList, triStateSplit, type TriStateMap } from '@opsdeck/common/triState';

// ---------------------------------------------------------------------------------------------
// Catalog list

export const DEFAULT_GROUP_BY = ['config_class', 'type'] as const;
export const CATALOG_DEFAULTS = { sortBy: 'type', sortOrder: 'asc', pageSize: 50, agent: 'all' } as const;

export interface CatalogView {
  configType: string | undefined;
  search: string;
  /** `key=value` entries, tri-state (include 1, exclude -1). Matched against labels and tags. */
  labels: TriStateMap;
  status: TriStateMap;
  health: TriStateMap;
  /** The Agent filter: all, local or an agent id (sent to the server). */
  agent: AgentFilter;
  groupBy: string[];
  sortBy: string;
  sortOrder: 'asc' | 'desc';
  groupByProp: string | undefined;
  pageIndex: number;
  pageSize: number;
}

const intParam = (v: string | null, fallback: number, min = 0) => {
  const n = Math.trunc(Number(v));
  return v !== null && Number.isFinite(n) && n >= min ? n : fallback;
};

export function readCatalogView(params: URLSearchParams): CatalogView {
  const groupBy = (params.get('groupBy') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return {
    configType: params.get('configType') || undefined,
    search: params.get('search') ?? '',
    labels: decodeTriStateList(params.get('labels')),
    status: decodeTriStateList(params.get('status')),
    health: decodeTriStateList(params.get('health')),
    agent: readAgentFilter(params.get('agent')),
    groupBy: groupBy.length ? groupBy : [...DEFAULT_GROUP_BY],
    sortBy: params.get('sortBy') || CATALOG_DEFAULTS.sortBy,
    sortOrder: params.get('sortOrder') === 'desc' ? 'desc' : 'asc',
    groupByProp: params.get('groupByProp') || undefined,
    pageIndex: intParam(params.get('pageIndex'), 0),
    pageSize: intParam(params.get('pageSize'), CATALOG_DEFAULTS.pageSize, 1),
  };
}

/** The grouped summary shows while neither a type nor a search narrows the list. */
export function isSummaryView(view: Pick<CatalogView, 'configType' | 'search'>): boolean {
  return !view.configType && !view.search.trim();
}

export type CatalogViewChange = Partial<Omit<CatalogView, 'groupBy'>> & { groupBy?: string[] | undefined };

export function writeCatalogView(params: URLSearchParams, changes: CatalogViewChange): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    let text: string | undefined;
    if (key === 'labels' || key === 'status' || key === 'health') text = encodeTriStateList(value as TriStateMap);
    else if (key === 'groupBy') {
      const list = value as string[] | undefined;
      text = list && list.join(',') !== DEFAULT_GROUP_BY.join(',') ? list.join(',') : undefined;
    } else if (key === 'pageIndex') text = value ? String(value) : undefined;
    else if (value !== undefined && value !== null) text = String(value);
    const fallback = (CATALOG_DEFAULTS as Record<string, unknown>)[key];
    if (!text || (fallback !== undefined && text === String(fallback))) next.delete(key);
    else next.set(key, text);
  }
  // Any change of what is listed starts again from the first page.
  if (!('pageIndex' in changes) && Object.keys(changes).some((k) => k !== 'pageSize')) next.delete('pageIndex');
  return next;
}

/** Columns of a summary row that are groupings rather than counts. */
export const SUMMARY_BUILTIN_GROUPS = ['config_class', 'type', 'status', 'health', 'agent_id'] as const;

/**
 * Clicking a summary row: its type becomes configType, its other grouping values (label and tag
 * keys) become label filters, and groupBy is cleared.
 */
export function drillIntoSummaryRow(
  row: Record<string, unknown>,
  groupBy: readonly string[],
  current: TriStateMap = {},
): CatalogViewChange {
  const labels: TriStateMap = { ...current };
  const change: CatalogViewChange = { groupBy: undefined };
  const status: TriStateMap = {};
  const health: TriStateMap = {};
  for (const key of groupBy) {
    const value = row[key];
    if (value === null || value === undefined || value === '') continue;
    if (key === 'type') change.configType = String(value);
    else if (key === 'status') status[String(value)] = 1;
    else if (key === 'health') health[String(value)] = 1;
    else if (key === 'config_class' || key === 'agent_id' || key === 'agent') continue;
    else labels[`${key.replace(/^(tags|labels)\./, '')}=${String(value)}`] = 1;
  }
  change.labels = labels;
  if (Object.keys(status).length) change.status = status;
  if (Object.keys(health).length) change.health = health;
  return change;
}

/** `key=value` → [key, value]; entries without '=' are ignored. */
export function splitLabel(entry: string): [string, string] | undefined {
  const at = entry.indexOf('=');
  if (at <= 0) return undefined;
  return [entry.slice(0, at), entry.slice(at + 1)];
}

/**
 * The label filters as the summary's `filter`: `tags.<key>` for entries found among the tags,
 * `labels.<key>` otherwise; values as a comma list, excluded ones prefixed with '!'.
 */
export function summaryFilter(labels: TriStateMap, tagEntries: ReadonlySet<string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [entry, state] of Object.entries(labels)) {
    const kv = splitLabel(entry);
    if (!kv || state === 0) continue;
    const field = `${tagEntries.has(entry) ? 'tags' : 'labels'}.${kv[0]}`;
    const value = `${state === -1 ? '!' : ''}${kv[1]}`;
    out[field] = out[field] ? `${out[field]},${value}` : value;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Changes

export const CHANGES_DEFAULTS = {
  pageSize: 200,
  sortBy: 'created_at',
  sortDirection: 'desc',
  range: 'now-2d',
  /** Related-config recursion depth for changes. */
  depth: 5,
} as const;

export interface TagFilter {
  key: string;
  value: string;
  exclude: boolean;
}

export interface ChangesView {
  id: string | undefined;
  summary: string;
  source: string;
  createdBy: string;
  externalCreatedBy: string;
  changeType: TriStateMap;
  severity: TriStateMap;
  configTypes: TriStateMap;
  tags: TagFilter[];
  downstream: boolean;
  upstream: boolean;
  /** 1-based. */
  page: number;
  pageSize: number;
  sortBy: string;
  sortDirection: 'asc' | 'desc';
}

/** tags=key=value:1,other=x:-1 (the tri-state list: 1 include, -1 exclude). */
export function decodeTagFilters(text: string | null): TagFilter[] {
  return Object.entries(decodeTriStateList(text)).flatMap(([entry, state]) => {
    const kv = splitLabel(entry);
    return kv ? [{ key: kv[0], value: kv[1], exclude: state === -1 }] : [];
  });
}

export function encodeTagFilters(tags: readonly TagFilter[]): string {
  return encodeTriStateList(Object.fromEntries(tags.map((t) => [`${t.key}=${t.value}`, t.exclude ? -1 : 1])));
}

export function readChangesView(params: URLSearchParams): ChangesView {
  return {
    id: params.get('id') || undefined,
    summary: params.get('summary') ?? '',
    source: params.get('source') ?? '',
    createdBy: params.get('created_by') ?? '',
    externalCreatedBy: params.get('external_created_by') ?? '',
    changeType: decodeTriStateList(params.get('changeType')),
    severity: decodeTriStateList(params.get('severity')),
    configTypes: decodeTriStateList(params.get('configTypes')),
    tags: decodeTagFilters(params.get('tags')),
    downstream: params.get('downstream') === 'true',
    upstream: params.get('upstream') === 'true',
    page: intParam(params.get('page'), 1, 1),
    pageSize: intParam(params.get('pageSize'), CHANGES_DEFAULTS.pageSize, 1),
    sortBy: params.get('sortBy') || CHANGES_DEFAULTS.sortBy,
    sortDirection: params.get('sortDirection') === 'asc' ? 'asc' : 'desc',
  };
}

const CHANGES_PARAM_NAMES: Record<keyof ChangesView, string> = {
  id: 'id',
  summary: 'summary',
  source: 'source',
  createdBy: 'created_by',
  externalCreatedBy: 'external_created_by',
  changeType: 'changeType',
  severity: 'severity',
  configTypes: 'configTypes',
  tags: 'tags',
  downstream: 'downstream',
  upstream: 'upstream',
  page: 'page',
  pageSize: 'pageSize',
  sortBy: 'sortBy',
  sortDirection: 'sortDirection',
};

export function writeChangesView(params: URLSearchParams, changes: Partial<ChangesView>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [field, value] of Object.entries(changes) as [keyof ChangesView, unknown][]) {
    const name = CHANGES_PARAM_NAMES[field];
    let text: string | undefined;
    if (field === 'changeType' || field === 'severity' || field === 'configTypes')
      text = encodeTriStateList(value as TriStateMap);
    else if (field === 'tags') text = encodeTagFilters(value as TagFilter[]);
    else if (field === 'downstream' || field === 'upstream') text = value ? 'true' : undefined;
    else if (value !== undefined && value !== null) text = String(value);
    const fallback =
      field === 'page'
        ? '1'
        : field === 'pageSize'
          ? String(CHANGES_DEFAULTS.pageSize)
          : field === 'sortBy'
            ? CHANGES_DEFAULTS.sortBy
            : field === 'sortDirection'
              ? CHANGES_DEFAULTS.sortDirection
              : undefined;
    if (!text || text === fallback) next.delete(name);
    else next.set(name, text);
  }
  if (!('page' in changes)) next.delete('page');
  return next;
}

/** The recursion of a per-item or filtered changes call from the upstream/downstream toggles. */
export function recursiveMode(
  view: Pick<ChangesView, 'upstream' | 'downstream'>,
): 'all' | 'upstream' | 'downstream' | 'none' {
  if (view.upstream && view.downstream) return 'all';
  if (view.upstream) return 'upstream';
  if (view.downstream) return 'downstream';
  return 'none';
}

/** A tri-state map as the server's comma list: included values, excluded ones prefixed with '!'. */
export function triStateToList(map: TriStateMap): string | undefined {
  const { include, exclude } = triStateSplit(map);
  const parts = [...include, ...exclude.map((v) => `!${v}`)];
  return parts.length ? parts.join(',') : undefined;
}

// ---------------------------------------------------------------------------------------------
// Insights

export const INSIGHTS_PAGE_SIZE = 50;

export interface InsightsView {
  component: string | undefined;
  type: string | undefined;
  severity: string | undefined;
  status: string | undefined;
  analyzer: string | undefined;
  pageIndex: number;
  pageSize: number;
}

export function readInsightsView(params: URLSearchParams): InsightsView {
  return {
    component: params.get('component') || undefined,
    type: params.get('type') || undefined,
    severity: params.get('severity') || undefined,
    status: params.get('status') || undefined,
    analyzer: params.get('analyzer') || undefined,
    pageIndex: intParam(params.get('pageIndex'), 0),
    pageSize: intParam(params.get('pageSize'), INSIGHTS_PAGE_SIZE, 1),
  };
}

// ---------------------------------------------------------------------------------------------
// Config tab: selected lines (?selected=3&selected=4)

export function readSelectedLines(params: URLSearchParams): number[] {
  return [
    ...new Set(
      params
        .getAll('selected')
        .map(Number)
        .filter((n) => Number.isInteger(n) && n > 0),
    ),
  ].sort((a, b) => a - b);
}

export function toggleSelectedLine(params: URLSearchParams, line: number): URLSearchParams {
  const current = readSelectedLines(params);
  const nextLines = current.includes(line)
    ? current.filter((l) => l !== line)
    : [...current, line].sort((a, b) => a - b);
  const next = new URLSearchParams(params);
  next.delete('selected');
  for (const l of nextLines) next.append('selected', String(l));
  return next;
}
