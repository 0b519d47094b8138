// Reads the schema (relations, columns, keys, foreign keys, functions) from pg_catalog.
// The REST layer takes every identifier it writes into SQL from this cache.
import type { Queryable } from './database.js';

export interface Column {
  name: string;
  /** format_type(), e.g. "timestamp with time zone", "text[]". */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

export interface Relation {
  name: string;
  kind: 'table' | 'view';
  columns: Column[];
  columnsByName: Map<string, Column>;
  primaryKey: string[];
  /** Primary key and unique constraints, each a list of columns. */
  uniqueKeys: string[][];
  /** What PostgreSQL allows on it (a view may not be updatable). */
  writable: { insert: boolean; update: boolean; delete: boolean };
}

export interface ForeignKey {
  constraint: string;
  table: string;
  columns: string[];
  refTable: string;
  refColumns: string[];
}

export interface FunctionArg {
  name: string;
  type: string;
  hasDefault: boolean;
}

export interface FunctionDef {
  name: string;
  args: FunctionArg[];
  returnsSet: boolean;
  /** Name of the table/view whose rows the function returns, if any. */
  returnsRelation: string | null;
  /** Output columns for RETURNS TABLE(...) / OUT parameters. */
  outColumns: string[];
  returnType: string;
  volatile: boolean;
}

export interface SchemaCache {
  schema: string;
  relations: Map<string, Relation>;
  foreignKeys: ForeignKey[];
  functions: Map<string, FunctionDef[]>;
}

const RELATIONS_SQL = `
SELECT c.relname AS name, c.relkind AS kind, pg_relation_is_updatable(c.oid::regclass, false) AS updatable,
  coalesce((
    SELECT json_agg(json_build_object(
      'name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
      'nullable', NOT a.attnotnull,
      'hasDefault', a.atthasdef OR a.attidentity <> '' OR a.attgenerated <> '') ORDER BY a.attnum)
    FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '[]') AS columns
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
ORDER BY c.relname`;

const CONSTRAINTS_SQL = `
SELECT con.conname AS constraint, con.contype AS type, c.relname AS table, fc.relname AS ref_table,
  (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
  (SELECT array_agg(a.attname::text ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
     JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS ref_columns
FROM pg_constraint con
JOIN pg_class c ON c.oid = con.conrelid
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_class fc ON fc.oid = con.confrelid
LEFT JOIN pg_namespace fn ON fn.oid = fc.relnamespace
WHERE n.nspname = $1 AND con.contype IN ('p', 'u', 'f') AND (con.contype <> 'f' OR fn.nspname = $1)
ORDER BY c.relname, con.conname`;

// For each view column, the base-table column of the same name it selects (when unambiguous).
const VIEW_COLUMNS_SQL = `
SELECT u.view_name AS view, u.table_name AS table, u.column_name AS column
FROM information_schema.view_column_usage u
JOIN information_schema.columns vc
  ON vc.table_schema = u.view_schema AND vc.table_name = u.view_name AND vc.column_name = u.column_name
WHERE u.view_schema = $1 AND u.table_schema = $1`;

const FUNCTIONS_SQL = `
SELECT p.proname AS name, p.proretset AS returns_set, p.provolatile = 'v' AS volatile,
  p.pronargdefaults AS n_defaults, format_type(p.prorettype, NULL) AS return_type,
  rtc.relname AS returns_relation,
  coalesce((SELECT json_agg(json_build_object(
      'name', coalesce(p.proargnames[a.i], ''), 'type', format_type(a.t, NULL),
      'mode', coalesce(p.proargmodes[a.i]::text, 'i')) ORDER BY a.i)
    FROM unnest(coalesce(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS a(t, i)), '[]') AS args
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
LEFT JOIN pg_type rt ON rt.oid = p.prorettype
LEFT JOIN pg_class rtc ON rtc.oid = rt.typrelid AND rt.typtype = 'c'
WHERE n.nspname = $1 AND p.prokind = 'f'
ORDER BY p.proname, p.oid`;

interface RawArg {
  name: string;
  type: string;
  mode: string;
}

export async function introspect(db: Queryable, schema = 'public'): Promise<SchemaCache> {
  const [rels, cons, viewCols, fns] = await Promise.all([
    db.query<{ name: string; kind: string; updatable: number; columns: Column[] | string }>(RELATIONS_SQL, [schema]),
    db.query<{
      constraint: string;
      type: string;
      table: string;
      ref_table: string | null;
      columns: string[];
      ref_columns: string[] | null;
    }>(CONSTRAINTS_SQL, [schema]),
    db.query<{ view: string; table: string; column: string }>(VIEW_COLUMNS_SQL, [schema]),
    db.query<{
      name: string;
      returns_set: boolean;
      volatile: boolean;
      n_defaults: number;
      return_type: string;
      returns_relation: string | null;
      args: RawArg[] | string;
    }>(FUNCTIONS_SQL, [schema]),
  ]);

  const relations = new Map<string, Relation>();
  for (const r of rels.rows) {
    const columns = (typeof r.columns === 'string' ? JSON.parse(r.columns) : r.columns) as Column[];
    relations.set(r.name, {
      name: r.name,
      kind: r.kind === 'v' || r.kind === 'm' ? 'view' : 'table',
      columns,
      columnsByName: new Map(columns.map((c) => [c.name, c])),
      primaryKey: [],
      uniqueKeys: [],
      // pg_relation_is_updatable: bit 1 << CMD_UPDATE(2), CMD_INSERT(3), CMD_DELETE(4).
      writable: { update: (r.updatable & 4) !== 0, insert: (r.updatable & 8) !== 0, delete: (r.updatable & 16) !== 0 },
    });
  }

  const foreignKeys: ForeignKey[] = [];
  for (const c of cons.rows) {
    const rel = relations.get(c.table);
    if (!rel) continue;
    const columns = pgArray(c.columns);
    if (c.type === 'p') rel.primaryKey = columns;
    if (c.type === 'p' || c.type === 'u') rel.uniqueKeys.push(columns);
    if (c.type === 'f' && c.ref_table && relations.has(c.ref_table)) {
      foreignKeys.push({
        constraint: c.constraint,
        table: c.table,
        columns,
        refTable: c.ref_table,
        refColumns: pgArray(c.ref_columns),
      });
    }
  }
  foreignKeys.push(...inferViewForeignKeys(relations, foreignKeys, viewCols.rows));

  const functions = new Map<string, FunctionDef[]>();
  for (const f of fns.rows) {
    const raw = (typeof f.args === 'string' ? JSON.parse(f.args) : f.args) as RawArg[];
    const inArgs = raw.filter((a) => a.mode === 'i' || a.mode === 'b' || a.mode === 'v');
    const outColumns = raw.filter((a) => a.mode === 'o' || a.mode === 'b' || a.mode === 't').map((a) => a.name);
    const firstDefault = inArgs.length - f.n_defaults;
    const def: FunctionDef = {
      name: f.name,
      args: inArgs.map((a, i) => ({ name: a.name, type: a.type, hasDefault: i >= firstDefault })),
      returnsSet: f.returns_set,
      returnsRelation: f.returns_relation,
      outColumns: f.return_type === 'record' ? outColumns : [],
      returnType: f.return_type,
      volatile: f.volatile,
    };
    functions.set(f.name, [...(functions.get(f.name) ?? []), def]);
  }
  return { schema, relations, foreignKeys, functions };
}

/** pg returns text[] as arrays; PGlite may too; both may give "{a,b}" for name[]. */
function pgArray(v: string[] | string | null): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v;
  return v
    .replace(/^\{|\}$/g, '')
    .split(',')
    .filter(Boolean)
    .map((s) => s.replace(/^"|"$/g, ''));
}

