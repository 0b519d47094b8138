// Incidents, pure and shared by server and web (spec/2 §3, §4, §9): statuses and the allowed
// status moves, severities (summary buckets, colours), types, the hypothesis tree, evidence types,
// responder types with their labels and form fields, responder progress, history event types and
// the definition-of-done sample scripts.

export const INCIDENT_STATUSES = ['new', 'open', 'investigating', 'mitigated', 'resolved', 'closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];

/** Where a status may move in the dropdown, the current status excluded (spec/2 §4 table). */
const STATUS_MOVES: Record<IncidentStatus, readonly IncidentStatus[]> = {
  new: ['open', 'investigating', 'mitigated', 'resolved', 'closed'],
  open: ['investigating', 'mitigated', 'resolved', 'closed'],
  investigating: ['mitigated', 'resolved', 'closed'],
  mitigated: ['resolved', 'closed', 'open'],
  resolved: ['closed', 'open'],
  closed: ['open'],
};

export function isIncidentStatus(value: unknown): value is IncidentStatus {
  return typeof value === 'string' && (INCIDENT_STATUSES as readonly string[]).includes(value);
}

/** The statuses the dropdown offers for an incident in `from`: the current one first, then the moves. */
export function allowedStatusMoves(from: IncidentStatus): IncidentStatus[] {
  return [from, ...STATUS_MOVES[from]];
}

/** Whether `from → to` is allowed; staying in the same status always is. */
export function canMoveStatus(from: IncidentStatus, to: IncidentStatus): boolean {
  return from === to || STATUS_MOVES[from].includes(to);
}

/** Moving to one of these first asks for contributing factors to the definition of done. */
export function asksForDefinitionOfDone(to: IncidentStatus): boolean {
  return to === 'mitigated' || to === 'resolved';
}

/** The header toggle: Close while open (→ closed), Reopen otherwise (→ open). */
export function headerToggle(status: IncidentStatus): { label: 'Close' | 'Reopen'; to: IncidentStatus } {
  return status === 'open' ? { label: 'Close', to: 'closed' } : { label: 'Reopen', to: 'open' };
}

export const DEFAULT_INCIDENT_STATUS: IncidentStatus = 'open';

export const INCIDENT_SEVERITIES = ['info', 'warning', 'low', 'medium', 'high', 'blocker', 'critical'] as const;
export type IncidentSeverity = (typeof INCIDENT_SEVERITIES)[number];
export const DEFAULT_INCIDENT_SEVERITY: IncidentSeverity = 'low';
/** What the details panel shows when an incident has no severity. */
export const DISPLAY_DEFAULT_SEVERITY = 'High';

export function isIncidentSeverity(value: unknown): value is IncidentSeverity {
  return typeof value === 'string' && (INCIDENT_SEVERITIES as readonly string[]).includes(value);
}

/** Summary buckets: critical, high, medium, low (merged into medium) and info. */
export const SEVERITY_SUMMARY_BUCKETS = ['critical', 'high', 'medium', 'info'] as const;
export type SeveritySummaryBucket = (typeof SEVERITY_SUMMARY_BUCKETS)[number];

/** The summary bucket of a severity; blocker counts as critical, warning as info. */
export function severitySummaryBucket(severity: IncidentSeverity): SeveritySummaryBucket {
  switch (severity) {
    case 'critical':
    case 'blocker':
      return 'critical';
    case 'high':
      return 'high';
    case 'medium':
    case 'low':
      return 'medium';
    case 'warning':
    case 'info':
      return 'info';
  }
}

/** Counts per summary bucket (every bucket present). */
export function summarizeSeverities(
  counts: Partial<Record<IncidentSeverity, number>>,
): Record<SeveritySummaryBucket, number> {
  const out: Record<SeveritySummaryBucket, number> = { critical: 0, high: 0, medium: 0, info: 0 };
  for (const [severity, n] of Object.entries(counts)) {
    if (isIncidentSeverity(severity) && n) out[severitySummaryBucket(severity)] += n;
  }
  return out;
}

export type SeverityColour = 'red' | 'orange' | 'yellow' | 'gray' | 'green';

/** Colours: critical (and blocker) red, high orange, warning yellow, info gray, low and medium green. */
export function severityColour(severity: IncidentSeverity): SeverityColour {
  switch (severity) {
    case 'critical':
    case 'blocker':
      return 'red';
    case 'high':
      return 'orange';
    case 'warning':
      return 'yellow';
    case 'info':
      return 'gray';
    case 'low':
    case 'medium':
      return 'green';
  }
}

export const INCIDENT_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technicalDebt',
  'reliability',
] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];
export const DEFAULT_INCIDENT_TYPE: IncidentType = 'availability';

