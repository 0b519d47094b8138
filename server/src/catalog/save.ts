// Writes one scrape of a ScrapeConfig to the catalog, in one transaction: new items, changed items
// with their `diff` change (repeats inside the window counted on the same row), reappearing items
// undeleted, items missing from a complete scrape soft-deleted after the stale age (with a `DELETE`
// change), log selectors, parents and relationships, insights upserted and resolved, the per-item counts
// (changes in 30 days, open insights by severity) and the events (config.created|updated|deleted|
// <health>).
import crypto from 'node:crypto';
import type { Database, Queryable } from '../db/database.js';
import { evaluateCel } from '../expr/index.js';
import { analyze, type Finding } from './analyzers/rules.js';
import { changeFingerprint, describeChange, normalize, sameJson, type ConfigDiff } from './changes.js';
import type { ItemRef, ScrapedItem } from './extract.js';
import { saveLogSelectors } from './logs.js';
import type { AnalysisRule } from './scrapeConfig.js';

/** Rows per statement in batched writes. */
const BATCH = 2_000;

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

interface ExistingRow {
  id: string;
  type: string;
  external_id: string;
  name: string | null;
  config_class: string;
  description: string | null;
  status: string | null;
  health: string | null;
  ready: boolean | null;
  labels: Record<string, string>;
  tags: Record<string, string>;
  config: unknown;
  format: string;
  source: string | null;
  parent_id: string | null;
  path: string;
  deleted_at: string | Date | null;
  last_scraped_time: string | Date | null;
}

interface PendingChange {
  configId: string;
  changeType: 'diff' | 'DELETE';
  severity: string;
  summary: string;
  diff: string | null;
  patches: string | null;
  details: Record<string, unknown>;
  fingerprint: string;
  source: string;
}

const keyOf = (type: string, externalId: string) => `${type}\u0000${externalId}`;
const kindOf = (type: string) => (type.split('::').pop() ?? type).toLowerCase();

async function batched<T>(rows: T[], fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += BATCH) await fn(rows.slice(i, i + BATCH));
}

