// The topology area's calls (spec/2 §7 "Topology"): the card query, names of ancestors, label
// and agent options, the side panel's paged /api/db views, the snapshot zip, and linking a
// component to a catalog item.
import { api, ApiError, GENERIC_ERROR_MESSAGE, serverMessage } from '../../api/client';
import { containsPattern, db, type ListResult } from '../../api/postgrest';
import type { ComponentName, TopologyResponse } from './types';

/** Side panels page this many rows at a time (spec/2 §9). */
export const PANEL_PAGE_SIZE = 50;
/** The link-to-catalog search returns at most this many items. */
export const CONFIG_SEARCH_LIMIT = 50;

export interface AgentOption {
  id: string;
  name: string;
  deleted_at?: string | null;
}

export interface ConfigOption {
  id: string;
  name: string | null;
  type: string;
  config_class: string;
  health: string | null;
}

export const topologyApi = {
  cards: (query: Record<string, string>, signal?: AbortSignal) =>
    api.get<TopologyResponse>('/api/topology', { query, signal }),

  names: async (ids: readonly string[], signal?: AbortSignal): Promise<ComponentName[]> =>
    ids.length
      ? (await db<ComponentName>('component_names').select('id,name,type').in('id', ids).list(signal)).data
      : [],

  labels: async (signal?: AbortSignal) =>
    (
      await db<{ key: string; value: string }>('component_labels')
        .select('key,value')
        .order('key')
        .order('value')
        .limit(1000)
        .list(signal)
    ).data,

  /** Every agent, deleted ones too: their components keep the agent's name (the filter lists the others). */
  agents: async (signal?: AbortSignal) =>
    (await db<AgentOption>('agents').select('id,name,deleted_at').order('name').limit(500).list(signal)).data,

  /** One page of a side-panel view filtered to a component. */
  panelPage: <Row>(
    spec: { table: string; select: string; order?: { column: string; ascending: boolean }; liveOnly?: boolean },
    componentId: string,
    pageIndex: number,
    signal?: AbortSignal,
  ): Promise<ListResult<Row>> => {
    const q = db<Row>(spec.table).select(spec.select).eq('component_id', componentId);
    if (spec.liveOnly) q.is('deleted_at', null);
    if (spec.order) q.order(spec.order.column, { ascending: spec.order.ascending });
    return q.page(pageIndex, PANEL_PAGE_SIZE).list(signal);
  },

  searchConfigs: async (text: string, signal?: AbortSignal) => {
    const q = db<ConfigOption>('config_items')
      .select('id,name,type,config_class,health')
      .is('deleted_at', null)
      .order('name')
      .limit(CONFIG_SEARCH_LIMIT);
    if (text.trim()) q.ilike('name', containsPattern(text.trim()));
    return (await q.list(signal)).data;
  },

  linkConfig: (componentId: string, configId: string) =>
    api.post<unknown>('/api/catalog/config-links', { component_id: componentId, config_id: configId }),
};

export function snapshotUrl(componentId: string, start: string, related: boolean): string {
  const qs = new URLSearchParams({ start, related: String(related) });
  return `/api/snapshot/topology/${encodeURIComponent(componentId)}?${qs}`;
}

/** The file name from Content-Disposition, else a fallback. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  const star = disposition ? /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition) : null;
  if (star) {
    try {
      return decodeURIComponent(star[1]!.trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain form
    }
  }
  const plain = disposition ? /filename="?([^";]+)"?/i.exec(disposition) : null;
  return plain ? plain[1]!.trim() : fallback;
}

/** Fetches the snapshot zip (binary, so not through the JSON client) and returns it with its name. */
export async function fetchSnapshot(
  componentId: string,
  start: string,
  related: boolean,
): Promise<{ blob: Blob; fileName: string }> {
  const res = await fetch(snapshotUrl(componentId, start, related), {
    credentials: 'same-origin',
    headers: { Accept: 'application/zip, application/json' },
  });
  if (!res.ok) {
    const text = await res.text().catch(() => '');
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON
    }
    throw new ApiError(serverMessage(body, GENERIC_ERROR_MESSAGE), res.status);
  }
  const blob = await res.blob();
  return { blob, fileName: fileNameFrom(res.headers.get('content-disposition'), `snapshot-${componentId}.zip`) };
}

/** Saves a blob as a download in the browser. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