export function isIncidentType(value: unknown): value is IncidentType {
  return typeof value === 'string' && (INCIDENT_TYPES as readonly string[]).includes(value);
}

// Hypotheses ---------------------------------------------------------------------------------

export const HYPOTHESIS_STATUSES = ['Proven', 'Likely', 'Possible', 'Unlikely', 'Improbable', 'Disproven'] as const;
export type HypothesisStatus = (typeof HYPOTHESIS_STATUSES)[number];
export const HYPOTHESIS_TYPES = ['root', 'factor', 'solution'] as const;
export type HypothesisType = (typeof HYPOTHESIS_TYPES)[number];

/** A new hypothesis: Possible, type root. */
export const NEW_HYPOTHESIS = { status: 'Possible', type: 'root' } as const satisfies {
  status: HypothesisStatus;
  type: HypothesisType;
};

export function isHypothesisStatus(value: unknown): value is HypothesisStatus {
  return typeof value === 'string' && (HYPOTHESIS_STATUSES as readonly string[]).includes(value);
}

/** What an existing hypothesis shows: its status, or Likely when it has none. */
export function displayHypothesisStatus(status: string | null | undefined): HypothesisStatus {
  return isHypothesisStatus(status) ? status : 'Likely';
}

/** The type of a child of a hypothesis: root → factor → solution (a solution has no children). */
export function childHypothesisType(parent: HypothesisType): HypothesisType | null {
  return parent === 'root' ? 'factor' : parent === 'factor' ? 'solution' : null;
}

// Evidence -----------------------------------------------------------------------------------

export const EVIDENCE_TYPES = [
  'log',
  'topology',
  'config',
  'check',
  'config_change',
  'config_analysis',
  'comment',
] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

/** Evidence types as written (also 'Config' and 'Topology') → the stored type; null when unknown. */
export function normalizeEvidenceType(value: unknown): EvidenceType | null {
  if (typeof value !== 'string') return null;
  const lower = value.trim().toLowerCase();
  return (EVIDENCE_TYPES as readonly string[]).includes(lower) ? (lower as EvidenceType) : null;
}

/** Lines around the selected lines an evidence excerpt shows. */
export const EVIDENCE_CONTEXT_LINES = 3;

/**
 * Definition-of-done scripts are CEL over the evidence's resource. Variables (server/src/incidents/dod.ts):
 * `check` {id, name, type, status ('healthy'|'unhealthy'), healthy (bool), last_transition_time,
 * last_runtime, age (duration since the last transition)}; `config` {id, name, type, health, status,
 * ...}; `component` {id, name, type, health, status, ...}; `analysis` (and `config_analysis`)
 * {id, status, severity, analyzer, ...}; `evidence` {type, description, ...}.
 */
export const DOD_SAMPLE_SCRIPTS = [
  {
    name: 'check healthy and age over 5m',
    script: "check.status == 'healthy' && age(check.last_transition_time) > duration('5m')",
  },
  { name: 'analysis resolved', script: "analysis.status == 'resolved'" },
] as const;

// Responders ---------------------------------------------------------------------------------

export const RESPONDER_TYPES = [
  'email',
  'jira',
  'service_now',
  'ca',
  'aws_support',
  'aws_ams_services_request',
  'redhat',
  'oracle',
  'ms_planner',
  'vmware',
  'person',
] as const;
export type ResponderType = (typeof RESPONDER_TYPES)[number];

