// /api/db/agents writes: an agent is created only by POST /api/agent/generate (it makes the agent's
// person and access token too), so a POST/PUT here is a 405 naming it, as is a PATCH of what ties the
// agent to its login (name, username, person, token). `properties` are checked as generate checks
// them; `deleted_at` (with `cleanup`) is the delete endpoint's, run by the agents_soft_delete trigger.
import { ApiError } from '../rest/errors.js';
import { createdElsewhere, type WriteGuard } from '../rest/writeGuards.js';
import { generateRequestSchema } from './generate.js';

const refuseCreate = createdElsewhere('agents', 'POST /api/agent/generate (the agent, its person and token)', [
  'name',
  'username',
  'person_id',
  'access_token_id',
]);

export const agentWriteGuard: WriteGuard = async (input) => {
  const rows = await refuseCreate(input);
  for (const row of rows) {
    if (!('properties' in row)) continue;
    const parsed = generateRequestSchema.shape.properties.safeParse(row.properties ?? undefined);
    if (!parsed.success) {
      // Named as generate names it (`properties.zone: ...`).
      const issue = parsed.error.issues[0];
      const field = ['properties', ...(issue?.path ?? [])].join('.');
      throw new ApiError(400, 'INVALID_REQUEST', `${field}: ${issue?.message ?? 'invalid'}`);
    }
  }
  return rows;
};
