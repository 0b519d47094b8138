// Queueing a run that a trigger (event, schedule, webhook) started: parameters from their defaults
// (rendered over the resource and, for webhooks, .request), no requester, the trigger recorded, and
// pending_approval when the playbook asks for approval — the same row a person's run makes. Also the
// playbook's `filters` for a triggered run (false: not started) and the per-(playbook, resource)
// debounce of event-triggered runs.
import type { Queryable } from '../db/database.js';
import { evaluateFilters, type FilterVerdict } from './filters.js';
import { renderDefaults, resolveParams } from './parameters.js';
import type { PlaybookDefinition } from './playbook.js';
import type { ResourceKind } from '../selectors/resourceSelector.js';
import { queueRun, type RunTrigger } from './store.js';

export interface TriggeredPlaybook {
  id: string;
  name: string;
  /** The stored resource (what a run keeps as its spec). */
  resource: Record<string, unknown>;
  def: PlaybookDefinition;
}

export interface TriggerTarget {
  kind: ResourceKind;
  id: string;
  row: Record<string, unknown>;
}

/** The run's parameters: defaults rendered over the resource (and .request); throws ParameterError. */
export function triggeredParams(
  playbook: TriggeredPlaybook,
  target: TriggerTarget | null,
  request?: Record<string, unknown>,
): Record<string, string> {
  const vars = {
    config: null,
    component: null,
    check: null,
    ...(target ? { [target.kind]: target.row } : {}),
    user: null,
    params: {},
    ...(request ? { request } : {}),
  };
  return resolveParams(renderDefaults(playbook.def.spec.parameters, vars), {});
}

/**
 * The playbook's `filters` over the run's resource (`config`/`component`/`check`, the others null;
 * all null for a schedule) with no `user`: a triggered run starts only when all are true, as a
 * person's run request is refused otherwise. A filter that fails to evaluate counts as false.
 */
export function triggeredFilters(playbook: TriggeredPlaybook, target: TriggerTarget | null): FilterVerdict {
  return evaluateFilters(playbook.def.spec.filters, {
    config: null,
    component: null,
    check: null,
    ...(target ? { [target.kind]: target.row } : {}),
    user: null,
  });
}

export async function queueTriggeredRun(
  tx: Queryable,
  playbook: TriggeredPlaybook,
  target: TriggerTarget | null,
  trigger: RunTrigger,
  params: Record<string, string>,
  request?: Record<string, unknown>,
): Promise<{ id: string; status: string }> {
  return queueRun(tx, {
    playbookId: playbook.id,
    playbookName: playbook.name,
    resource: target && { kind: target.kind, id: target.id },
    params,
    spec: playbook.resource,
    parentId: null,
    createdBy: null,
    approval: playbook.def.spec.approval,
    trigger,
    request,
  });
}

/**
 * Takes the debounce slot of (playbook, resource): true when a run may start (no run of it inside the
 * window and none still waiting or under way); false counts the event as skipped. Two replicas
 * handling events of the same resource serialise on the row, so only one of them gets the slot.
 */
export async function takeDebounceSlot(
  tx: Queryable,
  playbookId: string,
  resourceId: string,
  windowMs: number,
): Promise<boolean> {
  const { rows } = await tx.query(
    `INSERT INTO playbook_trigger_debounce AS d (playbook_id, resource_id, last_run_at) VALUES ($1, $2, now())
     ON CONFLICT (playbook_id, resource_id) DO UPDATE SET last_run_at = now(), skipped = 0, run_id = NULL
       WHERE d.last_run_at < now() - make_interval(secs => $3::double precision / 1000)
         AND NOT EXISTS (SELECT 1 FROM playbook_runs r WHERE r.id = d.run_id
                         AND r.status IN ('pending_approval', 'pending', 'scheduled', 'running'))
     RETURNING 1`,
    [playbookId, resourceId, windowMs],
  );
  if (rows.length) return true;
  await tx.query(
    'UPDATE playbook_trigger_debounce SET skipped = skipped + 1 WHERE playbook_id = $1 AND resource_id = $2',
    [playbookId, resourceId],
  );
  return false;
}

export async function recordDebouncedRun(tx: Queryable, playbookId: string, resourceId: string, runId: string) {
  await tx.query('UPDATE playbook_trigger_debounce SET run_id = $3 WHERE playbook_id = $1 AND resource_id = $2', [
    playbookId,
    resourceId,
    runId,
  ]);
}
