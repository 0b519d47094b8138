// /api/catalog: apply ScrapeConfigs from YAML or JSON, read one back as YAML, delete one (its items
// stay with their history), run one now. The same request and response shapes as /api/canary.
import { Hono } from 'hono';
import type { Identity } from '../auth/identity.js';
import type { AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { addResourceRoutes, inResourceOrder } from '../resources/routes.js';
import type { CatalogEngine } from './engine.js';
import { parseScrapeConfigChecked } from './scrapeConfig.js';
import type { Scraper } from './scraper.js';
import { applyScrapeConfig, deleteScrapeConfig } from './store.js';

interface Deps {
  db: Database;
  identity: Identity;
  scrapers: ReadonlyMap<string, Scraper>;
  engine: CatalogEngine;
}

export function catalogRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity, scrapers, engine } = deps;
  addResourceRoutes(app, {
    db,
    identity,
    table: 'config_scrapers',
    permission: 'config_scrapers',
    kind: 'ScrapeConfig',
    noun: 'scraper',
    parse: (doc) => parseScrapeConfigChecked(doc, scrapers),
    apply: (def, opts) => applyScrapeConfig(db, def, opts),
    summary: (def) => ({ scrapers: def.scrapers.length }),
    readBack: inResourceOrder,
    remove: (id) => deleteScrapeConfig(db, id),
    runNow: (id) => engine.runNow(id),
    runPath: '/run/:id',
  });
  return app;
}
