// What the console shows for the incident vocabularies of @opsdeck/common/incidents: labels of
// severities, types and statuses, the severity colour classes, and the dropdown order of
// severities (spec/2 §4). The rules themselves (moves, defaults, responder fields) stay in common.
import {
  INCIDENT_SEVERITIES as SEVERITIES,
  severityColour,
  type IncidentSeverity,
  type IncidentStatus,
  type IncidentType,
  type SeverityColour,
} from '@opsdeck/common/incidents';

export type { IncidentSeverity, IncidentStatus, IncidentType };
export {
  allowedStatusMoves,
  asksForDefinitionOfDone,
  headerToggle,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  isIncidentStatus,
} from '@opsdeck/common/incidents';

/** The dropdown order: low to critical, then info and warning (spec/2 §4). */
export const INCIDENT_SEVERITIES: readonly IncidentSeverity[] = [
  'low',
  'medium',
  'high',
  'blocker',
  'critical',
  'info',
  'warning',
].filter((s): s is IncidentSeverity => (SEVERITIES as readonly string[]).includes(s));

export const SEVERITY_LABELS: Record<IncidentSeverity, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  blocker: 'Blocker',
  critical: 'Critical',
  info: 'Info',
  warning: 'Warning',
};

const COLOUR_CLASSES: Record<SeverityColour, string> = {
  red: 'bg-red-500',
  orange: 'bg-orange-500',
  yellow: 'bg-yellow-400',
  gray: 'bg-gray-400',
  green: 'bg-green-500',
};

/** The dot colour class of a severity (unknown values gray). */
export function severityDotClass(severity: string): string {
  return severity in SEVERITY_LABELS ? COLOUR_CLASSES[severityColour(severity as IncidentSeverity)] : 'bg-gray-400';
}

export const TYPE_LABELS: Record<IncidentType, string> = {
  cost: 'Cost',
  availability: 'Availability',
  performance: 'Performance',
  security: 'Security',
  integration: 'Integration',
  compliance: 'Compliance',
  technicalDebt: 'Technical Debt',
  reliability: 'Reliability',
};

export const STATUS_LABELS: Record<IncidentStatus, string> = {
  new: 'New',
  open: 'Open',
  investigating: 'Investigating',
  mitigated: 'Mitigated',
  resolved: 'Resolved',
  closed: 'Closed',
};

export function label<K extends string>(labels: Record<K, string>, value: string | null | undefined): string {
  return value ? (labels[value as K] ?? value) : '';
}
