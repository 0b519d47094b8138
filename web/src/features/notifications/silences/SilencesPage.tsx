// /notifications/silences (spec/3 §2): the silences with their resource (and a recursive marker),
// duration, source, reason and author; expired ones struck through. ?id= opens the edit modal;
// Delete asks first and sets deleted_at (spec/3 §4, §8).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Plus, Repeat2, Trash2 } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../api/client';
import { useCan } from '../../../api/session';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { DataTable, pagedQueryProps } from '../../../ui/data-table';
import { ConfirmDialog } from '../../../ui/dialog';
import { formatDateTime } from '../../../ui/format';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { toast } from '../../../ui/toast';
import { withOpenId } from '../idParam';
import { notificationKeys } from '../keys';
import { NotificationsTabs } from '../NotificationsTabs';
import { notificationsApi } from '../notificationsApi';
import { ResourceCell } from '../ResourceCell';
import type { SilenceRow } from '../types';
import { SilenceDialog } from './SilenceDialog';
import { humanSpan, isExpired, silenceResource } from './silenceForm';

const column = createColumnHelper<SilenceRow>();

function SilenceResourceCell({ row }: { row: SilenceRow }) {
  const r = silenceResource(row);
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      {r && <ResourceCell type={r.kind} id={r.id} name={r.name} />}
      {row.namespace && <Badge>namespace: {row.namespace}</Badge>}
      {row.filter && <Badge>filter</Badge>}
      {row.recursive && (
        <span title="Recursive: children are silenced too" className="inline-flex">
          <Repeat2 className="size-3.5 text-muted" aria-label="recursive" />
        </span>
      )}
    </span>
  );
}

/** An expired silence's cells are struck through (spec/3 §2). */
function Struck({ row, children }: { row: SilenceRow; children: ReactNode }) {
  const expired = isExpired(row);
  return (
    <span className={cn(expired && 'text-muted line-through')} data-expired={expired || undefined}>
      {children}
    </span>
  );
}

export default function SilencesPage() {
  const [params, setParams] = useSearchParams();
  const queryClient = useQueryClient();
  const canWrite = useCan('notifications', 'write');
  const list = useListState({ defaultPageSize: 50, defaultSortBy: 'created_at', defaultSortOrder: 'desc' });
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize, sortBy: list.sortBy, sortOrder: list.sortOrder };
  const silences = useQuery({
    queryKey: notificationKeys.silenceList(page),
    queryFn: ({ signal }) => notificationsApi.silences(page, signal),
    placeholderData: keepPreviousData,
  });
  const [deleting, setDeleting] = useState<SilenceRow>();
  usePageHeader({ onRefresh: silences.refetch, loading: silences.isFetching });

  const remove = useMutation({
    mutationFn: (id: string) => notificationsApi.deleteSilence(id),
    onSuccess: () => {
      toast.success('Silence deleted successfully');
      void queryClient.invalidateQueries({ queryKey: notificationKeys.silences() });
      setDeleting(undefined);
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const setId = (id: string | undefined) => setParams((prev) => withOpenId(prev, id));

  const columns = useMemo(
    () => [
      column.display({
        id: 'resource',
        header: 'Resource',
        cell: (c) => (
          <Struck row={c.row.original}>
            <SilenceResourceCell row={c.row.original} />
          </Struck>
        ),
      }),
      column.accessor('until', {
        header: 'Duration',
        cell: (c) => {
          const r = c.row.original;
          return (
            <Struck row={r}>
              <span className="tabular-nums">
                {formatDateTime(r.from)} → {formatDateTime(r.until)}{' '}
                <span className="text-muted">({humanSpan(r.from, r.until)})</span>
              </span>
            </Struck>
          );
        },
      }),
      column.accessor('source', {
        header: 'Source',
        cell: (c) => (
          <Struck row={c.row.original}>
            <Badge>{c.getValue() || 'UI'}</Badge>
          </Struck>
        ),
      }),
      column.accessor('description', {
        header: 'Reason',
        cell: (c) => (
          <Struck row={c.row.original}>
            <span className="inline-block max-w-64 truncate align-bottom" title={c.getValue() ?? ''}>
              {c.getValue()}
            </span>
          </Struck>
        ),
      }),
      column.accessor((r) => r.created_by_name ?? '', {
        id: 'created_by',
        header: 'Created By',
        enableSorting: false,
        cell: (c) => (
          <Struck row={c.row.original}>
            <span className="text-muted">{c.getValue()}</span>
          </Struck>
        ),
      }),
      ...(canWrite
        ? [
            column.display({
              id: 'actions',
              header: '',
              cell: (c) => (
                <Button
                  variant="ghost"
                  size="icon-sm"
                  aria-label="Delete"
                  onClick={(e) => {
                    e.stopPropagation();
                    setDeleting(c.row.original);
                  }}
                >
                  <Trash2 className="size-4" aria-hidden />
                </Button>
              ),
            }),
          ]
        : []),
    ],
    [canWrite],
  );

  return (
    <div className="space-y-4">
      <NotificationsTabs
        actions={
          canWrite && (
            <Button asChild size="sm">
              <Link to="/notifications/silences/add">
                <Plus className="size-4" aria-hidden /> Add Silence
              </Link>
            </Button>
          )
        }
      />
      <DataTable
        aria-label="Notification silences"
        columns={columns}
        {...pagedQueryProps(silences)}
        list={list}
        getRowId={(r) => r.id}
        onRowClick={(r) => setId(r.id)}
      />
      <SilenceDialog id={params.get('id') ?? undefined} onClose={() => setId(undefined)} />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(undefined)}
        title="Delete Notification Silence"
        description="Are you sure you want to delete this notification silence?"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </div>
  );
}
