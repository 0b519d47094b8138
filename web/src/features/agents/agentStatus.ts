// An agent's derived status (spec/1 §4, §9): Online while its last ping (last_seen) is at most 61 s old,
// Offline after that, and nothing at all for an agent that has never pinged.
export const AGENT_ONLINE_WINDOW_MS = 61_000;

export type AgentStatus = 'Online' | 'Offline';

export function agentStatus(lastSeen: string | null | undefined, now: number = Date.now()): AgentStatus | undefined {
  if (!lastSeen) return undefined;
  const seen = Date.parse(lastSeen);
  if (Number.isNaN(seen)) return undefined;
  return now - seen <= AGENT_ONLINE_WINDOW_MS ? 'Online' : 'Offline';
}
