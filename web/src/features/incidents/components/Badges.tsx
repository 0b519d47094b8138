// Severity (coloured dot), status and type labels of an incident.
import { Badge } from '../../../ui/badge';
import {
  label,
  SEVERITY_LABELS,
  severityDotClass,
  STATUS_LABELS,
  TYPE_LABELS,
} from '../../../ui/link-to-incident/incidentOptions';
import { cn } from '../../../ui/cn';

export function SeverityLabel({ severity }: { severity: string }) {
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="incident-severity">
      <span className={cn('size-2.5 rounded-full', severityDotClass(severity))} aria-hidden />
      {label(SEVERITY_LABELS, severity)}
    </span>
  );
}

export function StatusBadge({ status }: { status: string }) {
  const tone =
    status === 'closed' || status === 'resolved'
      ? 'success'
      : status === 'mitigated'
        ? 'primary'
        : status === 'new' || status === 'open'
          ? 'danger'
          : 'warning';
  return (
    <Badge tone={tone} className="capitalize">
      <span data-testid="incident-status">{label(STATUS_LABELS, status)}</span>
    </Badge>
  );
}

export function TypeLabel({ type }: { type: string }) {
  return <span>{label(TYPE_LABELS, type)}</span>;
}
