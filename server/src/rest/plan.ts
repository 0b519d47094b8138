// Stage 2 of /api/db: request tree + schema cache + exposure registry → a plan.
// Everything that names a relation, column, function or relationship is checked in this stage (the plan*.ts files).
import type { Resource } from '@opsdeck/common';
import type { FunctionDef, SchemaCache } from '../db/introspect.js';
import type { ApiRequest, JsonStep, Operator } from './parse.js';
import { checkUnusedNodes, readNode, topRange } from './planRead.js';
import { planRpc } from './planRpc.js';
import { PlanScope } from './planScope.js';
import { checkWritable, payloadRows, planOnConflict } from './planWrite.js';
import type { ExposureRegistry } from './registry.js';
import type { Relationship } from './relationships.js';

export { closestColumn } from './planScope.js';

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

export interface PlanContext {
  schema: SchemaCache;
  registry: ExposureRegistry;
}

export function plan(req: ApiRequest, ctx: PlanContext): Plan {
  const scope = new PlanScope(req, ctx);
  if (req.target.kind === 'rpc') return planRpc(scope);
  const relation = scope.relation(req.target.name);
  const write = req.method !== 'GET' && req.method !== 'HEAD';
  if (write) {
    const exposed = ctx.registry.relations.get(relation.name);
    checkWritable(relation, req, exposed?.readOnly ?? false, exposed?.writeWith);
  }
  scope.grant(relation.name, write ? 'write' : 'read');
  const base = { access: scope.access, singular: req.singular, count: !!req.prefer.count };
  const top = req.nodes.get('')!;

  if (!write) {
    const root = readNode(scope, relation, req.select, [], top);
    const { offset, limit } = topRange(req, top);
    root.limit = limit;
    root.offset = offset;
    checkUnusedNodes(scope);
    return { ...base, kind: 'read', root, offset, limit };
  }

  const returning = () => {
    if (req.prefer.return !== 'representation') return null;
    scope.grant(relation.name, 'read');
    return readNode(scope, relation, req.select, [], { path: [], conditions: [] });
  };

  if (req.method === 'POST') {
    const { rows, columns } = payloadRows(req, relation, true);
    const onConflict = planOnConflict(req, relation);
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
  const alias = scope.nextAlias(relation.name);
  const conditions = scope.conditions(top.conditions, relation, alias, []);
  const r = returning();
  if (req.method === 'PATCH') {
    const { rows, columns } = payloadRows(req, relation, false);
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
