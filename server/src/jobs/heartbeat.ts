// The lease heartbeat of a replica. Every engine that leases work in the database (scheduled
// canaries, topologies and scrapers; notification sends; playbook runs; the incident pass;
// retention runs) takes a short lease (LEASE_MS, 30 s by default) and registers it here with
// hold(). While anything is held, one statement every LEASE_HEARTBEAT_MS (10 s by default)
// extends all of this replica's held leases at once, whatever their tables — not one query per
// lease per tick. A replica killed mid-work stops renewing, so its leases expire within LEASE_MS
// and another replica picks the work up at its next poll.
//
// A lease this replica thought it held but the statement did not renew (it expired while the
// replica stalled and another replica took it over), or one not renewed within the lease (the
// database was out of reach), is lost: its signal aborts, and the holder stops that work without
// writing over the new holder (every release and finish statement names the owner).
import os from 'node:os';
import type { Queryable } from '../db/database.js';
import { logger } from '../log.js';

const log = logger('leases');

/** The default lease and heartbeat (LEASE_MS, LEASE_HEARTBEAT_MS). */
export const DEFAULT_LEASE_MS = 30_000;

/** The tables leases are kept in: the key column, its type and the owner column. */
const TABLES = {
  canaries: { key: 'id', type: 'uuid', owner: 'lease_owner' },
  topologies: { key: 'id', type: 'uuid', owner: 'lease_owner' },
  config_scrapers: { key: 'id', type: 'uuid', owner: 'lease_owner' },
  notification_send_history: { key: 'id', type: 'uuid', owner: 'lease_owner' },
  playbook_runs: { key: 'id', type: 'uuid', owner: 'lease_owner' },
  incident_engine_leases: { key: 'name', type: 'text', owner: 'owner' },
  retention_leases: { key: 'name', type: 'text', owner: 'owner' },
} as const;

export type LeaseTable = keyof typeof TABLES;

/** Why a held lease's signal aborted. */
export class LeaseLost extends Error {}

/** A lease registered with the heartbeat; release() it before the statement that gives it back. */
export interface HeldLease {
  /** Aborts when the lease is lost (reason: a LeaseLost). */
  readonly signal: AbortSignal;
  release(): void;
}

interface Hold {
  id: string;
  table: LeaseTable;
  key: string;
  owner: string;
  /** Local time (ms) by which the lease runs out unless renewed. */
  until: number;
  controller: AbortController;
}

export interface HeartbeatOptions {
  leaseMs?: number;
  /** How often held leases are renewed (default: a third of the lease). */
  everyMs?: number;
}

/**
 * A new name for one holder of leases in this process: host, pid and a random suffix (tests and
 * operators find a replica's leases by `:pid:`).
 */
export const ownerId = (): string => `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;

const holdId = (table: string, key: string, owner: string) => `${table}\u0000${key}\u0000${owner}`;

export class LeaseHeartbeat {
  readonly leaseMs: number;
  readonly everyMs: number;
  private readonly holds = new Map<string, Hold>();
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;
  /** Renewal statements sent (tests, /metrics). */
  beats = 0;

  constructor(
    private readonly db: Queryable,
    options: HeartbeatOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.everyMs = options.everyMs ?? Math.max(1, Math.floor(this.leaseMs / 3));
    if (this.everyMs * 2 > this.leaseMs) {
      throw new Error(`the lease heartbeat (${this.everyMs} ms) must be at most half the lease (${this.leaseMs} ms)`);
    }
  }

  /** How many leases are held now. */
  get held(): number {
    return this.holds.size;
  }

  /**
   * Registers a lease `owner` took on `key` of `table`, by a statement sent at `since` (ms since
   * epoch; the lease runs from then). Renewed until released or lost.
   */
  hold(table: LeaseTable, key: string, owner: string, since = Date.now()): HeldLease {
    const id = holdId(table, key, owner);
    this.holds.get(id)?.controller.abort(new LeaseLost('the lease was taken again by its owner'));
    const hold: Hold = { id, table, key, owner, until: since + this.leaseMs, controller: new AbortController() };
    this.holds.set(id, hold);
    if (!this.timer) {
      this.timer = setInterval(() => void this.beat(), this.everyMs);
      this.timer.unref();
    }
    return {
      signal: hold.controller.signal,
      release: () => this.drop(hold),
    };
  }

  private drop(hold: Hold): void {
    if (this.holds.get(hold.id) === hold) this.holds.delete(hold.id);
    if (this.holds.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private lose(hold: Hold, why: string): void {
    this.drop(hold);
    log.warn({ table: hold.table, key: hold.key, owner: hold.owner }, `lease lost: ${why}; its work stops here`);
    hold.controller.abort(new LeaseLost(`this server lost the lease (${why})`));
  }

  /** Renews every held lease in one statement (one at a time; a beat under way is waited for). */
  beat(): Promise<void> {
    this.beating ??= this.renew().finally(() => (this.beating = undefined));
    return this.beating;
  }

  private async renew(): Promise<void> {
    const sent = Date.now();
    for (const h of [...this.holds.values()])
      if (h.until <= sent) this.lose(h, `not renewed within ${this.leaseMs} ms`);
    const holds = [...this.holds.values()];
    if (!holds.length) return;
    const byTable = new Map<LeaseTable, Hold[]>();
    for (const h of holds) byTable.set(h.table, [...(byTable.get(h.table) ?? []), h]);
    const params: unknown[] = [this.leaseMs];
    const parts = [...byTable].map(([table, hs], i) => {
      const t = TABLES[table];
      params.push(
        hs.map((h) => h.key),
        hs.map((h) => h.owner),
      );
      const k = params.length - 1;
      return `r${i} AS (UPDATE ${table} SET lease_until = now() + make_interval(secs => $1::double precision / 1000)
        WHERE (${t.key}, ${t.owner}) IN (SELECT * FROM unnest($${k}::${t.type}[], $${k + 1}::text[]))
        RETURNING '${table}'::text AS t, ${t.key}::text AS k, ${t.owner} AS o)`;
    });
    const union = parts.map((_, i) => `SELECT t, k, o FROM r${i}`).join(' UNION ALL ');
    let renewed: Set<string>;
    try {
      this.beats++;
      const { rows } = await this.db.query<{ t: string; k: string; o: string }>(
        `WITH ${parts.join(',\n')} ${union}`,
        params,
      );
      renewed = new Set(rows.map((r) => holdId(r.t, r.k, r.o)));
    } catch (e) {
      // Tried again at the next beat; a lease not renewed in time is lost then.
      log.error(`lease renewal: ${(e as Error).message}`);
      return;
    }
    for (const h of holds) {
      if (this.holds.get(h.id) !== h) continue; // released meanwhile
      if (renewed.has(h.id)) h.until = sent + this.leaseMs;
      else this.lose(h, 'it expired and another replica took it over, or it was released');
    }
  }

  /**
   * Forgets every hold (the server closes, its leases handed back): work still under way is told to
   * stop (its signal aborts), as the leases may be another replica's by now.
   */
  close(): void {
    const held = [...this.holds.values()];
    this.holds.clear();
    clearInterval(this.timer);
    this.timer = undefined;
    for (const h of held) h.controller.abort(new LeaseLost('the server is stopping: the lease was handed back'));
  }
}
