// Maintenance windows as silences: every window in progress with `silence` set holds its checks, its
// components (and, as a component silence does, their checks and descendants) and the entries listed
// on its status pages (by id, name or label selector, as the page lists them). Each becomes one or more
// in-memory silences matched like the stored ones; the reason names the window, and `silenced_by`
// stays empty (it points at notification_silences rows).
import type { Queryable } from '../db/database.js';
import { activeMaintenance, type MaintenanceOccurrence } from '../maintenance/windows.js';
import type { ResourceSelector } from '../selectors/resourceSelector.js';
import type { ActiveSilence } from './silences.js';

interface PageEntry {
  id?: unknown;
  name?: unknown;
  labelSelector?: unknown;
}

/** The selectors that find a status page's entries of one kind (checks or components). */
function entrySelectors(entries: unknown, kind: 'check' | 'component'): ResourceSelector[] {
  if (!Array.isArray(entries)) return [];
  return (entries as PageEntry[]).flatMap((e): ResourceSelector[] => {
    if (!e || typeof e !== 'object') return [];
    if (typeof e.id === 'string' && e.id) return [{ id: e.id, types: [kind] }];
    if (typeof e.name === 'string' && e.name) return [{ name: e.name, types: [kind] }];
    if (typeof e.labelSelector === 'string' && e.labelSelector)
      return [{ labelSelector: e.labelSelector, types: [kind] }];
    return [];
  });
}

/** The selectors of every entry on these status pages (none when the status_pages table does not exist). */
async function statusPageSelectors(tx: Queryable, slugs: string[]): Promise<Map<string, ResourceSelector[]>> {
  const out = new Map<string, ResourceSelector[]>();
  if (!slugs.length) return out;
  const { rows: exists } = await tx.query<{ ok: boolean }>(`SELECT to_regclass('status_pages') IS NOT NULL AS ok`);
  if (!exists[0]?.ok) return out;
  const { rows } = await tx.query<{ slug: string; spec: Record<string, unknown> | null }>(
    'SELECT slug, spec FROM status_pages WHERE deleted_at IS NULL AND slug = ANY($1::text[])',
    [slugs],
  );
  for (const { slug, spec } of rows) {
    const body = (spec && typeof spec.spec === 'object' ? spec.spec : spec) as { sections?: unknown } | null;
    const sections = Array.isArray(body?.sections) ? (body.sections as Record<string, unknown>[]) : [];
    out.set(
      slug,
      sections.flatMap((s) => [...entrySelectors(s?.checks, 'check'), ...entrySelectors(s?.components, 'component')]),
    );
  }
  return out;
}

function silence(o: MaintenanceOccurrence, over: Partial<ActiveSilence>): ActiveSilence {
  return {
    id: o.id,
    name: o.name,
    description: o.message || null,
    until: o.end,
    filter: null,
    check_id: null,
    canary_id: null,
    component_id: null,
    config_id: null,
    namespace: null,
    recursive: false,
    selectors: null,
    maintenance: true,
    ...over,
  };
}

/** The silences of the maintenance windows in progress at `at` that silence notifications. */
export async function maintenanceSilences(tx: Queryable, at = new Date()): Promise<ActiveSilence[]> {
  const windows = (await activeMaintenance(tx, at)).filter((o) => o.silence);
  if (!windows.length) return [];
  const pages = await statusPageSelectors(tx, [...new Set(windows.flatMap((o) => o.statusPages))]);
  return windows.flatMap((o) => {
    const selectors = o.statusPages.flatMap((slug) => pages.get(slug) ?? []);
    return [
      ...o.checkIds.map((id) => silence(o, { check_id: id })),
      ...o.componentIds.map((id) => silence(o, { component_id: id, recursive: true })),
      ...(selectors.length ? [silence(o, { selectors })] : []),
    ];
  });
}
