// POST /api/resources/search: checks, components and catalog items found by name for pickers
// (spec/2 §2.6 "Link to catalog", §7). Each area is read only when the caller may read it.
import { z } from 'zod';
import type { Queryable } from '../../db/database.js';
import { containsPattern, Params } from './sqlParts.js';

const areaSchema = z.strictObject({
  /** Only these types (check types, component types, config types). */
  types: z.array(z.string()).max(50).optional(),
  namespace: z.string().optional(),
  agent_id: z.guid().optional(),
});

export const searchRequestSchema = z.strictObject({
  search: z.string().max(200),
  checks: areaSchema.optional(),
  components: areaSchema.optional(),
  configs: areaSchema.optional(),
  limit: z.number().int().min(1).max(50).optional(),
});
export type SearchRequest = z.infer<typeof searchRequestSchema>;
export type SearchArea = 'checks' | 'components' | 'configs';
export type AreaOptions = z.infer<typeof areaSchema>;

export const DEFAULT_SEARCH_LIMIT = 50;

export interface FoundResource {
  id: string;
  name: string;
  type: string | null;
  icon?: string | null;
  namespace?: string | null;
  agent_id?: string | null;
  config_class?: string;
}

/** The areas a request asks for: the ones named in the body, or all three. */
export function requestedAreas(req: SearchRequest): SearchArea[] {
  const named = (['checks', 'components', 'configs'] as const).filter((a) => req[a] !== undefined);
  return named.length ? [...named] : ['checks', 'components', 'configs'];
}

const AREA_SQL: Record<SearchArea, { select: string; from: string; name: string; type: string; ns: string }> = {
  checks: {
    select: 'c.id, c.name, c.type, c.icon, c.namespace, c.agent_id',
    from: 'checks c WHERE c.deleted_at IS NULL',
    name: 'c.name',
    type: 'c.type',
    ns: 'c.namespace',
  },
  components: {
    select: "c.id, c.name, c.type, c.icon, c.labels ->> 'namespace' AS namespace, c.agent_id",
    from: 'components c WHERE c.deleted_at IS NULL',
    name: 'c.name',
    type: 'c.type',
    ns: "c.labels ->> 'namespace'",
  },
  configs: {
    select: "c.id, c.name, c.type, c.config_class, c.tags ->> 'namespace' AS namespace, c.agent_id",
    from: 'config_items c WHERE c.deleted_at IS NULL',
    name: 'c.name',
    type: 'c.type',
    ns: "c.tags ->> 'namespace'",
  },
};

/** Finds one area's resources whose name contains the text (case-insensitive), by name. */
export async function searchArea(
  db: Queryable,
  area: SearchArea,
  text: string,
  opts: AreaOptions = {},
  limit = DEFAULT_SEARCH_LIMIT,
): Promise<FoundResource[]> {
  const a = AREA_SQL[area];
  const params = new Params();
  const conds = [`${a.name} ILIKE ${params.add(containsPattern(text.trim()))}`];
  if (opts.types?.length) conds.push(`${a.type} = ANY(${params.add(opts.types)}::text[])`);
  if (opts.namespace) conds.push(`${a.ns} = ${params.add(opts.namespace)}`);
  if (opts.agent_id) conds.push(`c.agent_id = ${params.add(opts.agent_id)}::uuid`);
  const { rows } = await db.query<FoundResource>(
    `SELECT ${a.select} FROM ${a.from} AND ${conds.join(' AND ')}
     ORDER BY length(${a.name}), ${a.name}, c.id LIMIT ${params.add(limit)}::int`,
    params.values,
  );
  return rows;
}
