// Stage 3 of /api/db: plan → one parameterised SQL statement. Identifiers come from the plan
// (which took them from the schema cache) and are quoted; every value is a bound parameter.
// The statement returns one row: total (when counted), page_total and the JSON body as text.
import type { Plan, PlannedCondition, ReadNode, ColumnRef, Projection } from './plan.js';
import { joinColumns } from './relationships.js';

export interface Statement {
  text: string;
  values: unknown[];
}

export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

class Params {
  values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

export function buildSql(plan: Plan, schemaName = 'public'): Statement {
  const p = new Params();
  const q = (name: string) => `${ident(schemaName)}.${ident(name)}`;
  let text: string;
  switch (plan.kind) {
    case 'read':
      text = readStatement(plan.root, q(plan.root.relation), plan.count, p);
      break;
    case 'insert': {
      const target = q(plan.relation);
      const cols = plan.columns.map(ident).join(', ');
      const upsert = !!plan.onConflict;
      let insert: string;
      if (plan.rowCount === 0) {
        insert = `SELECT * FROM ${target} WHERE FALSE`;
      } else {
        const rows = `json_populate_recordset(NULL::${target}, ${p.add(plan.payload)}::json) AS _rows`;
        insert = plan.columns.length
          ? `INSERT INTO ${target} (${cols}) SELECT ${cols} FROM ${rows}`
          : `INSERT INTO ${target} SELECT FROM ${rows}`;
        if (plan.onConflict) {
          const conflict = plan.onConflict.columns.map(ident).join(', ');
          const updates = plan.columns.map((c) => `${ident(c)} = EXCLUDED.${ident(c)}`);
          insert +=
            plan.onConflict.action === 'ignore' || updates.length === 0
              ? ` ON CONFLICT (${conflict}) DO NOTHING`
              : ` ON CONFLICT (${conflict}) DO UPDATE SET ${updates.join(', ')}`;
        }
        // xmax is 0 for a freshly inserted row version and set for one an upsert updated.
        insert += upsert ? ' RETURNING *, xmax = 0 AS pgrst_inserted' : ' RETURNING *';
      }
      text = writeStatement(insert, plan.returning, p, upsert && plan.rowCount > 0);
      break;
    }
    case 'update': {
      const where = conditionsSql(plan.conditions, p);
      const target = `${q(plan.relation)} AS ${ident(plan.alias)}`;
      let update: string;
      if (plan.columns.length === 0) {
        // Nothing to set: touch no row (the filters still bind their parameters).
        update = `SELECT ${ident(plan.alias)}.* FROM ${target} WHERE FALSE${where ? ` AND ${where}` : ''}`;
      } else {
        const sets = plan.columns.map((c) => `${ident(c)} = _body.${ident(c)}`).join(', ');
        const body = `(SELECT * FROM json_populate_record(NULL::${q(plan.relation)}, ${p.add(plan.payload)}::json)) AS _body`;
        update = `UPDATE ${target} SET ${sets} FROM ${body}${where ? ` WHERE ${where}` : ''} RETURNING ${ident(plan.alias)}.*`;
      }
      text = writeStatement(update, plan.returning, p);
      break;
    }
    case 'delete': {
      const where = conditionsSql(plan.conditions, p);
      const del = `DELETE FROM ${q(plan.relation)} AS ${ident(plan.alias)}${where ? ` WHERE ${where}` : ''} RETURNING ${ident(plan.alias)}.*`;
      text = writeStatement(del, plan.returning, p);
      break;
    }
    case 'rpc': {
      const fnName = q(plan.fn.name);
      const argTypes = new Map(plan.fn.args.map((a) => [a.name, a.type]));
      let from: string;
      let call: string;
      if (plan.argNames.length) {
        const record = plan.argNames.map((a) => `${ident(a)} ${argTypes.get(a)}`).join(', ');
        const named = plan.argNames.map((a) => `${ident(a)} := _args.${ident(a)}`).join(', ');
        from = `json_to_record(${p.add(plan.args)}::json) AS _args(${record}) CROSS JOIN LATERAL `;
        call = `${fnName}(${named})`;
      } else {
        from = '';
        call = `${fnName}()`;
      }
      if (plan.root) {
        text = readStatement(plan.root, `${from}${call}`, plan.count, p);
      } else {
        // A scalar (or set of scalars): one column named v.
        const total = plan.count ? 'pg_catalog.count(_t)' : 'NULL::bigint';
        text = `SELECT ${total} AS total, pg_catalog.count(_t) AS page_total, coalesce(json_agg(_t.v), '[]')::text AS body FROM (SELECT v FROM ${from}${call} AS v) _t`;
      }
      break;
    }
  }
  return { text, values: p.values };
}

function writeStatement(mutation: string, returning: ReadNode | null, p: Params, upsert = false): string {
  const inserted = upsert ? '(SELECT pg_catalog.count(*) FROM pgrst_source WHERE pgrst_inserted)' : 'NULL::bigint';
  if (!returning) {
    return `WITH pgrst_source AS (${mutation}) SELECT NULL::bigint AS total, pg_catalog.count(*) AS page_total, NULL::text AS body, ${inserted} AS inserted FROM pgrst_source`;
  }
  const inner = nodeSelect(returning, 'pgrst_source', p, { topLevel: true });
  return `WITH pgrst_source AS (${mutation}) SELECT NULL::bigint AS total, pg_catalog.count(_t) AS page_total, coalesce(json_agg(_t), '[]')::text AS body, ${inserted} AS inserted FROM (${inner}) _t`;
}

function readStatement(root: ReadNode, from: string, count: boolean, p: Params): string {
  const page = nodeSelect(root, from, p, { topLevel: true });
  const total = count ? `(${nodeSelect(root, from, p, { topLevel: true, countOnly: true })})` : 'NULL::bigint';
  return `SELECT ${total} AS total, pg_catalog.count(_t) AS page_total, coalesce(json_agg(_t), '[]')::text AS body FROM (${page}) _t`;
}

interface SelectOptions {
  topLevel?: boolean;
  /** SELECT count(*) over the node's rows: no projection, order or window. */
  countOnly?: boolean;
  /** Extra WHERE clause that joins this node to its parent. */
  joinWhere?: string;
  /** Extra FROM items (a junction table). */
  extraFrom?: string;
}

/** SELECT <projection> FROM <relation> AS alias <laterals> WHERE <join and conditions> ORDER/LIMIT/OFFSET. */
function nodeSelect(node: ReadNode, from: string, p: Params, opts: SelectOptions): string {
  const laterals: string[] = [];
  const items: string[] = [];
  const embedsInConditions = new Set<string>();
  collectEmbedRefs(node.conditions, embedsInConditions);

  for (const item of node.projection) {
    if (item.kind === 'column') {
      if (!opts.countOnly) {
        const value = item.cast ? `(${columnSql(item.ref, p)})::${item.cast}` : columnSql(item.ref, p);
        items.push(`${value} AS ${ident(item.key)}`);
      }
      continue;
    }
    if (item.kind === 'count') {
      if (!opts.countOnly) items.push(`pg_catalog.count(*) AS ${ident(item.key)}`);
      continue;
    }
    const child = item.node;
    const join = child.join!;
    const needed = !opts.countOnly || join.inner || embedsInConditions.has(child.alias);
    if (!needed) continue;
    laterals.push(lateralSql(child, p));
    if (opts.countOnly) continue;
    const j = lateralAlias(child);
    if (item.spread) {
      for (const key of outputKeys(child)) items.push(`${ident(j)}.${ident(key)} AS ${ident(key)}`);
    } else if (join.toOne) {
      items.push(`row_to_json(${ident(j)}.*) AS ${ident(item.key)}`);
    } else {
      items.push(`coalesce(${ident(j)}.${ident(j)}, '[]') AS ${ident(item.key)}`);
    }
  }

  const where: string[] = [];
  if (opts.joinWhere) where.push(opts.joinWhere);
  const conds = conditionsSql(node.conditions, p);
  if (conds) where.push(conds);

  let sql = `SELECT ${opts.countOnly ? 'pg_catalog.count(*)' : items.length ? items.join(', ') : ''} FROM ${from} AS ${ident(node.alias)}`;
  if (opts.extraFrom) sql += `, ${opts.extraFrom}`;
  if (laterals.length) sql += ' ' + laterals.join(' ');
  if (where.length) sql += ` WHERE ${where.join(' AND ')}`;
  if (!opts.countOnly) {
    if (node.order.length) {
      sql +=
        ' ORDER BY ' +
        node.order
          .map(
            (o) =>
              `${columnSql(o.ref, p)}${o.direction === 'desc' ? ' DESC' : ' ASC'}${o.nulls ? ` NULLS ${o.nulls.toUpperCase()}` : ''}`,
          )
          .join(', ');
    }
    if (node.limit !== undefined) sql += ` LIMIT ${p.add(node.limit)}::bigint`;
    if (node.offset) sql += ` OFFSET ${p.add(node.offset)}::bigint`;
  }
  return sql;
}

const lateralAlias = (node: ReadNode) => `${node.alias}_j`;

/** Keys a node's projection produces (spread embeds contribute their own keys). */
function outputKeys(node: ReadNode): string[] {
  return node.projection.flatMap((item: Projection) =>
    item.kind === 'embed' && item.spread ? outputKeys(item.node) : [item.key],
  );
}

function lateralSql(child: ReadNode, p: Params): string {
  const join = child.join!;
  const rel = join.rel;
  const parent = ident(join.parentAlias);
  const alias = ident(child.alias);
  let joinWhere: string;
  let extraFrom: string | undefined;
  if (rel.cardinality === 'many-to-many') {
    const j = ident(join.junctionAlias!);
    extraFrom = `"public".${ident(rel.junction)} AS ${j}`;
    const toTarget = rel.targetFk.columns.map(
      (c, i) => `${j}.${ident(c)} = ${alias}.${ident(rel.targetFk.refColumns[i]!)}`,
    );
    const toParent = rel.sourceFk.columns.map(
      (c, i) => `${j}.${ident(c)} = ${parent}.${ident(rel.sourceFk.refColumns[i]!)}`,
    );
    joinWhere = [...toTarget, ...toParent].join(' AND ');
  } else {
    const { sourceCols, targetCols } = joinColumns(rel);
    joinWhere = targetCols.map((c, i) => `${alias}.${ident(c)} = ${parent}.${ident(sourceCols[i]!)}`).join(' AND ');
  }
  const inner = nodeSelect(child, `"public".${ident(child.relation)}`, p, { joinWhere, extraFrom });
  const la = ident(lateralAlias(child));
  const kind = join.inner ? 'INNER JOIN LATERAL' : 'LEFT JOIN LATERAL';
  if (join.toOne) return `${kind} (${inner}) AS ${la} ON TRUE`;
  const agg = `SELECT json_agg(_r) AS ${la} FROM (${inner}) AS _r`;
  return `${kind} (${agg}) AS ${la} ON ${join.inner ? `${la}.${la} IS NOT NULL` : 'TRUE'}`;
}

function collectEmbedRefs(conds: PlannedCondition[], out: Set<string>) {
  for (const c of conds) {
    if (c.kind === 'embedNull') out.add(c.embedAlias);
    else if (c.kind === 'logic') collectEmbedRefs(c.children, out);
  }
}

function columnSql(ref: ColumnRef, p: Params): string {
  let sql = `${ident(ref.alias)}.${ident(ref.column)}`;
  // A JSON path on a column that is not json/jsonb reads its JSON form, as PostgREST does.
  if (ref.json.length && ref.notJson) sql = `to_jsonb(${sql})`;
  for (const step of ref.json) {
    sql += /^-?\d+$/.test(step.key)
      ? `${step.op}${p.add(Number(step.key))}::int`
      : `${step.op}${p.add(step.key)}::text`;
  }
  return sql;
}

const COMPARISON: Record<string, string> = {
  eq: '=',
  neq: '<>',
  gt: '>',
  gte: '>=',
  lt: '<',
  lte: '<=',
  like: 'LIKE',
  ilike: 'ILIKE',
  match: '~',
  imatch: '~*',
  cs: '@>',
  cd: '<@',
  ov: '&&',
  sl: '<<',
  sr: '>>',
  nxr: '&<',
  nxl: '&>',
  adj: '-|-',
};
const TSQUERY: Record<string, string> = {
  fts: 'to_tsquery',
  plfts: 'plainto_tsquery',
  phfts: 'phraseto_tsquery',
  wfts: 'websearch_to_tsquery',
};

/** {"a","b\"c"}: a PostgreSQL array literal, bound as one parameter and typed by the column. */
function arrayLiteral(items: string[]): string {
  return `{${items.map((i) => `"${i.replace(/[\\"]/g, (m) => '\\' + m)}"`).join(',')}}`;
}

