// `spec.runsOn`: which agent executes a playbook's runs. The first entry decides: `local` (or no
// runsOn) is this server's runner; an agent's name assigns the run to that agent
// (playbook_runs.agent_id), which claims it through /api/upstream/playbook-action
// (agents/playbookRelay.ts) and runs it with its own runner; this server's runner never claims it.
import type { Queryable } from '../db/database.js';
import { NO_AGENT } from '../db/agents.js';

export const LOCAL_RUNNER = 'local';

/** The live agent of that name, if any. */
export async function agentIdByName(db: Queryable, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM agents WHERE name = $1 AND deleted_at IS NULL', [
    name,
  ]);
  return rows[0]?.id;
}

/** The spec of a stored resource (the whole resource: apiVersion, kind, metadata, spec). */
function runsOnOf(resource: Record<string, unknown>): string[] {
  const spec = resource.spec as { runsOn?: unknown } | undefined;
  return Array.isArray(spec?.runsOn) ? spec.runsOn.filter((s): s is string => typeof s === 'string') : [];
}

/**
 * The agent_id a run of this playbook gets: NO_AGENT for a local run; an agent's id; or an error
 * message when the agent it names no longer exists (the run is then queued failed with it).
 */
export async function runAgent(
  db: Queryable,
  resource: Record<string, unknown>,
): Promise<{ agentId: string; error?: string }> {
  const first = runsOnOf(resource)[0];
  if (!first || first === LOCAL_RUNNER) return { agentId: NO_AGENT };
  const id = await agentIdByName(db, first);
  if (!id) return { agentId: NO_AGENT, error: `runsOn: the agent "${first}" no longer exists` };
  return { agentId: id };
}
