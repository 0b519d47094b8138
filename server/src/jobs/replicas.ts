// The replicas running engines on one database, each known by a row in `replicas` (migration 0035).
// A replica's presence upserts its row every `everyMs` (the lease heartbeat's period) with an
// `alive_until` of three periods ahead, reads in the same statement how many other replicas are
// alive, and deletes its row when it stops. A killed replica stops renewing: its row counts no
// more once `alive_until` passes, and a live replica removes it an hour later (SKIP LOCKED, so two
// replicas never wait on each other for it).
//
// What it is for: a busy replica leaves due canaries to idle ones (leasedScheduler.ts), which only
// helps when there are others; alone, it claims at once. /metrics shows the count (opsdeck_replicas).
import os from 'node:os';
import type { Queryable } from '../db/database.js';
import { ownerId } from './heartbeat.js';
import { logger } from '../log.js';

const log = logger('replicas');

/** How long after its row ran out a replica's row is removed (kept a while to be seen in the database). */
const FORGET_AFTER = '1 hour';

export interface ReplicaPresenceOptions {
  /** How often the row is renewed (ms); it stays alive for three of these. */
  everyMs: number;
  version: string;
  /** OPSDECK_MODE of the replica (full or health). */
  mode: string;
}

export class ReplicaPresence {
  readonly id = ownerId();
  /** Other replicas alive at the last renewal; undefined until the first one answered. */
  private othersSeen: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  constructor(
    private readonly db: Queryable,
    private readonly o: ReplicaPresenceOptions,
  ) {}

  /**
   * Whether other replicas were alive at the last renewal. Before the first renewal answered (or
   * when renewals fail), unknown: assumed so, as a replica cannot tell it is alone.
   */
  get others(): boolean {
    return this.othersSeen === undefined || this.othersSeen > 0;
  }

  /** Other replicas alive at the last renewal (undefined before the first). */
  get count(): number | undefined {
    return this.othersSeen;
  }

  /** Renews the row now and every `everyMs` until stop(). */
  async start(): Promise<void> {
    await this.beat();
    if (this.timer) return;
    this.timer = setInterval(() => void this.beat(), this.o.everyMs);
    this.timer.unref();
  }

  /** Renews this replica's row and reads how many others are alive (one renewal at a time). */
  beat(): Promise<void> {
    this.beating ??= this.renew().finally(() => (this.beating = undefined));
    return this.beating;
  }

  private async renew(): Promise<void> {
    try {
      const { rows } = await this.db.query<{ others: number | string }>(
        `WITH me AS (
           INSERT INTO replicas (id, hostname, pid, version, mode, alive_until)
           VALUES ($1, $2, $3, $4, $5, now() + make_interval(secs => $6::double precision / 1000))
           ON CONFLICT (id) DO UPDATE SET seen_at = now(), alive_until = EXCLUDED.alive_until
         ), gone AS (
           DELETE FROM replicas WHERE id IN (
             SELECT id FROM replicas WHERE alive_until < now() - interval '${FORGET_AFTER}'
             FOR UPDATE SKIP LOCKED)
         )
         SELECT count(*) AS others FROM replicas WHERE id <> $1 AND alive_until > now()`,
        [this.id, os.hostname(), process.pid, this.o.version, this.o.mode, 3 * this.o.everyMs],
      );
      this.othersSeen = Number(rows[0]?.others ?? 0);
    } catch (e) {
      this.othersSeen = undefined;
      log.error(`replica heartbeat: ${(e as Error).message}`);
    }
  }

  /** Stops renewing and deletes this replica's row (the others see one fewer at once). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.beating;
    await this.db.query('DELETE FROM replicas WHERE id = $1', [this.id]).catch((e: unknown) => {
      log.warn(`replica heartbeat: could not remove this replica's row: ${(e as Error).message}`);
    });
  }
}
