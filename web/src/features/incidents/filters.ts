// The incident list filters (spec/2 §2.7, §7): read from and written to the query string
// (status defaults to open; 'all' or empty values are dropped), and turned into /api/db
// filters: severity, status and type as eq, owner as created_by, component through the
// server-maintained component_ids of the incident (the components of its evidence; GIN-indexed:
// an embed filter through hypotheses and evidences takes seconds at 50k incidents), search over
// title and Id.
import { containsPattern, quoteListItem } from '../../api/postgrest';

export const FILTER_KEYS = ['type', 'severity', 'status', 'owner', 'component', 'search'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];
export type IncidentFilters = Partial<Record<FilterKey, string>>;

export const DEFAULT_STATUS = 'open';
const ALL = 'all';

function clean(value: string | null | undefined): string | undefined {
  const v = value?.trim();
  return v && v !== ALL ? v : undefined;
}

/** The filters in effect for a query string: status is open unless the link says otherwise. */
export function readFilters(params: URLSearchParams): IncidentFilters {
  const filters: IncidentFilters = {};
  for (const key of FILTER_KEYS) {
    const raw = params.get(key);
    const value = key === 'status' && raw === null ? DEFAULT_STATUS : clean(raw);
    if (value) filters[key] = value;
  }
  return filters;
}

/**
 * The query string after setting one filter. 'all' or empty removes it, except for status, whose
 * 'all' stays in the link so the default (open) does not come back. Paging restarts.
 */
export function writeFilter(params: URLSearchParams, key: FilterKey, value: string | undefined): URLSearchParams {
  const next = new URLSearchParams(params);
  const v = value?.trim() ?? '';
  if (key === 'status' && (v === '' || v === ALL)) next.set('status', ALL);
  else if (key === 'status' && v === DEFAULT_STATUS) next.delete('status');
  else if (v === '' || v === ALL) next.delete(key);
  else next.set(key, v);
  next.delete('pageIndex');
  return next;
}

/** The /api/db/incidents filters for a set of filters (appended to `params`). */
export function applyFilters(params: URLSearchParams, f: IncidentFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  if (f.severity) next.append('severity', `eq.${f.severity}`);
  if (f.status) next.append('status', `eq.${f.status}`);
  if (f.type) next.append('type', `eq.${f.type}`);
  if (f.owner) next.append('created_by', `eq.${f.owner}`);
  if (f.component) next.append('component_ids', `cs.{${f.component}}`);
  if (f.search) {
    const p = quoteListItem(containsPattern(f.search));
    next.append('or', `(title.ilike.${p},incident_id.ilike.${p},description.ilike.${p})`);
  }
  return next;
}

/** The select of the list: the incident, its commander and its responders. */
export function listSelect(): string {
  return (
    '*,commander:commander_id(id,name,avatar),' +
    'responders(id,type,deleted_at,team:team_id(id,name,icon),person:person_id(id,name,avatar))'
  );
}
