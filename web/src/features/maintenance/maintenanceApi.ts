// The calls of Settings → Maintenance: the windows from /api/db/maintenance_windows, one read back as
// a MaintenanceWindow resource (YAML at /api/maintenance-window/{id}/spec), a window applied (400
// answers carry each problem), a window deleted.
import { parse } from 'yaml';
import { api, request } from '../../api/client';
import { db } from '../../api/postgrest';
import type { MaintenanceResource } from './maintenanceForm';

export interface MaintenanceRow {
  id: string;
  name: string;
  message: string;
  starts_at: string | null;
  ends_at: string | null;
  schedule: string | null;
  duration: string | null;
  timezone: string | null;
  check_ids: string[];
  component_ids: string[];
  status_pages: string[];
  silence: boolean;
  source: string | null;
  updated_at: string;
}

export const maintenanceKeys = {
  all: ['maintenance-windows'] as const,
  list: () => [...maintenanceKeys.all, 'list'] as const,
  one: (id: string) => [...maintenanceKeys.all, 'one', id] as const,
};

const enc = encodeURIComponent;

export const maintenanceApi = {
  list: async (signal?: AbortSignal) =>
    (
      await db<MaintenanceRow>('maintenance_windows')
        .select(
          'id,name,message,starts_at,ends_at,schedule,duration,timezone,check_ids,component_ids,status_pages,silence,source,updated_at',
        )
        .is('deleted_at', null)
        .order('name')
        .list(signal)
    ).data,
  resource: async (id: string, signal?: AbortSignal) => {
    const text = await api.get<string>(`/api/maintenance-window/${enc(id)}/spec`, { signal });
    return parse(text) as MaintenanceResource;
  },
  apply: async (resource: MaintenanceResource) =>
    (
      await request<{ applied: { id: string; name: string; created: boolean }[] }>('/api/maintenance-window', {
        method: 'POST',
        rawBody: JSON.stringify(resource),
        headers: { 'Content-Type': 'application/json' },
      })
    ).data,
  remove: (id: string) => api.delete(`/api/maintenance-window/${enc(id)}`),
};
