// /api/db/maintenance_windows writes (the settings form): rows are checked like an applied
// MaintenanceWindow (resource.ts: when it is, what it covers — live checks and components by id,
// status pages by slug — and a unique name) before anything is stored; windows applied from YAML or
// the CLI (source not UI) stay read-only here. A soft delete (deleted_at only) is not re-checked.
import type { FieldProblem } from '@opsdeck/common';
import type { Queryable } from '../db/database.js';
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
import { MAX_MESSAGE, SLUG, windowProblems } from './resource.js';

type Row = Record<string, unknown>;

/** Ids of a uuid[] column as written; problems for anything else. */
function idList(v: unknown, field: string, problems: FieldProblem[]): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && UUID.test(x))) {
    problems.push({ field, message: 'a list of ids' });
    return [];
  }
  return v as string[];
}

/** What is wrong with a whole row (the stored one with the change applied). */
async function rowProblems(db: Queryable, row: Row): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  if (typeof row.name !== 'string' || !row.name.trim()) problems.push({ field: 'name', message: 'a name is required' });
  else if (row.name.length > 253) problems.push({ field: 'name', message: 'at most 253 characters' });
  if (row.message !== undefined && row.message !== null) {
    if (typeof row.message !== 'string') problems.push({ field: 'message', message: 'the message is text' });
    else if (row.message.length > MAX_MESSAGE)
      problems.push({ field: 'message', message: `at most ${MAX_MESSAGE} characters` });
  }
  problems.push(...windowProblems(row));
  if (row.silence !== undefined && typeof row.silence !== 'boolean')
    problems.push({ field: 'silence', message: 'silence is true or false' });
  const checks = idList(row.check_ids, 'check_ids', problems);
  const components = idList(row.component_ids, 'component_ids', problems);
  let pages: string[] = [];
  if (row.status_pages !== undefined && row.status_pages !== null) {
    if (!Array.isArray(row.status_pages) || !row.status_pages.every((s) => typeof s === 'string' && SLUG.test(s)))
      problems.push({ field: 'status_pages', message: 'a list of status page slugs' });
    else pages = row.status_pages as string[];
  }
  for (const [field, table, ids, noun] of [
    ['check_ids', 'checks', checks, 'check'],
    ['component_ids', 'components', components, 'component'],
  ] as const) {
    if (!ids.length) continue;
    const { rows } = await db.query<{ row: Row }>(
      `SELECT to_jsonb(w) AS row FROM ${table} w WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const live = new Set(rows.filter((r) => r.row.deleted_at == null).map((r) => String(r.row.id)));
    const missing = ids.filter((id) => !live.has(id.toLowerCase()));
    if (missing.length) problems.push({ field, message: `no ${noun} with id ${missing.join(', ')}` });
  }
  if (!checks.length && !components.length && !pages.length)
    problems.push({ field: 'check_ids', message: 'choose what is in maintenance: checks, components or status pages' });
  if (typeof row.name === 'string' && row.name.trim()) {
    const { rows } = await db.query<{ row: Row }>(
      'SELECT to_jsonb(w) AS row FROM maintenance_windows w WHERE name = $1',
      [row.name],
    );
    const self = typeof row.id === 'string' ? row.id.toLowerCase() : undefined;
    if (rows.some((r) => r.row.deleted_at == null && r.row.id !== self))
      problems.push({ field: 'name', message: `a maintenance window named "${row.name}" exists` });
  }
  return problems;
}

export const maintenanceWriteGuard: WriteGuard = async ({ method, rows, query, db }) => {
  for (const row of rows)
    if (present(row.source) && row.source !== 'UI')
      refuseRows('INVALID_MAINTENANCE_WINDOW', [
        { field: 'source', message: `rows written here are UI windows; apply a resource for ${String(row.source)}` },
      ]);
  if (method === 'POST') {
    const ids = rows.map((r) => r.id).filter((id): id is string => typeof id === 'string' && UUID.test(id));
    const stored = new Map((await storedRows(db, 'maintenance_windows', ids)).map((r) => [r.id as string, r]));
    const details: FieldProblem[] = [];
    for (const [i, row] of rows.entries()) {
      const before = typeof row.id === 'string' ? stored.get(row.id) : undefined;
      if (before) refuseReadOnlySource(before, 'maintenance window');
      const found = await rowProblems(db, { ...before, ...row });
      details.push(...found.map((p) => ({ ...p, field: rows.length > 1 ? `[${i}].${p.field}` : p.field })));
    }
    if (details.length) refuseRows('INVALID_MAINTENANCE_WINDOW', details);
    return rows.map((r) => ({ ...r, source: 'UI' }));
  }
  const ids = targetIds(query);
  if (!ids)
    refuseRows('INVALID_MAINTENANCE_WINDOW', [
      { field: 'id', message: 'name the maintenance window to change: ?id=eq.<id>' },
    ]);
  const stored = await storedRows(db, 'maintenance_windows', ids);
  for (const before of stored) refuseReadOnlySource(before, 'maintenance window');
  const change = rows[0] ?? {};
  if (Object.keys(change).every((k) => BOOKKEEPING_COLUMNS.has(k))) return rows;
  if (!stored.length) return rows;
  if (stored.length !== 1)
    refuseRows('INVALID_MAINTENANCE_WINDOW', [
      { field: 'id', message: 'change one maintenance window at a time: ?id=eq.<id>' },
    ]);
  // A change of when it is replaces the other way of saying it (a one-off window made recurring...).
  const timing = ['starts_at', 'ends_at', 'schedule', 'duration'].some((k) => k in change);
  const base: Row = { ...stored[0] };
  if (timing) for (const k of ['starts_at', 'ends_at', 'schedule', 'duration']) if (!(k in change)) base[k] = null;
  const details = await rowProblems(db, { ...base, ...change });
  if (details.length) refuseRows('INVALID_MAINTENANCE_WINDOW', details);
  // The resource as applied no longer says what the row says.
  return [
    { ...(timing ? { starts_at: null, ends_at: null, schedule: null, duration: null } : {}), ...change, spec: null },
  ];
};
