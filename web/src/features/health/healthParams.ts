// The health dashboard's state in the query string (spec/1 §2 "Health dashboard"; defaults of §9):
// timeRange, layout, checkId, labels, agent, query, sortBy, sortDesc, groupBy, tabBy, hidePassing, the
// pivot parameters, and the selected tab. Reading fills in the defaults; writing a default value
// removes the parameter, so links stay short.
import { durationMinutes, TIME_RANGE_OPTIONS } from '@opsdeck/common/timeRange';
import { readAgentFilter, type AgentFilter } from '@opsdeck/common/agents';
import { decodeTriStateJson, encodeTriStateJson, type TriStateMap } from '@opsdeck/common/triState';
import { ALL_TAB, isSortField, type SortField } from './checkFilters';

export type Layout = 'table' | 'card';

export interface HealthView {
  /** A duration shorthand of TIME_RANGE_OPTIONS; undefined means the default derived from the last run. */
  timeRange: string | undefined;
  layout: Layout;
  checkId: string | undefined;
  labels: TriStateMap;
  /** The Agent filter: all, local or an agent id (applied in the browser, like the labels). */
  agent: AgentFilter;
  query: string;
  sortBy: SortField;
  sortDesc: boolean;
  groupBy: string;
  tabBy: string;
  tab: string;
  hidePassing: boolean;
  /** Kept in links; the pivot view itself is not built yet. */
  pivotBy: string | undefined;
  pivotLabel: string | undefined;
  pivotCellType: string | undefined;
}

export const HEALTH_DEFAULTS = {
  layout: 'table',
  sortBy: 'name',
  sortDesc: false,
  groupBy: 'canary_name',
  tabBy: 'namespace',
  tab: ALL_TAB,
  hidePassing: true,
  agent: 'all',
} as const;

const isTimeRange = (v: string | null): v is string => !!v && (TIME_RANGE_OPTIONS as readonly string[]).includes(v);

export function readHealthView(params: URLSearchParams): HealthView {
  const bool = (key: string, fallback: boolean) => {
    const v = params.get(key);
    return v === 'true' ? true : v === 'false' ? false : fallback;
  };
  const sortBy = params.get('sortBy');
  return {
    timeRange: isTimeRange(params.get('timeRange')) ? params.get('timeRange')! : undefined,
    layout: params.get('layout') === 'card' ? 'card' : 'table',
    checkId: params.get('checkId') || undefined,
    labels: decodeTriStateJson(params.get('labels')),
    agent: readAgentFilter(params.get('agent')),
    query: params.get('query') ?? '',
    sortBy: isSortField(sortBy) ? sortBy : HEALTH_DEFAULTS.sortBy,
    sortDesc: bool('sortDesc', HEALTH_DEFAULTS.sortDesc),
    groupBy: params.get('groupBy') || HEALTH_DEFAULTS.groupBy,
    tabBy: params.get('tabBy') || HEALTH_DEFAULTS.tabBy,
    tab: params.get('tab') || HEALTH_DEFAULTS.tab,
    hidePassing: bool('hidePassing', HEALTH_DEFAULTS.hidePassing),
    pivotBy: params.get('pivotBy') ?? undefined,
    pivotLabel: params.get('pivotLabel') ?? undefined,
    pivotCellType: params.get('pivotCellType') ?? undefined,
  };
}

export type HealthViewChange = Partial<Omit<HealthView, 'labels'>> & { labels?: TriStateMap };

/** A copy of `params` with the changes written; defaults and empty values are removed. */
export function writeHealthView(params: URLSearchParams, changes: HealthViewChange): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    let text: string | undefined;
    if (key === 'labels') text = encodeTriStateJson(value as TriStateMap) || undefined;
    else if (value === undefined || value === null || value === '') text = undefined;
    else text = String(value);
    const fallback = (HEALTH_DEFAULTS as Record<string, unknown>)[key];
    if (text === undefined || (fallback !== undefined && text === String(fallback))) next.delete(key);
    else next.set(key, text);
  }
  // A different Tab By makes the selected tab meaningless.
  if (changes.tabBy !== undefined && changes.tab === undefined) next.delete('tab');
  return next;
}

/** The summary's start for a range shorthand: the server reads m/h/d/w durations, so months and years go as minutes. */
export function summaryStart(range: string): string {
  return /^\d+[mhdw]$/.test(range) ? range : `${durationMinutes(range) ?? 60}m`;
}
