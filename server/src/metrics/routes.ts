// The operator's endpoints, outside /api and without a session: /metrics (Prometheus text; a bearer
// token when METRICS_TOKEN is set), /healthz (the process serves) and /readyz (the database answers
// and every migration is applied; 503 with a reason otherwise, and while the server drains).
import { timingSafeEqual } from 'node:crypto';
import { Hono, type Env } from 'hono';
import type { Database } from '../db/database.js';
import { loadMigrations } from '../db/migrate.js';
import { errorText } from '../log.js';
import type { Metrics } from './registry.js';

/** A readiness probe waits this long for the database before answering 503. */
const READY_TIMEOUT_MS = 2_000;

export interface Lifecycle {
  /** Set when shutdown begins: /readyz answers 503 so load balancers stop sending requests. */
  draining: boolean;
}

export type Readiness = { ready: true } | { ready: false; reason: string };

/** Whether this server can serve: not draining, the database answers, every migration applied. */
export async function readiness(db: Database, lifecycle: Lifecycle, versions: number[]): Promise<Readiness> {
  if (lifecycle.draining) return { ready: false, reason: 'the server is shutting down' };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
  });
  try {
    const { rows } = await Promise.race([
      db.query<{ version: number }>('SELECT version FROM schema_migrations WHERE version = ANY($1::int[])', [versions]),
      timeout,
    ]);
    const applied = new Set(rows.map((r) => Number(r.version)));
    const missing = versions.filter((v) => !applied.has(v));
    if (missing.length) return { ready: false, reason: `migrations not applied: ${missing.join(', ')}` };
    return { ready: true };
  } catch (e) {
    return { ready: false, reason: `database unreachable: ${errorText(e)}` };
  } finally {
    clearTimeout(timer);
  }
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function operatorRoutes<E extends Env>(deps: {
  db: Database;
  metrics: Metrics;
  lifecycle: Lifecycle;
  metricsToken: string | undefined;
}): Hono<E> {
  const app = new Hono<E>();
  const versions = loadMigrations().map((m) => m.version);

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', async (c) => {
    const r = await readiness(deps.db, deps.lifecycle, versions);
    if (r.ready) return c.json({ status: 'ready' });
    return c.json({ status: 'not ready', reason: r.reason }, 503);
  });

  app.get('/metrics', async (c) => {
    if (deps.metricsToken) {
      const auth = c.req.header('authorization') ?? '';
      const m = /^Bearer\s+(.+)$/i.exec(auth);
      if (!m || !sameToken(m[1]!.trim(), deps.metricsToken)) {
        c.header('WWW-Authenticate', 'Bearer realm="metrics"');
        return c.json(
          {
            error: 'Unauthorized',
            message: 'This server requires METRICS_TOKEN for /metrics: send it as "Authorization: Bearer <token>".',
            code: 'UNAUTHORIZED',
          },
          401,
        );
      }
    }
    const text = await deps.metrics.text();
    return c.body(text, 200, { 'Content-Type': deps.metrics.contentType, 'Cache-Control': 'no-store' });
  });

  return app;
}
