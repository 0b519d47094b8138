// What a status page shows, as data (GET /api/status/{slug}, and the HTML rendered from it): only
// names, states and figures of the entries on the page, open incidents linked to them (title,
// severity, status and time: incidents have no public updates) and announced maintenance. Never a
// spec, URL, label, result message or person.
import type { Queryable } from '../db/database.js';
import { resolveSections, type EntryKind } from './entries.js';
import { barsStart, BAR_DAYS, componentChecks, DAY_MS, dailyTallies, percent, sumTallies } from './figures.js';
import type { StatusPageSpec } from './resource.js';

export type EntryState = 'operational' | 'degraded' | 'down' | 'maintenance' | 'unknown';
export type OverallState = 'operational' | 'degraded' | 'partial_outage' | 'major_outage' | 'maintenance' | 'unknown';

export const OVERALL_TEXT: Record<OverallState, string> = {
  operational: 'All systems operational',
  degraded: 'Degraded performance',
  partial_outage: 'Partial outage',
  major_outage: 'Major outage',
  maintenance: 'Under maintenance',
  unknown: 'No status yet',
};

export const ENTRY_TEXT: Record<EntryState, string> = {
  operational: 'Operational',
  degraded: 'Degraded',
  down: 'Down',
  maintenance: 'Maintenance',
  unknown: 'No data',
};

export interface PublicEntry {
  kind: EntryKind;
  id: string;
  name: string;
  state: EntryState;
  /** Percent passed over the BAR_DAYS days; null without runs. */
  uptime: number | null;
  /** One figure per day from `days_from`, oldest first; null for a day without runs. */
  days: (number | null)[];
}

export interface PublicIncident {
  title: string;
  severity: string;
  status: string;
  created_at: string;
  /** Names of the page's entries it is linked to. */
  entries: string[];
}

export interface PublicMaintenance {
  name: string;
  message: string;
  start: string;
  end: string;
  active: boolean;
}

export interface PublicPage {
  slug: string;
  title: string;
  description: string | null;
  logo: string | null;
  footer: string | null;
  state: OverallState;
  state_text: string;
  updated_at: string;
  days_from: string;
  sections: { name: string; entries: PublicEntry[] }[];
  incidents: PublicIncident[];
  maintenance: PublicMaintenance[];
}

/** One maintenance occurrence as the maintenance module gives it (server/src/maintenance/windows.ts). */
export interface MaintenanceOccurrence {
  id: string;
  name: string;
  message: string | null;
  start: Date;
  end: Date;
  checkIds: string[];
  componentIds: string[];
  statusPages: string[];
}

export type MaintenanceSource = (db: Queryable, from: Date, to: Date) => Promise<MaintenanceOccurrence[]>;

/** Announced maintenance: what is under way now and what starts within this long. */
export const MAINTENANCE_AHEAD_MS = 7 * DAY_MS;

const CHECK_STATE: Record<string, EntryState> = { healthy: 'operational', unhealthy: 'down' };
const COMPONENT_STATE: Record<string, EntryState> = { healthy: 'operational', warning: 'degraded', unhealthy: 'down' };

export function overallState(states: EntryState[]): OverallState {
  const known = states.filter((s) => s !== 'unknown');
  if (!known.length) return 'unknown';
  const down = known.filter((s) => s === 'down').length;
  if (down && down === known.length) return 'major_outage';
  if (down) return 'partial_outage';
  if (known.includes('degraded')) return 'degraded';
  if (known.includes('maintenance')) return 'maintenance';
  return 'operational';
}

const INCIDENTS_SQL = `
SELECT i.title, i.severity, i.status, i.created_at,
       array_remove(array_agg(DISTINCT i.component_id::text) || array_agg(DISTINCT e.component_id::text), NULL) AS components,
       array_remove(array_agg(DISTINCT e.check_id::text), NULL) AS checks
FROM incidents i
LEFT JOIN hypotheses h ON h.incident_id = i.id
LEFT JOIN evidences e ON e.hypothesis_id = h.id AND (e.component_id = ANY($1::uuid[]) OR e.check_id = ANY($2::uuid[]))
WHERE i.status NOT IN ('resolved', 'closed')
  AND (i.component_id = ANY($1::uuid[]) OR e.id IS NOT NULL)
GROUP BY i.id ORDER BY i.created_at DESC LIMIT 50`;

