// The upstream side of playbooks that run on an agent (`spec.runsOn`, playbooks/runsOn.ts): the agent
// claims the next due run assigned to it (a lease, FOR UPDATE SKIP LOCKED, like the runner's) and
// reports the run's action rows and its end. Contract: docs/api.md "Agents" (Upstream).
// A run whose agent stops reporting past its lease is failed, so it never stays running forever.
import type { Hono, Context } from 'hono';
import { z } from 'zod';
import { HttpError, type AuthEnv } from '../auth/middleware.js';
import type { Database, Queryable } from '../db/database.js';
import { runSubjects } from '../playbooks/store.js';
import { openSecret } from '../secrets.js';
import { UUID } from '../resources/routes.js';

/** How long a claimed run stays the agent's without a report (the agent reports every second or two). */
export const AGENT_RUN_LEASE_MS = 120_000;
export const AGENT_LOST_ERROR = 'the agent stopped reporting on this run';

const MAX_TEXT = 4_000;

const time = z
  .string()
  .refine((t) => !Number.isNaN(Date.parse(t)), 'not a timestamp')
  .nullable()
  .optional();
export const reportSchema = z.object({
  status: z.enum(['running', 'completed', 'failed', 'cancelled']),
  error: z
    .string()
    .max(MAX_TEXT * 2)
    .nullable()
    .optional(),
  actions: z
    .array(
      z.object({
        id: z.string().regex(UUID, 'an action id is a UUID'),
        name: z.string().min(1),
        action_index: z.number().int().nonnegative(),
        status: z.enum(['scheduled', 'running', 'sleeping', 'completed', 'failed', 'skipped']),
        scheduled_time: time,
        start_time: time,
        end_time: time,
        result: z.record(z.string(), z.unknown()).nullable().optional(),
        error: z.string().nullable().optional(),
        retry_count: z.number().int().nonnegative().optional(),
      }),
    )
    .max(500),
});
export type RunReport = z.infer<typeof reportSchema>;

/** What the agent gets for a claimed run. */
export interface ClaimedRun {
  id: string;
  playbook: { id: string; name: string; namespace: string; title: string | null };
  spec: Record<string, unknown>;
  /** As the run row holds them: a `secret` parameter's value is the mask there. */
  parameters: Record<string, string>;
  /**
   * The plain values of the run's `secret` parameters (name → value), opened from the upstream's
   * sealed copy for the agent behind the token: it seals them with its own key. Never logged.
   */
  secret_parameters: Record<string, string>;
  config_id: string | null;
  component_id: string | null;
  check_id: string | null;
  /** The target resource's row as upstream templates would see it (.config / .component / .check). */
  config: Record<string, unknown> | null;
  component: Record<string, unknown> | null;
  check: Record<string, unknown> | null;
  created_by: { id: string; name: string; email: string | null } | null;
}

const clip = (text: string | null | undefined) =>
  text === null || text === undefined ? null : text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}…` : text;

async function emitEnd(tx: Queryable, runId: string): Promise<void> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT id, playbook_id, status, error, config_id, component_id, check_id, created_by FROM playbook_runs WHERE id = $1`,
    [runId],
  );
  if (rows[0] && (rows[0].status === 'completed' || rows[0].status === 'failed'))
    await tx.query('INSERT INTO event_queue (name, properties) VALUES ($1, $2)', [
      `playbook.run.${String(rows[0].status)}`,
      JSON.stringify(rows[0]),
    ]);
}

