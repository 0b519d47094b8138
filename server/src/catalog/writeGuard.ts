// /api/db/config_scrapers writes: a row's spec is a ScrapeConfig checked as /api/catalog checks it;
// it scrapes at the next pass; a soft delete is the delete endpoint's.
import type { Database } from '../db/database.js';
import { resourceWriteGuard, resourceWriteSync, type ResourceTableWrites } from '../resources/dbWrites.js';
import { parseScrapeConfigChecked, type ScrapeConfigDefinition } from './scrapeConfig.js';
import type { Scraper } from './scraper.js';
import { applyScrapeConfig, deleteScrapeConfig } from './store.js';

export function scrapeConfigDbWrites(db: Database, scrapers: ReadonlyMap<string, Scraper>) {
  const writes: ResourceTableWrites<ScrapeConfigDefinition> = {
    table: 'config_scrapers',
    noun: 'scrape config',
    endpoint: 'POST /api/catalog',
    parse: (doc) => parseScrapeConfigChecked(doc, scrapers),
    apply: (def) => applyScrapeConfig(db, def),
    remove: (id) => deleteScrapeConfig(db, id),
  };
  return { guard: resourceWriteGuard(writes), sync: resourceWriteSync(writes) };
}
