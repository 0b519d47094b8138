// Stage 2 of /api/db: reads: a select resolved to columns, casts, counts and embeds, and the top-level window.
import type { Relation } from '../db/introspect.js';
import { ApiError } from './errors.js';
import type { ApiRequest, NodeOptions, SelectItem } from './parse.js';
import type { Projection, ReadNode } from './plan.js';
import type { PlanScope } from './planScope.js';
import { findRelationship, isToOne } from './relationships.js';

/** Types a select may cast to; anything else answers as PostgreSQL would for an unknown type. */
const CASTS = new Set([
  'text',
  'varchar',
  'char',
  'name',
  'citext',
  'int',
  'int2',
  'int4',
  'int8',
  'integer',
  'smallint',
  'bigint',
  'numeric',
  'decimal',
  'real',
  'float',
  'float4',
  'float8',
  'double precision',
  'bool',
  'boolean',
  'date',
  'time',
  'timetz',
  'timestamp',
  'timestamptz',
  'interval',
  'uuid',
  'json',
  'jsonb',
]);

/** One relation of a read: its projection (columns, counts, embeds), conditions, order and, in an embed, limits. */
export function readNode(
  scope: PlanScope,
  relation: Relation,
  select: SelectItem[],
  path: string[],
  options: NodeOptions | undefined,
  join?: ReadNode['join'],
): ReadNode {
  const alias = scope.nextAlias(relation.name);
  const node: ReadNode = { relation: relation.name, alias, projection: [], conditions: [], order: [], join };
  for (const item of select) {
    if (item.kind === 'star') {
      for (const c of scope.visibleColumns(relation)) {
        node.projection.push({ kind: 'column', ref: { alias, column: c, json: [] }, key: c });
      }
    } else if (item.kind === 'column') {
      if (isEmbeddedCount(item, relation, path)) {
        node.projection.push({ kind: 'count', key: item.alias ?? 'count' });
        continue;
      }
      const ref = scope.column(relation, alias, item.field, path.length);
      const last = item.field.json[item.field.json.length - 1];
      const key = item.alias ?? (last && !/^-?\d+$/.test(last.key) ? last.key : item.field.name);
      let cast: string | undefined;
      if (item.cast) {
        cast = item.cast.toLowerCase();
        if (!CASTS.has(cast)) throw new ApiError(400, '42704', `type "${item.cast}" does not exist`);
      }
      node.projection.push({ kind: 'column', ref, key, cast });
    } else {
      node.projection.push(embed(scope, relation, node, item, path));
    }
  }
  if (options) {
    node.conditions = scope.conditions(options.conditions, relation, alias, path, node);
    node.order = (options.order ?? []).map((t) => ({
      ref: scope.column(relation, alias, t.field, path.length),
      direction: t.direction,
      nulls: t.nulls,
    }));
    if (path.length > 0) {
      node.limit = options.limit;
      node.offset = options.offset;
    }
  }
  return node;
}

function embed(
  scope: PlanScope,
  parent: Relation,
  parentNode: ReadNode,
  item: Extract<SelectItem, { kind: 'embed' }>,
  parentPath: string[],
): Projection {
  const rel = findRelationship(scope.ctx.schema, parent.name, item.target, item.hint, scope.exposed);
  const target = scope.relation(rel.target);
  scope.grant(target.name, 'read');
  if (rel.cardinality === 'many-to-many') scope.grant(rel.junction, 'read');
  const key = item.alias ?? item.target;
  const path = [...parentPath, key];
  const toOne = isToOne(rel);
  if (item.spread && !toOne) {
    throw new ApiError(
      400,
      'PGRST119',
      'A spread operation on a to-many relationship is not supported',
      `'${parent.name}' and '${target.name}' do not form a many-to-one or one-to-one relationship`,
    );
  }
  const options = scope.req.nodes.get(path.join('.'));
  scope.usedNodes.add(path.join('.'));
  const join: ReadNode['join'] = {
    rel,
    parentAlias: parentNode.alias,
    junctionAlias: rel.cardinality === 'many-to-many' ? scope.nextAlias(rel.junction) : undefined,
    toOne,
    inner: item.joinType === 'inner',
  };
  const node = readNode(scope, target, item.select, path, options, join);
  return { kind: 'embed', key, node, spread: item.spread };
}

export function checkUnusedNodes(scope: PlanScope) {
  for (const [key, opts] of scope.req.nodes) {
    if (scope.usedNodes.has(key)) continue;
    if (opts.conditions.length === 0 && !opts.order && opts.limit === undefined && opts.offset === undefined) continue;
    // PostgREST: filters and options on an embed that is not selected.
    const target = opts.path[opts.path.length - 1]!;
    throw new ApiError(
      400,
      'PGRST108',
      `'${target}' is not an embedded resource in this request`,
      null,
      `Verify that '${target}' is included in the 'select' query parameter.`,
    );
  }
}

/** The top-level window: limit/offset parameters intersected with the Range header. */
export function topRange(req: ApiRequest, top: NodeOptions): { offset: number; limit?: number } {
  let offset = top.offset ?? 0;
  let end = top.limit !== undefined ? offset + top.limit - 1 : Infinity;
  const range = req.range;
  if (range && (req.method === 'GET' || req.method === 'HEAD')) {
    offset = Math.max(offset, range.from);
    end = Math.min(end, range.to ?? Infinity);
  }
  return { offset, limit: end === Infinity ? undefined : Math.max(0, end - offset + 1) };
}

/** `select=name,people(count)`: inside an embed, a bare `count` that is not a column counts the rows. */
function isEmbeddedCount(item: Extract<SelectItem, { kind: 'column' }>, relation: Relation, path: string[]): boolean {
  return (
    path.length > 0 &&
    item.field.name === 'count' &&
    item.field.json.length === 0 &&
    !item.cast &&
    !relation.columnsByName.has('count')
  );
}
