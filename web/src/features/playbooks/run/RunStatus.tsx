// Run and action statuses (spec/3 §4, §5; pending_approval shown as 'Pending Approval') as a badge and as a step icon.
import {
  Ban,
  CheckCircle2,
  Clock,
  Loader2,
  MinusCircle,
  Moon,
  UserCheck,
  XCircle,
  type LucideIcon,
} from 'lucide-react';
import { Badge, type BadgeTone } from '../../../ui/badge';
import { cn } from '../../../ui/cn';
import type { PlaybookActionStatus, PlaybookRunStatus } from '../types';

type Status = PlaybookRunStatus | PlaybookActionStatus;

const TONES: Record<Status, BadgeTone> = {
  pending_approval: 'warning',
  pending: 'neutral',
  scheduled: 'neutral',
  running: 'primary',
  sleeping: 'warning',
  completed: 'success',
  failed: 'danger',
  cancelled: 'warning',
  skipped: 'neutral',
};

const ICONS: Record<Status, { icon: LucideIcon; className: string }> = {
  pending_approval: { icon: UserCheck, className: 'text-warning' },
  pending: { icon: Clock, className: 'text-muted' },
  scheduled: { icon: Clock, className: 'text-muted' },
  running: { icon: Loader2, className: 'animate-spin text-primary' },
  sleeping: { icon: Moon, className: 'text-warning' },
  completed: { icon: CheckCircle2, className: 'text-success' },
  failed: { icon: XCircle, className: 'text-danger' },
  cancelled: { icon: Ban, className: 'text-warning' },
  skipped: { icon: MinusCircle, className: 'text-subtle' },
};

/** Shown words where the status is not one word. */
const LABELS: Partial<Record<Status, string>> = { pending_approval: 'Pending Approval' };

export function RunStatusBadge({ status }: { status: Status }) {
  return (
    <Badge tone={TONES[status] ?? 'neutral'} className="capitalize">
      <span data-testid="run-status">{LABELS[status] ?? status}</span>
    </Badge>
  );
}

export function StatusIcon({ status, className }: { status: Status; className?: string }) {
  const { icon: Icon, className: tone } = ICONS[status] ?? ICONS.pending;
  return <Icon className={cn('size-4 shrink-0', tone, className)} aria-label={status} role="img" />;
}
