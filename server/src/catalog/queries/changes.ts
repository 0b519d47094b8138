// POST /api/catalog/changes: the changes list of the catalog and of one item (spec/2 §2.3, §7) —
// filtered, sorted and paged on the server, with the total, in one SQL statement. Details, diff and
// patches are not part of the list (one change is read through /api/db/config_changes).
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import {
  containsPattern,
  listCondition,
  Params,
  parseListFilter,
  parseTimeValue,
  QueryInputError,
  severitiesAtLeast,
  severityRankSql,
  withIndexFriendlyPlanner,
} from './sqlParts.js';

const stringOrList = z.union([z.string(), z.array(z.string())]);

export const changesRequestSchema = z.strictObject({
  id: z.guid({ message: 'id must be a catalog item id (a uuid)' }).optional(),
  config_type: stringOrList.optional(),
  type: stringOrList.optional(),
  change_type: stringOrList.optional(),
  from: z.string().optional(),
  to: z.string().optional(),
  severity: stringOrList.optional(),
  page: z.number().int().min(1).optional(),
  page_size: z.number().int().min(1).max(1000).optional(),
  sort_by: z.string().optional(),
  sort_order: z.enum(['asc', 'desc']).optional(),
  tags: z.record(z.string(), z.string()).optional(),
  recursive: z.enum(['all', 'upstream', 'downstream', 'none']).optional(),
  depth: z.number().int().min(0).max(20).optional(),
  include_deleted_configs: z.boolean().optional(),
  summary: z.string().max(500).optional(),
  source: stringOrList.optional(),
  created_by: z.guid({ message: 'created_by must be a person id (a uuid)' }).optional(),
  external_created_by: stringOrList.optional(),
});
export type ChangesRequest = z.infer<typeof changesRequestSchema>;

export const DEFAULT_PAGE_SIZE = 200;
export const DEFAULT_CHANGES_DEPTH = 5;

/**
 * Sort keys → SQL (over config_changes `cc` and config_items `ci`). Nullable ones put NULLs last;
 * created_at (not null) sorts plainly so the (created_at, id) index gives the order.
 */
const SORTS: Readonly<Record<string, { expr: string; nullable?: true }>> = {
  created_at: { expr: 'cc.created_at' },
  first_observed: { expr: 'cc.first_observed' },
  severity: { expr: severityRankSql('cc.severity') },
  change_type: { expr: 'cc.change_type' },
  count: { expr: 'cc.count' },
  summary: { expr: 'cc.summary', nullable: true },
  source: { expr: 'cc.source', nullable: true },
  'config.name': { expr: 'ci.name', nullable: true },
  name: { expr: 'ci.name', nullable: true },
  'config.type': { expr: 'ci.type' },
  config_type: { expr: 'ci.type' },
};

export interface ChangeRow {
  id: string;
  config_id: string;
  change_type: string;
  summary: string | null;
  severity: string;
  source: string | null;
  created_at: string;
  first_observed: string;
  count: number;
  created_by: string | null;
  external_created_by: string | null;
  tags: Record<string, unknown> | null;
  config: { id: string; name: string | null; type: string; config_class: string; deleted_at: string | null };
}

