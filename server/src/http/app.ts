// HTTP wiring: authentication for /api, identity and data endpoints, the web console for the rest.
import { Hono } from 'hono';
import type { AppContext } from '../app.js';
import { agentRoutes, upstreamRoutes } from '../agents/api.js';
import { authenticate, errorBody, HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import { auditRoutes } from '../audit/api.js';
import { auditTrail } from '../audit/middleware.js';
import { identityRoutes } from '../auth/routes.js';
import { catalogQueryRoutes, resourceSearchRoutes } from '../catalog/queries/api.js';
import { catalogRoutes } from '../catalog/api.js';
import { scrapers } from '../catalog/scrapers/index.js';
import { healthRoutes } from '../health/api.js';
import { incidentRoutes } from '../incidents/api.js';
import { setActor } from '../incidents/service.js';
import { eventQueueRoutes } from '../jobs/eventQueueApi.js';
import { checkers } from '../health/checkers/index.js';
import { connectionRoutes } from '../connections/api.js';
import { connectionWriteGuard } from '../connections/writeGuard.js';
import { loggingBackendRoutes, logsRoutes } from '../logs/api.js';
import { loggingBackendWriteGuard } from '../logs/writeGuard.js';
import { notificationRoutes } from '../notifications/api.js';
import { notificationWriteGuards } from '../notifications/writeGuards.js';
import { playbookRoutes } from '../playbooks/api.js';
import { artifactRoutes } from '../playbooks/actionsApi.js';
import { ApiError } from '../rest/errors.js';
import { restRoutes } from '../rest/handler.js';
import { createdElsewhere, type WriteGuard } from '../rest/writeGuards.js';
import { incidentRuleWriteGuard } from '../incidents/writeGuard.js';
import { agentWriteGuard } from '../agents/writeGuard.js';
import { topologyRoutes } from '../topology/api.js';
import { snapshotRoutes } from '../topology/snapshot.js';
import { maintenanceOccurrences } from '../maintenance/windows.js';
import { maintenanceRoutes } from '../maintenance/api.js';
import { maintenanceWriteGuard } from '../maintenance/writeGuard.js';
import { canaryDbWrites } from '../health/writeGuard.js';
import { topologyDbWrites } from '../topology/writeGuard.js';
import { scrapeConfigDbWrites } from '../catalog/writeGuard.js';
import { publicStatusRoutes, statusPageRoutes } from '../statuspages/api.js';
import { statusPageWriteGuard } from '../statuspages/writeGuard.js';
import { dbDeleteRules } from '../resources/dbDeletes.js';
import { serveWeb } from './static.js';
import { modeGate } from './mode.js';
import { logger } from '../log.js';
import { requestInstrumentation } from '../metrics/http.js';
import { operatorRoutes } from '../metrics/routes.js';

export function createHttpApp(ctx: AppContext): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { identity, config } = ctx;

  // A request id on every request (and its log lines), one access-log line, the request metrics.
  app.use('*', requestInstrumentation(ctx.metrics));
  // Shutting down: every answer closes its connection, so the listener closes once the requests
  // under way are answered (an idle keep-alive connection would last HTTP_KEEP_ALIVE_TIMEOUT_MS).
  app.use('*', async (c, next) => {
    await next();
    if (ctx.lifecycle.draining) c.header('Connection', 'close');
  });
  // /metrics, /healthz, /readyz: outside /api, without a session (METRICS_TOKEN guards /metrics).
  app.route(
    '/',
    operatorRoutes<AuthEnv>({
      db: ctx.db,
      metrics: ctx.metrics,
      lifecycle: ctx.lifecycle,
      metricsToken: config.metricsToken,
    }),
  );

  // OPSDECK_MODE=health: the other areas' routes and /api/db relations answer 404 (http/mode.ts).
  app.use('/api/*', modeGate(config.mode, ctx));
  app.use('/api/*', authenticate(identity, config.publicUrl, config.trustProxy));
  // Changes (applies, /api/db writes, roles, tokens, agents) go to the audit trail (audit/).
  app.use(
    '/api/*',
    auditTrail({ db: ctx.db, schema: () => ctx.schema, registry: ctx.registry, trustProxy: config.trustProxy }),
  );

  app.get('/api/about', (c) =>
    c.json({
      version: ctx.version,
      database: ctx.db.kind,
      mode: config.mode,
      uptime_seconds: Math.round(process.uptime()),
    }),
  );

  app.get('/api/properties', async (c) => {
    await requirePermission(identity, c.get('principal'), 'properties', 'read');
    const { rows } = await ctx.db.query(
      'SELECT name, value, created_by, created_at, updated_at FROM properties ORDER BY name',
    );
    return c.json(rows);
  });

  app.route('/api', identityRoutes({ config, db: ctx.db, identity }));
  app.route('/api/canary', healthRoutes({ db: ctx.db, identity, checkers, engine: ctx.health }));
  app.route('/api/topology', topologyRoutes({ db: ctx.db, identity, checkers, engine: ctx.topology }));
  app.route(
    '/api/incidents',
    incidentRoutes({
      db: ctx.db,
      identity,
      mailer: identity.mailer,
      smtpFrom: config.smtpFrom,
      publicUrl: config.publicUrl,
    }),
  );
  app.route('/api/catalog', catalogQueryRoutes({ db: ctx.db, identity }));
  app.route('/api/catalog', catalogRoutes({ db: ctx.db, identity, scrapers, engine: ctx.catalog }));
  app.route('/api/resources', resourceSearchRoutes({ db: ctx.db, identity }));
  app.route('/api/snapshot', snapshotRoutes({ db: ctx.db, identity }));
  app.route('/api/playbook', playbookRoutes({ db: ctx.db, identity, secrets: ctx.secrets }));
  app.route('/api/artifacts', artifactRoutes({ db: ctx.db, identity }));
  app.route('/api/notification', notificationRoutes({ db: ctx.db, identity }));
  app.route('/api/connection', connectionRoutes({ db: ctx.db, identity }));
  app.route('/api/event-queue', eventQueueRoutes({ db: ctx.db }));
  app.route('/api/logs', logsRoutes({ db: ctx.db, identity }));
  app.route('/api/logging_backends', loggingBackendRoutes({ db: ctx.db, identity }));
  app.route('/api/agent', agentRoutes({ db: ctx.db, identity }));
  app.route('/api/upstream', upstreamRoutes({ db: ctx.db, identity, rate: ctx.config.agentPushRate }));
  app.route('/api/audit', auditRoutes({ db: ctx.db, identity }));
  const statusPages = publicStatusRoutes({
    db: ctx.db,
    identity,
    maintenance: maintenanceOccurrences,
    cacheMs: config.statusPageCacheMs,
  });
  app.route('/api/status-page', statusPageRoutes({ db: ctx.db, identity }));
  app.route('/api/maintenance-window', maintenanceRoutes({ db: ctx.db, identity }));
  app.route('/api', statusPages.api);
  app.route('/status', statusPages.html);

  // Applied resources written as rows (resources/dbWrites.ts): checked and stored like the apply endpoints'.
  const resourceWrites = {
    canaries: canaryDbWrites(ctx.db, checkers),
    topologies: topologyDbWrites(ctx.db, checkers),
    config_scrapers: scrapeConfigDbWrites(ctx.db, scrapers),
  };
  app.route(
    '/api/db',
    restRoutes<AuthEnv>(ctx, {
      // Every resource the request reads or writes, embeds included, is checked against the caller's roles.
      async authorize(c, access) {
        const principal = c.get('principal');
        for (const { resource, action } of access) {
          try {
            await requirePermission(identity, principal, resource, action);
          } catch (e) {
            if (!(e instanceof HttpError)) throw e;
            const disabled = e.code === 'FEATURE_DISABLED';
            throw new ApiError(
              403,
              disabled ? 'FEATURE_DISABLED' : '42501',
              disabled ? e.message : `permission denied: your role cannot ${action} ${resource}`,
              null,
              disabled ? 'An administrator can turn it on again under Settings → Feature Flags.' : null,
            );
          }
        }
      },
      // The triggers of 0011 attribute rows and the incident changelog to the caller.
      beforeWrite: (tx, c) => setActor(tx, c.get('principal').id),
      // Rows of these relations are validated like the service endpoints' (rest/writeGuards.ts).
      writeGuards: new Map<string, WriteGuard>([
        ['connections', connectionWriteGuard],
        ['logging_backends', loggingBackendWriteGuard],
        ['status_pages', statusPageWriteGuard],
        ['maintenance_windows', maintenanceWriteGuard],
        ['incident_rules', incidentRuleWriteGuard],
        ['agents', agentWriteGuard],
        ['access_tokens', createdElsewhere('access_tokens', 'POST /api/tokens (revoke: DELETE /api/tokens/{id})')],
        // A check is one entry of its canary's spec: written alone it would never run.
        [
          'checks',
          createdElsewhere('checks', "its canary's spec (POST /api/canary or /api/db/canaries)", [
            'spec',
            'type',
            'canary_id',
          ]),
        ],
        ...notificationWriteGuards(),
        ...Object.entries(resourceWrites).map(([table, w]) => [table, w.guard] as const),
      ]),
      writeSyncs: new Map(Object.entries(resourceWrites).map(([table, w]) => [table, w.sync] as const)),
      // A DELETE of a guarded relation is its delete endpoint's (resources/dbDeletes.ts).
      deleteRules: dbDeleteRules(ctx.db),
      afterWrite(relation) {
        if (relation === 'properties') identity.featuresChanged();
      },
    }),
  );

  app.all('/api/*', (c) =>
    c.json(errorBody(new HttpError(404, 'NOT_FOUND', `No API endpoint at ${c.req.method} ${c.req.path}`)), 404),
  );

  app.onError((err, c) => {
    if (err instanceof HttpError) return c.json(errorBody(err), err.status);
    logger('http').error({ err }, `${c.req.method} ${c.req.path} failed`);
    return c.json({ error: 'Internal server error', message: 'Internal server error', code: 'INTERNAL' }, 500);
  });

  serveWeb(app, config.webDir);
  return app;
}
