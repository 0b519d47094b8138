// Builds a running Opsdeck: config → database → migrations → schema cache → identity → HTTP server.
import { serve, type ServerType } from '@hono/node-server';
import net, { type AddressInfo } from 'node:net';
import { bootstrapAdmin, type BootstrapResult } from './auth/bootstrap.js';
import { createIdentity, serverSecret, type Identity } from './auth/identity.js';
import { loadConfig, type Config } from './config.js';
import { openPglite, openPostgres, type Database } from './db/database.js';
import { introspect, type SchemaCache } from './db/introspect.js';
import { migrate } from './db/migrate.js';
import { checkers } from './health/checkers/index.js';
import { HealthEngine } from './health/engine.js';
import { IncidentEngine } from './incidents/engine.js';
import { PlaybookRunner } from './playbooks/runner.js';
import { PlaybookScheduleTrigger } from './playbooks/scheduleTrigger.js';
import { PlaybookTriggerConsumer } from './playbooks/triggerConsumer.js';
import { EventRouter } from './jobs/eventQueue.js';
import { rollupCheckStatuses } from './health/rollup.js';
import { SketchEdgeJob } from './health/edgeJob.js';
import { RetentionRunner } from './retention/runner.js';
import { EmbeddedMaintenance } from './db/embeddedMaintenance.js';
import { seedDemo } from './demo/index.js';
import { createHttpApp } from './http/app.js';
import { TopologyEngine } from './topology/engine.js';
import { CatalogEngine } from './catalog/engine.js';
import { seedCatalogDemo, startDemoRotator } from './catalog/demo.js';
import { scrapers } from './catalog/scrapers/index.js';
import { registry as defaultRegistry, type ExposureRegistry } from './rest/registry.js';
import { NotificationConsumer } from './notifications/consumer.js';
import { NotificationDelivery } from './notifications/delivery.js';
import { serverChannels } from './notifications/deliveryTargets.js';
import { SecretBox } from './secrets.js';
import { VERSION } from './version.js';
import { logger, setLogLevel } from './log.js';
import { Metrics } from './metrics/registry.js';
import type { Lifecycle } from './metrics/routes.js';
import { releaseLeases, within } from './shutdown.js';
import { LeaseHeartbeat } from './jobs/heartbeat.js';
import { ReplicaPresence } from './jobs/replicas.js';
import { stopReleasing, watchMemory } from './memory.js';

export interface AppContext {
  config: Config;
  db: Database;
  registry: ExposureRegistry;
  /** Current schema cache; replaced by reloadSchema() after migrations. */
  schema: SchemaCache;
  reloadSchema(): Promise<void>;
  identity: Identity;
  /** Seals secret columns on their way into the database (see secrets.ts). */
  secrets: SecretBox;
  health: HealthEngine;
  topology: TopologyEngine;
  catalog: CatalogEngine;
  /** Renews every lease this replica holds, in one statement per LEASE_HEARTBEAT_MS (jobs/heartbeat.ts). */
  leases: LeaseHeartbeat;
  /** This replica's row in `replicas`, kept while its engines run (jobs/replicas.ts). */
  replicas: ReplicaPresence;
  /** The event queue's consumers (notifications, playbook triggers) register here; started with the engines. */
  events: EventRouter;
  version: string;
  /** What /metrics serves (metrics/registry.ts). */
  metrics: Metrics;
  /** Draining once shutdown began (/readyz answers 503). */
  lifecycle: Lifecycle;
}

export interface Opsdeck {
  url: string;
  port: number;
  ctx: AppContext;
  /** What start-up did about the first administrator. */
  admin: BootstrapResult;
  /**
   * Stops: new requests refused first (/readyz 503, listener closed), then the engines, within
   * `timeoutMs` when given (what is still under way is then handed back to the other replicas:
   * leases released, running playbook actions marked for retry), then the database.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
}

export interface StartOptions extends Partial<Config> {
  /** Replaces the built-in exposure registry (tests that expose fixture tables). */
  registry?: ExposureRegistry;
  /** Use this already-open database instead of opening one from the config. */
  database?: Database;
}

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databasePoolSize, config.statementTimeoutMs);
  return openPglite(config.dataDir, undefined, { sharedBuffers: config.pgliteSharedBuffers });
}

/** Port 0 means "any free port": pick it now, so the public URL (links, OIDC callbacks) is known. */
async function resolvePort(host: string, port: number): Promise<number> {
  if (port !== 0) return port;
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, host, () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
    probe.on('error', reject);
  });
}

