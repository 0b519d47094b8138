// /api/db/status_pages writes (the settings form): rows are checked with the rules of applying a
// StatusPage (resource.ts) before anything is stored; `private` and `spec.private` are kept the same;
// pages that came from YAML or the CLI (source not UI) stay read-only here.
import type { FieldProblem } from '@opsdeck/common';
import {
  BOOKKEEPING_COLUMNS,
  present,
  refuseReadOnlySource,
  refuseRows,
  storedRows,
  targetIds,
  type WriteGuard,
} from '../rest/writeGuards.js';
import { UUID } from '../resources/routes.js';
import { statusPageRowProblems } from './resource.js';

type Row = Record<string, unknown>;

const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `private` from the column when given, else from the spec; both set alike. */
function withPrivate(row: Row): Row {
  if (!('spec' in row) && !('private' in row)) return row;
  const spec = isObject(row.spec) ? row.spec : undefined;
  const flag = typeof row.private === 'boolean' ? row.private : spec?.private === true;
  return { ...row, private: flag, ...(spec ? { spec: { ...spec, private: flag } } : {}) };
}

export const statusPageWriteGuard: WriteGuard = async ({ method, rows, query, db }) => {
  for (const row of rows)
    if (present(row.source) && row.source !== 'UI')
      refuseRows('INVALID_STATUS_PAGE', [
        {
          field: 'source',
          message: `rows written here are UI status pages; apply a resource for ${String(row.source)}`,
        },
      ]);

  if (method === 'POST') {
    const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === 'string' && UUID.test(id));
    const stored = new Map((await storedRows(db, 'status_pages', ids)).map((r) => [r.id as string, r]));
    const details: FieldProblem[] = [];
    const out: Row[] = [];
    for (const [i, row] of rows.entries()) {
      const before = typeof row.id === 'string' ? stored.get(row.id) : undefined;
      if (before) refuseReadOnlySource(before, 'status page');
      const next = withPrivate({ ...(before ? { spec: before.spec } : {}), ...row });
      const found = statusPageRowProblems({ ...before, ...next });
      details.push(...found.map((p) => ({ ...p, field: rows.length > 1 ? `[${i}].${p.field}` : p.field })));
      out.push({ ...next, source: 'UI' });
    }
    if (details.length) refuseRows('INVALID_STATUS_PAGE', details);
    return out;
  }

  const ids = targetIds(query);
  if (!ids)
    refuseRows('INVALID_STATUS_PAGE', [{ field: 'id', message: 'name the status page to change: ?id=eq.<id>' }]);
  const stored = await storedRows(db, 'status_pages', ids);
  for (const before of stored) refuseReadOnlySource(before, 'status page');
  const change = rows[0] ?? {};
  if (Object.keys(change).every((k) => BOOKKEEPING_COLUMNS.has(k))) return rows;
  if (!stored.length) return rows;
  // spec and private are kept together per page, so a change names one page.
  if (stored.length !== 1)
    refuseRows('INVALID_STATUS_PAGE', [{ field: 'id', message: 'change one status page at a time: ?id=eq.<id>' }]);
  const next = withPrivate({ spec: stored[0]!.spec, ...change });
  const details = statusPageRowProblems({ ...stored[0], ...next });
  if (details.length) refuseRows('INVALID_STATUS_PAGE', details);
  return [next];
};
