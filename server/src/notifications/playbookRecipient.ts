// A rule's `playbook` recipient: the consumer queues a playbook run (a pending playbook_runs row with the
// playbook's spec snapshot and the event's resource) and the playbook engine picks it up; engines meet
// through rows, not imports.
import type { Queryable } from '../db/database.js';
import type { EventResource } from './context.js';

interface PlaybookSpec {
  spec?: { parameters?: { name: string; default?: unknown }[] };
}

/** Queues a run of `playbookId` for the event's resource; returns the run id. */
export async function queuePlaybookRun(
  tx: Queryable,
  playbookId: string,
  r: EventResource | undefined,
): Promise<string> {
  const { rows } = await tx.query<{ spec: PlaybookSpec }>('SELECT spec FROM playbooks WHERE id = $1', [playbookId]);
  const spec = rows[0]?.spec ?? {};
  // Literal defaults only: templated ones need the request context the run API renders them with.
  const params: Record<string, string> = {};
  for (const p of spec.spec?.parameters ?? [])
    if (typeof p.default === 'string' && !p.default.includes('{{')) params[p.name] = p.default;
  const ids: Record<string, string | null> = { config: null, component: null, check: null };
  if (r && (r.kind === 'config' || r.kind === 'component' || r.kind === 'check')) ids[r.kind] = r.id;
  const { rows: run } = await tx.query<{ id: string }>(
    `INSERT INTO playbook_runs (playbook_id, status, spec, parameters, config_id, component_id, check_id)
     VALUES ($1, 'pending', $2, $3, $4, $5, $6) RETURNING id`,
    [playbookId, JSON.stringify(spec), JSON.stringify(params), ids.config, ids.component, ids.check],
  );
  return run[0]!.id;
}
