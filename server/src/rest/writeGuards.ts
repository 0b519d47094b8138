// Write guards: a relation whose rows must be valid before they are stored (connections, notification
// rules, silences) registers a guard. It sees the JSON rows of a POST/PATCH/PUT to /api/db/<relation>
// after the caller was authorised and before secret columns are sealed, and returns them normalised
// (defaults filled, names canonical) or throws an ApiError(400) saying what is wrong. The rows of a
// body that is not JSON rows are left for the REST layer to refuse as usual.
import type { FieldProblem } from '@opsdeck/common';
import type { Queryable } from '../db/database.js';
import { ApiError } from './errors.js';
import { UUID } from '../resources/routes.js';

export interface WriteGuardInput {
  method: 'POST' | 'PATCH' | 'PUT';
  /** The rows of the body (an object body is one row). */
  rows: Record<string, unknown>[];
  /** The request's query parameters (filters of a PATCH, on_conflict...). */
  query: [string, string][];
  db: Queryable;
  /** `Prefer: tx=rollback`: the write is a dry run, so a guard must change nothing itself. */
  rollback?: boolean;
}

export type WriteGuard = (input: WriteGuardInput) => Promise<Record<string, unknown>[]>;

export type WriteGuards = ReadonlyMap<string, WriteGuard>;

/**
 * What a guarded write sets off once it committed, as the apply endpoint does after storing a row
 * (a canary's checks, a soft delete's dependents): it sees the rows the guard returned.
 */
export type WriteSync = (input: WriteGuardInput) => Promise<void>;

export type WriteSyncs = ReadonlyMap<string, WriteSync>;

/** The ids a PATCH/PUT names (`id=eq.x`, `id=in.(x,y)`); undefined when it names none. */
export function targetIds(query: [string, string][]): string[] | undefined {
  const ids: string[] = [];
  for (const [key, value] of query) {
    if (key !== 'id') continue;
    const eq = /^eq\.(.+)$/.exec(value);
    const list = /^in\.\((.*)\)$/.exec(value);
    if (eq) ids.push(eq[1]!);
    else if (list) ids.push(...list[1]!.split(',').map((s) => s.trim().replace(/^"|"$/g, '')));
  }
  return ids.length ? ids.filter((id) => UUID.test(id)) : undefined;
}

/** Parses a write body into rows; undefined when it is not JSON objects. */
export function bodyRows(body: string): { rows: Record<string, unknown>[]; array: boolean } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  const array = Array.isArray(parsed);
  const rows = array ? (parsed as unknown[]) : [parsed];
  if (!rows.every((r) => r !== null && typeof r === 'object' && !Array.isArray(r))) return undefined;
  return { rows: rows as Record<string, unknown>[], array };
}

type Row = Record<string, unknown>;

/** Columns a soft delete touches: a PATCH of only these is not re-checked. */
export const BOOKKEEPING_COLUMNS: ReadonlySet<string> = new Set(['deleted_at', 'updated_at']);

/** A value a row really sets (not absent, null nor empty text). */
export const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** The stored rows of `table` (a guarded relation's own name, never the caller's text) with these ids. */
export async function storedRows(db: Queryable, table: string, ids: string[]): Promise<Row[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<{ row: Row }>(
    `SELECT to_jsonb(t) AS row FROM ${table} t WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return rows.map((r) => r.row);
}

/** 400 with every problem named by its field. */
export function refuseRows(code: string, details: FieldProblem[]): never {
  throw new ApiError(400, code, details.map((d) => `${d.field}: ${d.message}`).join('; '), details);
}

/** 403 for a row that came from YAML, the CLI or an agent (source not UI): it is changed where it came from. */
export function refuseReadOnlySource(stored: Row, what: string): void {
  if (present(stored.source) && stored.source !== 'UI')
    throw new ApiError(403, 'READ_ONLY_SOURCE', `This ${what} came from ${String(stored.source)}: change it there`);
}

/**
 * A relation whose rows only an endpoint can create (it makes more than the row: a token, a
 * person...): POST/PUT answer 405 naming that endpoint; PATCHes of the columns in `fixed` too.
 */
export function createdElsewhere(relation: string, endpoint: string, fixed: readonly string[] = []): WriteGuard {
  const refuse = (what: string): never => {
    throw new ApiError(405, '55000', `cannot ${what} "${relation}" here: use ${endpoint}`);
  };
  return async ({ method, rows }) => {
    if (method !== 'PATCH') refuse(`insert into relation`);
    for (const row of rows) for (const column of fixed) if (column in row) refuse(`change ${column} of`);
    return rows;
  };
}
