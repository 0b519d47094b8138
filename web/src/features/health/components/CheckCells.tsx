// Small cells shared by the table and the cards: health, uptime and latency.
import { checkHealth, formatPercent, healthColor, uptimePercent } from '@opsdeck/common/healthChecks';
import { cn } from '../../../ui/cn';
import { formatDuration } from '../../../ui/format';
import type { CheckSummary } from '../types';
import { HealthDot } from './HealthDot';

const HEALTH_LABEL = { healthy: 'Healthy', unhealthy: 'Unhealthy', unknown: 'Unknown' } as const;
const TEXT = { red: 'text-danger', gray: 'text-muted', orange: 'text-warning', green: 'text-success' } as const;

export function HealthCell({ health, label }: { health: string; label: string }) {
  return (
    <span className={cn('inline-flex items-center gap-2 text-[13px] font-medium', TEXT[healthColor(health)])}>
      <HealthDot health={health} label={label} />
      {label}
    </span>
  );
}

export function CheckHealthCell({ check }: { check: CheckSummary }) {
  const h = checkHealth(check.status);
  return <HealthCell health={h} label={HEALTH_LABEL[h]} />;
}

/** Uptime percent with a thin bar coloured by how much of it failed. */
export function UptimeCell({ passed, failed, counts }: { passed: number; failed: number; counts?: boolean }) {
  const pct = uptimePercent({ passed, failed });
  if (pct === undefined) return <span className="text-subtle">—</span>;
  const tone = pct >= 99 ? 'bg-success' : pct >= 90 ? 'bg-warning' : 'bg-danger';
  return (
    <div className="min-w-24 space-y-1">
      <div className="flex items-baseline gap-1.5 tabular-nums">
        <span className="text-[13px] font-medium">{formatPercent(pct)}</span>
        {counts && (
          <span className="text-[12px] text-muted" data-testid="group-uptime">
            {passed}/{passed + failed}
          </span>
        )}
      </div>
      <div className="h-1 w-full max-w-28 overflow-hidden rounded-full bg-surface-muted" aria-hidden>
        <div className={cn('h-full rounded-full', tone)} style={{ width: `${Math.max(pct, 2)}%` }} />
      </div>
    </div>
  );
}

export function latencyOf(check: Pick<CheckSummary, 'latency'>): number | null {
  return check.latency?.p95 ?? check.latency?.rolling1h ?? null;
}

export function LatencyCell({ ms }: { ms: number | null | undefined }) {
  if (ms === null || ms === undefined) return <span className="text-subtle">—</span>;
  return <span className="tabular-nums text-[13px]">{formatDuration(ms)}</span>;
}
