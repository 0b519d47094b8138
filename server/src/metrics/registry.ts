// The metrics one server exposes at /metrics (Prometheus text format, prom-client), all named
// opsdeck_*. Three kinds: what this process observed (HTTP requests, the checks and jobs it ran),
// what the database holds (check status, queue depths and lag: read at scrape time, snapshot.ts),
// and the process itself (prom-client's default metrics). docs/metrics.md lists every one.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import type { Metric } from '../health/checker.js';
import { CustomMetrics } from './custom.js';
import { JobObserver } from './jobs.js';
import { Snapshots, type Snapshot } from './snapshot.js';

export const PREFIX = 'opsdeck_';

/** The labels of one check's series: bounded by the checks that exist (removed when a check goes). */
export interface CheckLabels {
  check_id: string;
  check: string;
  type: string;
  /** namespace/name of the canary the check belongs to. */
  canary: string;
}

/** Seconds; HTTP answers are mostly milliseconds, a slow export or log query seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds; checks run from a millisecond (a TCP connect) to their timeout (a minute or so). */
const CHECK_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** Process metrics (CPU, memory, event loop, GC) are the process's: one registry however many servers run in it. */
let processRegistry: Registry | undefined;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: PREFIX });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly httpRequests: Counter<'method' | 'route' | 'status_class'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  private readonly checkDuration: Histogram<keyof CheckLabels>;
  private readonly checkRuns: Counter<keyof CheckLabels | 'result'>;
  /** The label values in use per check id (and when first seen), to drop a deleted check's series. */
  private readonly checkSeries = new Map<string, { labels: CheckLabels; since: number }>();
  private readonly snapshots: Snapshots;
  private readonly jobs: JobObserver;
  /** What checks' metrics[] define, under their own names (custom.ts). */
  readonly custom: CustomMetrics;

  constructor(
    private readonly db: Database,
    info: { version: string },
  ) {
    processMetrics();
    const registers = [this.registry];
    new Gauge({
      name: `${PREFIX}info`,
      help: 'Always 1; the labels tell the version and the database kind (pglite or postgres).',
      labelNames: ['version', 'database'],
      registers,
    }).set({ version: info.version, database: db.kind }, 1);
    this.httpRequests = new Counter({
      name: `${PREFIX}http_requests_total`,
      help: 'HTTP requests answered, by method, route pattern and status class (2xx, 4xx, ...).',
      labelNames: ['method', 'route', 'status_class'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: `${PREFIX}http_request_duration_seconds`,
      help: 'Time to answer an HTTP request (until the handler returned), by method, route pattern and status class.',
      labelNames: ['method', 'route', 'status_class'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    const checkLabels: (keyof CheckLabels)[] = ['check_id', 'check', 'type', 'canary'];
    this.checkDuration = new Histogram({
      name: `${PREFIX}check_duration_seconds`,
      help: 'How long each check took, for the runs this server made.',
      labelNames: checkLabels,
      buckets: CHECK_BUCKETS,
      registers,
    });
    this.checkRuns = new Counter({
      name: `${PREFIX}check_runs_total`,
      help: 'Check runs this server made, by check and result (pass or fail).',
      labelNames: [...checkLabels, 'result'],
      registers,
    });
    this.custom = new CustomMetrics(this.registry, PREFIX);
    this.snapshots = new Snapshots(db);
    this.jobs = new JobObserver(db, PREFIX, registers);
    this.databaseGauges(registers);
    this.poolGauges(registers);
  }

  /** The text a scraper reads. */
  async text(): Promise<string> {
    // The jobs recorded since the last scrape, observed into their histogram first.
    await this.jobs.catchUp().catch(() => this.snapshots.onError());
    const [app, proc] = await Promise.all([this.registry.metrics(), processMetrics().metrics()]);
    return `${app}\n${proc}`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = { method, route, status_class: `${Math.floor(status / 100)}xx` };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  }

  /** One check run: its duration and result, and the values its metrics[] gave (`custom`). */
  observeCheck(labels: CheckLabels, pass: boolean, durationMs: number, custom?: readonly Metric[]): void {
    if (custom?.length) this.custom.record(custom);
    const known = this.checkSeries.get(labels.check_id);
    if (!known || !sameCheck(known.labels, labels))
      this.checkSeries.set(labels.check_id, { labels, since: Date.now() });
    this.checkDuration.observe({ ...labels }, Math.max(0, durationMs) / 1000);
    this.checkRuns.inc({ ...labels, result: pass ? 'pass' : 'fail' });
  }

  /** Drops the series of checks no longer in the database (deleted, or renamed: new labels). */
  private forgetChecks(snapshot: Snapshot): void {
    const current = new Map(snapshot.checks.map((c) => [c.check_id, c]));
    for (const [id, { labels, since }] of this.checkSeries) {
      const now = current.get(id);
      // A snapshot read before the series began knows nothing of it yet.
      if (since >= snapshot.at || (now && sameCheck(now, labels))) continue;
      this.checkDuration.remove({ ...labels });
      for (const result of ['pass', 'fail']) this.checkRuns.remove({ ...labels, result });
      this.checkSeries.delete(id);
    }
  }

  /** Gauges set from one database snapshot at scrape time (at most one read per few seconds). */
  private databaseGauges(registers: Registry[]): void {
    const snap = () => this.snapshots.get();
    const gauge = <L extends string>(
      name: string,
      help: string,
      labelNames: L[],
      fill: (g: Gauge<L>, s: Snapshot) => void,
    ) =>
      new Gauge<L>({
        name: `${PREFIX}${name}`,
        help,
        labelNames,
        registers,
        async collect() {
          const s = await snap();
          this.reset();
          if (s) fill(this, s);
        },
      });
    const checkGaugeLabels: (keyof CheckLabels)[] = ['check_id', 'check', 'type', 'canary'];
    gauge(
      'check_status',
      '1 when the check passed its last run, 0 when it failed (database-wide).',
      checkGaugeLabels,
      (g, s) => {
        this.forgetChecks(s);
        for (const c of s.checks) if (c.healthy !== null) g.set(labelsOf(c), c.healthy ? 1 : 0);
      },
    );
    gauge(
      'check_last_run_timestamp_seconds',
      'When the check last ran (Unix time, database-wide).',
      checkGaugeLabels,
      (g, s) => {
        for (const c of s.checks) if (c.last_run !== null) g.set(labelsOf(c), c.last_run);
      },
    );
    gauge(
      'scheduler_due',
      'Scheduled rows due now and not yet claimed, per engine (health, topology, catalog).',
      ['engine'],
      (g, s) => {
        for (const e of s.schedulers) g.set({ engine: e.engine }, e.due);
      },
    );
    gauge(
      'scheduler_late',
      'Scheduled rows due for more than 10 seconds and not yet claimed, per engine.',
      ['engine'],
      (g, s) => {
        for (const e of s.schedulers) g.set({ engine: e.engine }, e.late);
      },
    );
    gauge(
      'scheduler_lag_seconds',
      'How long the oldest due, unclaimed row has waited, per engine (0 when none).',
      ['engine'],
      (g, s) => {
        for (const e of s.schedulers) g.set({ engine: e.engine }, e.lag);
      },
    );
    gauge('scheduler_running', 'Rows held by a replica’s lease (being run) now, per engine.', ['engine'], (g, s) => {
      for (const e of s.schedulers) g.set({ engine: e.engine }, e.running);
    });
    gauge('event_queue_pending', 'Events waiting for their first handling, by event name.', ['event'], (g, s) => {
      for (const e of s.events) g.set({ event: e.name }, e.pending);
    });
    gauge(
      'event_queue_failed',
      'Events whose last handling failed (retried or given up), by event name.',
      ['event'],
      (g, s) => {
        for (const e of s.events) g.set({ event: e.name }, e.failed);
      },
    );
    gauge(
      'event_queue_oldest_age_seconds',
      'Age of the oldest event still in the queue, by event name.',
      ['event'],
      (g, s) => {
        for (const e of s.events) g.set({ event: e.name }, e.oldest_age);
      },
    );
    gauge(
      'notification_sends_pending',
      'Notification sends waiting to be sent (including those waiting for a retry or a wait-for).',
      [],
      (g, s) => {
        g.set(s.notifications.pending);
      },
    );
    gauge(
      'notification_sends_due',
      'Pending notification sends whose time has come (not_before passed).',
      [],
      (g, s) => {
        g.set(s.notifications.due);
      },
    );
    gauge(
      'notification_send_lag_seconds',
      'How long the oldest due notification send has waited (0 when none).',
      [],
      (g, s) => {
        g.set(s.notifications.lag);
      },
    );
    gauge(
      'playbook_runs_pending',
      'Playbook runs due (pending or scheduled, their time passed) and not yet claimed.',
      [],
      (g, s) => {
        g.set(s.playbooks.due);
      },
    );
    gauge('playbook_runs_running', 'Playbook runs under way now.', [], (g, s) => {
      g.set(s.playbooks.running);
    });
    gauge(
      'playbook_run_lag_seconds',
      'How long the oldest due playbook run has waited to be claimed (0 when none).',
      [],
      (g, s) => {
        g.set(s.playbooks.lag);
      },
    );
    gauge('replicas', 'Replicas running engines on this database now (API-only replicas not counted).', [], (g, s) => {
      g.set(s.replicas);
    });
    const errors = new Counter({
      name: `${PREFIX}metrics_snapshot_errors_total`,
      help: 'Scrapes whose database read failed (the database gauges are then absent from that scrape).',
      registers,
    });
    this.snapshots.onError = () => errors.inc();
  }

  /** The database connections: the pg pool's counts, or PGlite's single connection. */
  private poolGauges(registers: Registry[]): void {
    const db = this.db;
    new Gauge({
      name: `${PREFIX}db_pool_connections`,
      help: 'Database connections by state: total (open), idle, busy. PGlite has one connection.',
      labelNames: ['state'],
      registers,
      collect() {
        const p = db.poolStats?.();
        if (!p) return;
        this.set({ state: 'total' }, p.total);
        this.set({ state: 'idle' }, p.idle);
        this.set({ state: 'busy' }, p.total - p.idle);
      },
    });
    new Gauge({
      name: `${PREFIX}db_pool_waiting`,
      help: 'Queries waiting for a free database connection.',
      registers,
      collect() {
        const p = db.poolStats?.();
        if (p) this.set(p.waiting);
      },
    });
    new Gauge({
      name: `${PREFIX}db_pool_max`,
      help: 'The most connections the pool opens (DATABASE_POOL_SIZE; 1 for PGlite).',
      registers,
      collect() {
        const p = db.poolStats?.();
        if (p) this.set(p.max);
      },
    });
  }
}

const sameCheck = (a: CheckLabels, b: CheckLabels) => a.check === b.check && a.type === b.type && a.canary === b.canary;

const labelsOf = (c: CheckLabels): CheckLabels => ({
  check_id: c.check_id,
  check: c.check,
  type: c.type,
  canary: c.canary,
});
