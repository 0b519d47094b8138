// The side panel's sections (spec/2 §2.6) and the /api/db view each lists from, filtered by
// component_id and paged 50 at a time.
import type { PlaybookRunListRow } from '../../playbooks/types';
import type { PanelSource } from './InfiniteList';

export type SectionId =
  'details' | 'catalog' | 'incidents' | 'changes' | 'checks' | 'playbook_runs' | 'teams' | 'insights';

export const SECTION_TITLES: Record<SectionId, string> = {
  details: 'Details',
  catalog: 'Catalog',
  incidents: 'Incidents',
  changes: 'Changes',
  checks: 'Checks',
  playbook_runs: 'Playbook runs',
  teams: 'Teams',
  insights: 'Insights',
};

/** In the order shown; Incidents is dropped when the incidents feature is off. */
export function sectionsFor(incidentsEnabled: boolean): SectionId[] {
  const all: SectionId[] = [
    'details',
    'catalog',
    'incidents',
    'changes',
    'checks',
    'playbook_runs',
    'teams',
    'insights',
  ];
  return incidentsEnabled ? all : all.filter((s) => s !== 'incidents');
}

export const SOURCES = {
  catalog: {
    section: 'catalog',
    table: 'config_component_relationships',
    select: '*,config:config_items(id,name,type,config_class,health,status,deleted_at)',
    order: { column: 'created_at', ascending: false },
    liveOnly: true,
  },
  incidents: {
    section: 'incidents',
    table: 'incidents_by_component',
    select: 'id,incident_id,title,type,severity,status,created_at',
    order: { column: 'created_at', ascending: false },
  },
  changes: {
    section: 'changes',
    table: 'changes_by_component',
    select: 'id,config_id,change_type,severity,summary,count,created_at,name,config_type',
    order: { column: 'created_at', ascending: false },
  },
  checks: {
    section: 'checks',
    table: 'checks_by_component',
    select: 'id,name,type,status,namespace,last_runtime',
    order: { column: 'name', ascending: true },
  },
  playbook_runs: {
    section: 'playbook_runs',
    table: 'playbook_run_list',
    select: 'id,playbook_id,status,start_time,end_time,created_at,duration_ms,playbooks',
    order: { column: 'created_at', ascending: false },
  },
  teams: {
    section: 'teams',
    table: 'team_components',
    select: '*,team:teams(id,name,icon)',
    order: { column: 'team_id', ascending: true },
  },
  insights: {
    section: 'insights',
    table: 'analysis_by_component',
    select: 'id,config_id,analyzer,analysis_type,severity,message,status,last_observed,config',
    order: { column: 'last_observed', ascending: false },
  },
} satisfies Record<Exclude<SectionId, 'details'>, PanelSource>;

export interface CatalogLinkRow {
  component_id: string;
  config_id: string;
  selector_id: string | null;
  config: {
    id: string;
    name: string | null;
    type: string;
    config_class: string;
    health: string | null;
    status: string | null;
    deleted_at: string | null;
  } | null;
}

export interface IncidentRow {
  id: string;
  incident_id: string;
  title: string;
  type: string;
  severity: string;
  status: string;
  created_at: string;
}

export interface ChangeRow {
  id: string;
  config_id: string;
  change_type: string;
  severity: string | null;
  summary: string | null;
  count: number | null;
  created_at: string;
  name: string | null;
  config_type: string | null;
}

export interface CheckRow {
  id: string;
  name: string;
  type: string;
  status: string | null;
  namespace: string | null;
  last_runtime: string | null;
}

export type PlaybookRunRow = Pick<
  PlaybookRunListRow,
  'id' | 'playbook_id' | 'status' | 'start_time' | 'end_time' | 'created_at' | 'duration_ms' | 'playbooks'
>;

export interface TeamRow {
  team_id: string;
  component_id: string;
  team: { id: string; name: string; icon: string | null } | null;
}

export interface InsightRow {
  id: string;
  config_id: string;
  analyzer: string;
  analysis_type: string | null;
  severity: string | null;
  message: string | null;
  status: string | null;
  last_observed: string | null;
  config: { id: string; name: string | null; type: string } | null;
}
