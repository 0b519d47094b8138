// /settings/<table>: the list of a settings resource with a breadcrumb and an add button (write
// permission on the table only). A row opens /settings/<table>/<id>.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../api/client';
import { useCan } from '../../../api/session';
import { Badge } from '../../../ui/badge';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { Button } from '../../../ui/button';
import { DataTable } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { settingsKeys } from '../keys';
import { SourceBadge } from './SourceBadge';
import { settingsResourceKind, type ListColumn, type SettingsResourceKind } from './kinds';
import { resourcesApi, type SettingsResourceRow } from './resourcesApi';

const column = createColumnHelper<SettingsResourceRow>();

// Columns hold different value types; the table takes them as one list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyColumn = ColumnDef<SettingsResourceRow, any>;

const defaultListColumns = (kind: SettingsResourceKind): ListColumn[] => [
  ...kind.fields.filter((f): f is 'namespace' | 'schedule' | 'labels' =>
    ['namespace', 'schedule', 'labels'].includes(f),
  ),
  'source',
  'created_at',
  'updated_at',
];

function columnFor(id: ListColumn): AnyColumn {
  switch (id) {
    case 'namespace':
      return column.accessor('namespace', {
        header: 'Namespace',
        cell: (c) => <span className="text-muted">{c.getValue()}</span>,
      });
    case 'schedule':
      return column.accessor('schedule', {
        header: 'Schedule',
        cell: (c) => <span className="font-mono text-[12.5px]">{c.getValue()}</span>,
      });
    case 'labels':
      return column.accessor('labels', {
        header: 'Labels',
        enableSorting: false,
        cell: (c) => (
          <div className="flex flex-wrap gap-1">
            {Object.entries(c.getValue() ?? {}).map(([k, v]) => (
              <Badge key={k}>
                {k}={String(v)}
              </Badge>
            ))}
          </div>
        ),
      });
    case 'checks':
      return column.accessor((r) => r.checks?.[0]?.count ?? 0, {
        id: 'checks',
        header: 'Checks',
        enableSorting: false,
        cell: (c) => <span className="tabular-nums">{c.getValue()}</span>,
      });
    case 'source':
      return column.accessor('source', { header: 'Source', cell: (c) => <SourceBadge source={c.getValue()} /> });
    case 'created_at':
      return column.accessor('created_at', {
        header: 'Created At',
        cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
      });
    case 'updated_at':
      return column.accessor('updated_at', {
        header: 'Updated At',
        cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
      });
  }
}

function columnsFor(kind: SettingsResourceKind): AnyColumn[] {
  return [
    column.accessor('name', { header: 'Name', cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
    ...(kind.listColumns ?? defaultListColumns(kind)).map(columnFor),
  ] as AnyColumn[];
}

export default function SettingsResourceListPage({ table }: { table: string }) {
  const kind = settingsResourceKind(table)!;
  const navigate = useNavigate();
  const canWrite = useCan(kind.resource, 'write');
  const list = useListState({ defaultPageSize: 100, defaultSortBy: 'name', defaultSortOrder: 'asc' });
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize, sortBy: list.sortBy, sortOrder: list.sortOrder };
  const rows = useQuery({
    queryKey: settingsKeys.resourceList(table, page),
    queryFn: ({ signal }) => resourcesApi.list(kind, page, signal),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo(() => columnsFor(kind), [kind]);

  usePageHeader({ onRefresh: rows.refetch, loading: rows.isFetching });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Breadcrumb items={[{ label: 'Settings' }, { label: kind.title }]} />
          <p className="mt-1 text-[13px] text-muted">{kind.description}</p>
        </div>
        {canWrite && (
          <Button asChild>
            <Link to={`/settings/${table}/new`}>
              <Plus className="size-4" aria-hidden /> Add {kind.singular}
            </Link>
          </Button>
        )}
      </div>
      <DataTable
        aria-label={kind.title}
        columns={columns}
        data={rows.data?.data}
        total={rows.data?.total}
        loading={rows.isPending || (rows.isFetching && rows.isPlaceholderData)}
        list={list}
        getRowId={(r) => r.id}
        onRowClick={(r) => navigate(`/settings/${table}/${r.id}`)}
        emptyMessage={rows.isError ? errorMessage(rows.error) : undefined}
      />
    </div>
  );
}
