// The check drawer's metric tiles: uptime, latency percentiles, severity, last run, last
// transition and next run.
import { Clock3 } from 'lucide-react';
import { type ReactNode } from 'react';
import { formatPercent, uptimePercent } from '@opsdeck/common/healthChecks';
import { formatAge, formatDateTime, formatDuration, formatTimeUntil } from '../../../ui/format';
import { type CheckStats } from '../types';
import { type DrawerCheck } from './drawerCheck';

function Metric({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-border bg-surface px-4 py-3 shadow-card" data-testid={testId}>
      <div className="text-[11.5px] font-medium uppercase tracking-wide text-subtle">{label}</div>
      <div className="mt-1 text-[15px] font-semibold text-foreground">{children}</div>
    </div>
  );
}

export function CheckMetrics({ check, stats }: { check: DrawerCheck; stats: CheckStats | undefined }) {
  const uptime = stats?.uptime;
  const latency = stats?.latency;
  const pct = uptime ? uptimePercent(uptime) : undefined;
  const lat = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatDuration(v));

  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="check-metrics">
      <Metric label="Uptime" testId="metric-uptime">
        {pct === undefined ? <span className="text-subtle">—</span> : formatPercent(pct)}
        {uptime && (
          <div className="mt-0.5 text-[12px] font-normal text-muted tabular-nums">
            <span className="text-success">{uptime.passed} passed</span> ·{' '}
            <span className={uptime.failed ? 'text-danger' : undefined}>{uptime.failed} failed</span>
          </div>
        )}
      </Metric>
      <Metric label="Latency" testId="metric-latency">
        <div className="grid grid-cols-3 gap-2 text-[13px] tabular-nums">
          {(
            [
              ['95%', latency?.p95],
              ['97%', latency?.p97],
              ['99%', latency?.p99],
            ] as const
          ).map(([p, v]) => (
            <div key={p}>
              <div className="text-[11px] font-normal text-subtle">{p}</div>
              <div>{lat(v)}</div>
            </div>
          ))}
        </div>
      </Metric>
      <Metric label="Severity">
        {check.severity ? <span className="capitalize">{check.severity}</span> : <span className="text-subtle">—</span>}
      </Metric>
      <Metric label="Last Run">
        <span title={formatDateTime(check.lastRuntime)}>{formatAge(check.lastRuntime) || 'Never'}</span>
      </Metric>
      <Metric label="Transitioned">
        <span title={formatDateTime(check.lastTransition)}>
          {formatAge(check.lastTransition) || <span className="text-subtle">—</span>}
        </span>
      </Metric>
      <Metric label="Next Run" testId="metric-next-run">
        <span title={formatDateTime(check.nextRuntime)} className="inline-flex items-center gap-1.5">
          {check.nextRuntime ? (
            <>
              <Clock3 className="size-3.5 text-muted" aria-hidden />
              {formatTimeUntil(check.nextRuntime)}
            </>
          ) : (
            <span className="text-subtle">Not scheduled</span>
          )}
        </span>
      </Metric>
    </div>
  );
}
