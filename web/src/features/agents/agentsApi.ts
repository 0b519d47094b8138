// Calls of the Agents screen (docs/api.md "Agents"): rows of /api/db/agents_summary (deleted agents left
// out, the creator's name embedded), POST /api/agent/generate to create an agent with its one-time access
// token, PATCH of an agent's properties, and DELETE /api/agent/{id}?cleanup= for the soft delete.
import { api } from '../../api/client';
import { db } from '../../api/postgrest';
import type { AgentOrder } from './agentParams';

export interface AgentRow {
  id: string;
  name: string;
  hostname: string | null;
  version: string | null;
  description: string | null;
  properties: Record<string, string> | null;
  last_seen: string | null;
  last_received: string | null;
  /** last_seen within 61 s when the server read the row (the page derives it again as time passes). */
  online?: boolean;
  checks_count?: number;
  config_count?: number;
  components_count?: number;
  created_by: string | null;
  creator?: { id: string; name: string } | null;
  created_at: string;
  updated_at: string;
}

/** What /generate answers: the agent, the person it pushes as, and the token (shown once). */
export interface GeneratedAgent {
  id: string;
  username: string;
  access_token: string;
}

export interface AgentListPage {
  pageIndex: number;
  pageSize: number;
  order: AgentOrder;
}

const COLUMNS =
  'id,name,hostname,version,description,properties,last_seen,last_received,online,checks_count,config_count,' +
  'components_count,created_by,created_at,updated_at,creator:people!created_by(id,name)';

/** The summary view keeps deleted agents; the list asks for the others. */
const agents = () => db<AgentRow>('agents_summary').select(COLUMNS).is('deleted_at', null);

export const agentsApi = {
  list: (page: AgentListPage, signal?: AbortSignal) =>
    agents()
      .order(page.order.column, { ascending: page.order.ascending, nulls: 'last' })
      .order('id')
      .page(page.pageIndex, page.pageSize)
      .list(signal),

  get: (id: string, signal?: AbortSignal) => agents().eq('id', id).single(signal),

  generate: (agent: { name: string; properties: Record<string, string> }) =>
    api.post<GeneratedAgent>('/api/agent/generate', agent),

  updateProperties: (id: string, properties: Record<string, string>) =>
    db<AgentRow>('agents').eq('id', id).update({ properties, updated_at: new Date().toISOString() }),

  /** Soft delete; with cleanup the resources the agent pushed are deleted too. */
  remove: (id: string, cleanup: boolean) => api.delete(`/api/agent/${encodeURIComponent(id)}`, { query: { cleanup } }),
};

/** Query keys of the agents area, so each mutation invalidates exactly what it changed. */
export const agentKeys = {
  all: ['agents'] as const,
  lists: () => [...agentKeys.all, 'list'] as const,
  list: (page: AgentListPage) => [...agentKeys.lists(), page] as const,
  detail: (id: string) => [...agentKeys.all, 'detail', id] as const,
};
