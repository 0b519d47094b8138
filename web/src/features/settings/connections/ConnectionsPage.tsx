// /settings/connections (spec/3 §2 Connections): the connections, paged and sorted on the server, with
// an add button for those who may write connections; a row opens its form, and a saved connection
// can be tested from its row.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Plus, PlugZap } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useCan } from '../../../api/session';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { Button } from '../../../ui/button';
import { DataTable, pagedQueryProps } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { settingsKeys } from '../keys';
import { SourceBadge } from '../resources/SourceBadge';
import { ConnectionFormDialog } from './ConnectionFormDialog';
import { connectionsApi, type ConnectionRow } from './connectionsApi';
import { ConnectionTypeLabel } from './ConnectionTypeIcon';
import { useConnectionTest } from './useConnectionTest';

const column = createColumnHelper<ConnectionRow>();

const muted = (value: string) => <span className="text-muted tabular-nums">{value}</span>;

/** Tests a saved connection from its row (POST /api/connection/test/{id}). */
function TestButton({ row }: { row: ConnectionRow }) {
  const test = useConnectionTest();
  return (
    <Button
      variant="ghost"
      size="sm"
      loading={test.isPending}
      aria-label={`Test ${row.name}`}
      onClick={(e) => {
        e.stopPropagation(); // not the row's click, which opens the form
        test.mutate(() => connectionsApi.testSaved(row.id));
      }}
    >
      {!test.isPending && <PlugZap className="size-4" aria-hidden />}
      Test
    </Button>
  );
}

export default function ConnectionsPage() {
  const canWrite = useCan('connections', 'write');
  const list = useListState({ defaultPageSize: 50, defaultSortBy: 'name', defaultSortOrder: 'asc' });
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize, sortBy: list.sortBy, sortOrder: list.sortOrder };
  const connections = useQuery({
    queryKey: settingsKeys.connectionList(page),
    queryFn: ({ signal }) => connectionsApi.list(page, signal),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<ConnectionRow | 'new'>();

  usePageHeader({ onRefresh: connections.refetch, loading: connections.isFetching });

  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        cell: (c) => <span className="font-medium whitespace-nowrap">{c.getValue()}</span>,
      }),
      column.accessor('namespace', { header: 'Namespace', cell: (c) => muted(c.getValue()) }),
      column.accessor('type', { header: 'Type', cell: (c) => <ConnectionTypeLabel type={c.getValue()} /> }),
      column.accessor('url', {
        header: 'URL',
        cell: (c) => (
          <span className="block max-w-[18rem] truncate font-mono text-[12.5px] text-muted" title={c.getValue() ?? ''}>
            {c.getValue()}
          </span>
        ),
      }),
      column.accessor('source', { header: 'Source', cell: (c) => <SourceBadge source={c.getValue()} /> }),
      column.accessor((r) => r.creator?.name ?? '', {
        id: 'created_by',
        header: 'Created By',
        enableSorting: false,
        cell: (c) => <span className="text-muted">{c.getValue()}</span>,
      }),
      column.accessor('created_at', { header: 'Created At', cell: (c) => muted(formatDateTime(c.getValue())) }),
      column.accessor('updated_at', { header: 'Updated At', cell: (c) => muted(formatDateTime(c.getValue())) }),
      ...(canWrite
        ? [
            column.display({
              id: 'actions',
              header: () => <span className="sr-only">Actions</span>,
              size: 96,
              cell: (c) => <TestButton row={c.row.original} />,
            }),
          ]
        : []),
    ],
    [canWrite],
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Breadcrumb items={[{ label: 'Settings' }, { label: 'Connections' }]} />
        {canWrite && (
          <Button onClick={() => setEditing('new')}>
            <Plus className="size-4" aria-hidden /> Add Connection
          </Button>
        )}
      </div>
      <DataTable
        aria-label="Connections"
        columns={columns}
        {...pagedQueryProps(connections)}
        list={list}
        getRowId={(r) => r.id}
        onRowClick={(row) => setEditing(row)}
      />
      <ConnectionFormDialog
        open={editing !== undefined}
        onOpenChange={(o) => !o && setEditing(undefined)}
        connection={editing === 'new' ? undefined : editing}
      />
    </div>
  );
}
