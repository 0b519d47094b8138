// Stage 2 of /api/db: request tree + schema cache + exposure registry → a plan.
// Everything that names a relation, column, function or relationship is checked here.
import type { Resource } from '@opsdeck/common';
import type { FunctionDef, Relation, SchemaCache } from '../db/introspect.js';
import { ApiError } from './errors.js';
import type { ApiRequest, Condition, Field, JsonStep, NodeOptions, Operator, SelectItem } from './parse.js';
import { parseFilterParam } from './parse.js';
import type { ExposureRegistry } from './registry.js';
import { fuzzyBest } from './fuzzy.js';
import { findRelationship, isToOne, type Relationship } from './relationships.js';

export interface ColumnRef {
  /** SQL alias of the relation the column belongs to. */
  alias: string;
  column: string;
  json: JsonStep[];
  /** The column is not json/jsonb: a JSON path reads to_jsonb(column). */
  notJson?: boolean;
}

export type Projection =
  | { kind: 'column'; ref: ColumnRef; key: string; cast?: string }
  /** `people(count)`: the number of related rows. */
  | { kind: 'count'; key: string }
  | { kind: 'embed'; key: string; node: ReadNode; spread: boolean };

export type PlannedCondition =
  | {
      kind: 'filter';
      ref: ColumnRef;
      negated: boolean;
      op: Operator;
      quantifier?: 'any' | 'all';
      value: string | string[];
      ftsConfig?: string;
    }
  | { kind: 'embedNull'; embedAlias: string; toOne: boolean; negated: boolean }
  | { kind: 'logic'; op: 'and' | 'or'; negated: boolean; children: PlannedCondition[] };

export interface PlannedOrder {
  ref: ColumnRef;
  direction?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
}

export interface ReadNode {
  relation: string;
  alias: string;
  projection: Projection[];
  conditions: PlannedCondition[];
  order: PlannedOrder[];
  limit?: number;
  offset?: number;
  /** How this node joins its parent (absent on the root). */
  join?: { rel: Relationship; parentAlias: string; junctionAlias?: string; toOne: boolean; inner: boolean };
}

export interface Access {
  resource: Resource;
  action: 'read' | 'write';
}

interface PlanBase {
  /** Every registry resource the request touches, with the action needed (for RBAC). */
  access: Access[];
  singular: boolean;
  /** Prefer: count=... was asked: totals go into Content-Range. */
  count: boolean;
}

export type Plan =
  | (PlanBase & { kind: 'read'; root: ReadNode; offset: number; limit?: number })
  | (PlanBase & {
      kind: 'insert';
      relation: string;
      columns: string[];
      /** The JSON array of rows, bound as one parameter. */
      payload: string;
      rowCount: number;
      onConflict?: { columns: string[]; action: 'merge' | 'ignore' };
      returning: ReadNode | null;
    })
  | (PlanBase & {
      kind: 'update';
      relation: string;
      alias: string;
      columns: string[];
      payload: string;
      conditions: PlannedCondition[];
      returning: ReadNode | null;
    })
  | (PlanBase & {
      kind: 'delete';
      relation: string;
      alias: string;
      conditions: PlannedCondition[];
      returning: ReadNode | null;
    })
  | (PlanBase & {
      kind: 'rpc';
      fn: FunctionDef;
      /** JSON object of argument values, bound as one parameter and typed through json_to_record. */
      args: string;
      argNames: string[];
      /** Rows of a set- or row-returning function, shaped like a read; null for scalars. */
      root: ReadNode | null;
      readOnly: boolean;
      offset: number;
      limit?: number;
    });

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

export interface PlanContext {
  schema: SchemaCache;
  registry: ExposureRegistry;
}

export function plan(req: ApiRequest, ctx: PlanContext): Plan {
  return new Planner(req, ctx).plan();
}

class Planner {
  private aliasCount = 0;
  private access: Access[] = [];

  constructor(
    private req: ApiRequest,
    private ctx: PlanContext,
  ) {}

