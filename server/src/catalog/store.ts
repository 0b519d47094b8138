// ScrapeConfig rows in the database: applying and deleting them, the table the scheduler leases
// (see jobs/), and the job_history row of a run.
import type { Database, Queryable } from '../db/database.js';
import { recordJob as recordJobHistory } from '../jobs/history.js';
import type { LeasedTable } from '../jobs/leases.js';
import { applyResourceRow, softDeleteResourceRow, type AppliedResource } from '../resources/apply.js';
import type { ScrapeConfigDefinition } from './scrapeConfig.js';

export type AppliedScrapeConfig = AppliedResource;

export const applyScrapeConfig = (
  db: Database,
  def: ScrapeConfigDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedScrapeConfig> => applyResourceRow(db, 'config_scrapers', def, opts);

/** Soft-deletes a scraper; its items stay (with their history) and are no longer scraped. */
export async function deleteScrapeConfig(db: Queryable, id: string): Promise<boolean> {
  return (await softDeleteResourceRow(db, 'config_scrapers', id)) !== null;
}

export interface ScraperRow {
  id: string;
  name: string;
  namespace: string;
  spec: Record<string, unknown>;
  schedule: string | null;
  next_runtime: Date;
}

/** The scheduler's table: a scraper whose schedule no longer parses is tried again in an hour. */
export const SCRAPER_TABLE: LeasedTable = {
  table: 'config_scrapers',
  columns: 'id, name, namespace, spec, schedule, next_runtime',
  retryMs: 60 * 60_000,
};

export interface ScrapeRunSummary {
  scraperId: string;
  name: string;
  startedAt: Date;
  finishedAt: Date;
  failed: boolean;
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  insights: number;
  errors: string[];
}

/** One job_history row per run: success_count = items scraped, error_count = errors. */
export async function recordJob(db: Queryable, run: ScrapeRunSummary, hostname: string): Promise<void> {
  const { created, updated, unchanged, deleted, changes, insights } = run;
  await recordJobHistory(
    db,
    {
      name: 'ConfigScraper',
      resourceType: 'config_scraper',
      resourceId: run.scraperId,
      successCount: run.items,
      details: { scraper: run.name, created, updated, unchanged, deleted, changes, insights },
    },
    run,
    hostname,
  );
}
