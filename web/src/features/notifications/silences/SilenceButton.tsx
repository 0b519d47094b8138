// 'Silence' on a check drawer, a topology card or component panel, and a catalog item: opens
// /notifications/silences/add prefilled with the resource. Shown only with write on notifications.
import { BellOff } from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '../../../api/session';
import { Button } from '../../../ui/button';

export type SilenceTarget =
  { check_id: string } | { component_id: string } | { config_id: string } | { canary_id: string };

/** The add-silence path for a resource (with its name, so the form shows it without a lookup). */
export function silencePath(target: SilenceTarget, name?: string): string {
  const params = new URLSearchParams(target as Record<string, string>);
  if (name) params.set('name', name);
  return `/notifications/silences/add?${params}`;
}

export function SilenceButton({
  target,
  name,
  size = 'sm',
  variant = 'outline',
  className,
}: {
  target: SilenceTarget;
  name?: string;
  size?: 'sm' | 'icon-sm';
  variant?: 'outline' | 'ghost';
  className?: string;
}) {
  const canWrite = useCan('notifications', 'write');
  if (!canWrite) return null;
  return (
    <Button asChild variant={variant} size={size} className={className}>
      <Link
        to={silencePath(target, name)}
        aria-label={size === 'icon-sm' ? 'Silence' : undefined}
        title="Silence notifications"
      >
        <BellOff className="size-3.5" aria-hidden />
        {size !== 'icon-sm' && 'Silence'}
      </Link>
    </Button>
  );
}
