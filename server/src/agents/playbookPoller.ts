// Agent mode: runs the playbook runs the upstream assigned to this agent (`spec.runsOn`). Every
// second it claims the next one (POST /api/upstream/playbook-action/claim) and queues it in the
// agent's own database as a local run with the upstream's run id, so the agent's PlaybookRunner
// executes it with the same code as any run; and it reports every relayed run's action rows and
// status (POST …/{runId}/report) until the upstream has taken its end. What is relayed and not yet
// reported is read from the database (trigger.type = 'upstream', trigger.reported), so a report
// that fails is sent again at the next tick, also after a restart. A cancel upstream (the report's
// answer) cancels the local run, which stops its current action.
import { UpstreamPoller } from './upstreamPoller.js';
import os from 'node:os';
import type { Database } from '../db/database.js';
import type { SecretBox } from '../secrets.js';
import type { ClaimedRun, RunReport } from './playbookRelay.js';
import { logger } from '../log.js';

const log = logger('agent');

export interface PlaybookPollerOptions {
  upstream: string;
  token: string;
  version?: string;
  /** Seals the `secret` parameters a claim carries into the agent's own database (the agent's key). */
  secrets: SecretBox;
  intervalMs?: number;
  /** Relayed runs under way at once; no claim beyond it. */
  maxConcurrent?: number;
  log?: (line: string) => void;
}

const UPSTREAM_TRIGGER = 'upstream';
type RunStatus = RunReport['status'];

export class PlaybookPoller extends UpstreamPoller {
  private readonly opts: Required<Omit<PlaybookPollerOptions, 'version'>> & Pick<PlaybookPollerOptions, 'version'>;

  constructor(
    private readonly db: Database,
    options: PlaybookPollerOptions,
  ) {
    super(
      'agent playbooks',
      () => this.opts.intervalMs,
      (line) => this.opts.log(line),
    );
    this.opts = {
      intervalMs: 1_000,
      maxConcurrent: 4,
      log: (line) => log.info(line),
      ...options,
      upstream: options.upstream.replace(/\/+$/, ''),
    };
  }

