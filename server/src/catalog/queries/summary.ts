// POST /api/catalog/summary: the catalog's grouped summary table (spec/2 §2.1, §7) — items counted
// per group with health, status, insight and change counts and cost, in one SQL statement.
import { z } from 'zod';
import type { Database } from '../../db/database.js';
import { NO_AGENT } from '../../db/agents.js';
import {
  containsPattern,
  itemField,
  listCondition,
  Params,
  parseListFilter,
  QueryInputError,
  SEVERITIES,
  sinceMinutes,
  withIndexFriendlyPlanner,
} from './sqlParts.js';

const since = z.strictObject({ since: z.string().min(1) });
const stringOrList = z.union([z.string(), z.array(z.string())]);

export const summaryRequestSchema = z.strictObject({
  groupBy: z.array(z.string().min(1)).min(1).max(5).optional(),
  deleted: z.boolean().optional(),
  filter: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  health: stringOrList.optional(),
  status: stringOrList.optional(),
  changes: since.optional(),
  analysis: since.optional(),
  cost: z.string().optional(),
  search: z.string().max(200).optional(),
  /** The items of one agent (its id) or of this instance ('local'). */
  agent: z.union([z.literal('local'), z.guid()]).optional(),
});
export type SummaryRequest = z.infer<typeof summaryRequestSchema>;

export const DEFAULT_GROUP_BY = ['config_class', 'type'];
const HEALTHS = ['healthy', 'unhealthy', 'warning', 'unknown'] as const;
const COSTS = ['1d', '7d', '30d'];
/** The look-back the maintained counts on config_items cover (changes and open insights). */
const MAINTAINED_MINUTES = 30 * 1440;

export interface SummaryGroup {
  [key: string]: unknown;
  count: number;
  health: Record<(typeof HEALTHS)[number], number>;
  status: Record<string, number>;
  analysis: Record<string, number>;
  changes: number;
  cost_total_1d: number;
  cost_total_7d: number;
  cost_total_30d: number;
}