export async function createContext(options: StartOptions = {}): Promise<AppContext> {
  const { registry, database, ...overrides } = options;
  const base = loadConfig(overrides);
  const port = await resolvePort(base.host, base.port);
  const explicitUrl = overrides.publicUrl ?? process.env.PUBLIC_URL;
  const publicHost = base.host === '0.0.0.0' || base.host === '::' ? 'localhost' : base.host;
  const config: Config = { ...base, port, publicUrl: explicitUrl ? base.publicUrl : `http://${publicHost}:${port}` };
  setLogLevel(config.logLevel);
  const db = database ?? (await openDatabase(config));
  try {
    await migrate(db);
    const leases = new LeaseHeartbeat(db, { leaseMs: config.leaseMs, everyMs: config.leaseHeartbeatMs });
    const replicas = new ReplicaPresence(db, { everyMs: leases.everyMs, version: VERSION, mode: config.mode });
    const ctx: AppContext = {
      config,
      db,
      registry: registry ?? defaultRegistry,
      schema: await introspect(db),
      identity: await createIdentity(config, db),
      secrets: new SecretBox(config.encryptionKey ?? (await serverSecret(db, 'encryption_key'))),
      health: new HealthEngine(db, checkers, { leases, replicas }),
      topology: new TopologyEngine(db, checkers, { leases }),
      catalog: new CatalogEngine(db, scrapers, { leases }),
      leases,
      replicas,
      // PGlite: one connection, and a batch's transaction holds it; small batches let delivery in between.
      events: new EventRouter(db, { batchSize: db.kind === 'pglite' ? 25 : 50 }),
      version: VERSION,
      metrics: new Metrics(db, { version: VERSION }),
      lifecycle: { draining: false },
      async reloadSchema() {
        ctx.schema = await introspect(db);
      },
    };
    // PGlite runs one transaction at a time: no advisory locks needed between replicas.
    ctx.events.register(new NotificationConsumer({ publicUrl: config.publicUrl, advisoryLocks: db.kind !== 'pglite' }));
    if (config.mode !== 'health') ctx.events.register(new PlaybookTriggerConsumer());
    ctx.health.onResult = (check, canary, r) =>
      ctx.metrics.observeCheck(
        { check_id: check.id, check: check.name, type: check.type, canary: `${canary.namespace}/${canary.name}` },
        r.pass,
        r.durationMs,
        r.metrics,
      );
    return ctx;
  } catch (e) {
    if (!database) await db.close().catch(() => undefined);
    throw e;
  }
}

const ROLLUP_EVERY_MS = 5 * 60_000;

