// Agents (docs/api.md "Agents"): the name rule shared by POST /api/agent/generate and the agent
// form, the "no agent" id of local rows, and the Agent filter value (all / local / an agent id) the
// health, catalog and topology screens keep in their URLs.
import { z } from 'zod';

/** The all-zero agent id stands for "no agent": the row was made by this instance. */
export const NO_AGENT = '00000000-0000-0000-0000-000000000000';

export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;
export const AGENT_NAME_MESSAGE = 'Use at most 63 letters, digits, ".", "_" or "-", starting with a letter or digit';

/** An agent's name: 1-63 letters, digits, ".", "_" or "-", starting with a letter or digit. Marked
 *  pure so that the console's pages that only read the Agent filter do not load zod for it. */
export const agentNameSchema = /* @__PURE__ */ z.string().regex(AGENT_NAME_PATTERN, AGENT_NAME_MESSAGE);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Agent filter: every row, the local ones, or one agent's (by id). */
export type AgentFilter = 'all' | 'local' | string;

/** A URL value as a filter: anything but 'local' or an agent id is 'all'. */
export function readAgentFilter(value: string | null | undefined): AgentFilter {
  const v = value?.trim() ?? '';
  if (v === 'local' || v === NO_AGENT) return 'local';
  return UUID.test(v) ? v.toLowerCase() : 'all';
}

/** The agent_id a filter narrows to (NO_AGENT for local), or undefined for all. */
export function agentIdOf(filter: AgentFilter): string | undefined {
  if (filter === 'all') return undefined;
  return filter === 'local' ? NO_AGENT : filter;
}

/** Whether a row's agent_id (null and NO_AGENT are local) passes the filter. */
export function matchesAgent(agentId: string | null | undefined, filter: AgentFilter): boolean {
  if (filter === 'all') return true;
  const id = agentId && agentId !== NO_AGENT ? agentId.toLowerCase() : NO_AGENT;
  return id === agentIdOf(filter);
}

/** Whether a row came from an agent (its agent_id is set and not NO_AGENT). */
export const isFromAgent = (agentId: string | null | undefined): boolean => !!agentId && agentId !== NO_AGENT;