function conditionsSql(conds: PlannedCondition[], p: Params): string {
  return conds.map((c) => conditionSql(c, p)).join(' AND ');
}

function conditionSql(c: PlannedCondition, p: Params): string {
  if (c.kind === 'logic') {
    const inner = c.children.map((ch) => conditionSql(ch, p)).join(c.op === 'and' ? ' AND ' : ' OR ');
    return c.negated ? `NOT (${inner})` : `(${inner})`;
  }
  if (c.kind === 'embedNull') {
    const la = ident(`${c.embedAlias}_j`);
    // To-one: the joined row is absent; to-many: the aggregate over no rows is NULL.
    const subject = c.toOne ? `row_to_json(${la}.*)` : `${la}.${la}`;
    return `${subject} IS ${c.negated ? 'NOT ' : ''}NULL`;
  }
  const col = columnSql(c.ref, p);
  let expr: string;
  const like = (v: string) => (c.op === 'like' || c.op === 'ilike' ? v.replace(/\*/g, '%') : v);
  if (c.op === 'in') {
    expr = `${col} = ANY (${p.add(arrayLiteral(c.value as string[]))})`;
  } else if (c.quantifier) {
    expr = `${col} ${COMPARISON[c.op]} ${c.quantifier.toUpperCase()} (${p.add(arrayLiteral((c.value as string[]).map(like)))})`;
  } else if (c.op === 'is') {
    const v = c.value as string;
    expr = `${col} IS ${v.toUpperCase()}`;
  } else if (c.op === 'isdistinct') {
    expr = `${col} IS DISTINCT FROM ${p.add(c.value)}`;
  } else if (c.op in TSQUERY) {
    const fn = TSQUERY[c.op];
    const query = c.ftsConfig
      ? `${fn}(${p.add(c.ftsConfig)}::regconfig, ${p.add(c.value)})`
      : `${fn}(${p.add(c.value)})`;
    expr = `${col} @@ ${query}`;
  } else {
    expr = `${col} ${COMPARISON[c.op]} ${p.add(like(c.value as string))}`;
  }
  return c.negated ? `NOT ${expr}` : expr;
}
