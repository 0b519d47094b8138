// What /metrics reads from the database at scrape time: every check's status, and the depth and
// lag of each queue (scheduled rows per engine, the event queue by name, notification sends,
// playbook runs). Two statements, served from a cache for a few seconds, so a scraper (or several)
// costs the database at most two cheap reads per CACHE_MS whatever the scrape interval.
import type { Database } from '../db/database.js';
import { logger } from '../log.js';

const CACHE_MS = 5_000;
/** A scheduled row this much past its time is late (the health engine polls every second). */
const LATE_SECONDS = 10;

export interface Snapshot {
  /** When the read began (ms since epoch). */
  at: number;
  checks: {
    check_id: string;
    check: string;
    type: string;
    canary: string;
    healthy: boolean | null;
    last_run: number | null;
  }[];
  schedulers: { engine: string; due: number; late: number; lag: number; running: number }[];
  events: { name: string; pending: number; failed: number; oldest_age: number }[];
  notifications: { pending: number; due: number; lag: number };
  playbooks: { due: number; running: number; lag: number };
  /** Replicas running engines on the database now (their `replicas` rows alive). */
  replicas: number;
}

const CHECKS_SQL = `
  SELECT c.id::text AS check_id, c.name AS check, c.type, ca.namespace || '/' || ca.name AS canary,
         CASE c.status WHEN 'healthy' THEN true WHEN 'unhealthy' THEN false END AS healthy,
         extract(epoch FROM c.last_runtime)::float8 AS last_run
  FROM checks c JOIN canaries ca ON ca.id = c.canary_id
  WHERE c.deleted_at IS NULL AND ca.deleted_at IS NULL`;

/** One row of numbers: each queue through its own index (the due/pending partial indexes). */
const scheduler = (engine: string, table: string) => `
  SELECT json_build_object('engine', '${engine}',
    'due', count(*) FILTER (WHERE next_runtime <= now() AND (lease_until IS NULL OR lease_until < now())),
    'late', count(*) FILTER (WHERE next_runtime <= now() - interval '${LATE_SECONDS} seconds'
                               AND (lease_until IS NULL OR lease_until < now())),
    'lag', coalesce(extract(epoch FROM now() - min(next_runtime) FILTER (
             WHERE next_runtime <= now() AND (lease_until IS NULL OR lease_until < now()))), 0)::float8,
    'running', count(*) FILTER (WHERE lease_until >= now()))
  FROM ${table} WHERE deleted_at IS NULL`;

const QUEUES_SQL = `
  SELECT
    json_build_array((${scheduler('health', 'canaries')}), (${scheduler('topology', 'topologies')}),
                     (${scheduler('catalog', 'config_scrapers')})) AS schedulers,
    (SELECT coalesce(json_agg(e), '[]') FROM (
       SELECT name, count(*) FILTER (WHERE error IS NULL) AS pending,
              count(*) FILTER (WHERE error IS NOT NULL) AS failed,
              extract(epoch FROM now() - min(created_at))::float8 AS oldest_age
       FROM event_queue GROUP BY name ORDER BY name) e) AS events,
    (SELECT json_build_object('pending', count(*),
       'due', count(*) FILTER (WHERE not_before IS NULL OR not_before <= now()),
       'lag', coalesce(extract(epoch FROM now() - min(coalesce(not_before, created_at))
                FILTER (WHERE (not_before IS NULL OR not_before <= now())
                          AND (lease_until IS NULL OR lease_until < now()))), 0)::float8)
     FROM notification_send_history WHERE status = 'pending') AS notifications,
    (SELECT json_build_object(
       'due', count(*) FILTER (WHERE status IN ('pending', 'scheduled') AND scheduled_time <= now()),
       'running', count(*) FILTER (WHERE status = 'running'),
       'lag', coalesce(extract(epoch FROM now() - min(scheduled_time)
                FILTER (WHERE status IN ('pending', 'scheduled') AND scheduled_time <= now())), 0)::float8)
     FROM playbook_runs WHERE status IN ('pending', 'scheduled', 'running')) AS playbooks,
    (SELECT count(*) FROM replicas WHERE alive_until > now()) AS replicas`;

const parse = <T>(v: unknown): T => (typeof v === 'string' ? (JSON.parse(v) as T) : (v as T));

export async function readSnapshot(db: Database): Promise<Snapshot> {
  const at = Date.now();
  const [checks, queues] = await Promise.all([
    db.query<Snapshot['checks'][number]>(CHECKS_SQL),
    db.query<Record<string, unknown>>(QUEUES_SQL),
  ]);
  const q = queues.rows[0]!;
  const num = (v: unknown) => Number(v ?? 0);
  return {
    at,
    checks: checks.rows.map((c) => ({ ...c, last_run: c.last_run === null ? null : num(c.last_run) })),
    schedulers: parse<Snapshot['schedulers']>(q.schedulers).map((s) => ({
      engine: s.engine,
      due: num(s.due),
      late: num(s.late),
      lag: num(s.lag),
      running: num(s.running),
    })),
    events: parse<Snapshot['events']>(q.events).map((e) => ({
      name: e.name,
      pending: num(e.pending),
      failed: num(e.failed),
      oldest_age: num(e.oldest_age),
    })),
    notifications: parse<Snapshot['notifications']>(q.notifications),
    playbooks: parse<Snapshot['playbooks']>(q.playbooks),
    replicas: num(q.replicas),
  };
}

/** The latest snapshot, read again when older than CACHE_MS; concurrent scrapes share one read. */
export class Snapshots {
  private cached: { at: number; value: Promise<Snapshot | undefined> } | undefined;
  onError: () => void = () => undefined;
  private readonly log = logger('metrics');

  constructor(private readonly db: Database) {}

  get(): Promise<Snapshot | undefined> {
    const now = Date.now();
    if (this.cached && now - this.cached.at < CACHE_MS) return this.cached.value;
    const value = readSnapshot(this.db).catch((e: unknown) => {
      this.onError();
      this.log.warn(`metrics: reading the database failed: ${(e as Error).message}`);
      // Kept like a success: the gauges of this scrape share one failure, the next scrape tries again.
      return undefined;
    });
    this.cached = { at: now, value };
    return value;
  }
}