/** Fails the agent's runs whose lease ran out (it stopped, or lost the run). */
async function expireLost(db: Database, agentId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE playbook_runs SET status = 'failed', error = $2, end_time = now(), lease_owner = NULL, lease_until = NULL
       WHERE agent_id = $1 AND status = 'running' AND lease_until < now() RETURNING id`,
      [agentId, AGENT_LOST_ERROR],
    );
    for (const r of rows) {
      await tx.query(
        `UPDATE playbook_run_actions SET status = 'failed', error = $2, end_time = now()
         WHERE playbook_run_id = $1 AND status IN ('running', 'sleeping', 'scheduled')`,
        [r.id, AGENT_LOST_ERROR],
      );
      await emitEnd(tx, r.id);
    }
  });
}

export async function claimAgentRun(db: Database, agentId: string): Promise<ClaimedRun | undefined> {
  await expireLost(db, agentId);
  const { rows } = await db.query<
    Omit<ClaimedRun, 'config' | 'component' | 'check' | 'created_by' | 'playbook' | 'secret_parameters'> & {
      playbook_id: string;
      created_by: string | null;
      secret_parameters: Record<string, string> | null;
    }
  >(
    `UPDATE playbook_runs r SET status = 'running', start_time = now(), lease_owner = 'agent:' || $1::text,
       lease_until = now() + make_interval(secs => $2::double precision / 1000)
     FROM (SELECT id FROM playbook_runs WHERE agent_id = $1 AND status IN ('pending', 'scheduled')
             AND scheduled_time <= now() ORDER BY scheduled_time LIMIT 1 FOR UPDATE SKIP LOCKED) due
     WHERE r.id = due.id
     RETURNING r.id, r.playbook_id, r.spec, r.parameters, r.secret_parameters, r.config_id, r.component_id, r.check_id, r.created_by`,
    [agentId, AGENT_RUN_LEASE_MS],
  );
  const run = rows[0];
  if (!run) return undefined;
  let secrets: Record<string, string>;
  try {
    secrets = Object.fromEntries(
      Object.entries(run.secret_parameters ?? {}).map(([name, sealed]) => [name, openSecret(sealed)]),
    );
  } catch (e) {
    // Sealed with a key this server no longer has: the run cannot be carried out; say so on its page.
    await db.transaction(async (tx) => {
      await tx.query(
        `UPDATE playbook_runs SET status = 'failed', error = $2, end_time = now(), lease_owner = NULL, lease_until = NULL
         WHERE id = $1`,
        [run.id, clip(`secret parameters: ${(e as Error).message}`)],
      );
      await emitEnd(tx, run.id);
    });
    return claimAgentRun(db, agentId);
  }
  const pb = await db.query<ClaimedRun['playbook']>('SELECT id, name, namespace, title FROM playbooks WHERE id = $1', [
    run.playbook_id,
  ]);
  const { resources, user } = await runSubjects(db, run);
  return {
    id: run.id,
    playbook: pb.rows[0]!,
    spec: run.spec,
    parameters: run.parameters,
    secret_parameters: secrets,
    config_id: run.config_id,
    component_id: run.component_id,
    check_id: run.check_id,
    config: resources.config,
    component: resources.component,
    check: resources.check,
    created_by: user,
  };
}

/** Stores a report; the answer's status is the upstream's (cancelled when someone cancelled it there). */
export async function receiveReport(
  db: Database,
  agentId: string,
  runId: string,
  report: RunReport,
): Promise<{ id: string; status: string }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ agent_id: string; status: string }>(
      'SELECT agent_id, status FROM playbook_runs WHERE id = $1 FOR UPDATE',
      [runId],
    );
    const run = rows[0];
    if (!run) throw new HttpError(404, 'NOT_FOUND', 'No such playbook run.');
    if (run.agent_id !== agentId) throw new HttpError(403, 'FOREIGN_RUN', 'This run is not assigned to this agent.');
    for (const a of report.actions) {
      await tx.query(
        `INSERT INTO playbook_run_actions (id, playbook_run_id, name, action_index, status, scheduled_time, start_time,
           end_time, result, error, retry_count)
         VALUES ($1, $2, $3, $4, $5, coalesce($6::timestamptz, now()), $7, $8, $9, $10, $11)
         ON CONFLICT (id) DO UPDATE SET status = EXCLUDED.status, start_time = EXCLUDED.start_time,
           end_time = EXCLUDED.end_time, result = EXCLUDED.result, error = EXCLUDED.error,
           retry_count = EXCLUDED.retry_count
         WHERE playbook_run_actions.playbook_run_id = EXCLUDED.playbook_run_id`,
        [
          a.id,
          runId,
          a.name,
          a.action_index,
          a.status,
          a.scheduled_time ?? null,
          a.start_time ?? null,
          a.end_time ?? null,
          a.result ? JSON.stringify(a.result) : null,
          clip(a.error),
          a.retry_count ?? 0,
        ],
      );
    }
    if (run.status !== 'running') return { id: runId, status: run.status };
    if (report.status === 'running') {
      await tx.query(
        `UPDATE playbook_runs SET lease_until = now() + make_interval(secs => $2::double precision / 1000) WHERE id = $1`,
        [runId, AGENT_RUN_LEASE_MS],
      );
      return { id: runId, status: 'running' };
    }
    await tx.query(
      `UPDATE playbook_runs SET status = $2, error = $3, end_time = now(), lease_owner = NULL, lease_until = NULL
       WHERE id = $1`,
      [runId, report.status, clip(report.error)],
    );
    await emitEnd(tx, runId);
    return { id: runId, status: report.status };
  });
}

/** Mounts the two calls on /api/upstream (the agent behind the token from `callingAgent`). */
export function addPlaybookRelayRoutes(
  app: Hono<AuthEnv>,
  db: Database,
  callingAgent: (c: Context<AuthEnv>) => Promise<{ id: string }>,
): void {
  app.post('/playbook-action/claim', async (c) => {
    const agent = await callingAgent(c);
    const run = await claimAgentRun(db, agent.id);
    return run ? c.json({ run }) : c.body(null, 204);
  });

  app.post('/playbook-action/:runId/report', async (c) => {
    const agent = await callingAgent(c);
    const runId = c.req.param('runId');
    if (!UUID.test(runId)) throw new HttpError(404, 'NOT_FOUND', 'No such playbook run.');
    const parsed = reportSchema.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new HttpError(400, 'INVALID_REPORT', `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
    }
    return c.json(await receiveReport(db, agent.id, runId, parsed.data));
  });
}