export const RESPONDER_TYPE_LABELS: Record<ResponderType, string> = {
  email: 'Email',
  jira: 'Jira',
  service_now: 'ServiceNow',
  ca: 'CA',
  aws_support: 'AWS Support',
  aws_ams_services_request: 'AWS AMS Service Request',
  redhat: 'Redhat',
  oracle: 'Oracle',
  ms_planner: 'Microsoft Planner',
  vmware: 'VMWare',
  person: 'Person',
};

/** The form fields of each responder type (every one required); external_id is on the row. */
export const RESPONDER_TYPE_FIELDS: Record<ResponderType, readonly string[]> = {
  email: ['to', 'subject', 'body'],
  jira: ['project', 'issueType', 'priority', 'summary', 'description'],
  service_now: ['category', 'description', 'body'],
  ca: ['category', 'description', 'body'],
  aws_support: ['category', 'description', 'body'],
  aws_ams_services_request: ['category', 'description', 'body'],
  redhat: ['product', 'category', 'description', 'body'],
  oracle: ['product', 'category', 'description', 'body'],
  vmware: ['product', 'category', 'description', 'body'],
  ms_planner: ['plan_id', 'bucket_id', 'priority', 'title', 'description'],
  person: ['person'],
};

export const RESPONDER_FIELD_MESSAGE = 'Please provide valid value';

export function isResponderType(value: unknown): value is ResponderType {
  return typeof value === 'string' && (RESPONDER_TYPES as readonly string[]).includes(value);
}

/** Field → 'Please provide valid value' for every required field missing or blank; {} when valid. */
export function validateResponderFields(
  type: ResponderType,
  properties: Record<string, unknown>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of RESPONDER_TYPE_FIELDS[type]) {
    const value = properties[field];
    const blank =
      value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || value === false;
    if (blank) errors[field] = RESPONDER_FIELD_MESSAGE;
  }
  if (type === 'email' && !errors.to && !/^[^\s@]+@[^\s@]+$/.test(String(properties.to).trim())) {
    errors.to = RESPONDER_FIELD_MESSAGE;
  }
  return errors;
}

export const RESPONDER_PROGRESS_STEPS = ['Created', 'Acknowledged', 'Resolved', 'Closed'] as const;
export type ResponderProgressStep = (typeof RESPONDER_PROGRESS_STEPS)[number];

export interface ResponderTimes {
  acknowledge_time?: string | null;
  signoff_time?: string | null;
  close_time?: string | null;
}

/** The current step: the step of the first missing time; null when every time is set. */
export function responderProgress(times: ResponderTimes): ResponderProgressStep | null {
  if (!times.acknowledge_time) return 'Acknowledged';
  if (!times.signoff_time) return 'Resolved';
  if (!times.close_time) return 'Closed';
  return null;
}

// History ------------------------------------------------------------------------------------

export const INCIDENT_HISTORY_TYPES = [
  'incident.created',
  'incident.status_updated',
  'responder.created',
  'evidence.created',
  'evidence.done_definition_added',
  'evidence.done',
  'responder.commented',
  'hypothesis.created',
  'hypothesis.status_updated',
] as const;
export type IncidentHistoryType = (typeof INCIDENT_HISTORY_TYPES)[number];

/** Event names some notes use for the same events. */
export const INCIDENT_HISTORY_ALIASES: Record<string, IncidentHistoryType> = {
  'incident_status.updated': 'incident.status_updated',
};

/** The event_queue event a status move emits (FORMATS.md). */
export const incidentStatusEvent = (status: IncidentStatus): string => `incident.status.${status}`;

/** Comment mentions: @[display](user:id). */
export const MENTION_PATTERN = /@\[([^\]]+)\]\(user:([0-9a-fA-F-]+)\)/g;

/** The people ids mentioned in a comment. */
export function mentionedPeople(comment: string): string[] {
  return [...comment.matchAll(MENTION_PATTERN)].map((m) => m[2]!);
}
