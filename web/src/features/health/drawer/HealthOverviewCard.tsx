// The check drawer's Health Overview card: legend and the passed / failed / duration chart over
// the chosen span (loaded lazily), or its loading, error or empty state.
import { type UseQueryResult } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { errorMessage } from '../../../api/client';
import { Skeleton } from '../../../ui/skeleton';
import { type CheckStats } from '../types';

const HealthOverviewChart = lazy(() => import('./HealthOverviewChart'));

export function HealthOverviewCard({ stats, rangeMs }: { stats: UseQueryResult<CheckStats>; rangeMs: number }) {
  return (
    <div className="rounded-lg border border-border bg-surface p-4 shadow-card">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-[13px] font-semibold">Health Overview</h3>
        <div className="flex items-center gap-3 text-[11.5px] text-muted">
          <span className="inline-flex items-center gap-1.5">
            <span className="size-2 rounded-sm bg-success" /> Passed
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="size-2 rounded-sm bg-danger" /> Failed
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="h-0.5 w-3 rounded bg-primary" /> Avg duration
          </span>
        </div>
      </div>
      {stats.isPending ? (
        <Skeleton className="h-[200px]" />
      ) : stats.isError ? (
        <p className="py-16 text-center text-[13px] text-danger">{errorMessage(stats.error)}</p>
      ) : !stats.data?.series.length ? (
        <p className="py-16 text-center text-[13px] text-muted">No runs in this time range</p>
      ) : (
        <Suspense fallback={<Skeleton className="h-[200px]" />}>
          <HealthOverviewChart series={stats.data.series} rangeMs={rangeMs} />
        </Suspense>
      )}
    </div>
  );
}