/** Starts the background engines when configured; returns how to stop them (by a deadline, ms since epoch). */
async function startEngines(ctx: AppContext): Promise<(deadline?: number) => Promise<void>> {
  if (!ctx.config.engines) return async () => undefined;
  // Seen by the other replicas before this one claims anything (a failure here is logged, not fatal).
  await ctx.replicas.start();
  // (Each engine drops the leases a previous process left in an embedded database when it starts.)
  ctx.health.start();
  // OPSDECK_MODE=health: only the health engine (and the notifications of its checks) run.
  const full = ctx.config.mode !== 'health';
  if (full) ctx.topology.start();
  if (full) ctx.catalog.start();
  ctx.events.start();
  const stopRotator =
    ctx.db.kind === 'pglite' && ctx.config.demo ? startDemoRotator(ctx.config.dataDir) : () => undefined;
  // Incident rules and definition-of-done scripts, every 15 s on the replica holding the lease.
  const incidents = new IncidentEngine(ctx.db, { leases: ctx.leases });
  if (full) incidents.start();
  // Playbook runs, claimed within a second of being requested (leases in playbook_runs).
  const playbooks = new PlaybookRunner(ctx.db, {
    mailer: ctx.identity.mailer,
    smtpFrom: ctx.config.smtpFrom,
    leases: ctx.leases,
  });
  if (full) playbooks.start();
  // on.schedule: due schedules queue their runs (one replica each, rows locked in one transaction).
  const playbookSchedules = new PlaybookScheduleTrigger(ctx.db);
  if (full) playbookSchedules.start();
  // Notifications: the pending send-history rows the consumer writes, sent under leases.
  const delivery = new NotificationDelivery(ctx.db, {
    channels: serverChannels,
    smtp: { url: ctx.config.smtpUrl, from: ctx.config.smtpFrom },
    leases: ctx.leases,
  });
  delivery.start();
  const rollups = setInterval(() => {
    rollupCheckStatuses(ctx.db, undefined, ctx.config.checkRetentionDays).catch((e) =>
      logger('health').error(`check status roll-up: ${(e as Error).message}`),
    );
  }, ROLLUP_EVERY_MS);
  rollups.unref();
  // The summary's edges (two edges per check answer any range), one replica at a time.
  const edges = new SketchEdgeJob(ctx.db, ctx.config.retentionDays.check_statuses_1d, (e) =>
    logger('health').error(`summary edges: ${e.message}`),
  );
  edges.start();
  // Retention of every growing table (RETENTION_*_DAYS), each table under its own lease (retention/).
  const retention = new RetentionRunner(ctx.db, { days: ctx.config.retentionDays, leases: ctx.leases });
  retention.start();
  // The embedded database's VACUUM and ANALYZE (PGlite has no autovacuum; db/embeddedMaintenance.ts).
  const maintenance = new EmbeddedMaintenance(ctx.db);
  maintenance.start();
  return async (deadline = Infinity) => {
    clearInterval(rollups);
    stopRotator();
    // All at once, so a long check does not keep a playbook action running: runs under way go back
    // to the queue with their action marked for retry (release), not failed.
    const stopped = Promise.allSettled([
      retention.stop(),
      maintenance.stop(),
      edges.stop(),
      ctx.health.stop(),
      ctx.topology.stop(),
      ctx.catalog.stop(),
      ctx.events.stop(),
      incidents.stop(),
      playbookSchedules.stop(),
      playbooks.stop({ release: true }),
      delivery.stop(),
    ]);
    if (!(await within(stopped, deadline))) {
      // Not done in time: what this replica still holds goes to the others at their next poll.
      const owners = [ctx.health.owner, ctx.topology.owner, ctx.catalog.owner];
      await releaseLeases(ctx.db, { schedulers: owners, notifications: delivery.owner }).catch(() => undefined);
      await playbooks.releaseAll().catch(() => undefined);
      // What was handed back is no longer ours to renew.
      ctx.leases.close();
    }
    // The other replicas stop counting this one.
    await within(ctx.replicas.stop(), deadline);
  };
}

export async function startOpsdeck(options: StartOptions = {}): Promise<Opsdeck> {
  const ctx = await createContext(options);
  const admin = await bootstrapAdmin(ctx.config, ctx.db, () => ctx.identity.auth());
  // Demo data goes only into an embedded database Opsdeck opened itself (DATA_DIR): a production
  // PostgreSQL, or a database handed in by a test or tool, stays clean.
  if (ctx.config.demo && ctx.db.kind === 'pglite' && !options.database) await seedDemo(ctx);
  if (ctx.config.demo && ctx.db.kind === 'pglite' && !options.database)
    await seedCatalogDemo(ctx.db, ctx.config.dataDir, scrapers);
  const app = createHttpApp(ctx);
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: ctx.config.port, hostname: ctx.config.host }, () => resolve(s));
    s.once('error', reject);
  });
  // Node's default (5 s) is shorter than a proxy's idle timeout: a request the proxy (or any
  // keep-alive client) sends just as the server closes the idle connection would be reset.
  const http = server as { keepAliveTimeout?: number; headersTimeout?: number };
  http.keepAliveTimeout = ctx.config.keepAliveTimeoutMs;
  http.headersTimeout = Math.max(http.headersTimeout ?? 0, ctx.config.keepAliveTimeoutMs + 1_000);
  const port = (server.address() as AddressInfo).port;
  const host = ctx.config.host === '0.0.0.0' ? '127.0.0.1' : ctx.config.host;
  const stopEngines = await startEngines(ctx);
  // Gives memory back once the process is quiet again: V8's young generation, dead Buffers (memory.ts).
  const stopWatchingMemory = watchMemory();
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    admin,
    async close(closeOptions = {}) {
      const deadline = closeOptions.timeoutMs === undefined ? Infinity : Date.now() + closeOptions.timeoutMs;
      // New requests first: /readyz answers 503, the listener closes (requests under way finish).
      ctx.lifecycle.draining = true;
      stopWatchingMemory();
      stopReleasing();
      const listenerClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      await stopEngines(deadline);
      if (!(await within(listenerClosed, deadline)))
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      await ctx.health.closeSummaryViews();
      if (!options.database) await within(ctx.db.close(), deadline);
    },
  };
}
