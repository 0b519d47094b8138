// Writes one scrape of a ScrapeConfig to the catalog, in one transaction: new items, changed items
// with their `diff` change (repeats inside the window counted on the same row), reappearing items
// undeleted, items missing from a complete scrape soft-deleted after the stale age (with a `DELETE`
// change), log selectors, parents and relationships, insights upserted and resolved, the per-item counts
// (changes in 30 days, open insights by severity) and the events (config.created|updated|deleted|
// <health>).
// The steps it calls: saveChanges.ts, saveLinks.ts, saveInsights.ts (shared pieces: saveRows.ts).
import crypto from 'node:crypto';
import type { Database, Queryable } from '../db/database.js';
import { analyze } from './analyzers/rules.js';
import { changeFingerprint, describeChange, normalize, sameJson } from './changes.js';
import type { ScrapedItem } from './extract.js';
import { saveLogSelectors } from './logs.js';
import type { AnalysisRule } from './scrapeConfig.js';
import { severityOf, writeChanges, type PendingChange } from './saveChanges.js';
import { writeInsights } from './saveInsights.js';
import { linkItems } from './saveLinks.js';
import { batched, keyOf, type ExistingRow } from './saveRows.js';

export { resolveComponentLinks } from './saveComponentLinks.js';

export interface SaveOptions {
  scraperId: string;
  /** Every scraper entry ran without error: items not seen are really gone. */
  complete: boolean;
  staleItemAgeMs: number;
  changeWindowMs: number;
  changeRetention?: { changeType: string; ageMs?: number; count?: number }[];
  severityRules: { expr: string; severity: string }[];
  analysisRules: AnalysisRule[];
}

export interface SaveResult {
  items: number;
  created: number;
  updated: number;
  unchanged: number;
  deleted: number;
  /** Change rows written or counted again. */
  changes: number;
  insights: number;
  errors: string[];
}

export async function saveScrape(db: Database, scraped: ScrapedItem[], opts: SaveOptions): Promise<SaveResult> {
  return db.transaction((tx) => saveIn(tx, scraped, opts));
}

