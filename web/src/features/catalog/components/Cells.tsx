// Small cells shared by the catalog tables: health, counts (Nk+, highlighted change counts),
// insight counts by severity, cost with its 1-day change flag, dates (zero dates render nothing)
// and the deleted marker.
import { ArrowDown, ArrowUp, Trash2 } from 'lucide-react';
import { Badge } from '../../../ui/badge';
import { cn } from '../../../ui/cn';
import { formatAge, formatDateTime } from '../../../ui/format';
import { Tooltip } from '../../../ui/tooltip';
import {
  costChange,
  formatCost,
  formatCount,
  HEALTH_COLOR,
  isHealth,
  isHighChangeCount,
  isZeroDate,
  orderedHealthCounts,
  SEVERITIES,
  severityTone,
} from '../format';

export function HealthLabel({ health, label }: { health: string | null | undefined; label?: string }) {
  const h = isHealth(health) ? health : 'unknown';
  return (
    <span className="inline-flex items-center gap-1.5" data-testid="config-health">
      <span className={cn('size-2 shrink-0 rounded-full', HEALTH_COLOR[h])} aria-hidden />
      <span className="capitalize">{label ?? health ?? 'unknown'}</span>
    </span>
  );
}

/** Health counts of a summary row: green, red, orange, gray. */
export function HealthCounts({ counts }: { counts: Partial<Record<string, number>> | undefined }) {
  const list = orderedHealthCounts(counts);
  if (!list.length) return null;
  return (
    <span className="inline-flex items-center gap-2" data-testid="health-counts">
      {list.map(([h, n]) => (
        <span key={h} className="inline-flex items-center gap-1" title={h}>
          <span className={cn('size-2 rounded-full', HEALTH_COLOR[h])} aria-hidden />
          <span className="tabular-nums">{formatCount(n)}</span>
        </span>
      ))}
    </span>
  );
}

export function CountBadge({ count, highlight }: { count: number | null | undefined; highlight?: boolean }) {
  if (!count) return null;
  return (
    <Badge tone={highlight ? 'danger' : 'neutral'} className="tabular-nums">
      {formatCount(count)}
    </Badge>
  );
}

export function ChangesCount({ count }: { count: number | null | undefined }) {
  return (
    <span data-testid="changes-count" data-high={isHighChangeCount(count) || undefined}>
      <CountBadge count={count} highlight={isHighChangeCount(count)} />
    </span>
  );
}

export function InsightCounts({ analysis }: { analysis: Record<string, number> | null | undefined }) {
  if (!analysis) return null;
  const entries = SEVERITIES.map((s) => [s, Number(analysis[s] ?? 0)] as const).filter(([, n]) => n > 0);
  const other = Object.entries(analysis).filter(
    ([k, n]) => !(SEVERITIES as readonly string[]).includes(k) && Number(n) > 0,
  );
  return (
    <span className="inline-flex flex-wrap gap-1">
      {[...entries, ...other].map(([s, n]) => (
        <Badge key={s} tone={severityTone(s)} className="tabular-nums">
          <span className="sr-only">{s}</span>
          {formatCount(Number(n))}
        </Badge>
      ))}
    </span>
  );
}

export function CostCell({ value }: { value: number | string | null | undefined }) {
  const text = formatCost(value);
  return text ? <span className="tabular-nums">{text}</span> : null;
}

/** The 1d cost, flagged red (up) or green (down) against the 30-day daily average. */
export function Cost1dCell({
  cost1d,
  cost30d,
}: {
  cost1d: number | string | null | undefined;
  cost30d: number | string | null | undefined;
}) {
  const text = formatCost(cost1d);
  if (!text) return null;
  const change = costChange(cost1d, cost30d);
  return (
    <span className="inline-flex items-center gap-1.5 tabular-nums">
      {text}
      {change && (
        <span
          data-testid="cost-change"
          className={cn(
            'inline-flex items-center text-[11.5px] font-medium',
            change.direction === 'up' ? 'text-danger' : 'text-success',
          )}
        >
          {change.direction === 'up' ? <ArrowUp className="size-3" /> : <ArrowDown className="size-3" />}
          {change.label}
        </span>
      )}
    </span>
  );
}

export function DateCell({ value, relative }: { value: string | null | undefined; relative?: boolean }) {
  if (isZeroDate(value)) return null;
  return (
    <span title={formatDateTime(value)} className="whitespace-nowrap text-muted">
      {relative ? formatAge(value) : formatDateTime(value)}
    </span>
  );
}

export function DeletedMarker({ deletedAt }: { deletedAt: string | null | undefined }) {
  if (!deletedAt) return null;
  return (
    <Tooltip content={`Deleted: ${formatDateTime(deletedAt)}`}>
      <span
        className="inline-flex items-center text-danger"
        aria-label={`Deleted: ${formatDateTime(deletedAt)}`}
        data-testid="deleted-marker"
      >
        <Trash2 className="size-3.5" />
      </span>
    </Tooltip>
  );
}

export function TagList({ tags, max = 3 }: { tags: Record<string, string> | null | undefined; max?: number }) {
  const entries = Object.entries(tags ?? {});
  if (!entries.length) return null;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {entries.slice(0, max).map(([k, v]) => (
        <Badge key={k} className="max-w-56 truncate">
          {k}={v}
        </Badge>
      ))}
      {entries.length > max && <Badge>+{entries.length - max}</Badge>}
    </span>
  );
}
