// Run Now on a check an agent pushed: the upstream must not run it (its network is the agent's). The
// request is a row of agent_check_runs (0025); the agent claims its requests under a lease
// (FOR UPDATE SKIP LOCKED, like the playbook relay), runs each check at once in its own engine and
// reports; the check's result arrives upstream with the agent's next push. Contract: docs/api.md
// "Agents" (Upstream).
import type { Hono, Context } from 'hono';
import { z } from 'zod';
import { NO_AGENT } from '@opsdeck/common/agents';
import { HttpError, type AuthEnv } from '../auth/middleware.js';
import type { Database, Queryable } from '../db/database.js';
import { UUID } from '../resources/routes.js';

/** How long a claimed request stays the agent's without a report; then it may be claimed again. */
export const CHECK_RUN_LEASE_MS = 60_000;
/** Claims of one request at most (an agent that keeps losing it does not loop for ever). */
export const CHECK_RUN_MAX_ATTEMPTS = 3;
/** Requests handed out by one claim (run one after another on the agent, well within a lease). */
const CLAIM_LIMIT = 5;
const MAX_ERROR = 2_000;

export interface QueuedCheckRun {
  id: string;
  checkId: string;
  agent: { id: string; name: string };
  /** Another Run Now of this check was already waiting: this one joined it. */
  joined: boolean;
}

/** What the agent gets for each claimed request. */
export interface ClaimedCheckRun {
  id: string;
  check_id: string;
  requested_at: string;
}

export const checkRunReportSchema = z.object({
  status: z.enum(['done', 'failed']),
  error: z.string().max(MAX_ERROR).nullable().optional(),
});
export type CheckRunReport = z.infer<typeof checkRunReportSchema>;

/**
 * Queues Run Now for the agent that pushed the check; undefined when the check is not an agent's
 * (local, or no such live check): the caller runs it here as before.
 */
export async function queueCheckRunOnAgent(
  db: Database,
  checkId: string,
  requestedBy: string | null,
): Promise<QueuedCheckRun | undefined> {
  if (!UUID.test(checkId)) return undefined;
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ agent_id: string; name: string; deleted_at: string | null }>(
      `SELECT c.agent_id::text AS agent_id, a.name, a.deleted_at FROM checks c JOIN agents a ON a.id = c.agent_id
       WHERE c.id = $1 AND c.deleted_at IS NULL AND c.agent_id <> $2::uuid`,
      [checkId, NO_AGENT],
    );
    const check = rows[0];
    if (!check) return undefined;
    if (check.deleted_at)
      throw new HttpError(
        409,
        'AGENT_DELETED',
        `This check belongs to agent ${check.name}, which has been deleted: it cannot run it any more.`,
      );
    const agent = { id: check.agent_id, name: check.name };
    const inserted = await tx.query<{ id: string }>(
      `INSERT INTO agent_check_runs (agent_id, check_id, requested_by) VALUES ($1, $2, $3)
       ON CONFLICT (check_id) WHERE status = 'pending' DO NOTHING RETURNING id`,
      [agent.id, checkId, requestedBy],
    );
    if (inserted.rows[0]) return { id: inserted.rows[0].id, checkId, agent, joined: false };
    const waiting = await tx.query<{ id: string }>(
      `SELECT id FROM agent_check_runs WHERE check_id = $1 AND status = 'pending'`,
      [checkId],
    );
    return { id: waiting.rows[0]!.id, checkId, agent, joined: true };
  });
}

/** How long answered requests are kept (their result is in check_statuses; the row is bookkeeping). */
const KEEP_ANSWERED_DAYS = 7;

/** The agent's due requests, now `claimed` under a lease; requests claimed too often are failed. */
export async function claimCheckRuns(db: Database, agentId: string): Promise<ClaimedCheckRun[]> {
  return db.transaction(async (tx: Queryable) => {
    await tx.query(
      `DELETE FROM agent_check_runs WHERE agent_id = $1 AND status IN ('done', 'failed')
         AND done_at < now() - make_interval(days => $2)`,
      [agentId, KEEP_ANSWERED_DAYS],
    );
    await tx.query(
      `UPDATE agent_check_runs SET status = 'failed', done_at = now(), lease_until = NULL,
         error = 'the agent took this request ' || attempts || ' times without reporting'
       WHERE agent_id = $1 AND status = 'claimed' AND lease_until < now() AND attempts >= $2`,
      [agentId, CHECK_RUN_MAX_ATTEMPTS],
    );
    const { rows } = await tx.query<{ id: string; check_id: string; requested_at: Date | string }>(
      `UPDATE agent_check_runs r SET status = 'claimed', claimed_at = now(), attempts = r.attempts + 1,
         lease_until = now() + make_interval(secs => $2::double precision / 1000)
       FROM (SELECT id FROM agent_check_runs
             WHERE agent_id = $1 AND (status = 'pending' OR (status = 'claimed' AND lease_until < now()))
             ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED) due
       WHERE r.id = due.id
       RETURNING r.id, r.check_id, r.created_at AS requested_at`,
      [agentId, CHECK_RUN_LEASE_MS, CLAIM_LIMIT],
    );
    return rows.map((r) => ({
      id: r.id,
      check_id: r.check_id,
      requested_at: new Date(r.requested_at).toISOString(),
    }));
  });
}

/** The agent's word on a request it claimed: done (the result follows by push) or failed. */
export async function receiveCheckRunReport(
  db: Database,
  agentId: string,
  id: string,
  report: CheckRunReport,
): Promise<{ id: string; status: string }> {
  const { rows } = await db.query<{ agent_id: string; status: string }>(
    `UPDATE agent_check_runs SET status = CASE WHEN agent_id = $2 AND status = 'claimed' THEN $3 ELSE status END,
       error = CASE WHEN agent_id = $2 AND status = 'claimed' THEN $4 ELSE error END,
       done_at = CASE WHEN agent_id = $2 AND status = 'claimed' THEN now() ELSE done_at END,
       lease_until = CASE WHEN agent_id = $2 AND status = 'claimed' THEN NULL ELSE lease_until END
     WHERE id = $1 RETURNING agent_id::text AS agent_id, status`,
    [id, agentId, report.status, report.error ?? null],
  );
  const row = rows[0];
  if (!row) throw new HttpError(404, 'NOT_FOUND', 'No such check run request.');
  if (row.agent_id !== agentId)
    throw new HttpError(403, 'FOREIGN_RUN', 'This check run request is not for this agent.');
  return { id, status: row.status };
}

/** Mounts the claim and report calls on /api/upstream (the agent behind the token from `callingAgent`). */
export function addCheckRunRelayRoutes(
  app: Hono<AuthEnv>,
  db: Database,
  callingAgent: (c: Context<AuthEnv>) => Promise<{ id: string }>,
): void {
  app.post('/check-run/claim', async (c) => {
    const agent = await callingAgent(c);
    const runs = await claimCheckRuns(db, agent.id);
    return runs.length ? c.json({ runs }) : c.body(null, 204);
  });

  app.post('/check-run/:id/report', async (c) => {
    const agent = await callingAgent(c);
    const id = c.req.param('id');
    if (!UUID.test(id)) throw new HttpError(404, 'NOT_FOUND', 'No such check run request.');
    const parsed = checkRunReportSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(400, 'INVALID_REPORT', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
    }
    return c.json(await receiveCheckRunReport(db, agent.id, id, parsed.data));
  });
}
