// The registry of scraper types: the key under `spec:` in a ScrapeConfig → its module.
import type { Scraper } from '../scraper.js';
import { execScraper } from './exec.js';
import { fileScraper } from './file.js';
import { httpScraper } from './http.js';
import { kubernetesScraper } from './kubernetes.js';
import { sqlScraper } from './sql.js';

export const scrapers: ReadonlyMap<string, Scraper> = new Map<string, Scraper>(
  [fileScraper, httpScraper, sqlScraper, execScraper, kubernetesScraper].map((s) => [s.type, s as unknown as Scraper]),
);
