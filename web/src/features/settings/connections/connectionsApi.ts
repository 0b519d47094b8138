// Calls of the Connections page (docs/api.md "Connections"): rows of /api/db/connections, which never
// carry the secret columns (has_password / password_ref and the certificate pair say what is set), and
// the connection tests POST /api/connection/test (a form) and /api/connection/test/{id} (a saved row).
import type { ConnectionTestResult } from '@opsdeck/common/connections';
import { request } from '../../../api/client';
import { db } from '../../../api/postgrest';

export interface ConnectionRow {
  id: string;
  name: string;
  namespace: string;
  type: string;
  url: string | null;
  username: string | null;
  insecure_tls: boolean;
  properties: Record<string, string> | null;
  source: string | null;
  has_password: boolean;
  has_certificate: boolean;
  /** `secret://name/key` or `configmap://name/key` when the password is a reference. */
  password_ref: string | null;
  certificate_ref: string | null;
  created_by: string | null;
  creator?: { id: string; name: string } | null;
  created_at: string;
  updated_at: string;
}

/** The table as written: the secret columns are write-only. */
type ConnectionTable = ConnectionRow & { password?: string; certificate?: string; deleted_at?: string | null };

/** What a create, an update or a test sends: columns, properties and (when typed) secrets. */
export interface ConnectionWrite {
  name?: string;
  namespace?: string;
  type?: string;
  url?: string | null;
  username?: string | null;
  password?: string;
  certificate?: string;
  insecure_tls?: boolean;
  properties?: Record<string, string>;
}

interface ConnectionListPage {
  pageIndex: number;
  pageSize: number;
  sortBy?: string;
  sortOrder: 'asc' | 'desc';
}

const COLUMNS =
  'id,name,namespace,type,url,username,insecure_tls,properties,source,has_password,has_certificate,' +
  'password_ref,certificate_ref,created_by,created_at,updated_at,creator:people!created_by(id,name)';

/** The server allows a test about 15 s; the request waits a little longer than that. */
const TEST_TIMEOUT_MS = 25_000;

async function runTest(
  path: string,
  body: unknown,
): Promise<{ status: number; data: ConnectionTestResult | undefined }> {
  const res = await request<ConnectionTestResult | undefined>(path, {
    method: 'POST',
    body,
    timeoutMs: TEST_TIMEOUT_MS,
  });
  return { status: res.status, data: res.data };
}

export const connectionsApi = {
  list: (page: ConnectionListPage, signal?: AbortSignal) =>
    db<ConnectionRow>('connections')
      .select(COLUMNS)
      .is('deleted_at', null)
      .order(page.sortBy ?? 'name', { ascending: page.sortOrder === 'asc' })
      .page(page.pageIndex, page.pageSize)
      .list(signal),

  create: async (row: ConnectionWrite, createdBy: string): Promise<ConnectionRow | undefined> => {
    const [created] = await db<ConnectionTable>('connections')
      .select(COLUMNS)
      .insert({ ...row, created_by: createdBy });
    return created;
  },

  update: (id: string, changes: ConnectionWrite) =>
    db<ConnectionTable>('connections')
      .select(COLUMNS)
      .eq('id', id)
      .update({ ...changes, updated_at: new Date().toISOString() }),

  /** Soft delete, like every settings resource (spec/3 §4): the row gets deleted_at. */
  remove: (id: string) =>
    db<ConnectionTable>('connections').eq('id', id).update({ deleted_at: new Date().toISOString() }),

  /** Tests a form's values; with `id`, secrets left out come from that stored connection. */
  test: (row: ConnectionWrite & { id?: string }) => runTest('/api/connection/test', row),

  testSaved: (id: string) => runTest(`/api/connection/test/${encodeURIComponent(id)}`, {}),
};
