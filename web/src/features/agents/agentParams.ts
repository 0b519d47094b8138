// The query string of the Agents screen (spec/1 §2): paging and sorting (pageIndex, pageSize 50,
// sortBy, sortOrder desc, kept by ui/list-state) and which drawer is open: ?id=<agent> edits that
// agent, ?addAgent=true creates one. Also which sortBy values the server may be asked to order by.
export const AGENT_LIST_OPTIONS = { defaultPageSize: 50, defaultSortOrder: 'desc' } as const;

export type AgentDrawer = { mode: 'create' } | { mode: 'edit'; id: string };

/** The drawer the query string opens, if any; an agent's id wins over addAgent. */
export function drawerFromParams(params: URLSearchParams): AgentDrawer | undefined {
  const id = params.get('id')?.trim();
  if (id) return { mode: 'edit', id };
  if (params.get('addAgent') === 'true') return { mode: 'create' };
  return undefined;
}

/** The query string with `drawer` open (or every drawer closed), all other parameters kept. */
export function paramsWithDrawer(params: URLSearchParams, drawer: AgentDrawer | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete('id');
  next.delete('addAgent');
  if (drawer?.mode === 'edit') next.set('id', drawer.id);
  if (drawer?.mode === 'create') next.set('addAgent', 'true');
  return next;
}

/** Table columns the server sorts by; Status is derived from last_seen and sorts by it. */
const SORT_COLUMNS: Record<string, string> = {
  name: 'name',
  hostname: 'hostname',
  version: 'version',
  status: 'last_seen',
  last_seen: 'last_seen',
  last_received: 'last_received',
  created_at: 'created_at',
};

export interface AgentOrder {
  column: string;
  ascending: boolean;
}

/** The server order for a sortBy/sortOrder pair: unknown or no sortBy → newest first. */
export function agentOrder(sortBy: string | undefined, sortOrder: 'asc' | 'desc'): AgentOrder {
  const column = sortBy ? SORT_COLUMNS[sortBy] : undefined;
  if (!column) return { column: 'created_at', ascending: false };
  return { column, ascending: sortOrder === 'asc' };
}

export const isSortableAgentColumn = (id: string) => id in SORT_COLUMNS;
