// What the health dashboard shows of the summary (spec/1 §2): text search, Hide Passing, label
// filters (tri-state per label value), tabs (namespace, agent or a label key), groups (canary,
// name prefix, description, type or a label key) and sorting. Pure functions over summary items.
import { checkHealth, groupHealth, uptimePercent, type GroupHealth } from '@opsdeck/common/healthChecks';
import { matchesAgent, type AgentFilter } from '@opsdeck/common/agents';
import type { TriStateMap } from '@opsdeck/common/triState';
import { LOCAL_AGENT_ID, type CheckSummary } from './types';

// ---------------------------------------------------------------------------------------------
// Labels

/** A label filter id: `key=value` (links written as `canary:key:value` are read too). */
export function labelId(key: string, value: string): string {
  return `${key}=${value}`;
}

export function parseLabelId(id: string): { key: string; value: string } | undefined {
  const legacy = /^canary:([^:]+):(.*)$/.exec(id);
  if (legacy) return { key: legacy[1], value: legacy[2] };
  const at = id.indexOf('=');
  return at > 0 ? { key: id.slice(0, at), value: id.slice(at + 1) } : undefined;
}

export interface LabelKeyInfo {
  key: string;
  /** Distinct values, sorted. */
  values: string[];
  /** Only 'true' and/or 'false': filtered with a toggle rather than a multi-select. */
  boolean: boolean;
}

const isBooleanText = (v: string) => v === 'true' || v === 'false';

const collator = new Intl.Collator();

/** Every label key of the checks with its values. */
export function labelCatalogue(checks: readonly CheckSummary[]): LabelKeyInfo[] {
  // Run over every check of every answer (10,000 and more): no entry arrays, one map lookup a label.
  const byKey = new Map<string, Set<string>>();
  for (const c of checks) {
    const labels = c.labels;
    if (!labels) continue;
    for (const k in labels) {
      let values = byKey.get(k);
      if (!values) byKey.set(k, (values = new Set()));
      values.add(String(labels[k]));
    }
  }
  return [...byKey.entries()]
    .map(([key, set]) => {
      const values = [...set].sort(collator.compare);
      return { key, values, boolean: values.every(isBooleanText) };
    })
    .sort((a, b) => collator.compare(a.key, b.key));
}

/**
 * Whether a check passes the label filters: no excluded label value, and for every key with
 * included values, one of them (values of one key are alternatives; keys must all match).
 */
