// A health word with its dot (spec/1 §4 colours), for evidence and topology cards.
import { healthColor } from '@opsdeck/common/healthChecks';
import { cn } from '../../../ui/cn';

const COLORS = { red: 'bg-danger', gray: 'bg-subtle', orange: 'bg-warning', green: 'bg-success' } as const;

export function HealthMark({ health }: { health: string | null | undefined }) {
  return (
    <span className="inline-flex items-center gap-1.5 text-[12.5px] text-muted">
      <span className={cn('inline-block size-2.5 rounded-full', COLORS[healthColor(health)])} aria-hidden />
      {health ?? 'unknown'}
    </span>
  );
}
