// The History tab of the check drawer (spec/1 §2, §5, §9): Status (All, Healthy, Unhealthy) and
// Duration (All, 100ms … 30s, or a custom number in ms or s) filters, and the runs in the drawer's
// time range as Age, Duration, Message, 50 a page (50, 100 or 200).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import {
  formatDurationFilter,
  HISTORY_DURATION_PRESETS,
  HISTORY_STATUS_FILTERS,
  historyStatusValue,
  parseDurationFilter,
  type HistoryStatusFilter,
} from '@opsdeck/common/healthChecks';
import { errorMessage } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { DataTable } from '../../../ui/data-table';
import { formatAge, formatDateTime, formatDuration } from '../../../ui/format';
import { Input, Select } from '../../../ui/input';
import type { ListState } from '../../../ui/list-state';
import { HealthDot } from '../components/HealthDot';
import { healthApi } from '../healthApi';
import { healthKeys } from '../keys';
import type { CheckStatusRow } from '../types';

export const HISTORY_PAGE_SIZES = [50, 100, 200] as const;
const CUSTOM = 'custom';

const column = createColumnHelper<CheckStatusRow>();

export function CheckHistory({ checkId, from, to }: { checkId: string; from: string; to?: string }) {
  const [status, setStatus] = useState<HistoryStatusFilter>('all');
  const [minDurationMs, setMinDurationMs] = useState(0);
  const [customOpen, setCustomOpen] = useState(false);
  const [customText, setCustomText] = useState('');
  const [customError, setCustomError] = useState<string>();
  const [pageIndex, setPageIndex] = useState(0);
  const [pageSize, setPageSize] = useState<number>(HISTORY_PAGE_SIZES[0]);

  const filters = { from, to, status: historyStatusValue(status), minDurationMs, pageIndex, pageSize };
  const history = useQuery({
    queryKey: healthKeys.history(checkId, filters),
    queryFn: ({ signal }) => healthApi.history(checkId, filters, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

  const list: ListState = {
    pageIndex,
    pageSize,
    sortBy: undefined,
    sortOrder: 'desc',
    setPageIndex,
    setPageSize: (size) => {
      setPageSize(size);
      setPageIndex(0);
    },
    setSort: () => undefined,
  };

  const presetMatch = HISTORY_DURATION_PRESETS.some((p) => p.ms === minDurationMs);
  const durationSelect = customOpen || !presetMatch ? CUSTOM : String(minDurationMs);

  const applyCustom = () => {
    const parsed = parseDurationFilter(customText);
    if ('error' in parsed) {
      setCustomError(parsed.error); // the filter stays as it was
      return;
    }
    setCustomError(undefined);
    setMinDurationMs(parsed.ms);
    setPageIndex(0);
  };

  const columns = useMemo(
    () => [
      column.accessor('time', {
        header: 'Age',
        enableSorting: false,
        size: 170,
        cell: (c) => (
          <span className="inline-flex items-center gap-2 whitespace-nowrap" title={formatDateTime(c.getValue())}>
            <HealthDot
              health={c.row.original.status ? 'healthy' : 'unhealthy'}
              label={c.row.original.status ? 'passed' : 'failed'}
            />
            <span className="tabular-nums text-muted">{formatAge(c.getValue())}</span>
          </span>
        ),
      }),
      column.accessor('duration', {
        header: 'Duration',
        enableSorting: false,
        size: 110,
        cell: (c) => <span className="tabular-nums">{formatDuration(c.getValue())}</span>,
      }),
      column.display({
        id: 'message',
        header: 'Message',
        cell: (c) => {
          const r = c.row.original;
          return (
            <div className="flex min-w-0 items-start gap-2">
              {r.invalid && <Badge tone="warning">invalid</Badge>}
              <span className="min-w-0 break-words">
                {r.message && <span className="text-foreground">{r.message}</span>}
                {r.message && r.error && <span className="text-muted"> · </span>}
                {r.error && <span className="text-danger">{r.error}</span>}
              </span>
            </div>
          );
        },
      }),
    ],
    [],
  );

  return (
    <div className="space-y-3" data-testid="check-history">
      <div className="flex flex-wrap items-start gap-3">
        <label className="flex items-center gap-2 text-[13px] text-muted">
          Status
          <Select
            aria-label="Status"
            className="h-8 w-36 text-[13px]"
            value={status}
            onChange={(e) => {
              setStatus(e.target.value as HistoryStatusFilter);
              setPageIndex(0);
            }}
          >
            {HISTORY_STATUS_FILTERS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex items-center gap-2 text-[13px] text-muted">
          Duration
          <Select
            aria-label="Duration"
            className="h-8 w-32 text-[13px]"
            value={durationSelect}
            onChange={(e) => {
              if (e.target.value === CUSTOM) {
                setCustomOpen(true);
                return;
              }
              setCustomOpen(false);
              setCustomError(undefined);
              setMinDurationMs(Number(e.target.value));
              setPageIndex(0);
            }}
          >
            {HISTORY_DURATION_PRESETS.map((p) => (
              <option key={p.ms} value={String(p.ms)}>
                {p.label}
              </option>
            ))}
            <option value={CUSTOM}>{presetMatch ? 'Custom…' : `≥ ${formatDurationFilter(minDurationMs)}`}</option>
          </Select>
        </label>
        {durationSelect === CUSTOM && (
          <form
            className="flex flex-col gap-1"
            onSubmit={(e) => {
              e.preventDefault();
              applyCustom();
            }}
          >
            <div className="flex items-center gap-2">
              <Input
                aria-label="Custom duration"
                placeholder="e.g. 250ms or 2s"
                className="h-8 w-40 text-[13px]"
                value={customText}
                invalid={!!customError}
                onChange={(e) => setCustomText(e.target.value)}
              />
              <Button type="submit" size="sm" variant="outline">
                Apply
              </Button>
            </div>
            {customError && (
              <p role="alert" className="text-[12.5px] text-danger" data-testid="duration-error">
                {customError}
              </p>
            )}
          </form>
        )}
        {minDurationMs > 0 && (
          <span className="self-center text-[12.5px] text-muted" data-testid="duration-active">
            Runs of {formatDurationFilter(minDurationMs)} or longer
          </span>
        )}
      </div>
      <DataTable
        aria-label="Check history"
        columns={columns}
        data={history.data?.data}
        total={history.data?.total}
        loading={history.isPending || (history.isFetching && history.isPlaceholderData)}
        list={list}
        pageSizes={HISTORY_PAGE_SIZES}
        getRowId={(r) => r.time}
        emptyMessage={history.isError && !history.data ? errorMessage(history.error) : undefined}
      />
    </div>
  );
}
