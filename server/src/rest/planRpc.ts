// Stage 2 of /api/db: function calls (/rpc/fn): the overload the arguments match, and its rows planned as a read.
import type { FunctionDef, Relation } from '../db/introspect.js';
import { ApiError } from './errors.js';
import { parseFilterParam, type NodeOptions } from './parse.js';
import type { Plan, PlanContext, ReadNode } from './plan.js';
import { checkUnusedNodes, readNode, topRange } from './planRead.js';
import type { PlanScope } from './planScope.js';
import { fuzzyBest } from './fuzzy.js';

/** /rpc/fn: the overload the arguments match; filters, order and limits apply to its rows as in a read. */
export function planRpc(scope: PlanScope): Plan {
  const { req, ctx } = scope;
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
      keys.every((k) => f.args.some((a) => a.name === k)) && f.args.every((a) => a.hasDefault || keys.includes(a.name)),
  );
  if (!fn || !exposed) {
    // On GET every non-reserved parameter counts as an argument when no function matched.
    const asked = getLike ? req.rpcParams.map(([k]) => k) : keys;
    throw noFunction(ctx, name, asked, exposed ? overloads : [], getLike);
  }
  scope.access.push({ resource: exposed.resource, action: getLike ? 'read' : 'write' });
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
    root = readNode(scope, relation, req.select, [], options);
  } else if (options.conditions.length > 0 || options.order) {
    const first = filterParams[0]?.[0] ?? top.order?.[0]?.field.name ?? 'filter';
    throw new ApiError(400, '42703', `column "${first}" does not exist`);
  }
  const { offset, limit } = topRange(req, top);
  if (root) {
    root.limit = limit;
    root.offset = offset;
  }
  checkUnusedNodes(scope);
  return {
    kind: 'rpc',
    access: scope.access,
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
