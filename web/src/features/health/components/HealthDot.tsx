// The health dot (spec/1 §4): red, gray, orange or green for a health word.
import { healthColor, type HealthColor } from '@opsdeck/common/healthChecks';
import { cn } from '../../../ui/cn';

const COLORS: Record<HealthColor, string> = {
  red: 'bg-danger shadow-[0_0_0_3px_color-mix(in_srgb,var(--danger)_18%,transparent)]',
  gray: 'bg-subtle',
  orange: 'bg-warning shadow-[0_0_0_3px_color-mix(in_srgb,var(--warning)_18%,transparent)]',
  green: 'bg-success',
};

export function HealthDot({
  health,
  className,
  label,
}: {
  health: string | null | undefined;
  className?: string;
  /** Spoken name; defaults to the health word. */
  label?: string;
}) {
  const color = healthColor(health);
  return (
    <span
      role="img"
      aria-label={label ?? health ?? 'missing'}
      data-health-color={color}
      className={cn('inline-block size-2.5 shrink-0 rounded-full', COLORS[color], className)}
    />
  );
}
