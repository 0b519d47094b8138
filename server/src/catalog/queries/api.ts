// The catalog's read endpoints: /api/catalog/summary, /api/catalog/changes, the manual
// config-links of /api/catalog/config-links, and /api/resources/search (spec/2 §7).
import type { Resource } from '@opsdeck/common';
import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { Identity } from '../../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../../auth/middleware.js';
import type { Database } from '../../db/database.js';
import { catalogChanges, changesRequestSchema } from './changes.js';
import { linkConfig, linkRequestSchema, unlinkConfig } from './links.js';
import { requestedAreas, searchArea, searchRequestSchema, type SearchArea } from './search.js';
import { QueryInputError } from './sqlParts.js';
import { catalogSummary, summaryRequestSchema } from './summary.js';

interface Deps {
  db: Database;
  identity: Identity;
}

/** Reads a JSON body and validates it; every problem becomes a 400 a person can act on. */
async function body<T>(c: Context<AuthEnv>, schema: z.ZodType<T>, what: string): Promise<T> {
  let data: unknown;
  const text = await c.req.text();
  try {
    data = text.trim() === '' ? {} : JSON.parse(text);
  } catch {
    throw new HttpError(400, 'VALIDATION', `The body of ${what} must be a JSON object.`);
  }
  const parsed = schema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  throw new HttpError(400, 'VALIDATION', `${what}: ${where}${issue.message}`, issue.path.join('.') || undefined);
}

/** Query-building problems (unknown fields, bad times, unknown severities) as 400s. */
function onQueryError(err: Error) {
  if (err instanceof QueryInputError) return new HttpError(400, 'VALIDATION', err.message, err.field);
  return err;
}

export function catalogQueryRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity } = deps;

  app.post('/summary', async (c) => {
    await requirePermission(identity, c.get('principal'), 'config_scrapers', 'read');
    const req = await body(c, summaryRequestSchema, 'catalog summary');
    try {
      return c.json(await catalogSummary(db, req));
    } catch (e) {
      throw onQueryError(e as Error);
    }
  });

  app.post('/changes', async (c) => {
    await requirePermission(identity, c.get('principal'), 'config_scrapers', 'read');
    const req = await body(c, changesRequestSchema, 'catalog changes');
    try {
      return c.json(await catalogChanges(db, req));
    } catch (e) {
      throw onQueryError(e as Error);
    }
  });

  app.post('/config-links', async (c) => {
    await requirePermission(identity, c.get('principal'), 'topologies', 'write');
    const req = await body(c, linkRequestSchema, 'config link');
    const result = await linkConfig(db, req);
    if ('missing' in result)
      throw new HttpError(
        404,
        'NOT_FOUND',
        result.missing === 'component' ? 'No such component.' : 'No such catalog item.',
        result.missing === 'component' ? 'component_id' : 'config_id',
      );
    return c.json({ ...req, selector_id: 'manual', created: result.created }, result.created ? 201 : 200);
  });

  app.delete('/config-links', async (c) => {
    await requirePermission(identity, c.get('principal'), 'topologies', 'write');
    const req = await body(c, linkRequestSchema, 'config link');
    if (!(await unlinkConfig(db, req)))
      throw new HttpError(404, 'NOT_FOUND', 'There is no manual link between this component and this catalog item.');
    return c.body(null, 204);
  });

  return app;
}

const AREA_RESOURCE: Record<SearchArea, Resource> = {
  checks: 'canaries',
  components: 'topologies',
  configs: 'config_scrapers',
};

export function resourceSearchRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity } = deps;

  app.post('/search', async (c) => {
    const principal = c.get('principal');
    const req = await body(c, searchRequestSchema, 'resource search');
    const named = ['checks', 'components', 'configs'].some((a) => a in req);
    const out: Record<SearchArea, unknown[]> = { checks: [], components: [], configs: [] };
    for (const area of requestedAreas(req)) {
      try {
        await requirePermission(identity, principal, AREA_RESOURCE[area], 'read');
      } catch (e) {
        // Areas asked for by name must be readable; in a search of everything, unreadable ones stay empty.
        if (named || !(e instanceof HttpError)) throw e;
        continue;
      }
      out[area] = await searchArea(db, area, req.search, req[area], req.limit);
    }
    return c.json(out);
  });

  return app;
}