function severityOf(
  rules: SaveOptions['severityRules'],
  change: ConfigDiff,
  config: unknown,
  previous: unknown,
  errors: string[],
) {
  for (const rule of rules) {
    try {
      const vars = { change: { type: 'diff', summary: change.summary, paths: change.paths }, config, previous };
      if (evaluateCel(rule.expr, vars) === true) return rule.severity;
    } catch (e) {
      errors.push(`changes.severity ${rule.expr}: ${(e as Error).message}`);
    }
  }
  return 'info';
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

/** Inserts changes; one seen again inside the window (same fingerprint) counts on its row instead. */
async function writeChanges(tx: Queryable, changes: PendingChange[], windowMs: number): Promise<number> {
  if (!changes.length) return 0;
  const repeats = new Map<string, string>();
  if (windowMs > 0) {
    await batched(changes, async (chunk) => {
      const { rows } = await tx.query<{ id: string; config_id: string; fingerprint: string }>(
        `SELECT DISTINCT ON (config_id, fingerprint) id, config_id, fingerprint FROM config_changes
         WHERE config_id = ANY($1::uuid[]) AND fingerprint = ANY($2::text[])
           AND created_at >= now() - make_interval(secs => $3::double precision / 1000)
         ORDER BY config_id, fingerprint, created_at DESC`,
        [chunk.map((c) => c.configId), chunk.map((c) => c.fingerprint), windowMs],
      );
      for (const r of rows) repeats.set(`${r.config_id}/${r.fingerprint}`, r.id);
    });
  }
  const again = changes.filter((c) => repeats.has(`${c.configId}/${c.fingerprint}`));
  const fresh = changes.filter((c) => !repeats.has(`${c.configId}/${c.fingerprint}`));
  await batched(again, (chunk) =>
    tx.query(`UPDATE config_changes SET count = count + 1, created_at = now() WHERE id = ANY($1::uuid[])`, [
      chunk.map((c) => repeats.get(`${c.configId}/${c.fingerprint}`)!),
    ]),
  );
  await batched(fresh, (chunk) =>
    tx.query(
      `INSERT INTO config_changes (config_id, change_type, severity, source, summary, details, patches, diff, fingerprint, first_observed, created_at)
       SELECT r.config_id, r.change_type, r.severity, r.source, r.summary, r.details, r.patches, r.diff, r.fingerprint, now(), now()
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, change_type text, severity text, source text, summary text,
         details jsonb, patches text, diff text, fingerprint text)`,
      [
        JSON.stringify(
          chunk.map((c) => ({
            config_id: c.configId,
            change_type: c.changeType,
            severity: c.severity,
            source: c.source,
            summary: c.summary,
            details: c.details,
            patches: c.patches,
            diff: c.diff,
            fingerprint: c.fingerprint,
          })),
        ),
      ],
    ),
  );
  return changes.length;
}

/** Parents (parent_id, path) and config_relationships from owner references and relationship rules. */
async function linkItems(
  tx: Queryable,
  scraperId: string,
  items: Map<string, ScrapedItem>,
  ids: Map<string, string>,
  existingRows: ExistingRow[],
) {
  // Every live item of the scraper can be referenced: by external id, or by kind + name + namespace.
  const byExternal = new Map<string, string>();
  const byName = new Map<string, string>();
  const typeOf = new Map<string, string>();
  const index = (id: string, externalId: string, type: string, name: string | null, namespace: string | undefined) => {
    byExternal.set(externalId, id);
    typeOf.set(id, type);
    if (name) {
      byName.set(`${kindOf(type)}/${name}/${namespace ?? ''}`, id);
      byName.set(`${type.toLowerCase()}/${name}/${namespace ?? ''}`, id);
    }
  };
  for (const r of existingRows)
    if (r.deleted_at === null && !items.has(keyOf(r.type, r.external_id)))
      index(r.id, r.external_id, r.type, r.name, r.tags?.namespace);
  for (const [key, it] of items) index(ids.get(key)!, it.externalId, it.type, it.name, it.tags.namespace);
  const resolve = (ref: ItemRef): string | undefined => {
    if (ref.externalId && byExternal.has(ref.externalId)) return byExternal.get(ref.externalId);
    if (!ref.name) return undefined;
    const type = (ref.type ?? '').toLowerCase();
    return (
      byName.get(`${type}/${ref.name}/${ref.namespace ?? ''}`) ??
      byName.get(`${kindOf(type)}/${ref.name}/${ref.namespace ?? ''}`) ??
      // Cluster-scoped targets (a Namespace) have no namespace of their own.
      byName.get(`${kindOf(type)}/${ref.name}/`)
    );
  };

  const parentOf = new Map<string, string | null>();
  for (const r of existingRows) parentOf.set(r.id, r.parent_id);
  const wanted = new Map<string, { config_id: string; related_id: string; selector_id: string; relation: string }>();
  for (const [key, it] of items) {
    const id = ids.get(key)!;
    const parent = it.parent ? resolve(it.parent) : undefined;
    parentOf.set(id, parent && parent !== id ? parent : null);
    for (const link of it.links) {
      const other = resolve(link.ref);
      if (!other || other === id) continue;
      const [from, to] = link.parent ? [other, id] : [id, other];
      const relation = link.relation ?? `${typeOf.get(from)!.split('::').pop()}${typeOf.get(to)!.split('::').pop()}`;
      wanted.set(`${from}/${to}/${link.selectorId}`, {
        config_id: from,
        related_id: to,
        selector_id: link.selectorId,
        relation,
      });
    }
  }
  // Paths: ancestors root first; a cycle in references stops the walk.
  const pathOf = (id: string): string => {
    const chain: string[] = [];
    const seen = new Set([id]);
    let p = parentOf.get(id) ?? null;
    while (p && !seen.has(p) && chain.length < 50) {
      chain.unshift(p);
      seen.add(p);
      p = parentOf.get(p) ?? null;
    }
    return chain.join('.');
  };
  const oldById = new Map(existingRows.map((r) => [r.id, r]));
  const parentUpdates: { id: string; parent_id: string | null; path: string }[] = [];
  for (const key of items.keys()) {
    const id = ids.get(key)!;
    const parent_id = parentOf.get(id) ?? null;
    const path = pathOf(id);
    const old = oldById.get(id);
    if (!old || old.parent_id !== parent_id || old.path !== path) parentUpdates.push({ id, parent_id, path });
  }
  await batched(parentUpdates, (chunk) =>
    tx.query(
      `UPDATE config_items c SET parent_id = r.parent_id, path = r.path
       FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, parent_id uuid, path text) WHERE c.id = r.id`,
      [JSON.stringify(chunk)],
    ),
  );

  // Relationships this scraper's rules own: add the new, revive the returning, retire the gone.
  const { rows: current } = await tx.query<{
    config_id: string;
    related_id: string;
    selector_id: string;
    deleted_at: unknown;
  }>(
    `SELECT r.config_id, r.related_id, r.selector_id, r.deleted_at FROM config_relationships r
     JOIN config_items i ON i.id = r.related_id OR i.id = r.config_id
     WHERE i.scraper_id = $1 AND (r.selector_id = 'parent' OR r.selector_id LIKE 'relationship:%')`,
    [scraperId],
  );
  const have = new Map(current.map((r) => [`${r.config_id}/${r.related_id}/${r.selector_id}`, r]));
  const add = [...wanted.entries()].filter(([k]) => !have.has(k) || have.get(k)!.deleted_at !== null).map(([, v]) => v);
  const seenIds = new Set(ids.values());
  const retire = [...have.entries()]
    .filter(
      ([k, r]) => r.deleted_at === null && !wanted.has(k) && (seenIds.has(r.config_id) || seenIds.has(r.related_id)),
    )
    .map(([, r]) => r);
  await batched(add, (chunk) =>
    tx.query(
      `INSERT INTO config_relationships (config_id, related_id, selector_id, relation)
       SELECT r.config_id, r.related_id, r.selector_id, r.relation
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, related_id uuid, selector_id text, relation text)
       ON CONFLICT (config_id, related_id, selector_id) DO UPDATE SET deleted_at = NULL, relation = EXCLUDED.relation, updated_at = now()`,
      [JSON.stringify(chunk)],
    ),
  );
  await batched(retire, (chunk) =>
    tx.query(
      `UPDATE config_relationships r SET deleted_at = now(), updated_at = now()
       FROM jsonb_to_recordset($1::jsonb) AS x(config_id uuid, related_id uuid, selector_id text)
       WHERE r.config_id = x.config_id AND r.related_id = x.related_id AND r.selector_id = x.selector_id`,
      [JSON.stringify(chunk.map(({ config_id, related_id, selector_id }) => ({ config_id, related_id, selector_id })))],
    ),
  );
}

/** Upserts findings by (config, analyzer); this scraper's open insights not found again are resolved. */
async function writeInsights(
  tx: Queryable,
  scraperId: string,
  findings: Finding[],
  resolveMissing: boolean,
): Promise<number> {
  await batched(findings, (chunk) =>
    tx.query(
      `INSERT INTO config_analysis (config_id, scraper_id, analyzer, analysis_type, severity, message, summary, status, source,
         first_observed, last_observed)
       SELECT r.config_id, $2, r.analyzer, r.analysis_type, r.severity, r.message, r.summary, 'open', 'rules', now(), now()
       FROM jsonb_to_recordset($1::jsonb) AS r(config_id uuid, analyzer text, analysis_type text, severity text, message text, summary text)
       ON CONFLICT (config_id, analyzer) DO UPDATE SET analysis_type = EXCLUDED.analysis_type, severity = EXCLUDED.severity,
         message = EXCLUDED.message, summary = EXCLUDED.summary, scraper_id = EXCLUDED.scraper_id,
         status = CASE WHEN config_analysis.status = 'silenced' THEN 'silenced' ELSE 'open' END,
         last_observed = now(), updated_at = now()`,
      [
        JSON.stringify(
          chunk.map((f) => ({
            config_id: f.configId,
            analyzer: f.analyzer,
            analysis_type: f.analysisType,
            severity: f.severity,
            message: f.message,
            summary: f.summary,
          })),
        ),
        scraperId,
      ],
    ),
  );
  // Rows written above have last_observed = now() (this transaction's time); older open ones were not seen.
  if (resolveMissing)
    await tx.query(
      `UPDATE config_analysis SET status = 'resolved', updated_at = now()
       WHERE scraper_id = $1 AND status = 'open' AND source = 'rules' AND last_observed < now()`,
      [scraperId],
    );
  return findings.length;
}

/**
 * Topology links written as selectors (config_component_relationships rows without config_id) that
 * now match items: each gets a row with the item's id. Selectors: id, name, type/types, namespace,
 * labelSelector-less exact labels (`labels`), as the topology builder writes them.
 */
export async function resolveComponentLinks(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH sel AS (
       SELECT component_id, selector_id, selector FROM config_component_relationships
       WHERE config_id IS NULL AND deleted_at IS NULL AND selector IS NOT NULL),
     hits AS (
       SELECT DISTINCT s.component_id, s.selector_id, s.selector, i.id AS config_id FROM sel s
       JOIN config_items i ON i.deleted_at IS NULL
         AND (s.selector->>'id' IS NULL OR i.id::text = s.selector->>'id' OR i.external_id = s.selector->>'id')
         AND (s.selector->>'name' IS NULL OR i.name = s.selector->>'name')
         AND (s.selector->>'type' IS NULL OR i.type = s.selector->>'type' OR i.config_class = s.selector->>'type')
         AND (s.selector->>'namespace' IS NULL OR i.tags->>'namespace' = s.selector->>'namespace')
         AND (jsonb_typeof(s.selector->'labels') IS DISTINCT FROM 'object' OR i.labels @> (s.selector->'labels'))
       WHERE s.selector ?| array['id', 'name', 'type', 'namespace', 'labels'])
     INSERT INTO config_component_relationships (component_id, config_id, selector_id, selector)
     SELECT h.component_id, h.config_id, h.selector_id, h.selector FROM hits h
     WHERE NOT EXISTS (SELECT 1 FROM config_component_relationships x WHERE x.component_id = h.component_id
       AND x.config_id = h.config_id AND x.selector_id = h.selector_id AND x.deleted_at IS NULL)
     RETURNING 1 AS n`,
  );
  return rows.length;
}
