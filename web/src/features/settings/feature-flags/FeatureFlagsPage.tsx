// /settings/feature-flags (spec/3 Feature flags): the properties table with an add/edit dialog.
// Flags from the server's local configuration cannot be edited.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useCan } from '../../../api/session';
import { Badge } from '../../../ui/badge';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { Button } from '../../../ui/button';
import { DataTable, pagedQueryProps } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { toast } from '../../../ui/toast';
import { settingsKeys } from '../keys';
import { FeatureFlagDialog } from './FeatureFlagDialog';
import { featureFlagsApi, isLocalFlag, type FeatureFlag } from './featureFlagsApi';

const column = createColumnHelper<FeatureFlag>();

export const LOCAL_FLAG_NOT_EDITABLE = 'Cannot edit local feature flags';

export default function FeatureFlagsPage() {
  const canWrite = useCan('properties', 'write');
  const list = useListState({ defaultPageSize: 50, defaultSortBy: 'name', defaultSortOrder: 'asc' });
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize, sortBy: list.sortBy, sortOrder: list.sortOrder };
  const flags = useQuery({
    queryKey: settingsKeys.featureFlagList(page),
    queryFn: ({ signal }) => featureFlagsApi.list(page, signal),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<FeatureFlag | 'new'>();

  usePageHeader({ onRefresh: flags.refetch, loading: flags.isFetching });

  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        cell: (c) => <span className="font-mono text-[13px] font-medium">{c.getValue()}</span>,
      }),
      column.accessor('value', {
        header: 'Value',
        cell: (c) => <span className="font-mono text-[13px]">{c.getValue()}</span>,
      }),
      column.accessor('source', {
        header: 'Source',
        enableSorting: false,
        cell: (c) => (isLocalFlag(c.row.original) ? <Badge tone="warning">local</Badge> : <Badge>database</Badge>),
      }),
      column.accessor((f) => f.creator?.name ?? '', {
        id: 'created_by',
        enableSorting: false,
        header: 'Created By',
        cell: (c) => <span className="text-muted">{c.getValue()}</span>,
      }),
      column.accessor('created_at', {
        header: 'Created At',
        cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
      }),
      column.accessor('updated_at', {
        header: 'Updated At',
        cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
      }),
    ],
    [],
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Breadcrumb items={[{ label: 'Settings' }, { label: 'Feature Flags' }]} />
        {canWrite && (
          <Button onClick={() => setEditing('new')}>
            <Plus className="size-4" aria-hidden /> Add feature flag
          </Button>
        )}
      </div>
      <DataTable
        aria-label="Feature flags"
        columns={columns}
        {...pagedQueryProps(flags)}
        list={list}
        getRowId={(f) => f.name}
        onRowClick={
          canWrite
            ? (flag) => {
                if (isLocalFlag(flag)) toast.error(LOCAL_FLAG_NOT_EDITABLE);
                else setEditing(flag);
              }
            : undefined
        }
      />
      <FeatureFlagDialog
        open={editing !== undefined}
        onOpenChange={(o) => !o && setEditing(undefined)}
        flag={editing === 'new' ? undefined : editing}
      />
    </div>
  );
}
