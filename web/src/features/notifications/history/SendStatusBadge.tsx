// A send history status (spec/3 §4) as a badge: 'Repeated' for repeated; the held ones (silenced,
// inhibited, grouped, cancelled) say why on hover.
import { SEND_STATUS_LABELS, type SendStatus } from '@opsdeck/common/notifications';
import { Badge, type BadgeTone } from '../../../ui/badge';
import { Tooltip } from '../../../ui/tooltip';

const TONES: Record<SendStatus, BadgeTone> = {
  sent: 'success',
  error: 'danger',
  pending: 'primary',
  cancelled: 'neutral',
  repeated: 'neutral',
  silenced: 'warning',
  inhibited: 'warning',
  grouped: 'neutral',
};

export function statusLabel(status: string): string {
  return SEND_STATUS_LABELS[status as SendStatus] ?? status;
}

export function SendStatusBadge({ status, reason }: { status: string; reason?: string | null }) {
  const badge = (
    <span data-testid="send-status" data-status={status} tabIndex={reason ? 0 : undefined}>
      <Badge tone={TONES[status as SendStatus] ?? 'neutral'}>{statusLabel(status)}</Badge>
    </span>
  );
  return reason ? <Tooltip content={reason}>{badge}</Tooltip> : badge;
}
