// The audit trail (GET /api/audit, admins only): a page of entries, newest first, and the values
// the filters offer (GET /api/audit/filters).
import { api } from '../../api/client';

export interface AuditEntry {
  id: string;
  at: string;
  actor_id: string | null;
  actor_email: string | null;
  actor_name: string | null;
  actor_kind: 'person' | 'token' | 'agent' | 'system';
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string | null;
  source_ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

export interface AuditFilters {
  actor?: string;
  action?: string;
  resourceType?: string;
  q?: string;
  from?: string;
  to?: string;
}

export interface AuditFilterValues {
  actions: string[];
  resource_types: string[];
  actors: { id: string; email: string | null; name: string | null }[];
}

export const auditKeys = {
  all: ['audit'] as const,
  list: (filters: AuditFilters, page: { pageIndex: number; pageSize: number }) =>
    [...auditKeys.all, 'list', filters, page] as const,
  filters: () => [...auditKeys.all, 'filters'] as const,
};

export const auditApi = {
  async list(filters: AuditFilters, page: { pageIndex: number; pageSize: number }, signal?: AbortSignal) {
    const body = await api.get<{ total: number; rows: AuditEntry[] }>('/api/audit', {
      signal,
      query: {
        actor: filters.actor,
        action: filters.action,
        resource_type: filters.resourceType,
        q: filters.q,
        from: filters.from,
        to: filters.to,
        limit: page.pageSize,
        offset: page.pageIndex * page.pageSize,
      },
    });
    return { data: body.rows, total: body.total };
  },
  filters: (signal?: AbortSignal) => api.get<AuditFilterValues>('/api/audit/filters', { signal }),
};

/** What an action is called in the table. */
export const ACTION_LABELS: Record<string, string> = {
  apply: 'Apply',
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  role_change: 'Role change',
  token_create: 'Token created',
  token_revoke: 'Token revoked',
  retry: 'Retry',
  discard: 'Discard',
};

export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action;
