// /settings/jobs (spec/3 Job history): filters (resource type, status include/exclude, name,
// run duration, time range; all in the query string), the refresh-rate menu and the table.
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { rangeMinutes, relativePreset } from '@opsdeck/common/timeRange';
import { decodeTriStateList, encodeTriStateList, triStateSplit, type TriStateMap } from '@opsdeck/common/triState';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { cn } from '../../../ui/cn';
import { Select } from '../../../ui/input';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { RefreshRateMenu, useRefreshRate } from '../../../ui/refresh-rate';
import { TimeRangePicker } from '../../../ui/time-range/TimeRangePicker';
import { resolveRangeOrLog, useTimeRangeParams } from '../../../ui/time-range/useTimeRange';
import { TriStateFilter } from '../../../ui/tri-state-filter';
import { settingsKeys } from '../keys';
import { JobHistoryTable } from './JobHistoryTable';
import { DURATION_FILTERS, JOB_STATUSES, jobsApi, RESOURCE_TYPES, type JobFilters } from './jobsApi';

/** Default status filter: exclude successful runs ('SUCCESS:-1'). */
export const DEFAULT_STATUS_FILTER = 'SUCCESS:-1';
const DEFAULT_RANGE = relativePreset('2d');

export default function JobHistoryPage() {
  const [params, setParams] = useSearchParams();
  const virtual = params.get('view') === 'scroll';
  const list = useListState({ defaultPageSize: 50, defaultSortBy: 'created_at', defaultSortOrder: 'desc', virtual });
  const { range, setRange } = useTimeRangeParams(DEFAULT_RANGE);
  const resolved = resolveRangeOrLog(range);
  const minutes = range && resolved ? rangeMinutes(range, new Date()) : undefined;
  const refresh = useRefreshRate('jobs', minutes);
  const names = useQuery({ queryKey: settingsKeys.jobNames(), queryFn: ({ signal }) => jobsApi.names(signal) });

  const status: TriStateMap = decodeTriStateList(params.get('status') ?? DEFAULT_STATUS_FILTER);
  const setParam = (key: string, value: string | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value === undefined || value === 'all') next.delete(key);
        else next.set(key, value);
        next.delete('pageIndex');
        return next;
      },
      { replace: true },
    );

  const resourceType = params.get('resourceType') ?? undefined;
  const name = params.get('name') ?? undefined;
  const minDurationMs = Number(params.get('duration') ?? 0) || undefined;
  // Resolved once per range change so the query key stays stable between renders.
  const rangeKey = JSON.stringify(range);
  const { from, to } = useMemo(() => {
    const r = resolveRangeOrLog(range);
    return {
      from: r?.from.toISOString(),
      to: range?.type === 'relative' && !range.range.startsWith('now+') ? undefined : r?.to.toISOString(),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the serialised range
  }, [rangeKey]);

  const filters: JobFilters = {
    resourceType,
    name,
    status: triStateSplit(status),
    minDurationMs,
    from,
    to,
  };

  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: settingsKeys.jobs() }) > 0;
  usePageHeader({
    extra: <RefreshRateMenu state={refresh} />,
    onRefresh: () => void queryClient.invalidateQueries({ queryKey: settingsKeys.jobs() }),
    loading: fetching,
  });

  return (
    <div className="space-y-4">
      <Breadcrumb items={[{ label: 'Settings' }, { label: 'Job History' }]} />
      <div className="flex flex-wrap items-center gap-2" data-testid="job-filters">
        <Select
          aria-label="Resource type"
          className="h-8 w-44 text-[13px]"
          value={resourceType ?? 'all'}
          onChange={(e) => setParam('resourceType', e.target.value)}
        >
          <option value="all">All resource types</option>
          {RESOURCE_TYPES.map((t) => (
            <option key={t.value} value={t.value}>
              {t.label}
            </option>
          ))}
        </Select>
        <TriStateFilter
          label="Status"
          options={JOB_STATUSES.map((s) => ({ value: s.value, label: s.label }))}
          value={status}
          onChange={(v) => setParam('status', encodeTriStateList(v))}
        />
        <Select
          aria-label="Job name"
          className="h-8 w-56 text-[13px]"
          value={name ?? 'all'}
          onChange={(e) => setParam('name', e.target.value)}
        >
          <option value="all">All jobs</option>
          {(names.data?.data ?? []).map((n) => (
            <option key={n.name} value={n.name}>
              {n.name}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Run duration"
          className="h-8 w-36 text-[13px]"
          value={String(minDurationMs ?? 0)}
          onChange={(e) => setParam('duration', e.target.value === '0' ? undefined : e.target.value)}
        >
          {DURATION_FILTERS.map((d) => (
            <option key={d.value} value={d.value}>
              {d.label}
            </option>
          ))}
        </Select>
        <TimeRangePicker value={range} onChange={setRange} allowFuture={false} />
        <div
          className="ml-auto inline-flex rounded-md border border-border bg-surface-muted p-0.5 text-[12.5px]"
          role="radiogroup"
          aria-label="View"
        >
          {(['pages', 'scroll'] as const).map((view) => {
            const active = (view === 'scroll') === virtual;
            return (
              <button
                key={view}
                type="button"
                role="radio"
                aria-checked={active}
                onClick={() =>
                  setParams(
                    (prev) => {
                      const next = new URLSearchParams(prev);
                      if (view === 'scroll') next.set('view', 'scroll');
                      else next.delete('view');
                      next.delete('pageIndex');
                      next.delete('pageSize');
                      return next;
                    },
                    { replace: true },
                  )
                }
                className={cn(
                  'cursor-pointer rounded px-2.5 py-1 font-medium',
                  active ? 'bg-surface text-foreground shadow-sm' : 'text-muted',
                )}
              >
                {view === 'pages' ? 'Pages' : 'Scroll'}
              </button>
            );
          })}
        </div>
      </div>
      <JobHistoryTable filters={filters} list={list} refetchInterval={refresh.intervalMs} virtual={virtual} />
    </div>
  );
}
