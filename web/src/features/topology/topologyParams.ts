// The topology page's state in the query string (spec/2 §2.6): labels, team, type, status,
// refererId, sortBy, sortOrder, agent_id and showHiddenComponents; the GET /api/topology query
// built from it; and the Zoom In link, which carries the parameters along without refererId and
// status and adds the component being left as the new refererId. Pure.
import { decodeTriStateList, encodeTriStateList, triStateSplit, type TriStateMap } from '@opsdeck/common/triState';

export type SortOrder = 'asc' | 'desc';

export interface TopologyView {
  /** Label filter: keys are `name=value`, states include (1) or exclude (-1). */
  labels: TriStateMap;
  team: TriStateMap;
  type: TriStateMap;
  status: TriStateMap;
  refererId: string | undefined;
  /** Undefined: the stored choice, else the default (status, descending). */
  sortBy: string | undefined;
  sortOrder: SortOrder | undefined;
  /** 'all' (or undefined), 'local' or an agent id. */
  agentId: string | undefined;
  showHiddenComponents: boolean;
}

export type TopologyViewChange = Partial<TopologyView>;

/** The query parameters this page owns, in the order they are written. */
export const VIEW_PARAMS = [
  'labels',
  'team',
  'type',
  'status',
  'refererId',
  'sortBy',
  'sortOrder',
  'agent_id',
  'showHiddenComponents',
] as const;

export const DEFAULT_SORT = { sortBy: 'status', sortOrder: 'desc' as SortOrder };

export function readTopologyView(params: URLSearchParams): TopologyView {
  const order = params.get('sortOrder');
  const agent = params.get('agent_id');
  return {
    labels: decodeTriStateList(params.get('labels')),
    team: decodeTriStateList(params.get('team')),
    type: decodeTriStateList(params.get('type')),
    status: decodeTriStateList(params.get('status')),
    refererId: params.get('refererId') || undefined,
    sortBy: params.get('sortBy') || undefined,
    sortOrder: order === 'asc' || order === 'desc' ? order : undefined,
    agentId: agent && agent !== 'all' ? agent : undefined,
    // 'Show hidden components' defaults to on.
    showHiddenComponents: params.get('showHiddenComponents') !== 'false',
  };
}

/** Applies changes to the query string; default and empty values remove their parameter. */
export function writeTopologyView(prev: URLSearchParams, changes: TopologyViewChange): URLSearchParams {
  const next = new URLSearchParams(prev);
  const set = (key: string, value: string | undefined) => (value ? next.set(key, value) : next.delete(key));
  if ('labels' in changes) set('labels', encodeTriStateList(changes.labels ?? {}));
  if ('team' in changes) set('team', encodeTriStateList(changes.team ?? {}));
  if ('type' in changes) set('type', encodeTriStateList(changes.type ?? {}));
  if ('status' in changes) set('status', encodeTriStateList(changes.status ?? {}));
  if ('refererId' in changes) set('refererId', changes.refererId);
  if ('sortBy' in changes) set('sortBy', changes.sortBy);
  if ('sortOrder' in changes) set('sortOrder', changes.sortOrder);
  if ('agentId' in changes) set('agent_id', changes.agentId && changes.agentId !== 'all' ? changes.agentId : undefined);
  if ('showHiddenComponents' in changes)
    set('showHiddenComponents', changes.showHiddenComponents === false ? 'false' : undefined);
  return next;
}

/** A tri-state map as the server's list filter: `a,!b` (include a, exclude b). */
export function serverList(map: TriStateMap): string | undefined {
  const { include, exclude } = triStateSplit(map);
  const items = [...include, ...exclude.map((v) => `!${v}`)];
  return items.length ? items.join(',') : undefined;
}

/** The label filter as the server reads it: `k=v,k2!=v2` (keys of the map are `k=v`). */
export function serverLabels(map: TriStateMap): string | undefined {
  const { include, exclude } = triStateSplit(map);
  const pair = (key: string, negate: boolean) => {
    const at = key.indexOf('=');
    return at > 0 ? `${key.slice(0, at)}${negate ? '!=' : '='}${key.slice(at + 1)}` : null;
  };
  const items = [...include.map((k) => pair(k, false)), ...exclude.map((k) => pair(k, true))].filter(
    (v): v is string => v !== null,
  );
  return items.length ? items.join(',') : undefined;
}

/** The parameters of GET /api/topology for a view (a type filter flattens the tree). */
export function topologyQuery(
  id: string | undefined,
  view: TopologyView,
  sort: { sortBy: string; sortOrder: SortOrder },
): Record<string, string> {
  const q: Record<string, string | undefined> = {
    id,
    status: serverList(view.status),
    type: serverList(view.type),
    team: serverList(view.team),
    labels: serverLabels(view.labels),
    sortBy: sort.sortBy,
    sortOrder: sort.sortOrder,
    flatten: triStateSplit(view.type).include.length > 0 ? 'true' : undefined,
    hidden: view.showHiddenComponents ? 'true' : 'false',
    agent_id: view.agentId,
  };
  return Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => !!e[1]));
}

/**
 * Where a card title or Zoom In goes: /topology/{id} with the current query carried along,
 * refererId and status dropped, and refererId set to the component being left (if any).
 */
export function zoomInUrl(targetId: string, current: URLSearchParams, fromId?: string): string {
  const next = new URLSearchParams(current);
  next.delete('refererId');
  next.delete('status');
  if (fromId && fromId !== targetId) next.set('refererId', fromId);
  const qs = next.toString();
  return `/topology/${encodeURIComponent(targetId)}${qs ? `?${qs}` : ''}`;
}

/** The ancestor ids of a component from its `path` (root first). */
export function ancestorIds(path: string | null | undefined): string[] {
  return (path ?? '').split('.').filter(Boolean);
}

/**
 * View Logs: only for a component with logs (an external id, or log selectors when the card carries
 * them), and only while the logs feature is on.
 */
export function logsUrl(
  component: { id: string; external_id: string | null; logs?: readonly unknown[] | null },
  logsEnabled: boolean,
): string | null {
  if (!logsEnabled || (!component.external_id && !component.logs?.length)) return null;
  return `/logs?${new URLSearchParams({ topologyId: component.id })}`;
}

/** The incidents of a component (spec/2 §2.6: /incidents?type=&component=&severity=). */
export function incidentsUrl(componentId: string, filters: { type?: string; severity?: string } = {}): string {
  const qs = new URLSearchParams({ component: componentId });
  if (filters.type) qs.set('type', filters.type);
  if (filters.severity) qs.set('severity', filters.severity);
  return `/incidents?${qs}`;
}

/** The insights of a component (spec/2 §2.4: component, type, severity). */
export function insightsUrl(componentId: string, filters: { type?: string; severity?: string } = {}): string {
  const qs = new URLSearchParams({ component: componentId });
  if (filters.type) qs.set('type', filters.type);
  if (filters.severity) qs.set('severity', filters.severity);
  return `/catalog/insights?${qs}`;
}