/**
 * A view that selects a base table's key columns under their own names gets that table's
 * foreign keys (both directions), so embedding works through views as it does in PostgREST.
 */
function inferViewForeignKeys(
  relations: Map<string, Relation>,
  tableKeys: ForeignKey[],
  usage: { view: string; table: string; column: string }[],
): ForeignKey[] {
  // view -> base table -> columns of the base table the view exposes under the same name
  const exposed = new Map<string, Map<string, Set<string>>>();
  for (const u of usage) {
    if (!relations.get(u.view) || relations.get(u.view)!.kind !== 'view') continue;
    const byTable = exposed.get(u.view) ?? new Map<string, Set<string>>();
    byTable.set(u.table, (byTable.get(u.table) ?? new Set()).add(u.column));
    exposed.set(u.view, byTable);
  }
  const inferred: ForeignKey[] = [];
  for (const [view, byTable] of exposed) {
    for (const [table, cols] of byTable) {
      const covers = (list: string[]) => list.every((c) => cols.has(c));
      for (const fk of tableKeys) {
        if (fk.table === table && covers(fk.columns)) inferred.push({ ...fk, table: view });
        if (fk.refTable === table && covers(fk.refColumns)) inferred.push({ ...fk, refTable: view });
      }
    }
  }
  return inferred;
}
