// The job history table, on the jobs page and in a resource's Job History tab: status colours
// of spec/3 §4, duration, counts, and a details dialog for runs that have details.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { Badge, type BadgeTone } from '../../../ui/badge';
import { DataTable } from '../../../ui/data-table';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { EmptyState } from '../../../ui/empty-state';
import { formatAge, formatDateTime, formatDuration } from '../../../ui/format';
import type { ListState } from '../../../ui/list-state';
import { settingsKeys } from '../keys';
import { hasJobDetails, jobsApi, RESOURCE_TYPES, type JobFilters, type JobHistoryRow } from './jobsApi';

const STATUS_TONES: Record<string, BadgeTone> = {
  RUNNING: 'warning', // yellow
  SUCCESS: 'success',
  WARNING: 'warning',
  FAILED: 'danger',
  STOPPED: 'danger',
};

export function JobStatusBadge({ status }: { status: string | null }) {
  if (!status) return null;
  return (
    <Badge
      tone={STATUS_TONES[status] ?? 'neutral'}
      className={
        status === 'RUNNING' ? 'bg-yellow-100 text-yellow-800 dark:bg-yellow-950 dark:text-yellow-300' : undefined
      }
    >
      {status}
    </Badge>
  );
}

const column = createColumnHelper<JobHistoryRow>();

export function JobHistoryTable({
  filters,
  list,
  refetchInterval,
  pageSizes,
  virtual,
}: {
  filters: JobFilters;
  list: ListState;
  refetchInterval?: number | false;
  pageSizes?: readonly number[];
  /** One scrolling list that grows as the user reaches its end. */
  virtual?: boolean;
}) {
  const page = {
    pageIndex: virtual ? 0 : list.pageIndex,
    pageSize: list.pageSize,
    sortBy: list.sortBy,
    sortOrder: list.sortOrder,
  };
  const jobs = useQuery({
    queryKey: settingsKeys.jobList({ ...filters, ...page }),
    queryFn: ({ signal }) => jobsApi.list(filters, page, signal),
    placeholderData: keepPreviousData,
    refetchInterval,
    staleTime: 0,
  });
  const [details, setDetails] = useState<JobHistoryRow>();

  const columns = useMemo(
    () => [
      column.accessor('name', { header: 'Name', cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
      column.accessor('resource_type', {
        header: 'Resource',
        cell: (c) => (
          <span className="text-muted">
            {RESOURCE_TYPES.find((t) => t.value === c.getValue())?.label ?? c.getValue() ?? ''}
          </span>
        ),
      }),
      column.accessor('status', { header: 'Status', cell: (c) => <JobStatusBadge status={c.getValue()} /> }),
      column.accessor('duration_millis', {
        header: 'Duration',
        cell: (c) => <span className="tabular-nums">{formatDuration(c.getValue())}</span>,
      }),
      column.accessor('success_count', {
        header: 'Success',
        cell: (c) => <span className="tabular-nums text-success">{c.getValue()}</span>,
      }),
      column.accessor('error_count', {
        header: 'Errors',
        cell: (c) => (
          <span className={c.getValue() ? 'tabular-nums text-danger' : 'tabular-nums text-muted'}>{c.getValue()}</span>
        ),
      }),
      column.accessor('time_start', {
        header: 'Started',
        cell: (c) => (
          <span className="text-muted tabular-nums" title={formatDateTime(c.getValue())}>
            {formatAge(c.getValue())}
          </span>
        ),
      }),
      column.accessor('created_at', {
        header: 'Created At',
        cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
      }),
    ],
    [],
  );

  return (
    <>
      <DataTable
        aria-label="Job history"
        columns={columns}
        data={jobs.data?.data}
        total={jobs.data?.total}
        loading={jobs.isPending || (jobs.isFetching && jobs.isPlaceholderData)}
        list={list}
        pageSizes={pageSizes}
        virtual={virtual}
        getRowId={(r) => r.id}
        onRowClick={(row) => hasJobDetails(row) && setDetails(row)}
        emptyMessage={jobs.isError && !jobs.data ? errorMessage(jobs.error) : undefined}
      />
      <Dialog open={!!details} onOpenChange={(o) => !o && setDetails(undefined)}>
        {details && (
          <DialogContent title={`${details.name} · ${formatDateTime(details.time_start)}`} size="lg">
            {hasJobDetails(details) ? (
              <pre className="max-h-[60vh] overflow-auto rounded-md border border-border bg-surface-muted p-3 font-mono text-[12px]">
                {JSON.stringify(details.details, null, 2)}
              </pre>
            ) : (
              <EmptyState title="No details found" />
            )}
          </DialogContent>
        )}
      </Dialog>
    </>
  );
}
