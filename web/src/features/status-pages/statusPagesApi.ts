// The calls of Settings → Status Pages: the list and one page from /api/status-page, a page applied
// as a StatusPage resource (YAML or JSON; 400 answers carry line and column), a page deleted.
import { api, request } from '../../api/client';
import type { StatusPageResource } from './statusPageForm';

export interface StatusPageListRow {
  id: string;
  slug: string;
  title: string;
  private: boolean;
  source: string | null;
  sections: number;
  url: string;
  created_at: string;
  updated_at: string;
}

export interface StatusPageRow {
  id: string;
  slug: string;
  private: boolean;
  source: string | null;
  url: string;
  resource: StatusPageResource;
}

export const statusPageKeys = {
  all: ['status-pages'] as const,
  list: () => [...statusPageKeys.all, 'list'] as const,
  one: (id: string) => [...statusPageKeys.all, 'one', id] as const,
};

export const statusPagesApi = {
  list: (signal?: AbortSignal) => api.get<StatusPageListRow[]>('/api/status-page', { signal }),
  get: (id: string, signal?: AbortSignal) =>
    api.get<StatusPageRow>(`/api/status-page/${encodeURIComponent(id)}`, { signal }),
  apply: async (text: string, language: 'yaml' | 'json' = 'yaml') =>
    (
      await request<{ applied: { id: string; name: string; created: boolean; url: string }[] }>('/api/status-page', {
        method: 'POST',
        rawBody: text,
        headers: { 'Content-Type': language === 'json' ? 'application/json' : 'application/yaml' },
      })
    ).data,
  remove: (id: string) => api.delete(`/api/status-page/${encodeURIComponent(id)}`),
};
