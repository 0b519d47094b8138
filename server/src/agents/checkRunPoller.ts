// Agent mode: Run Now on one of this agent's checks, pressed in the upstream's console. Every second it
// claims the requests the upstream queued for it (POST /api/upstream/check-run/claim, checkRunRelay.ts),
// runs each check at once in this agent's own health engine and reports done or failed
// (POST …/{id}/report). The result itself is a check_statuses row like any other: the pusher sends it.
// A report that fails is left to the lease: the upstream hands the request out again.
import { UpstreamPoller } from './upstreamPoller.js';
import os from 'node:os';
import type { HealthEngine } from '../health/engine.js';
import type { CheckRunReport, ClaimedCheckRun } from './checkRunRelay.js';
import { logger } from '../log.js';

const log = logger('agent');

export interface CheckRunPollerOptions {
  upstream: string;
  token: string;
  version?: string;
  intervalMs?: number;
  /** Tries while the check's canary is running on its schedule (409 busy locally). */
  busyRetries?: number;
  log?: (line: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class CheckRunPoller extends UpstreamPoller {
  private readonly opts: Required<Omit<CheckRunPollerOptions, 'version'>> & Pick<CheckRunPollerOptions, 'version'>;

  constructor(
    private readonly health: Pick<HealthEngine, 'runCheckNow'>,
    options: CheckRunPollerOptions,
  ) {
    super(
      'agent check runs',
      () => this.opts.intervalMs,
      (line) => this.opts.log(line),
    );
    this.opts = {
      intervalMs: 1_000,
      busyRetries: 20,
      log: (line) => log.info(line),
      ...options,
      upstream: options.upstream.replace(/\/+$/, ''),
    };
  }

  private call(path: string, body: unknown): Promise<Response> {
    return fetch(`${this.opts.upstream}/api/upstream/check-run${path}`, {
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

  /** Claims what is queued for this agent and runs it; the number of requests handled. */
  protected async tick(): Promise<number> {
    let res: Response;
    try {
      res = await this.call('/claim', {});
    } catch (e) {
      this.problem(`the upstream is unreachable (${(e as Error).message})`);
      return 0;
    }
    if (res.status === 204) {
      this.lastError = '';
      return 0;
    }
    if (!res.ok) {
      this.problem(`claiming: ${res.status} ${await res.text().catch(() => '')}`.trim());
      return 0;
    }
    const { runs } = (await res.json()) as { runs: ClaimedCheckRun[] };
    this.lastError = '';
    for (const run of runs) {
      if (this.stopped) break;
      await this.report(run, await this.run(run));
    }
    return runs.length;
  }

  private async run(run: ClaimedCheckRun): Promise<CheckRunReport> {
    for (let attempt = 0; ; attempt++) {
      const result = await this.health.runCheckNow(run.check_id).catch((e: unknown) => e as Error);
      if (result instanceof Error) return { status: 'failed', error: result.message };
      if (result === 'not-found') return { status: 'failed', error: 'the agent has no such check (deleted there?)' };
      if (result !== 'busy') {
        this.opts.log(`agent check runs: ran check ${run.check_id} on request (${result.pass ? 'pass' : 'fail'})`);
        return { status: 'done', error: null };
      }
      // Its canary is running on schedule right now: wait for it to finish, then run the check.
      if (attempt >= this.opts.busyRetries)
        return { status: 'failed', error: 'the check stayed busy on the agent; try again' };
      await sleep(500);
    }
  }

  private async report(run: ClaimedCheckRun, report: CheckRunReport): Promise<void> {
    try {
      const res = await this.call(`/${run.id}/report`, report);
      if (!res.ok) this.problem(`reporting ${run.id}: ${res.status} ${await res.text().catch(() => '')}`.trim());
      else await res.body?.cancel();
    } catch (e) {
      this.problem(`reporting ${run.id}: the upstream is unreachable (${(e as Error).message})`);
    }
  }
}
