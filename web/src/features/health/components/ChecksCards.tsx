// The card layout: one card per check (health, uptime, latency, last transition), under a
// heading per group when grouping.
import { checkHealth, groupHealthWord } from '@opsdeck/common/healthChecks';
import { AgentBadge } from '../../../ui/agent-badge';
import { cn } from '../../../ui/cn';
import { formatAge, formatDateTime } from '../../../ui/format';
import { Skeleton } from '../../../ui/skeleton';
import { NO_DATA } from '../../../ui/empty-state';
import { NO_GROUP, type CheckGroup } from '../checkFilters';
import type { CheckSummary } from '../types';
import { LatencyCell, latencyOf, UptimeCell } from './CheckCells';
import { CheckIcon } from './CheckIcon';
import { HealthDot } from './HealthDot';

export function ChecksCards({
  groups,
  groupBy,
  loading,
  onOpen,
}: {
  groups: CheckGroup[];
  groupBy: string;
  loading: boolean;
  onOpen(check: CheckSummary): void;
}) {
  if (loading && groups.length === 0) {
    return (
      <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4" data-testid="cards-skeleton">
        {Array.from({ length: 6 }, (_, i) => (
          <div key={i} className="space-y-3 rounded-lg border border-border bg-surface p-4 shadow-card">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3 w-56" />
            <Skeleton className="h-8 w-full" />
          </div>
        ))}
      </div>
    );
  }
  if (groups.length === 0) {
    return (
      <div className="rounded-lg border border-border bg-surface px-4 py-14 text-center text-sm text-muted shadow-card">
        {NO_DATA}
      </div>
    );
  }
  if (groupBy === NO_GROUP) {
    return <CardGrid checks={groups.flatMap((g) => g.checks)} onOpen={onOpen} />;
  }
  return (
    <div className="space-y-6">
      {groups.map((g) => (
        <section key={g.key} aria-label={g.key} data-testid="card-group">
          <h3 className="mb-2.5 flex items-center gap-2 text-[13px] font-semibold text-foreground">
            <HealthDot health={groupHealthWord(g.health)} />
            {g.key}
            <span className="font-normal text-muted tabular-nums">
              {g.passed}/{g.total}
            </span>
          </h3>
          <CardGrid checks={g.checks} onOpen={onOpen} />
        </section>
      ))}
    </div>
  );
}

function CardGrid({ checks, onOpen }: { checks: CheckSummary[]; onOpen(c: CheckSummary): void }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3 2xl:grid-cols-4">
      {checks.map((c) => (
        <CheckCard key={c.id} check={c} onOpen={onOpen} />
      ))}
    </div>
  );
}

const ACCENT = {
  healthy: 'before:bg-success',
  unhealthy: 'before:bg-danger',
  unknown: 'before:bg-border-strong',
} as const;

function CheckCard({ check, onOpen }: { check: CheckSummary; onOpen(c: CheckSummary): void }) {
  const subtitle = check.endpoint || check.description;
  return (
    <button
      type="button"
      onClick={() => onOpen(check)}
      data-testid="check-card"
      data-check-id={check.id}
      className={cn(
        'relative flex cursor-pointer flex-col gap-3 overflow-hidden rounded-lg border border-border bg-surface p-4 pl-5 text-left shadow-card transition',
        'before:absolute before:inset-y-0 before:left-0 before:w-1 hover:border-border-strong hover:shadow-pop',
        ACCENT[checkHealth(check.status)],
      )}
    >
      <div className="flex w-full min-w-0 items-start gap-2.5">
        <span className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-md bg-surface-muted">
          <CheckIcon icon={check.icon} type={check.type} />
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex min-w-0 items-center gap-1.5">
            <HealthDot health={checkHealth(check.status)} />
            <span className="truncate text-[13.5px] font-semibold" title={check.name}>
              {check.name}
            </span>
            <AgentBadge name={check.agent_name} />
          </div>
          <div className="truncate text-[12px] text-muted" title={subtitle ?? undefined}>
            {subtitle || `${check.canary_namespace}/${check.canary_name}`}
          </div>
        </div>
        <span className="rounded bg-surface-muted px-1.5 py-0.5 font-mono text-[11px] text-muted">{check.type}</span>
      </div>
      <div className="grid w-full grid-cols-3 gap-3 border-t border-border pt-3">
        <div className="min-w-0 space-y-1">
          <div className="text-[11px] font-medium uppercase tracking-wide text-subtle">Uptime</div>
          <UptimeCell passed={check.uptime?.passed ?? 0} failed={check.uptime?.failed ?? 0} />
        </div>
        <div className="min-w-0 space-y-1">
          <div className="text-[11px] font-medium uppercase tracking-wide text-subtle">Latency</div>
          <LatencyCell ms={latencyOf(check)} />
        </div>
        <div className="min-w-0 space-y-1">
          <div className="text-[11px] font-medium uppercase tracking-wide text-subtle">Transition</div>
          <div
            className="truncate text-[13px] text-muted tabular-nums"
            title={formatDateTime(check.last_transition_time)}
          >
            {formatAge(check.last_transition_time) || '—'}
          </div>
        </div>
      </div>
    </button>
  );
}
