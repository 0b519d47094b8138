// The calls of the playbook screens: discovery of playbooks runnable for a resource, their
// parameters, starting and cancelling runs (/api/playbook), and reads through /api/db.
import { api, request } from '../../api/client';
import type {
  ActionArtifact,
  PlaybookParams,
  PlaybookResourceRef,
  PlaybookRunDetail,
  PlaybookRunRequest,
  PlaybookSummary,
} from './types';

const enc = encodeURIComponent;

export const playbooksApi = {
  /** The playbooks whose selectors match the resource; every live playbook without one. */
  runnable: (resource: PlaybookResourceRef, signal?: AbortSignal) =>
    api.get<PlaybookSummary[]>('/api/playbook/list', { query: { ...resource }, signal }),

  /** The parameters with their defaults rendered for the resource. */
  params: (id: string, resource: PlaybookResourceRef, signal?: AbortSignal) =>
    api.post<PlaybookParams>(`/api/playbook/${enc(id)}/params`, resource, { signal }),

  run: (req: PlaybookRunRequest) => api.post<{ run_id: string; starts_at: string }>('/api/playbook/run', req),

  runDetail: (id: string, signal?: AbortSignal) =>
    api.get<PlaybookRunDetail>(`/api/playbook/run/${enc(id)}`, { signal }),

  cancel: (id: string) => api.post<unknown>(`/api/playbook/run/${enc(id)}/cancel`),

  /** Approve or reject a run waiting for approval (403 for someone who is not an approver). */
  decide: (id: string, action: 'approve' | 'reject', reason?: string) =>
    api.post<{ id: string; status: string }>(`/api/playbook/run/${action}/${enc(id)}`, reason ? { reason } : {}),

  /** Runs waiting for the signed-in person's approval. */
  pendingApprovals: (signal?: AbortSignal) =>
    api.get<{ count: number; run_ids: string[] }>('/api/playbook/approvals/pending', { signal }),

  /** Applies Playbook YAML (or JSON) text: 400 answers carry positions in `errors`. */
  apply: async (text: string, language: 'yaml' | 'json' = 'yaml') =>
    (
      await request<{ applied: Array<{ id: string; name: string; namespace: string; created: boolean }> }>(
        '/api/playbook',
        {
          method: 'POST',
          rawBody: text,
          headers: { 'Content-Type': language === 'json' ? 'application/json' : 'application/yaml' },
        },
      )
    ).data,

  /** The stored resource as YAML text. */
  spec: (id: string, signal?: AbortSignal) => api.get<string>(`/api/playbook/${enc(id)}/spec`, { signal }),

  remove: (id: string) => api.delete(`/api/playbook/${enc(id)}`),

  /** Connection names and types a `connection` parameter may name (no URL, no secret). */
  connections: (signal?: AbortSignal) =>
    api.get<Array<{ name: string; namespace: string; type: string }>>('/api/playbook/connections', { signal }),

  /** The files an action saved (exec `artifacts`), without their content. */
  artifacts: (actionId: string, signal?: AbortSignal) =>
    api.get<ActionArtifact[]>(`/api/playbook/run/action/${enc(actionId)}/artifacts`, { signal }),
};

/** Where an artifact is downloaded from (same origin: the session cookie goes along). */
export const artifactDownloadUrl = (id: string) => `/api/artifacts/download/${enc(id)}`;

export const playbookKeys = {
  all: ['playbooks'] as const,
  runnable: (r: PlaybookResourceRef) => ['playbooks', 'runnable', r] as const,
  params: (id: string, r: PlaybookResourceRef) => ['playbooks', 'params', id, r] as const,
  run: (id: string) => ['playbooks', 'run', id] as const,
  runs: (filter: unknown) => ['playbooks', 'runs', filter] as const,
  list: () => ['playbooks', 'list'] as const,
  pendingApprovals: () => ['playbooks', 'approvals', 'pending'] as const,
  connections: () => ['playbooks', 'connections'] as const,
  artifacts: (runId: string, actionId: string) => ['playbooks', 'run', runId, 'action', actionId, 'artifacts'] as const,
};
