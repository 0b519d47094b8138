// Every HTTP request: its id (X-Request-Id, honoured when the client sent a sane one, made up
// otherwise, returned in the answer and on each log line written while serving it), one access-log
// line, and the request metrics by route pattern (Hono's matched route, never the raw path, so the
// number of series stays bounded).
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { logger, requestIdFrom, withRequestId } from '../log.js';
import type { Metrics } from './registry.js';

const access = logger('http');

/** Routes whose access lines go at debug, not info: probes and scrapes arrive every few seconds. */
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** The route pattern that answered: `/api/canary/:id`, `/api/*` for the API's 404, `*` for the console. */
function routeOf(c: Context): string {
  try {
    return routePath(c) || 'unmatched';
  } catch {
    return 'unmatched';
  }
}

export function requestInstrumentation(metrics: Metrics): MiddlewareHandler {
  return async (c, next) => {
    const requestId = requestIdFrom(c.req.header('x-request-id'));
    const started = process.hrtime.bigint();
    await withRequestId(requestId, async () => {
      try {
        await next();
      } finally {
        c.header('X-Request-Id', requestId);
        const seconds = Number(process.hrtime.bigint() - started) / 1e9;
        const route = routeOf(c);
        const status = c.res.status;
        metrics.observeRequest(c.req.method, route, status, seconds);
        const line = { method: c.req.method, route, path: c.req.path, status, ms: Math.round(seconds * 10_000) / 10 };
        if (QUIET_ROUTES.has(route)) access.debug(line, 'request');
        else access.info(line, 'request');
      }
    });
  };
}
