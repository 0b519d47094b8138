// DELETE /api/db/<table> on a relation with a write guard does what the resource's own delete
// endpoint does instead of removing the row (which would skip the guard and leave a canary's checks,
// a topology's components... behind). Each guarded relation registers one rule (http/app.ts):
//   soft   — the delete endpoint's soft delete: run as `PATCH ?id=… {deleted_at}` through the
//            relation's guard (which refuses rows from elsewhere and, for canaries, topologies and
//            scrapers, runs the delete endpoint's step), after `remove` (the endpoint's own code) for
//            each live row named;
//   refuse — 405 naming the endpoint to use;
//   plain  — the endpoint only removes the row: the DELETE runs as written.
// In every case rows that came from elsewhere (source not UI, pushed by an agent) are refused as a
// PATCH refuses them (403 READ_ONLY_SOURCE), and `Prefer: tx=rollback` changes nothing.
import { NO_AGENT } from '../db/agents.js';
import type { Queryable } from '../db/database.js';
import { ApiError } from './errors.js';
import { present, refuseReadOnlySource, storedRows, targetIds } from './writeGuards.js';

export type DeleteRule =
  | { kind: 'soft'; noun: string; remove?: (id: string) => Promise<boolean> }
  | { kind: 'refuse'; endpoint: string }
  | { kind: 'plain'; noun: string };

export type DeleteRules = ReadonlyMap<string, DeleteRule>;

/** Query parameters a DELETE of a guarded relation may carry besides its `id` filter. */
const ALLOWED = new Set(['id', 'select']);

export interface DeleteTarget {
  ids: string[];
  /** The live rows named (deleted_at not set), whose delete endpoint step runs. */
  live: string[];
}

/**
 * Checks a DELETE of a guarded relation against its rule: 405 for `refuse`, 400 unless it names
 * rows by id only, 403 for rows from elsewhere. Returns the ids it names.
 */
export async function checkDelete(
  relation: string,
  rule: DeleteRule | undefined,
  query: [string, string][],
  db: Queryable,
): Promise<DeleteTarget> {
  if (!rule || rule.kind === 'refuse')
    throw new ApiError(
      405,
      '55000',
      `cannot delete from relation "${relation}" here${rule ? `: use ${rule.endpoint}` : ''}`,
      `a row of '${relation}' is deleted by its endpoint, not by a DELETE of the row`,
    );
  const other = query.find(([key]) => !ALLOWED.has(key));
  const ids = targetIds(query);
  if (other || !ids?.length)
    throw new ApiError(
      400,
      'INVALID_REQUEST',
      `name the ${rule.noun} to delete by id only: ?id=eq.<id> (or id=in.(…))${other ? `, not ${other[0]}` : ''}`,
    );
  const stored = await storedRows(db, relation, ids);
  for (const row of stored) {
    refuseReadOnlySource(row, rule.noun);
    if (present(row.agent_id) && row.agent_id !== NO_AGENT)
      throw new ApiError(403, 'READ_ONLY_SOURCE', `this ${rule.noun} comes from an agent: change it there`);
  }
  return { ids, live: stored.filter((r) => r.deleted_at == null).map((r) => String(r.id)) };
}