  plan(): Plan {
    const { req } = this;
    if (req.target.kind === 'rpc') return this.planRpc();
    const relation = this.relation(req.target.name);
    const write = req.method !== 'GET' && req.method !== 'HEAD';
    if (write) {
      const exposed = this.ctx.registry.relations.get(relation.name);
      checkWritable(relation, req, exposed?.readOnly ?? false, exposed?.writeWith);
    }
    this.grant(relation.name, write ? 'write' : 'read');
    const base = { access: this.access, singular: req.singular, count: !!req.prefer.count };
    const top = req.nodes.get('')!;

    if (!write) {
      const root = this.readNode(relation, req.select, [], top);
      const { offset, limit } = this.topRange(top);
      root.limit = limit;
      root.offset = offset;
      this.checkUnusedNodes();
      return { ...base, kind: 'read', root, offset, limit };
    }

    const returning = () => {
      if (req.prefer.return !== 'representation') return null;
      this.grant(relation.name, 'read');
      return this.readNode(relation, req.select, [], { path: [], conditions: [] });
    };

    if (req.method === 'POST') {
      const { rows, columns } = this.payloadRows(relation, true);
      const onConflict = this.onConflict(relation);
      const r = returning();
      return {
        ...base,
        kind: 'insert',
        relation: relation.name,
        columns,
        payload: JSON.stringify(rows),
        rowCount: rows.length,
        onConflict,
        returning: r,
      };
    }
    const alias = this.nextAlias(relation.name);
    const conditions = this.conditions(top.conditions, relation, alias, []);
    const r = returning();
    if (req.method === 'PATCH') {
      const { rows, columns } = this.payloadRows(relation, false);
      return {
        ...base,
        kind: 'update',
        relation: relation.name,
        alias,
        columns,
        payload: JSON.stringify(rows[0] ?? {}),
        conditions,
        returning: r,
      };
    }
    return { ...base, kind: 'delete', relation: relation.name, alias, conditions, returning: r };
  }

  // -- relations, columns and access ------------------------------------------------------------

  private exposed = (name: string) => this.ctx.registry.relations.has(name) && this.ctx.schema.relations.has(name);

  private relation(name: string): Relation {
    const rel = this.ctx.schema.relations.get(name);
    if (!rel || !this.ctx.registry.relations.has(name)) {
      throw new ApiError(404, '42P01', `relation "${this.ctx.schema.schema}.${name}" does not exist`);
    }
    return rel;
  }

  private grant(relation: string, action: 'read' | 'write') {
    const entry = this.ctx.registry.relations.get(relation);
    const resource = action === 'write' ? (entry?.writeResource ?? entry?.resource) : entry?.resource;
    if (resource && !this.access.some((a) => a.resource === resource && a.action === action))
      this.access.push({ resource, action });
  }

  private secret(relation: string, column: string): boolean {
    return this.ctx.registry.relations.get(relation)?.secretColumns?.includes(column) ?? false;
  }

  private visibleColumns(relation: Relation): string[] {
    return relation.columns.map((c) => c.name).filter((c) => !this.secret(relation.name, c));
  }

  /** `depth` names the relation in errors as PostgREST's SQL does: `people`, then `people_1` in an embed. */
  private column(relation: Relation, alias: string, field: Field, depth = 0): ColumnRef {
    const column = relation.columnsByName.get(field.name);
    if (!column || this.secret(relation.name, field.name)) {
      throw missingColumn(
        depth ? `${relation.name}_${depth}` : relation.name,
        field.name,
        this.visibleColumns(relation),
      );
    }
    return {
      alias,
      column: field.name,
      json: field.json,
      notJson: !/^jsonb?$/.test(column.type) && column.type !== 'unknown',
    };
  }

  private nextAlias(name: string): string {
    return `${name.slice(0, 40)}_${++this.aliasCount}`;
  }

  // -- reads ----------------------------------------------------------------------------------------

