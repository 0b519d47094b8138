// Health-only mode (OPSDECK_MODE=health, common/src/modes.ts): the API routes and /api/db relations
// and functions of absent areas (topology, incidents, catalog, logs, playbooks, integrations) answer
// 404 as if they did not exist. Mounted on /api before the routes; nothing to do in full mode.
import type { MiddlewareHandler } from 'hono';
import { featureAbsent, resourceAbsent, type Mode } from '@opsdeck/common/modes';
import type { Feature } from '@opsdeck/common';
import { errorBody, HttpError } from '../auth/middleware.js';
import type { ExposureRegistry } from '../rest/registry.js';

/** The service routes of each area, by path prefix under /api. */
export const AREA_PREFIXES: readonly [string, Feature][] = [
  ['/api/topology', 'topology'],
  ['/api/snapshot', 'topology'],
  ['/api/incidents', 'incidents'],
  ['/api/catalog', 'config'],
  ['/api/resources', 'config'],
  ['/api/logs', 'logs'],
  ['/api/logging_backends', 'logs'],
  ['/api/playbook', 'playbooks'],
  ['/api/artifacts', 'playbooks'],
];

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** Whether a request path belongs to an area this mode does not have. */
export function pathAbsent(mode: Mode, path: string, registry: ExposureRegistry): boolean {
  if (mode === 'full') return false;
  for (const [prefix, feature] of AREA_PREFIXES) if (under(path, prefix)) return featureAbsent(mode, feature);
  const db = /^\/api\/db\/(rpc\/)?([^/?]+)/.exec(path);
  if (!db) return false;
  const name = decodeURIComponent(db[2]!);
  if (db[1]) {
    const fn = registry.functions.get(name);
    return !!fn && resourceAbsent(mode, fn.resource);
  }
  const relation = registry.relations.get(name);
  if (!relation) return false;
  const write = relation.writeResource;
  return resourceAbsent(mode, relation.resource) || (!!write && resourceAbsent(mode, write));
}

/** The gate; `ctx.registry` is read at each request (tests replace it). */
export function modeGate(mode: Mode, ctx: { registry: ExposureRegistry }): MiddlewareHandler {
  return async (c, next) => {
    if (mode === 'full' || !pathAbsent(mode, c.req.path, ctx.registry)) return next();
    const err = new HttpError(404, 'NOT_FOUND', `No API endpoint at ${c.req.method} ${c.req.path}`);
    return c.json(errorBody(err), 404);
  };
}
