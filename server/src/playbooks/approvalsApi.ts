// Approving and rejecting runs that wait as pending_approval (POST /api/playbook/run/approve/:id and
// /run/reject/:id, as mission-control), the approval part of GET /api/playbook/run/:id (approvers,
// votes, can_approve for the caller) and GET /api/playbook/approvals/pending (runs awaiting the
// caller's approval, for the console's badge). Rules: approvals.ts.
import type { Hono } from 'hono';
import type { Principal } from '../auth/identity.js';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database, Queryable } from '../db/database.js';
import { UUID } from '../resources/routes.js';
import { eligibility, isApproved, type ApproverSet, type Vote } from './approvals.js';
import { parseStoredPlaybook } from './playbook.js';
import { resolveApprovers } from './references.js';

interface Deps {
  db: Database;
  identity: Identity;
}

/** The approval in a run's spec; none when it has none (or the stored spec no longer parses). */
function approvalOf(spec: unknown) {
  try {
    return parseStoredPlaybook(spec).spec.approval;
  } catch {
    return undefined;
  }
}

type Approvers = Omit<ApproverSet, 'requester'>;

/** The approvers a spec lists, resolved to ids (teams with their live members). */
async function approversOf(db: Queryable, spec: unknown): Promise<Approvers | undefined> {
  const approval = approvalOf(spec);
  if (!approval) return undefined;
  const ids = await resolveApprovers(db, approval);
  const { rows } = ids.teams.length
    ? await db.query<{ team_id: string; person_id: string }>(
        `SELECT m.team_id, m.person_id FROM team_members m JOIN people p ON p.id = m.person_id
         WHERE m.team_id = ANY($1::uuid[]) AND p.deleted_at IS NULL`,
        [ids.teams],
      )
    : { rows: [] };
  const teams = ids.teams.map((id) => ({
    id,
    members: rows.filter((r) => r.team_id === id).map((r) => r.person_id),
  }));
  return { type: approval.type, people: ids.people, teams };
}

/** The approvers of a run, from the spec it was requested with. */
async function approverSet(db: Queryable, spec: unknown, requester: string | null): Promise<ApproverSet | undefined> {
  const approvers = await approversOf(db, spec);
  return approvers && { ...approvers, requester };
}

async function votesOf(db: Queryable, runId: string): Promise<(Vote & Record<string, unknown>)[]> {
  const { rows } = await db.query<Vote & Record<string, unknown>>(
    `SELECT a.person_id, p.name AS person_name, p.email AS person_email, a.team_id, t.name AS team_name,
            a.status, a.reason, a.created_at
     FROM playbook_approvals a JOIN people p ON p.id = a.person_id LEFT JOIN teams t ON t.id = a.team_id
     WHERE a.run_id = $1 ORDER BY a.created_at`,
    [runId],
  );
  return rows;
}

/** The approval part of a run's answer; null for a playbook without approval. */
export async function runApprovalInfo(
  db: Queryable,
  run: { id: string; spec: unknown; status: string; created_by: string | null },
  caller: Principal,
): Promise<Record<string, unknown> | null> {
  const set = await approverSet(db, run.spec, run.created_by);
  if (!set) return null;
  const votes = await votesOf(db, run.id);
  const named = async (table: 'people' | 'teams', ids: string[]) =>
    ids.length
      ? (await db.query(`SELECT id, name FROM ${table} WHERE id = ANY($1::uuid[]) ORDER BY name`, [ids])).rows
      : [];
  const voted = votes.some((v) => v.person_id === caller.id);
  return {
    type: set.type,
    approvers: {
      people: await named('people', set.people),
      teams: await named(
        'teams',
        set.teams.map((t) => t.id),
      ),
    },
    approvals: votes,
    can_approve: run.status === 'pending_approval' && !voted && eligibility(set, caller.id, 'approve').ok,
    can_reject: run.status === 'pending_approval' && !voted && eligibility(set, caller.id, 'reject').ok,
  };
}

