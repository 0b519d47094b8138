// /api/db/logging_backends writes (the settings form, the integrations page): rows are checked with
// the rules of applying a LoggingBackend (logs/resource.ts) before anything is stored; the spec is
// stored in Opsdeck's shape; rows that came from YAML or the CLI (source not UI) stay read-only here.
import type { FieldProblem } from '@opsdeck/common';
import type { Queryable } from '../db/database.js';
import { ApiError } from '../rest/errors.js';
import { targetIds, type WriteGuard } from '../rest/writeGuards.js';
import { UUID } from '../resources/routes.js';
import { backendRowProblems, normalizeBackendSpec } from './resource.js';

type Row = Record<string, unknown>;

/** Columns that are not the backend itself: a PATCH of only these (a soft delete) is not re-checked. */
const BOOKKEEPING = new Set(['deleted_at', 'updated_at']);

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

async function storedRows(db: Queryable, ids: string[]): Promise<Row[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<{ row: Row }>(
    'SELECT to_jsonb(b) AS row FROM logging_backends b WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return rows.map((r) => r.row);
}

function refuse(details: FieldProblem[]): never {
  throw new ApiError(
    400,
    'INVALID_LOGGING_BACKEND',
    details.map((d) => `${d.field}: ${d.message}`).join('; '),
    details,
  );
}

function readOnly(stored: Row) {
  if (present(stored.source) && stored.source !== 'UI')
    throw new ApiError(403, 'READ_ONLY_SOURCE', `This log backend came from ${String(stored.source)}: change it there`);
}

export const loggingBackendWriteGuard: WriteGuard = async ({ method, rows, query, db }) => {
  for (const row of rows)
    if (present(row.source) && row.source !== 'UI')
      refuse([
        {
          field: 'source',
          message: `rows written here are UI log backends; apply a resource for ${String(row.source)}`,
        },
      ]);
  const withSpec = (r: Row): Row => ('spec' in r ? { ...r, spec: normalizeBackendSpec(r.spec) } : r);

  if (method === 'POST') {
    const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === 'string' && UUID.test(id));
    const stored = new Map((await storedRows(db, ids)).map((r) => [r.id as string, r]));
    const details: FieldProblem[] = [];
    const out: Row[] = [];
    for (const [i, row] of rows.entries()) {
      const before = typeof row.id === 'string' ? stored.get(row.id) : undefined;
      if (before) readOnly(before);
      const next = withSpec(row);
      const found = await backendRowProblems(db, { ...before, ...next });
      details.push(...found.map((p) => ({ ...p, field: rows.length > 1 ? `[${i}].${p.field}` : p.field })));
      out.push({ ...next, source: 'UI' });
    }
    if (details.length) refuse(details);
    return out;
  }

  const ids = targetIds(query);
  if (!ids) refuse([{ field: 'id', message: 'name the log backend to change: ?id=eq.<id>' }]);
  const stored = await storedRows(db, ids);
  for (const before of stored) readOnly(before);
  const change = withSpec(rows[0] ?? {});
  if (Object.keys(change).every((k) => BOOKKEEPING.has(k))) return rows;
  const details: FieldProblem[] = [];
  for (const before of stored) details.push(...(await backendRowProblems(db, { ...before, ...change })));
  if (details.length) refuse(details);
  return rows.map(withSpec);
};
