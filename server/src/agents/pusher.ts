// Agent mode's sender: follows each pushed table's change_seq from a cursor kept in agent_push_cursors,
// posts new and changed rows to the upstream in bounded gzip batches (parents first), advances the
// cursors only after a 2xx, backs off while the upstream is away, and pings every 30 s.
import os from 'node:os';
import { gzipSync } from 'node:zlib';
import type { Database } from '../db/database.js';
import { PUSH_TABLES, type PushTable } from './push.js';
import { logger } from '../log.js';

const log = logger('agent');

export interface PusherOptions {
  upstream: string;
  token: string;
  /** This agent's name as given on the command line (logs and the ping's headers). */
  name?: string;
  version?: string;
  /** Pause between pushes when nothing is pending. */
  intervalMs?: number;
  pingMs?: number;
  /** Rows per table in one push, and an upper bound of the JSON size of one push. */
  batchRows?: number;
  batchBytes?: number;
  maxBackoffMs?: number;
  log?: (line: string) => void;
}

type Row = Record<string, unknown>;

interface Pending {
  body: Partial<Record<PushTable, Row[]>>;
  cursors: Partial<Record<PushTable, number>>;
  rows: number;
  /** More rows were left for the next push. */
  more: boolean;
}

export class AgentPusher {
  private readonly opts: Required<Omit<PusherOptions, 'name' | 'version'>> & Pick<PusherOptions, 'name' | 'version'>;
  private timer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  private failures = 0;
  private lastFailure = '';

  constructor(
    private readonly db: Database,
    options: PusherOptions,
  ) {
    this.opts = {
      intervalMs: 2_000,
      pingMs: 30_000,
      batchRows: 1_000,
      batchBytes: 4 * 1024 * 1024,
      maxBackoffMs: 30_000,
      log: (line) => log.info(line),
      ...options,
      upstream: options.upstream.replace(/\/+$/, ''),
    };
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      authorization: `Basic ${Buffer.from(`token:${this.opts.token}`).toString('base64')}`,
      'x-opsdeck-hostname': os.hostname(),
      ...(this.opts.version ? { 'x-opsdeck-version': this.opts.version } : {}),
      ...extra,
    };
  }

  /** Reads what is pending after each cursor; tables after one that still has more wait (parents first). */
  async collect(): Promise<Pending> {
    const pending: Pending = { body: {}, cursors: {}, rows: 0, more: false };
    const { rows: cursorRows } = await this.db.query<{ table_name: string; cursor: string }>(
      'SELECT table_name, cursor FROM agent_push_cursors',
    );
    const cursors = new Map(cursorRows.map((r) => [r.table_name, Number(r.cursor)]));
    let bytes = 2;
    for (const table of PUSH_TABLES) {
      const after = cursors.get(table) ?? 0;
      const { rows } = await this.db.query<{ change_seq: string; row: Row }>(
        `SELECT change_seq, to_jsonb(t) - 'change_seq' AS row FROM ${table} t
         WHERE change_seq > $1 ORDER BY change_seq LIMIT $2`,
        [after, this.opts.batchRows],
      );
      if (!rows.length) continue;
      const taken: Row[] = [];
      let last = after;
      for (const r of rows) {
        const size = JSON.stringify(r.row).length + 1;
        if (taken.length && bytes + size > this.opts.batchBytes) {
          pending.more = true;
          break;
        }
        bytes += size;
        taken.push(r.row);
        last = Number(r.change_seq);
      }
      pending.body[table] = taken;
      pending.cursors[table] = last;
      pending.rows += taken.length;
      if (pending.more || rows.length === this.opts.batchRows) {
        pending.more = true;
        break;
      }
    }
    return pending;
  }

  /** One push; true when the upstream took it (or there was nothing to send) and more is pending. */
  async pushOnce(): Promise<{ sent: number; more: boolean }> {
    const pending = await this.collect();
    if (!pending.rows) return { sent: 0, more: false };
    const res = await fetch(`${this.opts.upstream}/api/upstream/push`, {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      body: gzipSync(JSON.stringify(pending.body)),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    if (!res.ok) throw new UpstreamRefused(res.status, text, Number(res.headers.get('retry-after') ?? 0));
    await this.db.transaction(async (tx) => {
      for (const [table, cursor] of Object.entries(pending.cursors)) {
        const count = pending.body[table as PushTable]?.length ?? 0;
        await tx.query(
          `INSERT INTO agent_push_cursors (table_name, cursor, pushed_rows, last_pushed_at, last_error, updated_at)
           VALUES ($1, $2, $3, now(), NULL, now())
           ON CONFLICT (table_name) DO UPDATE SET cursor = EXCLUDED.cursor, last_error = NULL, updated_at = now(),
             pushed_rows = agent_push_cursors.pushed_rows + EXCLUDED.pushed_rows, last_pushed_at = now()`,
          [table, cursor, count],
        );
      }
    });
    return { sent: pending.rows, more: pending.more };
  }

  async ping(): Promise<number> {
    const res = await fetch(`${this.opts.upstream}/api/upstream/ping`, {
      headers: this.headers(),
      signal: AbortSignal.timeout(10_000),
    });
    await res.body?.cancel();
    return res.status;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const ping = () => {
      this.ping()
        .then((status) => {
          if (status === 401) this.opts.log(`agent: the upstream refused the token on ping (401)`);
        })
        .catch(() => undefined);
    };
    ping();
    this.pingTimer = setInterval(ping, this.opts.pingMs);
    this.pingTimer.unref();
    this.schedule(0);
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => (this.running = undefined));
    }, ms);
  }

  private async tick(): Promise<void> {
    try {
      const { sent, more } = await this.pushOnce();
      if (this.failures) this.opts.log(`agent: the upstream is back after ${this.failures} failed push(es)`);
      this.failures = 0;
      this.lastFailure = '';
      if (sent) this.opts.log(`agent: pushed ${sent} row(s) to ${this.opts.upstream}`);
      this.schedule(more ? 0 : this.opts.intervalMs);
    } catch (e) {
      this.failures++;
      const message = e instanceof UpstreamRefused ? e.describe() : `upstream unreachable: ${(e as Error).message}`;
      // Log a streak of one failure once, not every retry.
      if (message !== this.lastFailure) this.opts.log(`agent: push failed: ${message}`);
      this.lastFailure = message;
      await this.db
        .query(`UPDATE agent_push_cursors SET last_error = $1, updated_at = now()`, [message])
        .catch(() => undefined);
      const backoff = Math.min(this.opts.maxBackoffMs, 1_000 * 2 ** Math.min(this.failures - 1, 10));
      const retryAfter = e instanceof UpstreamRefused && e.retryAfterS ? e.retryAfterS * 1000 : 0;
      this.schedule(Math.max(backoff, retryAfter));
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    await this.running;
  }
}

export class UpstreamRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly retryAfterS: number,
  ) {
    super(`HTTP ${status}`);
  }

  describe(): string {
    let detail = this.body.slice(0, 300);
    try {
      detail = (JSON.parse(this.body) as { error?: string }).error ?? detail;
    } catch {
      // not JSON: keep the text
    }
    if (this.status === 401) return `the upstream refused the token (401): ${detail}`;
    return `the upstream answered ${this.status}: ${detail}`;
  }
}