async function decide(db: Database, runId: string, caller: Principal, action: 'approve' | 'reject', reason?: string) {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string; spec: unknown; status: string; created_by: string | null }>(
      'SELECT id, spec, status, created_by FROM playbook_runs WHERE id = $1 FOR UPDATE',
      [runId],
    );
    const run = rows[0];
    if (!run) throw new HttpError(404, 'NOT_FOUND', 'No such playbook run.');
    const set = await approverSet(tx, run.spec, run.created_by);
    if (!set) throw new HttpError(409, 'NO_APPROVAL', 'This run does not need approval.');
    if (run.status !== 'pending_approval')
      throw new HttpError(409, 'NOT_PENDING_APPROVAL', `This run is no longer waiting for approval (${run.status}).`);
    const allowed = eligibility(set, caller.id, action);
    if (!allowed.ok) throw new HttpError(403, 'NOT_APPROVER', allowed.message);
    const inserted = await tx.query(
      `INSERT INTO playbook_approvals (run_id, person_id, team_id, status, reason) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (run_id, person_id) DO NOTHING RETURNING id`,
      [run.id, caller.id, allowed.teamId, action === 'approve' ? 'approved' : 'rejected', reason ?? null],
    );
    if (!inserted.rows.length) throw new HttpError(409, 'ALREADY_DECIDED', 'You have already decided on this run.');
    let status = run.status;
    if (action === 'reject') {
      status = 'failed';
      const error = `Rejected by ${caller.name}${reason ? `: ${reason}` : ''}`;
      const ended = await tx.query<Record<string, unknown>>(
        `UPDATE playbook_runs SET status = 'failed', error = $2, end_time = now() WHERE id = $1
         RETURNING id, playbook_id, status, error, config_id, component_id, check_id, created_by`,
        [run.id, error],
      );
      await tx.query('INSERT INTO event_queue (name, properties) VALUES ($1, $2)', [
        'playbook.run.failed',
        JSON.stringify(ended.rows[0]),
      ]);
    } else if (isApproved(set, await votesOf(tx, run.id))) {
      status = 'pending';
      await tx.query(`UPDATE playbook_runs SET status = 'pending', scheduled_time = now() WHERE id = $1`, [run.id]);
    }
    return { id: run.id, status, approvals: await votesOf(tx, run.id) };
  });
}

async function reasonOf(body: string): Promise<string | undefined> {
  if (!body.trim()) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (e) {
    throw new HttpError(400, 'INVALID_REQUEST', `The body is not valid JSON: ${(e as Error).message}`);
  }
  const reason = (parsed as { reason?: unknown } | null)?.reason;
  if (reason !== undefined && reason !== null && typeof reason !== 'string')
    throw new HttpError(400, 'INVALID_REQUEST', 'reason must be text', 'reason');
  return typeof reason === 'string' && reason.trim() ? reason.trim().slice(0, 2000) : undefined;
}

export function addApprovalRoutes(app: Hono<AuthEnv>, { db, identity }: Deps): void {
  for (const action of ['approve', 'reject'] as const) {
    app.post(`/run/${action}/:id`, async (c) => {
      const principal = c.get('principal');
      // Approvers decide by being listed; reading runs is the least their role must allow.
      await requirePermission(identity, principal, 'playbook_runs', 'read');
      const id = c.req.param('id');
      if (!UUID.test(id)) throw new HttpError(404, 'NOT_FOUND', 'No such playbook run.');
      const reason = await reasonOf(await c.req.text());
      return c.json(await decide(db, id, principal, action, reason));
    });
  }

  // Runs waiting for the caller's approval (the console's badge); at most the 200 newest are looked at.
  app.get('/approvals/pending', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'playbook_runs', 'read');
    const { rows } = await db.query<{ id: string; spec: unknown; status: string; created_by: string | null }>(
      `SELECT r.id, r.spec, r.status, r.created_by FROM playbook_runs r
       WHERE r.status = 'pending_approval'
         AND NOT EXISTS (SELECT 1 FROM playbook_approvals a WHERE a.run_id = r.id AND a.person_id = $1)
       ORDER BY r.created_at DESC LIMIT 200`,
      [principal.id],
    );
    // Runs of one playbook share their spec: its approvers are resolved once per spec, not per run.
    const bySpec = new Map<string, Promise<Approvers | undefined>>();
    const runIds: string[] = [];
    for (const run of rows) {
      const key = JSON.stringify(run.spec);
      let approvers = bySpec.get(key);
      if (!approvers) bySpec.set(key, (approvers = approversOf(db, run.spec).catch(() => undefined)));
      const found = await approvers;
      if (found && eligibility({ ...found, requester: run.created_by }, principal.id, 'approve').ok)
        runIds.push(run.id);
    }
    return c.json({ count: runIds.length, run_ids: runIds });
  });
}
