// Registering agents on the upstream: generate (agent + person + token, the token shown once),
// token rotation, soft delete, and finding the agent behind an authenticated token's person.
import { z } from 'zod';
import { agentNameSchema } from '@opsdeck/common/agents';
import { createToken } from '../auth/tokens.js';
import { HttpError } from '../auth/middleware.js';
import { isPgError, type Database, type Queryable } from '../db/database.js';
import { UUID } from '../resources/routes.js';

export const generateRequestSchema = z.object({
  name: agentNameSchema,
  properties: z.record(z.string(), z.string()).optional(),
});
export type GenerateRequest = z.infer<typeof generateRequestSchema>;

export interface GeneratedAgent {
  id: string;
  username: string;
  access_token: string;
}

export interface AgentRow {
  id: string;
  name: string;
  person_id: string | null;
  deleted_at: string | null;
}

function usernameOf(name: string): string {
  return `agent-${name}`;
}

async function issueToken(
  tx: Queryable,
  agent: { id: string; name: string; person_id: string },
  createdBy: string | null,
) {
  const { id: tokenId, token } = await createToken(tx, {
    name: `agent ${agent.name}`,
    personId: agent.person_id,
    createdBy,
  });
  await tx.query('UPDATE agents SET access_token_id = $2, updated_at = now() WHERE id = $1', [agent.id, tokenId]);
  return token;
}

/** Creates the agent, its person (type agent, no roles) and an access token; the token is returned only here. */
export async function generateAgent(
  db: Database,
  req: GenerateRequest,
  createdBy: string | null,
): Promise<GeneratedAgent> {
  const username = usernameOf(req.name);
  try {
    return await db.transaction(async (tx) => {
      const taken = await tx.query('SELECT 1 FROM agents WHERE name = $1 AND deleted_at IS NULL', [req.name]);
      if (taken.rows.length)
        throw new HttpError(400, 'DUPLICATE', `An agent named "${req.name}" already exists.`, 'name');
      const person = await tx.query<{ id: string }>(
        `INSERT INTO people (name, type, properties) VALUES ($1, 'agent', $2) RETURNING id`,
        [username, JSON.stringify({ agent: req.name })],
      );
      const personId = person.rows[0]!.id;
      const agent = await tx.query<{ id: string }>(
        `INSERT INTO agents (name, username, person_id, properties, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
        [req.name, username, personId, JSON.stringify(req.properties ?? {}), createdBy],
      );
      const id = agent.rows[0]!.id;
      const token = await issueToken(tx, { id, name: req.name, person_id: personId }, createdBy);
      return { id, username, access_token: token };
    });
  } catch (e) {
    // Two concurrent generates with one name: the partial unique index decides.
    if (isPgError(e) && e.code === '23505') {
      throw new HttpError(400, 'DUPLICATE', `An agent named "${req.name}" already exists.`, 'name');
    }
    throw e;
  }
}

async function liveAgent(tx: Queryable, id: string): Promise<AgentRow & { person_id: string }> {
  const notFound = new HttpError(404, 'NOT_FOUND', 'No such agent.');
  if (!UUID.test(id)) throw notFound;
  const { rows } = await tx.query<AgentRow>(
    'SELECT id, name, person_id, deleted_at FROM agents WHERE id = $1 AND deleted_at IS NULL FOR UPDATE',
    [id],
  );
  const agent = rows[0];
  if (!agent || !agent.person_id) throw notFound;
  return { ...agent, person_id: agent.person_id };
}

/** A new token for the agent; every earlier token of its person stops working at once. */
export async function rotateAgentToken(db: Database, id: string, createdBy: string | null): Promise<GeneratedAgent> {
  return db.transaction(async (tx) => {
    const agent = await liveAgent(tx, id);
    await tx.query('DELETE FROM access_tokens WHERE person_id = $1', [agent.person_id]);
    const token = await issueToken(tx, agent, createdBy);
    return { id: agent.id, username: usernameOf(agent.name), access_token: token };
  });
}

/** Soft delete; the agents_soft_delete trigger (0024) revokes the token and, with cleanup, its data. */
export async function deleteAgent(db: Database, id: string, cleanup: boolean) {
  return db.transaction(async (tx) => {
    await liveAgent(tx, id);
    const { rows } = await tx.query<{ id: string; deleted_at: string; cleanup: boolean }>(
      'UPDATE agents SET deleted_at = now(), cleanup = $2, updated_at = now() WHERE id = $1 RETURNING id, deleted_at, cleanup',
      [id, cleanup],
    );
    return rows[0]!;
  });
}

/** The live agent a person (an agent token's) stands for, if any. */
export async function agentOfPerson(db: Queryable, personId: string): Promise<{ id: string; name: string } | null> {
  const { rows } = await db.query<{ id: string; name: string }>(
    'SELECT id, name FROM agents WHERE person_id = $1 AND deleted_at IS NULL',
    [personId],
  );
  return rows[0] ?? null;
}