async function saveIn(tx: Queryable, scraped: ScrapedItem[], opts: SaveOptions): Promise<SaveResult> {
  const result: SaveResult = {
    items: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    deleted: 0,
    changes: 0,
    insights: 0,
    errors: [],
  };
  const now = new Date((await tx.query<{ now: string | Date }>('SELECT now() AS now')).rows[0]!.now);
  const { rows: existingRows } = await tx.query<ExistingRow>(
    `SELECT id, type, external_id, name, config_class, description, status, health, ready, labels, tags, config, format,
            source, parent_id, path, deleted_at, last_scraped_time
     FROM config_items WHERE scraper_id = $1`,
    [opts.scraperId],
  );
  const existing = new Map(existingRows.map((r) => [keyOf(r.type, r.external_id), r]));

  // The last of duplicates wins: two documents claiming one identity is a spec problem worth saying.
  const items = new Map<string, ScrapedItem>();
  for (const item of scraped) {
    const key = keyOf(item.type, item.externalId);
    if (items.has(key))
      result.errors.push(`two items have the id ${item.externalId} (type ${item.type}); the last one is kept`);
    items.set(key, item);
  }
  result.items = items.size;

  const inserts: Record<string, unknown>[] = [];
  const updates: Record<string, unknown>[] = [];
  const touched: string[] = [];
  const changes: PendingChange[] = [];
  const events: { name: string; properties: Record<string, unknown> }[] = [];
  const ids = new Map<string, string>();
  const row = (id: string, it: ScrapedItem) => ({
    id,
    external_id: it.externalId,
    type: it.type,
    config_class: it.configClass,
    name: it.name,
    description: it.description,
    status: it.status,
    health: it.health,
    ready: it.ready,
    labels: it.labels,
    tags: it.tags,
    config: it.config,
    format: it.format,
    source: it.source,
  });
  const eventOf = (id: string, it: { name: string | null; type: string; health: string | null }, extra = {}) => ({
    id,
    name: it.name,
    type: it.type,
    scraper_id: opts.scraperId,
    health: it.health,
    ...extra,
  });

  for (const [key, it] of items) {
    const old = existing.get(key);
    if (!old) {
      const id = crypto.randomUUID();
      ids.set(key, id);
      inserts.push(row(id, it));
      events.push({ name: 'config.created', properties: eventOf(id, it) });
      if (it.health) events.push({ name: `config.${it.health}`, properties: eventOf(id, it, { previous: null }) });
      result.created++;
      continue;
    }
    ids.set(key, old.id);
    const before = normalize(old.config);
    const after = it.config as ReturnType<typeof normalize>;
    const diff = describeChange(before, after);
    const revived = old.deleted_at !== null;
    const metaChanged =
      old.name !== it.name ||
      old.config_class !== it.configClass ||
      old.description !== it.description ||
      old.status !== it.status ||
      old.health !== it.health ||
      old.ready !== it.ready ||
      old.format !== it.format ||
      old.source !== it.source ||
      !sameJson(normalize(old.labels), normalize(it.labels)) ||
      !sameJson(normalize(old.tags), normalize(it.tags));
    if (diff) {
      const fingerprint = changeFingerprint(old.id, 'diff', diff.patch);
      changes.push({
        configId: old.id,
        changeType: 'diff',
        severity: severityOf(opts.severityRules, diff, after, before, result.errors),
        summary: diff.summary,
        diff: diff.diff,
        patches: diff.patch,
        details: { paths: diff.paths.slice(0, 100) },
        fingerprint,
        source: it.source,
      });
    }
    if (diff || revived || metaChanged) {
      updates.push(row(old.id, it));
      result.updated++;
      if (diff || revived)
        events.push({
          name: revived ? 'config.created' : 'config.updated',
          properties: eventOf(old.id, it, diff ? { summary: diff.summary } : {}),
        });
    } else {
      touched.push(old.id);
      result.unchanged++;
    }
    if (it.health && (old.health !== it.health || revived))
      events.push({ name: `config.${it.health}`, properties: eventOf(old.id, it, { previous: old.health }) });
  }

  await batched(inserts, (chunk) =>
    tx.query(
      `INSERT INTO config_items (id, scraper_id, external_id, type, config_class, name, description, status, health, ready,
         labels, tags, config, format, source, last_scraped_time, created_at, updated_at)
       SELECT r.id, $2, r.external_id, r.type, r.config_class, r.name, r.description, r.status, r.health, r.ready,
         coalesce(r.labels, '{}'), coalesce(r.tags, '{}'), r.config, r.format, r.source, now(), now(), now()
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, external_id text, type text, config_class text, name text,
         description text, status text, health text, ready boolean, labels jsonb, tags jsonb, config jsonb, format text, source text)`,
      [JSON.stringify(chunk), opts.scraperId],
    ),
  );
  await batched(updates, (chunk) =>
    tx.query(
      `UPDATE config_items c SET config_class = r.config_class, name = r.name, description = r.description, status = r.status,
         health = r.health, ready = r.ready, labels = coalesce(r.labels, '{}'), tags = coalesce(r.tags, '{}'), config = r.config,
         format = r.format, source = r.source, last_scraped_time = now(), updated_at = now(), deleted_at = NULL, delete_reason = NULL
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, config_class text, name text, description text, status text, health text,
         ready boolean, labels jsonb, tags jsonb, config jsonb, format text, source text)
       WHERE c.id = r.id`,
      [JSON.stringify(chunk)],
    ),
  );
  await saveLogSelectors(
    tx,
    [...items].map(([key, it]) => ({ id: ids.get(key)!, logs: it.logs ?? null })),
  );
  await batched(touched, (chunk) =>
    tx.query(`UPDATE config_items SET last_scraped_time = now() WHERE id = ANY($1::uuid[])`, [chunk]),
  );

  // Missing from a complete scrape and not seen for the stale age: soft-deleted, history kept.
  if (opts.complete) {
    const staleBefore = now.getTime() - opts.staleItemAgeMs;
    const gone = existingRows.filter(
      (r) =>
        r.deleted_at === null &&
        !items.has(keyOf(r.type, r.external_id)) &&
        (r.last_scraped_time === null || new Date(r.last_scraped_time).getTime() <= staleBefore),
    );
    await batched(gone, (chunk) =>
      tx.query(
        `UPDATE config_items SET deleted_at = now(), delete_reason = 'stale', updated_at = now() WHERE id = ANY($1::uuid[])`,
        [chunk.map((r) => r.id)],
      ),
    );
    for (const r of gone) {
      changes.push({
        configId: r.id,
        changeType: 'DELETE',
        severity: 'info',
        summary: `${r.type} ${r.name ?? r.external_id} is no longer in its source`,
        diff: null,
        patches: null,
        details: { reason: 'stale' },
        fingerprint: changeFingerprint(r.id, 'DELETE', ''),
        source: r.source ?? '',
      });
      events.push({ name: 'config.deleted', properties: eventOf(r.id, r, { reason: 'stale' }) });
    }
    result.deleted = gone.length;
  }

  result.changes = await writeChanges(tx, changes, opts.changeWindowMs);
  await linkItems(tx, opts.scraperId, items, ids, existingRows);

  // Insights from the rules, on the live items of this scrape.
  const analyzed = analyze(
    [...items].map(([key, it]) => ({
      id: ids.get(key)!,
      name: it.name,
      type: it.type,
      configClass: it.configClass,
      labels: it.labels,
      tags: it.tags,
      health: it.health,
      status: it.status,
      config: it.config,
    })),
    opts.analysisRules,
  );
  result.errors.push(...analyzed.errors);
  result.insights = await writeInsights(tx, opts.scraperId, analyzed.findings, analyzed.errors.length === 0);

  // retention.changes: old rows of a change type, and rows beyond the newest `count` per item.
  for (const rule of opts.changeRetention ?? []) {
    if (rule.ageMs !== undefined)
      await tx.query(
        `DELETE FROM config_changes x USING config_items i
         WHERE i.id = x.config_id AND i.scraper_id = $1 AND x.change_type = $2
           AND x.created_at < now() - make_interval(secs => $3::double precision / 1000)`,
        [opts.scraperId, rule.changeType, rule.ageMs],
      );
    if (rule.count !== undefined)
      await tx.query(
        `DELETE FROM config_changes WHERE id IN (
           SELECT id FROM (
             SELECT x.id, row_number() OVER (PARTITION BY x.config_id ORDER BY x.created_at DESC) AS n
             FROM config_changes x JOIN config_items i ON i.id = x.config_id
             WHERE i.scraper_id = $1 AND x.change_type = $2) ranked
           WHERE n > $3)`,
        [opts.scraperId, rule.changeType, rule.count],
      );
  }

  // Counts the catalog list shows.
  // Only rows whose count differs are written: one aggregate over the scraper's recent changes.
  await tx.query(
    `WITH recent AS (
       SELECT x.config_id, count(*)::int AS n FROM config_changes x JOIN config_items i ON i.id = x.config_id
       WHERE i.scraper_id = $1 AND x.created_at > now() - interval '30 days' GROUP BY x.config_id)
     UPDATE config_items c SET changes = coalesce(r.n, 0)
     FROM config_items c2 LEFT JOIN recent r ON r.config_id = c2.id
     WHERE c.id = c2.id AND c2.scraper_id = $1 AND c.changes <> coalesce(r.n, 0)`,
    [opts.scraperId],
  );
  await tx.query(
    `UPDATE config_items c SET analysis = coalesce((
       SELECT jsonb_object_agg(s.severity, s.n) FROM (
         SELECT severity, count(*) AS n FROM config_analysis a WHERE a.config_id = c.id AND a.status = 'open' GROUP BY severity) s), '{}')
     WHERE c.scraper_id = $1 AND (c.analysis <> '{}'::jsonb OR c.id = ANY($2::uuid[]))`,
    [opts.scraperId, [...new Set(analyzed.findings.map((f) => f.configId))]],
  );
  await batched(events, (chunk) =>
    tx.query(
      `INSERT INTO event_queue (name, properties)
       SELECT r.name, r.properties FROM jsonb_to_recordset($1::jsonb) AS r(name text, properties jsonb)`,
      [JSON.stringify(chunk)],
    ),
  );
  return result;
}
