// The exposure registry: the only tables, views and functions reachable through /api/db.
// Each entry names its RBAC resource; secret columns are writable but never returned.
import type { Resource } from '@opsdeck/common';

export interface ExposedRelation {
  name: string;
  /** The resource reads (GET) need. */
  resource: Resource;
  /** The resource writes need, when it differs from the one reads need. */
  writeResource?: Resource;
  secretColumns?: readonly string[];
  /** Only the server writes it (a changelog, rows an engine maintains): every write is refused with 405. */
  readOnly?: boolean;
  /** Where its rows are written instead, named in the 405 a write here gets (a resource's apply endpoint). */
  writeWith?: string;
  /** Reads answer with `Cache-Control: no-store`: a status that must never be shown from a cache. */
  noStore?: boolean;
}

export interface ExposedFunction {
  name: string;
  resource: Resource;
}

export interface ExposureRegistry {
  relations: ReadonlyMap<string, ExposedRelation>;
  functions: ReadonlyMap<string, ExposedFunction>;
}

const relations: ExposedRelation[] = [
  // Everyone reads people (names, avatars, mentions); changing them is identity administration.
  { name: 'people', resource: 'database', writeResource: 'identities' },
  { name: 'people_roles', resource: 'database' },
  { name: 'person_roles', resource: 'rbac' },
  { name: 'teams', resource: 'database' },
  { name: 'team_members', resource: 'database' },
  { name: 'properties', resource: 'properties' },
  { name: 'agents', resource: 'agents' },
  // The agents list: online (last_seen within 61 s) and the counts of what each agent pushed.
  { name: 'agents_summary', resource: 'agents', readOnly: true, noStore: true },
  { name: 'access_tokens', resource: 'identities', secretColumns: ['value'] },
  // The audit trail (0028): admins read it; only the server writes it.
  { name: 'audit_log', resource: 'rbac', readOnly: true },
  { name: 'job_history', resource: 'database' },
  { name: 'job_history_names', resource: 'database' },
  { name: 'job_histories', resource: 'database' },
  // Changing queued events is an admin's (Retry/Discard, /api/event-queue; canManageEventQueue), so a
  // raw write needs the admin-only rbac resource; the status is never served from a cache.
  { name: 'event_queue', resource: 'database', writeResource: 'rbac' },
  { name: 'event_queue_summary', resource: 'database', readOnly: true, noStore: true },
  { name: 'connections', resource: 'connections', secretColumns: ['password', 'certificate'] },
  // Notifications (0017): rules and silences are written by editors; send history only by the engine.
  { name: 'notifications', resource: 'notifications' },
  { name: 'notification_silences', resource: 'notifications' },
  { name: 'notification_send_history', resource: 'notifications', readOnly: true },
  // Notification views (0020) the /notifications screens read.
  { name: 'notifications_summary', resource: 'notifications', readOnly: true },
  { name: 'notification_send_history_summary', resource: 'notifications', readOnly: true },
  { name: 'notification_silences_summary', resource: 'notifications', readOnly: true },
  { name: 'canaries', resource: 'canaries' },
  { name: 'checks', resource: 'canaries' },
  { name: 'check_statuses', resource: 'canaries' },
  { name: 'check_statuses_1h', resource: 'canaries' },
  { name: 'check_statuses_1d', resource: 'canaries' },
  { name: 'topologies', resource: 'topologies' },
  { name: 'components', resource: 'topologies' },
  { name: 'component_names', resource: 'topologies' },
  { name: 'component_labels', resource: 'topologies' },
  { name: 'component_relationships', resource: 'topologies' },
  { name: 'check_component_relationships', resource: 'topologies' },
  { name: 'checks_by_component', resource: 'topologies' },
  { name: 'team_components', resource: 'topologies' },
  { name: 'config_component_relationships', resource: 'topologies' },
  { name: 'components_with_logs', resource: 'topologies', readOnly: true },
  // Catalog (0007): items, changes and insights are written by the catalog engine.
  { name: 'config_scrapers', resource: 'config_scrapers' },
  { name: 'config_items', resource: 'config_scrapers', readOnly: true },
  { name: 'config_changes', resource: 'config_scrapers', readOnly: true },
  { name: 'config_analysis', resource: 'config_scrapers', readOnly: true },
  { name: 'config_relationships', resource: 'config_scrapers', readOnly: true },
  { name: 'check_config_relationships', resource: 'config_scrapers', readOnly: true },
  // Catalog read side (0009): views the catalog screens read.
  { name: 'config_detail', resource: 'config_scrapers', readOnly: true },
  { name: 'config_tags', resource: 'config_scrapers', readOnly: true },
  { name: 'config_labels', resource: 'config_scrapers', readOnly: true },
  { name: 'config_names', resource: 'config_scrapers', readOnly: true },
  { name: 'config_types', resource: 'config_scrapers', readOnly: true },
  { name: 'config_classes', resource: 'config_scrapers', readOnly: true },
  { name: 'config_statuses', resource: 'config_scrapers', readOnly: true },
  { name: 'config_analysis_analyzers', resource: 'config_scrapers', readOnly: true },
  { name: 'change_types', resource: 'config_scrapers', readOnly: true },
  { name: 'config_analysis_items', resource: 'config_scrapers', readOnly: true },
  { name: 'analysis_by_component', resource: 'config_scrapers', readOnly: true },
  { name: 'changes_by_component', resource: 'config_scrapers', readOnly: true },
  { name: 'check_summary_for_config', resource: 'config_scrapers', readOnly: true },
  { name: 'config_summary', resource: 'config_scrapers', readOnly: true },
  { name: 'integrations', resource: 'integrations', readOnly: true },
  // Logs (0023): backends written by the form (checked by logs/writeGuard.ts) or /api/logging_backends.
  { name: 'logging_backends', resource: 'logging_backends' },
  { name: 'configs_with_logs', resource: 'config_scrapers', readOnly: true },
  // Status pages (0027): written by the settings form (checked by statuspages/writeGuard.ts) or /api/status-page.
  { name: 'status_pages', resource: 'canaries' },
  // Maintenance windows (0026): the settings form (maintenance/writeGuard.ts) or /api/maintenance-window.
  { name: 'maintenance_windows', resource: 'canaries' },
  // Incidents (0008): commanders and responders write these (spec/1 §6); the changelog is the server's.
  { name: 'incidents', resource: 'incident' },
  { name: 'hypotheses', resource: 'incident' },
  { name: 'evidences', resource: 'evidences' },
  { name: 'comments', resource: 'comments' },
  { name: 'responders', resource: 'responder' },
  { name: 'incident_histories', resource: 'incident', readOnly: true },
  { name: 'incident_rules', resource: 'incident', writeResource: 'database' },
  { name: 'incident_summary', resource: 'incident', readOnly: true },
  { name: 'incidents_by_component', resource: 'incident', readOnly: true },
  { name: 'incidents_by_config', resource: 'incident', readOnly: true },
  { name: 'incident_rule_states', resource: 'incident', readOnly: true },
  // Playbooks (0014): applied through /api/playbook, runs written by the runner.
  { name: 'playbooks', resource: 'playbooks', readOnly: true, writeWith: 'POST /api/playbook (apply a Playbook)' },
  { name: 'playbook_runs', resource: 'playbook_runs', readOnly: true, secretColumns: ['secret_parameters'] },
  { name: 'playbook_run_actions', resource: 'playbook_runs', readOnly: true },
  { name: 'playbook_run_list', resource: 'playbook_runs', readOnly: true },
];

const functions: ExposedFunction[] = [
  { name: 'related_configs_recursive', resource: 'config_scrapers' },
  { name: 'lookup_analysis_by_component', resource: 'config_scrapers' },
];

export function buildRegistry(
  extraRelations: ExposedRelation[] = [],
  extraFunctions: ExposedFunction[] = [],
): ExposureRegistry {
  return {
    relations: new Map([...relations, ...extraRelations].map((r) => [r.name, r])),
    functions: new Map([...functions, ...extraFunctions].map((f) => [f.name, f])),
  };
}

export const registry = buildRegistry();