const iso = (v: unknown) => new Date(v as string).toISOString();

export async function buildPublicPage(
  db: Queryable,
  page: { slug: string; spec: StatusPageSpec },
  maintenance?: MaintenanceSource,
  now = new Date(),
): Promise<PublicPage> {
  const sections = await resolveSections(db, page.spec);
  const ids = (kind: EntryKind) => [
    ...new Set(sections.flatMap((s) => s.entries.filter((e) => e.kind === kind).map((e) => e.row.id))),
  ];
  const checkIds = ids('check');
  const componentIds = ids('component');
  const start = barsStart(now);
  const [linked, incidentRows, windows] = await Promise.all([
    componentChecks(db, componentIds),
    componentIds.length || checkIds.length
      ? db.query<{
          title: string;
          severity: string;
          status: string;
          created_at: string;
          components: string[];
          checks: string[];
        }>(INCIDENTS_SQL, [componentIds, checkIds])
      : Promise.resolve({ rows: [] }),
    maintenance ? maintenance(db, now, new Date(now.getTime() + MAINTENANCE_AHEAD_MS)) : Promise.resolve([]),
  ]);
  const tallies = await dailyTallies(db, [...new Set([...checkIds, ...[...linked.values()].flat()])], start, now);

  const checkSet = new Set(checkIds);
  const componentSet = new Set(componentIds);
  const announced = windows.filter(
    (w) =>
      w.end.getTime() > now.getTime() &&
      (w.statusPages.includes(page.slug) ||
        w.checkIds.some((id) => checkSet.has(id)) ||
        w.componentIds.some((id) => componentSet.has(id))),
  );
  const active = announced.filter((w) => w.start.getTime() <= now.getTime());
  const underMaintenance = (kind: EntryKind, id: string) =>
    active.some(
      (w) => w.statusPages.includes(page.slug) || (kind === 'check' ? w.checkIds : w.componentIds).includes(id),
    );

  const names = new Map<string, string>();
  const out: PublicPage['sections'] = sections.map((s) => ({
    name: s.name,
    entries: s.entries.map(({ kind, row }) => {
      names.set(`${kind}:${row.id}`, row.name);
      const own = tallies.get(row.id);
      const days =
        kind === 'check'
          ? own
          : linked.has(row.id)
            ? sumTallies((linked.get(row.id) ?? []).map((c) => tallies.get(c) ?? []))
            : undefined;
      let state = (kind === 'check' ? CHECK_STATE : COMPONENT_STATE)[row.health ?? ''] ?? 'unknown';
      if (underMaintenance(kind, row.id)) state = 'maintenance';
      const total = days?.reduce((a, t) => ({ passed: a.passed + t.passed, failed: a.failed + t.failed }), {
        passed: 0,
        failed: 0,
      });
      return {
        kind,
        id: row.id,
        name: row.name,
        state,
        uptime: total ? percent(total) : null,
        days: days ? days.map(percent) : Array<null>(BAR_DAYS).fill(null),
      };
    }),
  }));
  const state = overallState(out.flatMap((s) => s.entries.map((e) => e.state)));
  return {
    slug: page.slug,
    title: page.spec.title,
    description: page.spec.description ?? null,
    logo: page.spec.logo ?? null,
    footer: page.spec.footer ?? null,
    state,
    state_text: OVERALL_TEXT[state],
    updated_at: now.toISOString(),
    days_from: start.toISOString().slice(0, 10),
    sections: out,
    incidents: incidentRows.rows.map((i) => ({
      title: i.title,
      severity: i.severity,
      status: i.status,
      created_at: iso(i.created_at),
      entries: [
        ...new Set([
          ...i.components.map((id) => names.get(`component:${id}`)),
          ...i.checks.map((id) => names.get(`check:${id}`)),
        ]),
      ].filter((n): n is string => n !== undefined),
    })),
    maintenance: announced
      .sort((a, b) => a.start.getTime() - b.start.getTime())
      .map((w) => ({
        name: w.name,
        message: w.message ?? '',
        start: w.start.toISOString(),
        end: w.end.toISOString(),
        active: w.start.getTime() <= now.getTime(),
      })),
  };
}
