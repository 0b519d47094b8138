// /notifications (spec/3 §2): the send history, paged on the server, filtered by status and
// resource type in the URL; a row opens its details (?id=).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { SEND_RESOURCE_TYPES, SEND_STATUSES } from '@opsdeck/common/notifications';
import { DataTable, pagedQueryProps } from '../../../ui/data-table';
import { formatAge, formatDateTime, formatDuration } from '../../../ui/format';
import { Select } from '../../../ui/input';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { withOpenId } from '../idParam';
import { notificationKeys } from '../keys';
import { NotificationsTabs } from '../NotificationsTabs';
import { notificationsApi } from '../notificationsApi';
import { ResourceCell } from '../ResourceCell';
import type { SendHistoryRow } from '../types';
import { historyFiltersOf, withHistoryFilter } from './historyFilters';
import { SendHistoryDetails } from './SendHistoryDetails';
import { SendStatusBadge, statusLabel } from './SendStatusBadge';

const column = createColumnHelper<SendHistoryRow>();
const PAGE_SIZES = [25, 50, 100] as const;
const RESOURCE_TYPE_LABELS: Record<string, string> = {
  canary: 'Canary',
  check: 'Check',
  component: 'Component',
  config: 'Catalog item',
};

// The newest first: the history is not sorted by other columns.
const unsorted = { enableSorting: false } as const;
const muted = (text: string) => <span className="whitespace-nowrap text-muted tabular-nums">{text}</span>;

export default function SendHistoryPage() {
  const [params, setParams] = useSearchParams();
  const list = useListState({ defaultPageSize: 50 });
  const filters = historyFiltersOf(params);
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize };
  const history = useQuery({
    queryKey: notificationKeys.historyList({ ...filters, ...page }),
    queryFn: ({ signal }) => notificationsApi.history(filters, page, signal),
    placeholderData: keepPreviousData,
  });
  usePageHeader({ onRefresh: history.refetch, loading: history.isFetching });

  const setFilter = (key: 'status' | 'resourceType', value: string) =>
    setParams((prev) => withHistoryFilter(prev, key, value), { replace: true });
  const setId = (id: string | undefined) => setParams((prev) => withOpenId(prev, id));

  const columns = useMemo(
    () => [
      column.accessor('created_at', {
        ...unsorted,
        header: 'Created',
        cell: (c) => <span title={formatDateTime(c.getValue())}>{muted(formatAge(c.getValue()))}</span>,
      }),
      column.accessor('status', {
        ...unsorted,
        header: 'Status',
        cell: (c) => <SendStatusBadge status={c.getValue()} reason={c.row.original.reason} />,
      }),
      column.display({
        id: 'resource',
        header: 'Resource',
        cell: (c) => {
          const r = c.row.original;
          return <ResourceCell type={r.resource_type} id={r.resource_id} name={r.resource_name ?? r.resource?.name} />;
        },
      }),
      column.accessor((r) => r.notification_name ?? '', {
        ...unsorted,
        id: 'rule',
        header: 'Rule',
        cell: (c) => <span className="whitespace-nowrap">{c.getValue()}</span>,
      }),
      column.accessor((r) => r.person_name ?? r.recipient ?? '', {
        ...unsorted,
        id: 'recipient',
        header: 'Recipient',
        cell: (c) => <span className="block max-w-64 truncate">{c.getValue()}</span>,
      }),
      column.accessor('count', { ...unsorted, header: 'Count', cell: (c) => muted(String(c.getValue())) }),
      column.accessor('first_observed', {
        ...unsorted,
        header: 'First Observed',
        cell: (c) => muted(formatDateTime(c.getValue())),
      }),
      column.accessor('duration_millis', {
        ...unsorted,
        header: 'Duration',
        cell: (c) => muted(formatDuration(c.getValue())),
      }),
    ],
    [],
  );

  const filterBar = (
    <>
      <Select
        aria-label="Status"
        value={filters.status ?? ''}
        onChange={(e) => setFilter('status', e.target.value)}
        className="h-8 w-40 text-[13px]"
      >
        <option value="">All statuses</option>
        {SEND_STATUSES.map((s) => (
          <option key={s} value={s}>
            {statusLabel(s)}
          </option>
        ))}
      </Select>
      <Select
        aria-label="Resource type"
        value={filters.resourceType ?? ''}
        onChange={(e) => setFilter('resourceType', e.target.value)}
        className="h-8 w-44 text-[13px]"
      >
        <option value="">All resource types</option>
        {SEND_RESOURCE_TYPES.map((t) => (
          <option key={t} value={t}>
            {RESOURCE_TYPE_LABELS[t]}
          </option>
        ))}
      </Select>
    </>
  );

  return (
    <div className="space-y-4">
      <NotificationsTabs actions={filterBar} />
      <DataTable
        aria-label="Notification send history"
        columns={columns}
        {...pagedQueryProps(history)}
        list={list}
        pageSizes={PAGE_SIZES}
        getRowId={(r) => r.id}
        onRowClick={(r) => setId(r.id)}
      />
      <SendHistoryDetails id={params.get('id') ?? undefined} onClose={() => setId(undefined)} />
    </div>
  );
}
