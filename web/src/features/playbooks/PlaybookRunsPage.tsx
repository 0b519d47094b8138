// /playbooks/runs (spec/3 §2): every playbook run, filtered by playbook, status and time range
// (default the last 7 days, spec/3 §9), paged and sorted on the server; all of it in the query
// string (playbook, status, the time range parameters, pageIndex, pageSize, sortBy, sortOrder).
import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { relativePreset } from '@opsdeck/common/timeRange';
import { Breadcrumb } from '../../ui/breadcrumb';
import { Select } from '../../ui/input';
import { useListState } from '../../ui/list-state';
import { usePageHeader } from '../../ui/page-header';
import { TimeRangePicker } from '../../ui/time-range/TimeRangePicker';
import { resolveRangeOrLog, useTimeRangeParams } from '../../ui/time-range/useTimeRange';
import { AwaitingApproval } from './AwaitingApproval';
import { PlaybookRunsTable } from './PlaybookRunsTable';
import { playbookKeys } from './playbooksApi';
import { runKeys, runsApi } from './run/runsApi';
import {
  DEFAULT_RUN_SORT,
  DEFAULT_RUNS_PAGE_SIZE,
  DEFAULT_RUNS_RANGE,
  readRunsFilter,
  RUN_STATUSES,
  writeRunsFilter,
  type RunsFilter,
} from './runsFilters';

const DEFAULT_RANGE = relativePreset(DEFAULT_RUNS_RANGE);

export default function PlaybookRunsPage() {
  const [params, setParams] = useSearchParams();
  const list = useListState({
    defaultPageSize: DEFAULT_RUNS_PAGE_SIZE,
    defaultSortBy: DEFAULT_RUN_SORT,
    defaultSortOrder: 'desc',
  });
  const { range, setRange } = useTimeRangeParams(DEFAULT_RANGE);
  const playbooks = useQuery({
    queryKey: runKeys.playbookOptions(),
    queryFn: ({ signal }) => runsApi.playbookOptions(signal),
    meta: { silent: true },
  });

  const { playbook_id, status } = readRunsFilter(params);
  // Resolved once per range change so the query key stays stable between renders; a relative
  // range into the past has no upper bound, so runs started since the page opened still show.
  const rangeKey = JSON.stringify(range);
  const bounds = useMemo(() => {
    const r = resolveRangeOrLog(range);
    return {
      from: r?.from.toISOString(),
      to: range?.type === 'relative' && !range.range.startsWith('now+') ? undefined : r?.to.toISOString(),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the serialised range
  }, [rangeKey]);
  const filter: RunsFilter = useMemo(() => ({ playbook_id, status, ...bounds }), [playbook_id, status, bounds]);

  const setFilter = (key: 'playbook' | 'status', value: string) =>
    setParams((prev) => writeRunsFilter(prev, key, value), { replace: true });

  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: playbookKeys.runs(filter) }) > 0;
  const onRefresh = useCallback(
    () => void queryClient.invalidateQueries({ queryKey: playbookKeys.runs(filter) }),
    [queryClient, filter],
  );
  usePageHeader({ onRefresh, loading: fetching });

  return (
    <div className="space-y-4">
      <Breadcrumb items={[{ label: 'Playbooks', to: '/playbooks' }, { label: 'Runs' }]} />
      <div className="flex flex-wrap items-center gap-2" data-testid="run-filters">
        <Select
          aria-label="Playbook"
          className="h-8 w-56 text-[13px]"
          value={playbook_id ?? 'all'}
          onChange={(e) => setFilter('playbook', e.target.value)}
        >
          <option value="all">All playbooks</option>
          {(playbooks.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.title || p.name}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Status"
          className="h-8 w-40 text-[13px]"
          value={status ?? 'all'}
          onChange={(e) => setFilter('status', e.target.value)}
        >
          <option value="all">All statuses</option>
          {RUN_STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
        <TimeRangePicker value={range} onChange={setRange} allowFuture={false} />
        <div className="ml-auto">
          <AwaitingApproval />
        </div>
      </div>
      <PlaybookRunsTable filter={filter} list={list} />
    </div>
  );
}
