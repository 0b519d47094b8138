// /api/db/logging_backends writes (the settings form, the integrations page): rows are checked with
// the rules of applying a LoggingBackend (logs/resource.ts) before anything is stored; the spec is
// stored in Opsdeck's shape; rows that came from YAML or the CLI (source not UI) stay read-only here.
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
import { backendRowProblems, normalizeBackendSpec } from './resource.js';

type Row = Record<string, unknown>;

export const loggingBackendWriteGuard: WriteGuard = async ({ method, rows, query, db }) => {
  for (const row of rows)
    if (present(row.source) && row.source !== 'UI')
      refuseRows('INVALID_LOGGING_BACKEND', [
        {
          field: 'source',
          message: `rows written here are UI log backends; apply a resource for ${String(row.source)}`,
        },
      ]);
  const withSpec = (r: Row): Row => ('spec' in r ? { ...r, spec: normalizeBackendSpec(r.spec) } : r);

  if (method === 'POST') {
    const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === 'string' && UUID.test(id));
    const stored = new Map((await storedRows(db, 'logging_backends', ids)).map((r) => [r.id as string, r]));
    const details: FieldProblem[] = [];
    const out: Row[] = [];
    for (const [i, row] of rows.entries()) {
      const before = typeof row.id === 'string' ? stored.get(row.id) : undefined;
      if (before) refuseReadOnlySource(before, 'log backend');
      const next = withSpec(row);
      const found = await backendRowProblems(db, { ...before, ...next });
      details.push(...found.map((p) => ({ ...p, field: rows.length > 1 ? `[${i}].${p.field}` : p.field })));
      out.push({ ...next, source: 'UI' });
    }
    if (details.length) refuseRows('INVALID_LOGGING_BACKEND', details);
    return out;
  }

  const ids = targetIds(query);
  if (!ids)
    refuseRows('INVALID_LOGGING_BACKEND', [{ field: 'id', message: 'name the log backend to change: ?id=eq.<id>' }]);
  const stored = await storedRows(db, 'logging_backends', ids);
  for (const before of stored) refuseReadOnlySource(before, 'log backend');
  const change = withSpec(rows[0] ?? {});
  if (Object.keys(change).every((k) => BOOKKEEPING_COLUMNS.has(k))) return rows;
  const details: FieldProblem[] = [];
  for (const before of stored) details.push(...(await backendRowProblems(db, { ...before, ...change })));
  if (details.length) refuseRows('INVALID_LOGGING_BACKEND', details);
  return rows.map(withSpec);
};
