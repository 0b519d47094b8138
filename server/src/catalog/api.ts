// /api/catalog: apply ScrapeConfigs from YAML or JSON, read one back as YAML, delete one (its items
// stay with their history), run one now. The same request and response shapes as /api/canary.
import { Hono } from 'hono';
import { stringify } from 'yaml';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { parseDocuments, ResourceError, ResourceErrors, resourceErrorBody } from '../resources/yaml.js';
import type { CatalogEngine } from './engine.js';
import { parseScrapeConfig, type ScrapeConfigDefinition } from './scrapeConfig.js';
import type { Scraper } from './scraper.js';
import { applyScrapeConfig, deleteScrapeConfig } from './store.js';

interface Deps {
  db: Database;
  identity: Identity;
  scrapers: ReadonlyMap<string, Scraper>;
  engine: CatalogEngine;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function scraperId(id: string): string {
  if (!UUID.test(id)) throw new HttpError(404, 'NOT_FOUND', 'No such scraper.');
  return id;
}

/** Reads the body as text and applies every ScrapeConfig in it (all validated before any is stored). */
async function applyText(text: string, deps: Deps, createdBy: string) {
  const docs = parseDocuments(text);
  if (docs.length === 0)
    throw new ResourceErrors([new ResourceError('the document is empty: paste a ScrapeConfig resource')]);
  const defs: ScrapeConfigDefinition[] = docs.map((d) => parseScrapeConfig(d, deps.scrapers));
  const applied = [];
  for (const def of defs) {
    const r = await applyScrapeConfig(deps.db, def, { source: 'UI', createdBy });
    applied.push({
      id: r.id,
      name: def.name,
      namespace: def.namespace,
      created: r.created,
      scrapers: def.scrapers.length,
    });
  }
  return { applied };
}

export function catalogRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity, engine } = deps;

  app.onError((err, c) => {
    const body = resourceErrorBody(err);
    if (body) return c.json(body, 400);
    throw err;
  });

  // Apply scrapers: YAML or JSON text (one or more documents).
  app.post('/', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'config_scrapers', 'write');
    return c.json(await applyText(await c.req.text(), deps, principal.id), 201);
  });

  app.get('/:id/spec', async (c) => {
    await requirePermission(identity, c.get('principal'), 'config_scrapers', 'read');
    const { rows } = await db.query<{ spec: unknown }>(
      'SELECT spec FROM config_scrapers WHERE id = $1 AND deleted_at IS NULL',
      [scraperId(c.req.param('id'))],
    );
    if (!rows[0]) throw new HttpError(404, 'NOT_FOUND', 'No such scraper.');
    // jsonb keeps keys in its own order: write the resource's usual order back.
    const { apiVersion, kind, metadata, spec, ...rest } = rows[0].spec as Record<string, unknown>;
    return c.body(stringify({ apiVersion, kind, metadata, spec, ...rest }), 200, {
      'content-type': 'application/yaml; charset=utf-8',
    });
  });

  app.delete('/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'config_scrapers', 'write');
    if (!(await deleteScrapeConfig(db, scraperId(c.req.param('id')))))
      throw new HttpError(404, 'NOT_FOUND', 'No such scraper.');
    return c.body(null, 204);
  });

  // Run now: scrapes and answers with what the run did.
  app.post('/run/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'config_scrapers', 'write');
    const result = await engine.runNow(scraperId(c.req.param('id')));
    if (result === 'not-found') throw new HttpError(404, 'NOT_FOUND', 'No such scraper.');
    if (result === 'busy')
      throw new HttpError(409, 'BUSY', 'This scraper is running right now; try again in a moment.');
    return c.json(result);
  });

  return app;
}
