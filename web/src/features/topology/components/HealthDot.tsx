// A component's health dot: red, gray, orange or green by the shared colour rule (spec/1 §4).
import { healthColor, type HealthColor } from '@opsdeck/common/healthChecks';
import { cn } from '../../../ui/cn';

const COLORS: Record<HealthColor, string> = {
  red: 'bg-danger',
  gray: 'bg-subtle',
  orange: 'bg-warning',
  green: 'bg-success',
};

export function HealthDot({ health, className }: { health: string | null | undefined; className?: string }) {
  const color = healthColor(health);
  return (
    <span
      role="img"
      aria-label={health ?? 'unknown'}
      data-health-color={color}
      className={cn('inline-block size-2.5 shrink-0 rounded-full', COLORS[color], className)}
    />
  );
}
