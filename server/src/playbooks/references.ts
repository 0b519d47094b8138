// What a Playbook names that lives in the database, checked at apply with line and column: its
// approvers (people by email, name or id; teams by name or id) exist, and its webhook path is not
// taken by another live playbook, the agents of its runsOn and the backends of its logs actions exist. Also the lookups approvals use to resolve approvers.
import type { Queryable } from '../db/database.js';
import { findPerson, findTeam } from '../db/people.js';
import { logBackendExists } from '../logs/index.js';
import { formatPath, ResourceError, ResourceErrors, type Path, type ResourceDocument } from '../resources/yaml.js';
import type { PlaybookDefinition } from './playbook.js';
import { agentIdByName, LOCAL_RUNNER } from './runsOn.js';
import type { PlaybookApproval } from './triggerSpec.js';

/** The approvers as ids (unknown names are left out: a person deleted since the apply). */
export async function resolveApprovers(
  db: Queryable,
  approval: PlaybookApproval,
): Promise<{ people: string[]; teams: string[] }> {
  const people: string[] = [];
  const teams: string[] = [];
  for (const ref of approval.approvers.people) {
    const id = await findPerson(db, ref);
    if (id && !people.includes(id)) people.push(id);
  }
  for (const ref of approval.approvers.teams) {
    const id = await findTeam(db, ref);
    if (id && !teams.includes(id)) teams.push(id);
  }
  return { people, teams };
}

/** Throws ResourceErrors (line and column) for approvers that do not exist and a webhook path in use. */
export async function checkReferences(
  db: Queryable,
  doc: ResourceDocument,
  def: PlaybookDefinition,
): Promise<PlaybookDefinition> {
  const errors: ResourceError[] = [];
  const error = (path: Path, message: string) => {
    const where = formatPath(path);
    errors.push(new ResourceError(`${where}: ${message}`, doc.locate(path), where));
  };
  const approval = def.spec.approval;
  if (approval) {
    for (const [i, ref] of approval.approvers.people.entries())
      if (!(await findPerson(db, ref))) error(['spec', 'approval', 'approvers', 'people', i], `no person "${ref}"`);
    for (const [i, ref] of approval.approvers.teams.entries())
      if (!(await findTeam(db, ref))) error(['spec', 'approval', 'approvers', 'teams', i], `no team "${ref}"`);
  }
  for (const [i, name] of (def.spec.runsOn ?? []).entries())
    if (name !== LOCAL_RUNNER && !(await agentIdByName(db, name)))
      error(['spec', 'runsOn', i], `no agent "${name}" (runsOn takes agent names, or local)`);
  for (const [i, action] of def.spec.actions.entries()) {
    const backend = action.type === 'logs' ? action.body.backend : undefined;
    if (
      typeof backend === 'string' &&
      backend.trim() &&
      !backend.includes('{{') &&
      !(await logBackendExists(db, backend.trim()))
    )
      error(['spec', 'actions', i, 'logs', 'backend'], `no log backend "${backend}" (apply a LoggingBackend first)`);
  }
  const path = def.spec.on?.webhook?.path;
  if (path) {
    const { rows } = await db.query<{ namespace: string; name: string }>(
      `SELECT namespace, name FROM playbooks WHERE webhook_path = $1 AND deleted_at IS NULL
         AND NOT (namespace = $2 AND name = $3)`,
      [path, def.namespace, def.name],
    );
    if (rows[0])
      error(
        ['spec', 'on', 'webhook', 'path'],
        `the webhook path "${path}" is already used by the playbook ${rows[0].namespace}/${rows[0].name}`,
      );
  }
  if (errors.length) throw new ResourceErrors(errors);
  return def;
}