  private async call(path: string, body: unknown): Promise<Response> {
    return fetch(`${this.opts.upstream}/api/upstream/playbook-action${path}`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`token:${this.opts.token}`).toString('base64')}`,
        'content-type': 'application/json',
        'x-opsdeck-hostname': os.hostname(),
        ...(this.opts.version ? { 'x-opsdeck-version': this.opts.version } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  }

  /** Reports what is under way or ended, then claims while there is room. */
  protected async tick(): Promise<void> {
    const unreported = await this.reportAll();
    for (let room = this.opts.maxConcurrent - unreported; room > 0 && !this.stopped; room--) {
      if (!(await this.claim())) break;
    }
  }

  /** Reports each relayed run not yet acknowledged at its end; returns how many remain. */
  private async reportAll(): Promise<number> {
    const { rows } = await this.db.query<{ id: string; status: string; error: string | null }>(
      `SELECT id, status, error FROM playbook_runs
       WHERE trigger->>'type' = $1 AND NOT coalesce((trigger->>'reported')::boolean, false)`,
      [UPSTREAM_TRIGGER],
    );
    let remaining = 0;
    for (const run of rows) {
      if (!(await this.report(run.id, run.status, run.error))) remaining++;
    }
    return remaining;
  }

  /** True once the upstream holds the run's end (or refuses the run for good). */
  private async report(runId: string, localStatus: string, error: string | null): Promise<boolean> {
    const done = ['completed', 'failed', 'cancelled'].includes(localStatus);
    const status: RunStatus = done ? (localStatus as RunStatus) : 'running';
    const { rows: actions } = await this.db.query<RunReport['actions'][number]>(
      `SELECT id, name, action_index, status, scheduled_time, start_time, end_time, result, error, retry_count
       FROM playbook_run_actions WHERE playbook_run_id = $1 ORDER BY action_index, scheduled_time`,
      [runId],
    );
    const iso = (t: unknown) =>
      t === null || t === undefined ? null : new Date(t instanceof Date ? t : String(t)).toISOString();
    const body: RunReport = {
      status,
      error,
      actions: actions.map((a) => ({
        ...a,
        scheduled_time: iso(a.scheduled_time),
        start_time: iso(a.start_time),
        end_time: iso(a.end_time),
      })),
    };
    let res: Response;
    try {
      res = await this.call(`/${runId}/report`, body);
    } catch (e) {
      this.problem(`reporting run ${runId}: the upstream is unreachable (${(e as Error).message}); retrying`);
      return false;
    }
    if (res.status === 403 || res.status === 404) {
      this.problem(`run ${runId}: the upstream refuses its report (${res.status}); it is no longer reported`);
      await this.markReported(runId);
      return true;
    }
    if (!res.ok) {
      this.problem(`reporting run ${runId}: ${res.status} ${await res.text().catch(() => '')}`.trim());
      return false;
    }
    const answer = (await res.json()) as { status: string };
    if (answer.status === 'cancelled' && !done) {
      // Cancelled upstream: the local runner notices at its next heartbeat and stops the action.
      await this.db.query(
        `UPDATE playbook_runs SET status = 'cancelled', end_time = now(), error = 'cancelled upstream'
         WHERE id = $1 AND status IN ('pending', 'scheduled', 'running')`,
        [runId],
      );
    }
    if (done) await this.markReported(runId);
    return done;
  }

  private async markReported(runId: string): Promise<void> {
    await this.db.query(`UPDATE playbook_runs SET trigger = trigger || '{"reported": true}'::jsonb WHERE id = $1`, [
      runId,
    ]);
  }

  /** Claims one run and queues it locally; false when there was none (or the upstream is away). */
  private async claim(): Promise<boolean> {
    let res: Response;
    try {
      res = await this.call('/claim', {});
    } catch (e) {
      this.problem(`claiming runs: the upstream is unreachable (${(e as Error).message})`);
      return false;
    }
    if (res.status === 204) return false;
    if (!res.ok) {
      this.problem(`claiming runs: ${res.status} ${await res.text().catch(() => '')}`.trim());
      return false;
    }
    const { run } = (await res.json()) as { run: ClaimedRun };
    await this.queueLocally(run);
    this.lastError = '';
    this.opts.log(`agent playbooks: running ${run.playbook.namespace}/${run.playbook.name} (run ${run.id})`);
    return true;
  }

  /**
   * The run in the agent's database with the upstream's ids: its playbook as a soft-deleted row (so
   * it neither lists nor clashes with a playbook applied here), the target resource when the agent
   * holds it (it pushed it), and the upstream run id, which the report uses.
   */
  private async queueLocally(run: ClaimedRun): Promise<void> {
    // Secrets sealed at once with the agent's key: at rest only sealed, as a local run's are.
    const given = Object.entries(run.secret_parameters ?? {});
    const sealed = given.length
      ? Object.fromEntries(given.map(([name, value]) => [name, this.opts.secrets.seal(value)]))
      : null;
    await this.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO playbooks (id, name, namespace, title, spec, source, deleted_at)
         VALUES ($1, $2, $3, $4, $5, 'upstream', now())
         ON CONFLICT (id) DO UPDATE SET spec = EXCLUDED.spec, title = EXCLUDED.title, updated_at = now()`,
        [run.playbook.id, run.playbook.name, run.playbook.namespace, run.playbook.title, JSON.stringify(run.spec)],
      );
      const local = async (table: string, id: string | null) =>
        id && (await tx.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id])).rows.length ? id : null;
      await tx.query(
        `INSERT INTO playbook_runs (id, playbook_id, status, spec, parameters, secret_parameters, config_id, component_id,
           check_id, trigger)
         VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (id) DO NOTHING`,
        [
          run.id,
          run.playbook.id,
          JSON.stringify(run.spec),
          JSON.stringify(run.parameters),
          sealed ? JSON.stringify(sealed) : null,
          await local('config_items', run.config_id),
          await local('components', run.component_id),
          await local('checks', run.check_id),
          JSON.stringify({ type: UPSTREAM_TRIGGER, requested_by: run.created_by?.name ?? null }),
        ],
      );
    });
  }
}