export function matchesLabels(check: CheckSummary, filters: TriStateMap): boolean {
  const labels = check.labels ?? {};
  const included = new Map<string, Set<string>>();
  for (const [id, state] of Object.entries(filters)) {
    const label = parseLabelId(id);
    if (!label || state === 0) continue;
    const has = labels[label.key] === label.value;
    if (state === -1 && has) return false;
    if (state === 1) {
      if (!included.has(label.key)) included.set(label.key, new Set());
      included.get(label.key)!.add(label.value);
    }
  }
  for (const [key, values] of included) {
    if (!(key in labels) || !values.has(String(labels[key]))) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// Search and Hide Passing

/** Case-insensitive match on name, description or endpoint ('Search by name, description, or endpoint'). */
export function matchesSearch(check: CheckSummary, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  return [check.name, check.description, check.endpoint].some((f) => !!f && f.toLowerCase().includes(q));
}

export const isPassing = (check: CheckSummary) => checkHealth(check.status) === 'healthy';

// ---------------------------------------------------------------------------------------------
// Tabs

export const NONE = 'none';
export const ALL_TAB = 'all';

/** Tab By: namespace, agent, or a label key. */
export function tabValueOf(check: CheckSummary, tabBy: string): string {
  if (tabBy === 'namespace') return check.namespace || check.canary_namespace || NONE;
  if (tabBy === 'agent') return check.agent_id || LOCAL_AGENT_ID;
  const v = check.labels?.[tabBy];
  return v === undefined || v === '' ? NONE : String(v);
}

export interface Tab {
  value: string;
  count: number;
}

/** One tab per value ('none' last), each with its number of checks; 'All' is added by the page. */
export function tabsOf(checks: readonly CheckSummary[], tabBy: string): Tab[] {
  const counts = new Map<string, number>();
  for (const c of checks) {
    const v = tabValueOf(c, tabBy);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  return [...counts.entries()]
    .map(([value, count]) => ({ value, count }))
    .sort((a, b) => (a.value === NONE ? 1 : b.value === NONE ? -1 : a.value.localeCompare(b.value)));
}

// ---------------------------------------------------------------------------------------------
// Groups

export const NO_GROUP = 'no-group';

/** Group By values other than label keys. */
export const GROUP_BY_FIELDS = [
  { value: NO_GROUP, label: 'No Grouping' },
  { value: 'canary_name', label: 'Group Name' },
  { value: 'name', label: 'Name' },
  { value: 'description', label: 'Description' },
  { value: 'type', label: 'Type' },
] as const;

/** The group of a check; names are grouped by what comes before their first slash. */
export function groupKeyOf(check: CheckSummary, groupBy: string): string {
  switch (groupBy) {
    case 'canary_name':
      return check.canary_name || NONE;
    case 'name': {
      const at = check.name.indexOf('/');
      return at > 0 ? check.name.slice(0, at) : check.name;
    }
    case 'description':
      return check.description || NONE;
    case 'type':
      return check.type || NONE;
    default: {
      const v = check.labels?.[groupBy];
      return v === undefined || v === '' ? NONE : String(v);
    }
  }
}

export interface CheckGroup {
  key: string;
  checks: CheckSummary[];
  health: GroupHealth;
  /** Summed uptime counts of the group's checks ('n/m' in the Uptime column). */
  passed: number;
  total: number;
}

export function groupChecks(checks: readonly CheckSummary[], groupBy: string): CheckGroup[] {
  const groups = new Map<string, CheckSummary[]>();
  for (const c of checks) {
    const key = groupBy === NO_GROUP ? c.id : groupKeyOf(c, groupBy);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(c);
  }
  return [...groups.entries()].map(([key, members]) => {
    const passed = members.reduce((n, c) => n + Number(c.uptime?.passed ?? 0), 0);
    const failed = members.reduce((n, c) => n + Number(c.uptime?.failed ?? 0), 0);
    return { key, checks: members, health: groupHealth(members.map((c) => c.status)), passed, total: passed + failed };
  });
}

// ---------------------------------------------------------------------------------------------
// Sorting

export const SORT_FIELDS = ['name', 'health', 'uptime', 'latency', 'transition'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

export function isSortField(v: string | null | undefined): v is SortField {
  return !!v && (SORT_FIELDS as readonly string[]).includes(v);
}

const HEALTH_RANK = { unhealthy: 0, unknown: 1, healthy: 2 } as const;

function sortValue(c: CheckSummary, field: SortField): string | number {
  switch (field) {
    case 'name':
      return c.name.toLowerCase();
    case 'health':
      return HEALTH_RANK[checkHealth(c.status)];
    case 'uptime':
      return uptimePercent(c.uptime ?? {}) ?? -1;
    case 'latency':
      return c.latency?.p95 ?? c.latency?.rolling1h ?? -1;
    case 'transition':
      return c.last_transition_time ? Date.parse(c.last_transition_time) : 0;
  }
}

/**
 * A sorted copy; ties keep name order. Groups are sorted by their first member. The sort keys are
 * computed once per check, not per comparison (thousands of checks).
 */
export function sortChecks(checks: readonly CheckSummary[], field: SortField, desc: boolean): CheckSummary[] {
  const dir = desc ? -1 : 1;
  const keyed = checks.map((c) => ({ c, v: sortValue(c, field) }));
  keyed.sort((a, b) => {
    if (a.v < b.v) return -dir;
    if (a.v > b.v) return dir;
    return collator.compare(a.c.name, b.c.name);
  });
  return keyed.map((k) => k.c);
}

// ---------------------------------------------------------------------------------------------
// Everything together

export interface DashboardFilters {
  query: string;
  hidePassing: boolean;
  labels: TriStateMap;
  /** The Agent filter (all when left out). */
  agent?: AgentFilter;
  tabBy: string;
  /** The selected tab value, or 'all'. */
  tab: string;
}

/** Checks after search, labels and agent: what the tabs and the passing/failing counts are about. */
export function filterForTabs(
  checks: readonly CheckSummary[],
  f: Pick<DashboardFilters, 'query' | 'labels' | 'agent'>,
) {
  const agent = f.agent ?? 'all';
  return checks.filter(
    (c) => matchesSearch(c, f.query) && matchesLabels(c, f.labels) && matchesAgent(c.agent_id, agent),
  );
}

/** The checks of the selected tab, without passing ones when Hide Passing is on. */
export function visibleChecks(checks: readonly CheckSummary[], f: DashboardFilters): CheckSummary[] {
  return filterForTabs(checks, f).filter(
    (c) => (f.tab === ALL_TAB || tabValueOf(c, f.tabBy) === f.tab) && !(f.hidePassing && isPassing(c)),
  );
}

/** Passing and failing counts of the header. */
export function healthCounts(checks: readonly CheckSummary[]): { passing: number; failing: number } {
  let passing = 0;
  let failing = 0;
  for (const c of checks) {
    const h = checkHealth(c.status);
    if (h === 'healthy') passing++;
    else if (h === 'unhealthy') failing++;
  }
  return { passing, failing };
}
