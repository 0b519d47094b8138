// The catalog engine: claims due ScrapeConfigs from the database (leases, so replicas share the work
// and none runs twice), runs each one's scrapers, turns what they read into items, writes them with
// change detection and insights, links topology selectors to the new items, and records every run
// in job_history.
import os from 'node:os';
import type { Database } from '../db/database.js';
import { connectionResolver } from '../connections/resolve.js';
import { resolveEnvValue } from '../connections/envValue.js';
import { runStatus } from '../jobs/history.js';
import { LeasedScheduler, type SchedulingOptions } from '../jobs/leasedScheduler.js';
import { ResourceErrors } from '../resources/yaml.js';
import { extractItems, type ScrapedItem } from './extract.js';
import { resolveComponentLinks, saveScrape } from './save.js';
import { parseStoredScrapeConfig } from './scrapeConfig.js';
import type { ScrapeContext, Scraper } from './scraper.js';
import { recordJob, SCRAPER_TABLE, type ScrapeRunSummary, type ScraperRow } from './store.js';

export interface CatalogEngineOptions extends SchedulingOptions {
  /** The longest a whole run may read its sources. */
  runTimeoutMs?: number;
}

export interface ScrapeRunResult {
  scraperId: string;
  status: 'SUCCESS' | 'WARNING' | 'FAILED';
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  changes: number;
  insights: number;
  errors: string[];
  durationMs: number;
}

export class CatalogEngine extends LeasedScheduler<ScraperRow, ScrapeRunResult> {
  private readonly runTimeoutMs: number;

  constructor(
    db: Database,
    readonly scrapers: ReadonlyMap<string, Scraper>,
    options: CatalogEngineOptions = {},
  ) {
    super(
      db,
      {
        name: 'catalog',
        rowLabel: 'scraper',
        table: SCRAPER_TABLE,
      },
      options,
      { pollMs: 5_000, maxConcurrent: 2 },
    );
    this.runTimeoutMs = options.runTimeoutMs ?? 10 * 60_000;
  }

  /**
   * One run of a scraper already leased by this replica: read, extract, save, record. A lease lost
   * meanwhile (`lease`) stops the scrape and saves nothing: the replica that took it over scrapes.
   */
  async run(s: ScraperRow, scheduled: boolean, lease?: AbortSignal): Promise<ScrapeRunResult> {
    const startedAt = new Date();
    const summary: ScrapeRunSummary = {
      scraperId: s.id,
      name: `${s.namespace}/${s.name}`,
      startedAt,
      finishedAt: startedAt,
      failed: false,
      items: 0,
      created: 0,
      updated: 0,
      unchanged: 0,
      deleted: 0,
      changes: 0,
      insights: 0,
      errors: [],
    };
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new Error(`the run took longer than ${this.runTimeoutMs} ms`)),
      this.runTimeoutMs,
    );
    const onLost = () => controller.abort(lease?.reason);
    lease?.addEventListener('abort', onLost, { once: true });
    try {
      const def = parseStoredScrapeConfig(s.spec, this.scrapers);
      const ctx: ScrapeContext = {
        scraper: { id: s.id, name: s.name, namespace: s.namespace },
        signal: controller.signal,
        timeoutMs: this.runTimeoutMs,
        connection: connectionResolver(this.db),
        resolve: resolveEnvValue,
        warn: (message) => warnings.push(message),
      };
      const items: ScrapedItem[] = [];
      const warnings: string[] = [];
      let complete = true;
      for (const entry of def.scrapers) {
        const where = `${entry.type}[${entry.index}]`;
        try {
          warnings.length = 0;
          const docs = await this.scrapers.get(entry.type)!.scrape(entry.spec, ctx);
          if (warnings.length) {
            // Part of the source could not be read: its items must not be taken for deleted.
            complete = false;
            summary.errors.push(...warnings.map((w) => `${where}: ${w}`));
          }
          const extracted = await extractItems(entry.spec, docs, where);
          items.push(...extracted.items);
          if (extracted.errors.length) {
            complete = false;
            summary.errors.push(...extracted.errors);
          }
        } catch (e) {
          complete = false;
          summary.errors.push(`${where}: ${(e as Error).message}`);
        }
      }
      lease?.throwIfAborted();
      // Nothing read and only errors: the sources are down, not empty — keep the items as they are.
      if (items.length === 0 && !complete) {
        summary.failed = true;
      } else {
        const saved = await saveScrape(this.db, items, {
          scraperId: s.id,
          complete,
          staleItemAgeMs: def.staleItemAgeMs,
          changeWindowMs: def.changeWindowMs,
          changeRetention: def.changeRetention,
          severityRules: def.severityRules,
          analysisRules: def.analysisRules,
        });
        Object.assign(summary, {
          items: saved.items,
          created: saved.created,
          updated: saved.updated,
          unchanged: saved.unchanged,
          deleted: saved.deleted,
          changes: saved.changes,
          insights: saved.insights,
        });
        summary.errors.push(...saved.errors);
        await resolveComponentLinks(this.db).catch((e: unknown) =>
          summary.errors.push(`linking topology components: ${(e as Error).message}`),
        );
      }
    } catch (e) {
      summary.failed = true;
      summary.errors.push(
        e instanceof ResourceErrors ? `the stored spec is not valid: ${e.message}` : (e as Error).message,
      );
    } finally {
      clearTimeout(timer);
      lease?.removeEventListener('abort', onLost);
      summary.finishedAt = new Date();
      await this.finish(s, startedAt, scheduled);
      await recordJob(this.db, summary, os.hostname());
    }
    return {
      scraperId: s.id,
      status: runStatus(summary),
      items: summary.items,
      created: summary.created,
      updated: summary.updated,
      unchanged: summary.unchanged,
      deleted: summary.deleted,
      changes: summary.changes,
      insights: summary.insights,
      errors: summary.errors,
      durationMs: summary.finishedAt.getTime() - startedAt.getTime(),
    };
  }
}
