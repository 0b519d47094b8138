// Stage 2 of /api/db: writes: whether the relation may be written, the body's rows and columns, on_conflict.
import type { Relation } from '../db/introspect.js';
import { ApiError } from './errors.js';
import type { ApiRequest } from './parse.js';

/**
 * Refuses a write PostgreSQL would reject for the relation (a view that is not updatable), and any
 * write to a relation the registry marks read-only (rows only the server writes, like a changelog).
 */
export function checkWritable(relation: Relation, req: ApiRequest, readOnly: boolean, writeWith?: string) {
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

/** The JSON body as rows (an array only for inserts) and the columns written: ?columns= or the rows' shared keys. */
export function payloadRows(
  req: ApiRequest,
  relation: Relation,
  allowArray: boolean,
): { rows: Record<string, unknown>[]; columns: string[] } {
  const body = req.body ?? '';
  let parsed: unknown;
  try {
    parsed = body.trim() === '' ? undefined : JSON.parse(body);
  } catch {
    throw new ApiError(400, 'PGRST102', 'Empty or invalid json', null);
  }
  if (parsed === undefined) {
    if (req.method === 'PATCH') parsed = {};
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
  if (req.columns) columns = req.columns;
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

/** An upsert (Prefer: resolution=...): the on_conflict columns, or the primary key, and what a conflict does. */
export function planOnConflict(
  req: ApiRequest,
  relation: Relation,
): { columns: string[]; action: 'merge' | 'ignore' } | undefined {
  const resolution = req.prefer.resolution;
  if (!resolution) return undefined;
  const columns = req.onConflict ?? relation.primaryKey;
  for (const c of columns) {
    if (!relation.columnsByName.has(c)) throw new ApiError(400, '42703', `column "${c}" does not exist`);
  }
  if (columns.length === 0) return undefined;
  return { columns, action: resolution === 'merge-duplicates' ? 'merge' : 'ignore' };
}
