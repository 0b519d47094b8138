// Reads and writes the rows of a settings resource table through /api/db.
import { db } from '../../../api/postgrest';
import type { ResourceField, SettingsResourceKind } from './kinds';

export interface SettingsResourceRow {
  id: string;
  name: string;
  namespace?: string | null;
  icon?: string | null;
  labels?: Record<string, string> | null;
  schedule?: string | null;
  spec?: unknown;
  source?: string | null;
  agent_id?: string | null;
  created_by?: string | null;
  created_at: string;
  updated_at: string;
  deleted_at?: string | null;
  /** Embedded count of the row's checks (health checks). */
  checks?: Array<{ count: number }>;
}

/** The editable part of a row, as the form and the code editor hold it. */
export type ResourceDocument = Partial<Record<ResourceField, unknown>> & { name?: string };

export interface ResourcePage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

function columns(kind: SettingsResourceKind, forList = false): string {
  const extra = ['source', 'created_by', 'created_at', 'updated_at'];
  // The list shows counts; the spec (a whole resource for canaries) is only read for editing.
  const counts = forList && kind.listColumns?.includes('checks') ? ['checks(count)'] : [];
  return ['id', ...kind.fields, ...extra, ...counts].join(',');
}

/** Source UI or empty is editable here; anything else (an agent, a file, Kubernetes) is read-only. */
export function isLocallyEditable(row: Pick<SettingsResourceRow, 'source'> | undefined): boolean {
  return !row || !row.source || row.source === 'UI';
}

export function documentOf(kind: SettingsResourceKind, row: SettingsResourceRow): ResourceDocument {
  const doc: ResourceDocument = {};
  for (const field of kind.fields) {
    const value: unknown = row[field];
    if (value !== null && value !== undefined && value !== '') (doc as Record<string, unknown>)[field] = value;
  }
  if (kind.fields.includes('spec') && doc.spec === undefined) doc.spec = {};
  return doc;
}

export function emptyDocument(kind: SettingsResourceKind): ResourceDocument {
  const doc: ResourceDocument = { name: '' };
  if (kind.fields.includes('namespace')) doc.namespace = 'default';
  if (kind.fields.includes('spec')) doc.spec = {};
  return doc;
}

export const resourcesApi = {
  list(kind: SettingsResourceKind, page: ResourcePage, signal?: AbortSignal) {
    const q = db<SettingsResourceRow>(kind.table).select(columns(kind, true));
    if (kind.softDelete) q.is('deleted_at', null);
    if (kind.listColumns?.includes('checks')) q.is('checks.deleted_at', null);
    return q
      .order(page.sortBy ?? 'name', { ascending: page.sortOrder === 'asc' })
      .page(page.pageIndex, page.pageSize)
      .list(signal);
  },
  /** The row, or null when there is none (react-query keeps null, not undefined). */
  async get(kind: SettingsResourceKind, id: string, signal?: AbortSignal): Promise<SettingsResourceRow | null> {
    const q = db<SettingsResourceRow>(kind.table).select(columns(kind)).eq('id', id);
    if (kind.softDelete) q.is('deleted_at', null);
    return (await q.single(signal)) ?? null;
  },
  async create(kind: SettingsResourceKind, doc: ResourceDocument, createdBy: string): Promise<SettingsResourceRow> {
    const [row] = await db<SettingsResourceRow>(kind.table).insert({
      ...doc,
      source: 'UI',
      created_by: createdBy,
    } as Partial<SettingsResourceRow>);
    return row;
  },
  async update(kind: SettingsResourceKind, id: string, doc: ResourceDocument): Promise<SettingsResourceRow> {
    // Fields the document no longer has are cleared, so removing a key in the editor removes it.
    const values: Record<string, unknown> = { updated_at: new Date().toISOString() };
    for (const field of kind.fields) if (field !== 'name') values[field] = doc[field] ?? null;
    values.name = doc.name;
    const [row] = await db<SettingsResourceRow>(kind.table)
      .eq('id', id)
      .update(values as Partial<SettingsResourceRow>);
    return row;
  },
  remove(kind: SettingsResourceKind, id: string) {
    if (kind.softDelete)
      return db<SettingsResourceRow>(kind.table).eq('id', id).update({ deleted_at: new Date().toISOString() });
    return db(kind.table).eq('id', id).delete();
  },
};
