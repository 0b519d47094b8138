// Runs handed back by a server that shut down gracefully (runner.ts stop({ release: true })): the
// run returns to the queue (scheduled, lease released), its unfinished action is marked for retry
// (scheduled, with RELEASED_NOTE), and the replica that claims it next resumes at that action.
import type { Database, Queryable } from '../db/database.js';

/** The note on an action stopped by a graceful shutdown, until another server runs it again. */
export const RELEASED_NOTE =
  'the server running this action shut down; it runs again when another server takes the run';

/** Action statuses that are final: a resumed run keeps them and their results. */
export const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'skipped']);

export interface ActionRow {
  id: string;
  action_index: number;
  status: 'completed' | 'failed' | 'skipped' | 'scheduled' | 'running' | 'sleeping';
  result: unknown;
  error: string | null;
}

/** The action rows a run already has (none for a new run), by action index. */
export async function actionRows(db: Queryable, runId: string): Promise<Map<number, ActionRow>> {
  const { rows } = await db.query<ActionRow>(
    `SELECT id, action_index, status, result, error FROM playbook_run_actions
     WHERE playbook_run_id = $1 ORDER BY action_index, scheduled_time`,
    [runId],
  );
  return new Map(rows.map((r) => [Number(r.action_index), r]));
}

/** Hands back every running run `owner` holds, in one transaction; answers how many. */
export function releaseRuns(db: Database, owner: string): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE playbook_runs SET status = 'scheduled', scheduled_time = now(), lease_owner = NULL, lease_until = NULL
       WHERE lease_owner = $1 AND status = 'running' RETURNING id`,
      [owner],
    );
    if (rows.length)
      await tx.query(
        `UPDATE playbook_run_actions SET status = 'scheduled', error = $2, start_time = NULL
         WHERE playbook_run_id = ANY($1::uuid[]) AND status IN ('running', 'sleeping')`,
        [rows.map((r) => r.id), RELEASED_NOTE],
      );
    return rows.length;
  });
}