/** The SQL and parameters of a summary request (pure). */
export function summarySql(req: SummaryRequest): { sql: string; params: unknown[]; keys: string[] } {
  const params = new Params();
  const keys = req.groupBy ?? DEFAULT_GROUP_BY;
  if (new Set(keys).size !== keys.length) throw new QueryInputError('groupBy: a field is listed twice', 'groupBy');
  let agentJoin = false;
  const keyExprs = keys.map((k) => {
    const f = itemField(k, params, 'groupBy');
    agentJoin ||= f.agent;
    return f.expr;
  });

  const where: string[] = [];
  if (!req.deleted) where.push('ci.deleted_at IS NULL');
  for (const [name, value] of Object.entries(req.filter ?? {})) {
    const f = itemField(name, params, `filter.${name}`);
    agentJoin ||= f.agent;
    where.push(...listCondition(f.expr, parseListFilter(String(value)), params));
  }
  if (req.health) where.push(...listCondition("coalesce(ci.health, 'unknown')", parseListFilter(req.health), params));
  if (req.status) where.push(...listCondition('ci.status', parseListFilter(req.status), params));
  // Items of this instance have no agent_id (or the all-zero one).
  if (req.agent === 'local') where.push(`(ci.agent_id IS NULL OR ci.agent_id = ${params.add(NO_AGENT)}::uuid)`);
  else if (req.agent) where.push(`ci.agent_id = ${params.add(req.agent)}::uuid`);
  if (req.search?.trim()) {
    const p = params.add(containsPattern(req.search.trim()));
    where.push(
      `(ci.name ILIKE ${p} OR ci.type ILIKE ${p} OR ci.description ILIKE ${p} OR ci.tags ->> 'namespace' ILIKE ${p})`,
    );
  }
  if (req.cost !== undefined && !COSTS.includes(req.cost))
    throw new QueryInputError(`cost: "${req.cost}" is not a cost period; use 1d, 7d or 30d`, 'cost');

  // Changes and open insights of the last 30 days are kept on each item; other look-backs count rows.
  const joins: string[] = [];
  let changesExpr = 'ci.changes';
  const changesMinutes = req.changes ? sinceMinutes(req.changes.since, 'changes.since') : MAINTAINED_MINUTES;
  if (changesMinutes !== MAINTAINED_MINUTES) {
    joins.push(`LEFT JOIN LATERAL (SELECT count(*)::int AS n FROM config_changes cc
      WHERE cc.config_id = ci.id AND cc.created_at >= now() - ${params.add(changesMinutes)}::int * interval '1 minute') chg ON true`);
    changesExpr = 'chg.n';
  }
  const analysisMinutes = req.analysis ? sinceMinutes(req.analysis.since, 'analysis.since') : MAINTAINED_MINUTES;
  let severityExpr = (s: string) => `coalesce((ci.analysis ->> '${s}')::int, 0)`;
  if (analysisMinutes !== MAINTAINED_MINUTES) {
    const cutoff = params.add(analysisMinutes);
    joins.push(`LEFT JOIN LATERAL (SELECT ${SEVERITIES.map((s) => `count(*) FILTER (WHERE a.severity = '${s}')::int AS "a_${s}"`).join(', ')}
      FROM config_analysis a WHERE a.config_id = ci.id AND a.status = 'open'
        AND a.last_observed >= now() - ${cutoff}::int * interval '1 minute') an ON true`);
    severityExpr = (s) => `an."a_${s}"`;
  }

  const k = keyExprs.map((_, i) => `k${i}`);
  const sql = `
WITH base AS (
  SELECT ${keyExprs.map((e, i) => `${e} AS k${i}`).join(', ')},
    coalesce(ci.status, 'unknown') AS status, coalesce(ci.health, 'unknown') AS health,
    ${changesExpr} AS changes, ${SEVERITIES.map((s) => `${severityExpr(s)} AS "a_${s}"`).join(', ')},
    ci.cost_total_1d, ci.cost_total_7d, ci.cost_total_30d
  FROM config_items ci
  ${agentJoin ? 'LEFT JOIN agents ag ON ag.id = ci.agent_id' : ''}
  ${joins.join('\n  ')}
  ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
), by_status AS (
  SELECT ${k.join(', ')}, status, count(*) AS n,
    ${HEALTHS.map((h) => `count(*) FILTER (WHERE health = '${h}') AS "h_${h}"`).join(', ')},
    sum(changes) AS changes, ${SEVERITIES.map((s) => `sum("a_${s}") AS "a_${s}"`).join(', ')},
    sum(cost_total_1d) AS c1, sum(cost_total_7d) AS c7, sum(cost_total_30d) AS c30
  FROM base GROUP BY ${k.join(', ')}, status
)
SELECT ${k.map((c) => c).join(', ')}, sum(n)::int AS count,
  json_build_object(${HEALTHS.map((h) => `'${h}', sum("h_${h}")::int`).join(', ')}) AS health,
  json_object_agg(status, n) AS status,
  json_build_object(${SEVERITIES.map((s) => `'${s}', sum("a_${s}")::int`).join(', ')}) AS analysis,
  coalesce(sum(changes), 0)::int AS changes,
  coalesce(sum(c1), 0)::float8 AS cost_total_1d, coalesce(sum(c7), 0)::float8 AS cost_total_7d,
  coalesce(sum(c30), 0)::float8 AS cost_total_30d
FROM by_status
GROUP BY ${k.join(', ')}
ORDER BY ${k.map((c) => `${c} NULLS LAST`).join(', ')}`;
  return { sql, params: params.values, keys };
}

export async function catalogSummary(db: Database, req: SummaryRequest): Promise<{ groups: SummaryGroup[] }> {
  const { sql, params, keys } = summarySql(req);
  const { rows } = await withIndexFriendlyPlanner(db, (q) => q.query<Record<string, unknown>>(sql, params));
  const groups = rows.map((r) => {
    const g: Record<string, unknown> = {};
    keys.forEach((key, i) => (g[key] = r[`k${i}`] ?? null));
    const analysis = Object.fromEntries(
      Object.entries(r.analysis as Record<string, number>).filter(([, n]) => n > 0),
    ) as Record<string, number>;
    const status = Object.fromEntries(
      Object.entries(r.status as Record<string, number | string>).map(([s, n]) => [s, Number(n)]),
    );
    return {
      ...g,
      count: r.count as number,
      health: r.health as SummaryGroup['health'],
      status,
      analysis,
      changes: r.changes as number,
      cost_total_1d: r.cost_total_1d as number,
      cost_total_7d: r.cost_total_7d as number,
      cost_total_30d: r.cost_total_30d as number,
    } as SummaryGroup;
  });
  return { groups };
}
