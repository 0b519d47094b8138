// The incidents engine: every interval (15 s by default) one replica takes a short lease in
// incident_engine_leases and runs the incident rules (open / auto-resolve incidents from
// component health), then the definition-of-done scripts. The lease keeps two replicas from
// opening the same incident twice; the replica's lease heartbeat renews it while a pass runs, and a
// replica that dies lets it expire (LEASE_MS). A pass that lost its lease skips what is left of it.
import type { Database } from '../db/database.js';
import { evaluateDefinitionsOfDone, type DodPassResult } from './dod.js';
import { evaluateIncidentRules, type RulePassResult } from './rules.js';
import { logger } from '../log.js';
import { LeaseHeartbeat, ownerId } from '../jobs/heartbeat.js';

const log = logger('incidents');

export interface IncidentEngineOptions {
  /** How often a pass runs. */
  intervalMs?: number;
  /** How long the lease lasts unless renewed (ignored with `leases`; default 30 s). */
  leaseMs?: number;
  /** The replica's lease heartbeat (one for all engines); without it the engine keeps its own. */
  leases?: LeaseHeartbeat;
}

export interface IncidentPass {
  leased: boolean;
  rules?: RulePassResult;
  dod?: DodPassResult;
}

const LEASE = 'incidents';

export class IncidentEngine {
  readonly owner = ownerId();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopping = false;
  readonly intervalMs: number;
  private readonly leases: LeaseHeartbeat;

  constructor(
    private readonly db: Database,
    options: IncidentEngineOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 15_000;
    this.leases = options.leases ?? new LeaseHeartbeat(db, { leaseMs: options.leaseMs });
  }

  start(): void {
    this.stopping = false;
    const loop = async () => {
      if (this.stopping) return;
      const pass = this.tick().catch((e: unknown) => log.error(`incidents engine: ${(e as Error).message}`));
      this.running = pass;
      await pass;
      this.running = undefined;
      if (!this.stopping) this.timer = setTimeout(() => void loop(), this.intervalMs);
    };
    this.timer = setTimeout(() => void loop(), this.intervalMs);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass now, if this replica gets the lease. */
  async tick(): Promise<IncidentPass> {
    const since = Date.now();
    const { rows } = await this.db.query(
      `INSERT INTO incident_engine_leases (name, owner, lease_until) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, lease_until = EXCLUDED.lease_until
       WHERE incident_engine_leases.lease_until IS NULL OR incident_engine_leases.lease_until < now()
          OR incident_engine_leases.owner = EXCLUDED.owner
       RETURNING owner`,
      [LEASE, this.owner, this.leases.leaseMs],
    );
    if (!rows[0]) return { leased: false };
    const lease = this.leases.hold('incident_engine_leases', LEASE, this.owner, since);
    try {
      const rules = await evaluateIncidentRules(this.db);
      for (const e of rules.errors) log.error(e);
      // Lost meanwhile (this replica stalled past the lease): the replica holding it now goes on.
      if (lease.signal.aborted) return { leased: true, rules };
      const dod = await evaluateDefinitionsOfDone(this.db);
      return { leased: true, rules, dod };
    } finally {
      lease.release();
      await this.db
        .query('UPDATE incident_engine_leases SET lease_until = NULL WHERE name = $1 AND owner = $2', [
          LEASE,
          this.owner,
        ])
        .catch(() => undefined);
    }
  }
}