  private readNode(
    relation: Relation,
    select: SelectItem[],
    path: string[],
    options: NodeOptions | undefined,
    join?: ReadNode['join'],
  ): ReadNode {
    const alias = this.nextAlias(relation.name);
    const node: ReadNode = { relation: relation.name, alias, projection: [], conditions: [], order: [], join };
    for (const item of select) {
      if (item.kind === 'star') {
        for (const c of this.visibleColumns(relation)) {
          node.projection.push({ kind: 'column', ref: { alias, column: c, json: [] }, key: c });
        }
      } else if (item.kind === 'column') {
        if (isEmbeddedCount(item, relation, path)) {
          node.projection.push({ kind: 'count', key: item.alias ?? 'count' });
          continue;
        }
        const ref = this.column(relation, alias, item.field, path.length);
        const last = item.field.json[item.field.json.length - 1];
        const key = item.alias ?? (last && !/^-?\d+$/.test(last.key) ? last.key : item.field.name);
        let cast: string | undefined;
        if (item.cast) {
          cast = item.cast.toLowerCase();
          if (!CASTS.has(cast)) throw new ApiError(400, '42704', `type "${item.cast}" does not exist`);
        }
        node.projection.push({ kind: 'column', ref, key, cast });
      } else {
        node.projection.push(this.embed(relation, node, item, path));
      }
    }
    if (options) {
      node.conditions = this.conditions(options.conditions, relation, alias, path, node);
      node.order = (options.order ?? []).map((t) => ({
        ref: this.column(relation, alias, t.field, path.length),
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

  private embed(
    parent: Relation,
    parentNode: ReadNode,
    item: Extract<SelectItem, { kind: 'embed' }>,
    parentPath: string[],
  ): Projection {
    const rel = findRelationship(this.ctx.schema, parent.name, item.target, item.hint, this.exposed);
    const target = this.relation(rel.target);
    this.grant(target.name, 'read');
    if (rel.cardinality === 'many-to-many') this.grant(rel.junction, 'read');
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
    const options = this.req.nodes.get(path.join('.'));
    this.usedNodes.add(path.join('.'));
    const join: ReadNode['join'] = {
      rel,
      parentAlias: parentNode.alias,
      junctionAlias: rel.cardinality === 'many-to-many' ? this.nextAlias(rel.junction) : undefined,
      toOne,
      inner: item.joinType === 'inner',
    };
    const node = this.readNode(target, item.select, path, options, join);
    return { kind: 'embed', key, node, spread: item.spread };
  }

  private usedNodes = new Set<string>(['']);

  private checkUnusedNodes() {
    for (const [key, opts] of this.req.nodes) {
      if (this.usedNodes.has(key)) continue;
      if (opts.conditions.length === 0 && !opts.order && opts.limit === undefined && opts.offset === undefined)
        continue;
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

  private conditions(
    conds: Condition[],
    relation: Relation,
    alias: string,
    path: string[],
    node?: ReadNode,
  ): PlannedCondition[] {
    return conds.map((c) => this.condition(c, relation, alias, path, node));
  }

  private condition(
    c: Condition,
    relation: Relation,
    alias: string,
    path: string[],
    node?: ReadNode,
  ): PlannedCondition {
    if (c.kind === 'logic') {
      return {
        kind: 'logic',
        op: c.op,
        negated: c.negated,
        children: this.conditions(c.children, relation, alias, path, node),
      };
    }
    // select=*,teams(*)&teams=not.is.null: a condition on the embed itself.
    const embed = node?.projection.find(
      (p) => p.kind === 'embed' && p.key === c.field.name && c.field.json.length === 0,
    );
    if (embed && embed.kind === 'embed' && c.op === 'is' && c.value === 'null') {
      return { kind: 'embedNull', embedAlias: embed.node.alias, toOne: embed.node.join!.toOne, negated: c.negated };
    }
    return {
      kind: 'filter',
      ref: this.column(relation, alias, c.field, path.length),
      negated: c.negated,
      op: c.op,
      quantifier: c.quantifier,
      value: c.value,
      ftsConfig: c.ftsConfig,
    };
  }

  /** The top-level window: limit/offset parameters intersected with the Range header. */
  private topRange(top: NodeOptions): { offset: number; limit?: number } {
    let offset = top.offset ?? 0;
    let end = top.limit !== undefined ? offset + top.limit - 1 : Infinity;
    const range = this.req.range;
    if (range && (this.req.method === 'GET' || this.req.method === 'HEAD')) {
      offset = Math.max(offset, range.from);
      end = Math.min(end, range.to ?? Infinity);
    }
    return { offset, limit: end === Infinity ? undefined : Math.max(0, end - offset + 1) };
  }

  // -- writes ---------------------------------------------------------------------------------------

  private payloadRows(relation: Relation, allowArray: boolean): { rows: Record<string, unknown>[]; columns: string[] } {
    const body = this.req.body ?? '';
    let parsed: unknown;
    try {
      parsed = body.trim() === '' ? undefined : JSON.parse(body);
    } catch {
      throw new ApiError(400, 'PGRST102', 'Empty or invalid json', null);
    }
    if (parsed === undefined) {
      if (this.req.method === 'PATCH') parsed = {};
      else throw new ApiError(400, 'PGRST102', 'Empty or invalid json', null);
    }
    const isObject = (v: unknown): v is Record<string, unknown> =>
      typeof v === 'object' && v !== null && !Array.isArray(v);
    let rows: Record<string, unknown>[];
    if (Array.isArray(parsed) && allowArray) {
      if (!parsed.every(isObject)) throw new ApiError(400, 'PGRST102', 'All object keys must match', null);
      rows = parsed;
    } else if (isObject(parsed)) rows = [parsed];
    else throw new ApiError(400, 'PGRST102', 'Empty or invalid json', null);

    let columns: string[];
    if (this.req.columns) columns = this.req.columns;
    else {
      columns = Object.keys(rows[0] ?? {});
      const sig = [...columns].sort().join('\u0000');
      if (rows.some((r) => Object.keys(r).sort().join('\u0000') !== sig)) {
        throw new ApiError(400, 'PGRST102', 'All object keys must match', null);
      }
    }
    for (const c of columns) {
      if (!relation.columnsByName.has(c)) {
        throw new ApiError(400, 'PGRST204', `Column '${c}' of relation '${relation.name}' does not exist`);
      }
    }
    return { rows, columns };
  }

  private onConflict(relation: Relation): { columns: string[]; action: 'merge' | 'ignore' } | undefined {
    const resolution = this.req.prefer.resolution;
    if (!resolution) return undefined;
    const columns = this.req.onConflict ?? relation.primaryKey;
    for (const c of columns) {
      if (!relation.columnsByName.has(c)) throw new ApiError(400, '42703', `column "${c}" does not exist`);
    }
    if (columns.length === 0) return undefined;
    return { columns, action: resolution === 'merge-duplicates' ? 'merge' : 'ignore' };
  }

  // -- functions ------------------------------------------------------------------------------------

  private planRpc(): Plan {
    const { req, ctx } = this;
    const name = req.target.name;
    const exposed = ctx.registry.functions.get(name);
    const overloads = exposed ? (ctx.schema.functions.get(name) ?? []) : [];
    let given: Record<string, unknown>;
    const getLike = req.method === 'GET' || req.method === 'HEAD';
    const argNames = new Set(overloads.flatMap((f) => f.args.map((a) => a.name)));
    const filterParams: [string, string][] = [];
    if (getLike) {
      given = {};
      for (const [k, v] of req.rpcParams) {
        if (argNames.has(k)) given[k] = v;
        else filterParams.push([k, v]);
      }
    } else if (req.method === 'POST') {
      let parsed: unknown;
      try {
        parsed = req.body && req.body.trim() !== '' ? JSON.parse(req.body) : {};
      } catch {
        throw new ApiError(400, 'PGRST102', 'Empty or invalid json', null);
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
        throw new ApiError(400, 'PGRST102', 'Empty or invalid json', null);
      }
      given = parsed as Record<string, unknown>;
      filterParams.push(...req.rpcParams);
    } else {
      throw new ApiError(405, 'PGRST101', 'Only GET and POST are supported for functions');
    }
    const keys = Object.keys(given);
    const fn = overloads.find(
      (f) =>
        keys.every((k) => f.args.some((a) => a.name === k)) &&
        f.args.every((a) => a.hasDefault || keys.includes(a.name)),
    );
    if (!fn || !exposed) {
      // On GET every non-reserved parameter counts as an argument when no function matched.
      const asked = getLike ? req.rpcParams.map(([k]) => k) : keys;
      throw noFunction(ctx, name, asked, exposed ? overloads : [], getLike);
    }
    this.access.push({ resource: exposed.resource, action: getLike ? 'read' : 'write' });
    const top = req.nodes.get('')!;
    const filterConds = filterParams.map(([k, v]) => parseFilterParam(k, v));
    const options: NodeOptions = { ...top, conditions: [...top.conditions, ...filterConds] };
    let root: ReadNode | null = null;
    const rowRelation = fn.returnsRelation ? ctx.schema.relations.get(fn.returnsRelation) : undefined;
    if (rowRelation || fn.outColumns.length > 0) {
      const relation: Relation = rowRelation ?? {
        name: fn.name,
        kind: 'view',
        columns: fn.outColumns.map((c) => ({ name: c, type: 'unknown', nullable: true, hasDefault: false })),
        columnsByName: new Map(
          fn.outColumns.map((c) => [c, { name: c, type: 'unknown', nullable: true, hasDefault: false }]),
        ),
        primaryKey: [],
        uniqueKeys: [],
        writable: { insert: false, update: false, delete: false },
      };
      root = this.readNode(relation, req.select, [], options);
    } else if (options.conditions.length > 0 || options.order) {
      const first = filterParams[0]?.[0] ?? top.order?.[0]?.field.name ?? 'filter';
      throw new ApiError(400, '42703', `column "${first}" does not exist`);
    }
    const { offset, limit } = this.topRange(top);
    if (root) {
      root.limit = limit;
      root.offset = offset;
    }
    this.checkUnusedNodes();
    return {
      kind: 'rpc',
      access: this.access,
      singular: req.singular,
      fn,
      args: JSON.stringify(given),
      argNames: keys,
      root,
      readOnly: getLike,
      count: !!req.prefer.count,
      offset,
      limit,
    };
  }
}

/**
 * Refuses a write PostgreSQL would reject for the relation (a view that is not updatable), and any
 * write to a relation the registry marks read-only (rows only the server writes, like a changelog).
 */
function checkWritable(relation: Relation, req: ApiRequest, readOnly: boolean, writeWith?: string) {
  const needs: [keyof Relation['writable'], string][] =
    req.method === 'POST'
      ? [
          ['insert', 'insert into'],
          ...(req.prefer.resolution ? ([['update', 'update']] as [keyof Relation['writable'], string][]) : []),
        ]
      : req.method === 'PATCH'
        ? [['update', 'update']]
        : [['delete', 'delete from']];
  for (const [action, verb] of needs) {
    if (readOnly || !relation.writable[action]) {
      throw new ApiError(
        405,
        '55000',
        `cannot ${verb} ${relation.kind} "${relation.name}"${writeWith ? `: use ${writeWith}` : ''}`,
        `'${relation.name}' is read-only: it can only be read (GET).`,
      );
    }
  }
}

/** PGRST202 with PostgREST's wording and its fuzzy "Perhaps you meant" hint. */
function noFunction(
  ctx: PlanContext,
  name: string,
  keys: string[],
  overloads: FunctionDef[],
  getLike: boolean,
): ApiError {
  const sorted = [...keys].sort();
  const qualified = `${ctx.schema.schema}.${name}`;
  const params = sorted.join(', ');
  const withParams = sorted.length ? ` with parameter${sorted.length > 1 ? 's' : ''} ${params}` : ' without parameters';
  const exposedNames = [...ctx.registry.functions.keys()].filter((f) => ctx.schema.functions.has(f));
  const overloadParams = overloads.map((o) => o.args.map((a) => a.name).sort());
  const suggestion = overloads.length
    ? (fuzzyBest(
        overloadParams.map((ps) => ps.join(', ')),
        params,
      ) ??
      // An overload taking every given parameter (and more) is suggested too.
      overloadParams.find((ps) => sorted.every((k) => ps.includes(k)))?.join(', '))
    : fuzzyBest(exposedNames, name);
  const hint =
    suggestion === undefined
      ? null
      : `Perhaps you meant to call the function ${ctx.schema.schema}.${overloads.length ? `${name}(${suggestion})` : suggestion}`;
  return new ApiError(
    404,
    'PGRST202',
    `Could not find the function ${qualified}${sorted.length ? `(${params})` : ' without parameters'} in the schema cache`,
    `Searched for the function ${qualified}${withParams}${getLike ? '' : ' or with a single unnamed json/jsonb parameter'}, but no matches were found in the schema cache.`,
    hint,
  );
}

/** PostgreSQL's "column does not exist" error, with its "Perhaps you meant" hint for near misses. */
function missingColumn(relationAlias: string, name: string, candidates: string[]): ApiError {
  const suggestion = closestColumn(name, candidates);
  return new ApiError(
    400,
    '42703',
    `column ${relationAlias}.${name} does not exist`,
    null,
    suggestion ? `Perhaps you meant to reference the column "${relationAlias}.${suggestion}".` : null,
  );
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

/** PostgreSQL's fuzzy column match: Levenshtein distance ≤ 3 and at most half the name's length. */
export function closestColumn(name: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 4;
  for (const c of candidates) {
    const d = levenshtein(name, c);
    if (d > Math.floor(name.length / 2)) continue;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0]!;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j]!;
      prev[j] = Math.min(prev[j]! + 1, prev[j - 1]! + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length]!;
}
