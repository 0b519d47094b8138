// One property of a card: label and formatted value; CPU and memory with a maximum get a usage
// bar that turns red above 70% (spec/2 §2.6).
import { cn } from '../../../ui/cn';
import { barTone, formatProperty, isUsageProperty, usagePercent } from '../properties';
import type { ComponentProperty } from '../types';

export function PropertyRow({ property }: { property: ComponentProperty }) {
  const text = formatProperty(property);
  const percent = usagePercent(property);
  const bar = percent !== undefined && isUsageProperty(property);
  return (
    <div className="text-[12.5px]" data-testid="component-property" title={property.tooltip}>
      {/* Wraps the value under its name when a narrow card has no room for both on one line. */}
      <div className="flex flex-wrap items-baseline justify-between gap-x-2">
        <span className="min-w-0 break-words text-muted">{property.label ?? property.name}</span>
        <span className="ml-auto font-medium tabular-nums text-foreground" style={{ color: property.color }}>
          {text || '—'}
        </span>
      </div>
      {bar && (
        <div
          role="progressbar"
          aria-label={`${property.label ?? property.name} usage`}
          aria-valuenow={Math.round(percent)}
          aria-valuemin={0}
          aria-valuemax={100}
          data-tone={barTone(percent)}
          className="mt-1 h-1.5 overflow-hidden rounded-full bg-surface-muted"
        >
          <div
            className={cn('h-full rounded-full', barTone(percent) === 'red' ? 'bg-danger' : 'bg-primary')}
            style={{ width: `${percent}%` }}
          />
        </div>
      )}
    </div>
  );
}