/** The SQL and parameters of a changes request (pure; `now` anchors relative times). */
export function changesSql(req: ChangesRequest, now = new Date()): { sql: string; params: unknown[] } {
  const params = new Params();
  const where: string[] = [];

  if (req.id) {
    const mode = req.recursive ?? 'none';
    if (mode === 'none') where.push(`cc.config_id = ${params.add(req.id)}::uuid`);
    else {
      const typeFilter = { all: 'all', upstream: 'incoming', downstream: 'outgoing' }[mode];
      where.push(`cc.config_id IN (SELECT r.id FROM related_configs_recursive(${params.add(req.id)}::uuid,
        ${params.add(req.include_deleted_configs ?? false)}::boolean, ${params.add(req.depth ?? DEFAULT_CHANGES_DEPTH)}::int,
        ${params.add(typeFilter)}::text) r)`);
    }
  } else if (req.recursive && req.recursive !== 'none') {
    throw new QueryInputError('recursive needs id: the item whose related items to include', 'recursive');
  }
  if (req.config_type) where.push(...listCondition('ci.type', parseListFilter(req.config_type), params));
  if (req.type && req.change_type)
    throw new QueryInputError('give the change type as type or as change_type, not both', 'change_type');
  const changeType = req.change_type ?? req.type;
  if (changeType) where.push(...listCondition('cc.change_type', parseListFilter(changeType), params));
  if (req.severity) {
    const f = parseListFilter(req.severity);
    // One plain value is a minimum ("high" = high and above); several or negated ones are a list.
    if (
      f.include.length === 1 &&
      f.exclude.length === 0 &&
      typeof req.severity === 'string' &&
      !req.severity.includes(',')
    )
      where.push(`cc.severity = ANY(${params.add(severitiesAtLeast(f.include[0]!))}::text[])`);
    else where.push(...listCondition('cc.severity', f, params));
  }
  if (req.source) where.push(...listCondition('cc.source', parseListFilter(req.source), params));
  if (req.external_created_by)
    where.push(...listCondition('cc.external_created_by', parseListFilter(req.external_created_by), params));
  if (req.created_by) where.push(`cc.created_by = ${params.add(req.created_by)}::uuid`);
  if (req.summary?.trim()) where.push(`cc.summary ILIKE ${params.add(containsPattern(req.summary.trim()))}`);
  for (const [key, raw] of Object.entries(req.tags ?? {})) {
    const exclude = raw.startsWith('!');
    const tag = params.add(JSON.stringify({ [key]: exclude ? raw.slice(1) : raw }));
    where.push(exclude ? `NOT (ci.tags @> ${tag}::jsonb)` : `ci.tags @> ${tag}::jsonb`);
  }
  const from = req.from ? parseTimeValue(req.from, 'from', now) : undefined;
  const to = req.to ? parseTimeValue(req.to, 'to', now, true) : undefined;
  if (from && to && from > to) throw new QueryInputError('from must be before to', 'from');
  if (from) where.push(`cc.created_at >= ${params.add(from.toISOString())}::timestamptz`);
  if (to) where.push(`cc.created_at <= ${params.add(to.toISOString())}::timestamptz`);

  let sortKey = req.sort_by ?? 'created_at';
  let order = req.sort_order;
  if (sortKey.startsWith('-')) {
    sortKey = sortKey.slice(1);
    order ??= 'desc';
  }
  const sort = SORTS[sortKey];
  if (!sort)
    throw new QueryInputError(
      `sort_by: "${req.sort_by}" is not sortable; use one of ${Object.keys(SORTS).join(', ')}`,
      'sort_by',
    );
  // Without filters on the item, deleted items are left out by an anti-join against the few deleted
  // ones (a small partial index) instead of a join with every live item.
  const needsItem = where.some((c) => c.includes('ci.')) || sort.expr.startsWith('ci.');
  if (!req.include_deleted_configs)
    where.push(
      needsItem
        ? 'ci.deleted_at IS NULL'
        : 'NOT EXISTS (SELECT 1 FROM config_items d WHERE d.id = cc.config_id AND d.deleted_at IS NOT NULL)',
    );
  const fromSql = needsItem ? 'config_changes cc JOIN config_items ci ON ci.id = cc.config_id' : 'config_changes cc';
  const dir = (order ?? 'desc').toUpperCase();
  const pageSize = req.page_size ?? DEFAULT_PAGE_SIZE;
  const offset = ((req.page ?? 1) - 1) * pageSize;
  const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : '';

  // The page is found first from narrow rows (the (created_at, id) index of changes and the live-items
  // index carry the usual filter columns), then only its rows are read in full.
  const orderBy = `${sort.expr} ${dir}${sort.nullable ? ' NULLS LAST' : ''}, cc.id ${dir}`;
  const sql = `
WITH keys AS (
  SELECT cc.id, row_number() OVER (ORDER BY ${orderBy}) AS n
  FROM ${fromSql}
  ${whereSql}
  ORDER BY ${orderBy}
  LIMIT ${params.add(pageSize)}::int OFFSET ${params.add(offset)}::int
), page AS (
  SELECT k.n, cc.id, cc.config_id, cc.change_type, cc.summary, cc.severity, cc.source, cc.created_at,
    cc.first_observed, cc.count, cc.created_by, cc.external_created_by, cc.tags,
    json_build_object('id', ci.id, 'name', ci.name, 'type', ci.type, 'config_class', ci.config_class,
      'deleted_at', ci.deleted_at) AS config
  FROM keys k JOIN config_changes cc ON cc.id = k.id JOIN config_items ci ON ci.id = cc.config_id
)
SELECT (SELECT count(*) FROM ${fromSql} ${whereSql})::int AS total,
  coalesce((SELECT json_agg(to_jsonb(page) - 'n' ORDER BY page.n) FROM page), '[]') AS changes`;
  return { sql, params: params.values };
}

export async function catalogChanges(
  db: Database,
  req: ChangesRequest,
  now = new Date(),
): Promise<{ changes: ChangeRow[]; total: number }> {
  const { sql, params } = changesSql(req, now);
  const { rows } = await withIndexFriendlyPlanner(db, (q) =>
    q.query<{ total: number; changes: ChangeRow[] | string }>(sql, params),
  );
  const r = rows[0]!;
  const changes = typeof r.changes === 'string' ? (JSON.parse(r.changes) as ChangeRow[]) : r.changes;
  return { changes, total: Number(r.total) };
}
