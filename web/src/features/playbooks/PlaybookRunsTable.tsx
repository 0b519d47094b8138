// A paged table of playbook runs over playbook_run_list (spec/3 §2 /playbooks/runs; the catalog
// item's Playbooks tab): Playbook, Status, Resource, Started, Duration and Started by; a row opens
// the run. The list state comes from the page (query string) or is kept here.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { DataTable } from '../../ui/data-table';
import { formatAge, formatDateTime, formatDuration } from '../../ui/format';
import type { ListState, SortOrder } from '../../ui/list-state';
import { RunStatusBadge } from './run/RunStatus';
import { runKeys, runsApi, type RunListItem } from './run/runsApi';
import { DEFAULT_RUN_SORT, DEFAULT_RUNS_PAGE_SIZE, runResource, type RunsFilter } from './runsFilters';
import { FINISHED_RUN_STATUSES } from './types';

export const NO_PLAYBOOK_RUNS = 'No playbook runs';

/** While a run on the page is still going, the list refreshes this often. */
const UNFINISHED_REFRESH_MS = 5000;

const column = createColumnHelper<RunListItem>();

/** List state held by the table itself (tabs and panels that keep nothing in the URL). */
function useLocalListState(pageSize: number): ListState {
  const [state, setState] = useState<{
    pageIndex: number;
    pageSize: number;
    sortBy: string | undefined;
    sortOrder: SortOrder;
  }>({
    pageIndex: 0,
    pageSize,
    sortBy: DEFAULT_RUN_SORT,
    sortOrder: 'desc',
  });
  return useMemo(
    () => ({
      ...state,
      setPageIndex: (pageIndex) => setState((s) => ({ ...s, pageIndex })),
      setPageSize: (size) => setState((s) => ({ ...s, pageSize: size, pageIndex: 0 })),
      setSort: (sortBy, sortOrder = 'asc') => setState((s) => ({ ...s, sortBy, sortOrder, pageIndex: 0 })),
    }),
    [state],
  );
}

export function PlaybookRunsTable({
  filter,
  pageSize = DEFAULT_RUNS_PAGE_SIZE,
  compact,
  list: pageList,
}: {
  filter: RunsFilter;
  pageSize?: number;
  /** Leaves out the Resource column (a resource's own tab). */
  compact?: boolean;
  /** Paging and sorting kept by the page; the table keeps its own otherwise. */
  list?: ListState;
}) {
  const localList = useLocalListState(pageSize);
  const list = pageList ?? localList;
  const navigate = useNavigate();
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize, sortBy: list.sortBy, sortOrder: list.sortOrder };
  const runs = useQuery({
    queryKey: runKeys.list(filter, page),
    queryFn: ({ signal }) => runsApi.list(filter, page, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    refetchInterval: (q) =>
      q.state.data?.data.some((r) => !FINISHED_RUN_STATUSES.includes(r.status)) ? UNFINISHED_REFRESH_MS : false,
    meta: { silent: true },
  });

  const columns = useMemo(
    () => [
      column.accessor((r) => r.playbooks.title || r.playbooks.name, {
        id: 'playbook',
        header: 'Playbook',
        enableSorting: false,
        cell: (c) => <span className="font-medium">{c.getValue()}</span>,
      }),
      column.accessor('status', { header: 'Status', cell: (c) => <RunStatusBadge status={c.getValue()} /> }),
      ...(compact
        ? []
        : [
            column.display({
              id: 'resource',
              header: 'Resource',
              cell: ({ row }) => {
                const ref = runResource(row.original);
                if (!ref) return null;
                return (
                  <Link
                    to={ref.href}
                    onClick={(e) => e.stopPropagation()}
                    className="text-primary hover:underline"
                    data-testid="run-resource"
                  >
                    {row.original.resource_name ?? ref.id}
                  </Link>
                );
              },
            }),
          ]),
      column.accessor('created_at', {
        header: 'Started',
        cell: ({ row }) => {
          const at = row.original.start_time ?? row.original.created_at;
          return (
            <span className="text-muted tabular-nums" title={formatDateTime(at)}>
              {formatAge(at)}
            </span>
          );
        },
      }),
      column.accessor('duration_ms', {
        header: 'Duration',
        cell: (c) => <span className="tabular-nums">{formatDuration(c.getValue())}</span>,
      }),
      column.accessor('started_by', {
        header: 'Started by',
        enableSorting: false,
        cell: (c) => <span className="text-muted">{c.getValue() ?? ''}</span>,
      }),
    ],
    [compact],
  );

  return (
    <DataTable
      aria-label="Playbook runs"
      columns={columns}
      data={runs.data?.data}
      total={runs.data?.total}
      loading={runs.isPending || (runs.isFetching && runs.isPlaceholderData)}
      list={list}
      getRowId={(r) => r.id}
      onRowClick={(r) => navigate(`/playbooks/runs/${r.id}`)}
      emptyMessage={runs.isError && !runs.data ? errorMessage(runs.error) : NO_PLAYBOOK_RUNS}
    />
  );
}
