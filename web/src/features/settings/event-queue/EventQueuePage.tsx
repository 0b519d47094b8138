// /settings and /settings/event-queue-status (spec/3 Event queue status): per event name, how many
// events wait, how many failed and why. Filtered (name), sorted (column headers) and paged on the
// server, never served from cache. Admins retry or discard the failed events of a row.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { MoreHorizontal, RotateCcw, Search, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { canManageEventQueue } from '@opsdeck/common/rbac';
import { errorMessage } from '../../../api/client';
import { useSession } from '../../../api/session';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { DataTable } from '../../../ui/data-table';
import { ConfirmDialog } from '../../../ui/dialog';
import { formatAge, formatDateTime, formatTimeUntil } from '../../../ui/format';
import { Input } from '../../../ui/input';
import { useDebouncedValue } from '../../../ui/link-to-incident/useDebounced';
import { useListState } from '../../../ui/list-state';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../ui/menu';
import { usePageHeader } from '../../../ui/page-header';
import { toast } from '../../../ui/toast';
import { ErrorText } from './ErrorText';
import { eventQueueApi, type EventQueueAction, type EventQueueSummaryRow } from './eventQueueApi';
import { eventQueueKeys, type EventQueueQuery } from './eventQueueKeys';

const column = createColumnHelper<EventQueueSummaryRow>();

const events = (n: number) => `${n} event${n === 1 ? '' : 's'}`;

const DONE: Record<EventQueueAction, (name: string, count: number) => string> = {
  retry: (name, count) => `${events(count)} of ${name} back in the queue`,
  discard: (name, count) => `${events(count)} of ${name} discarded`,
};

function Count({ value, tone }: { value: number; tone?: 'danger' }) {
  return <span className={cn('tabular-nums', tone && value > 0 && 'font-semibold text-danger')}>{value}</span>;
}

/** '5m ago', the date and time on hover. */
const Time = ({ value }: { value: string | null }) =>
  value ? (
    <time dateTime={value} title={formatDateTime(value)} className="whitespace-nowrap text-muted tabular-nums">
      {formatAge(value)}
    </time>
  ) : (
    <span className="text-muted">—</span>
  );

/** The name filter: typed into a box, kept in the query string (`name`) once typing pauses. */
function useNameFilter(): [string, string, (text: string) => void] {
  const [params, setParams] = useSearchParams();
  const applied = params.get('name') ?? '';
  const [text, setText] = useState(applied);
  const debounced = useDebouncedValue(text.trim(), 300);
  useEffect(() => {
    if (debounced === applied) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (debounced) next.set('name', debounced);
        else next.delete('name');
        next.delete('pageIndex');
        return next;
      },
      { replace: true },
    );
  }, [debounced, applied, setParams]);
  return [text, applied, setText];
}

export default function EventQueuePage() {
  const isAdmin = canManageEventQueue(useSession().roles);
  const list = useListState({ defaultPageSize: 50, defaultSortBy: 'failed', defaultSortOrder: 'desc' });
  const [nameText, name, setNameText] = useNameFilter();
  const query: EventQueueQuery = {
    name: name || undefined,
    sortBy: list.sortBy,
    sortOrder: list.sortOrder,
    pageIndex: list.pageIndex,
    pageSize: list.pageSize,
  };
  const summary = useQuery({
    queryKey: eventQueueKeys.summary(query),
    queryFn: ({ signal }) => eventQueueApi.summary(query, signal),
    placeholderData: keepPreviousData,
    // A status page: never shown from cache, asked again when the window regains focus.
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: true,
  });
  usePageHeader({ onRefresh: summary.refetch, loading: summary.isFetching });

  const queryClient = useQueryClient();
  const [discarding, setDiscarding] = useState<EventQueueSummaryRow>();
  const act = useMutation({
    mutationFn: ({ action, row }: { action: EventQueueAction; row: EventQueueSummaryRow }) =>
      eventQueueApi.act(action, row.name),
    onSuccess: (result, { action }) => {
      toast.success(DONE[action](result.name, result.count));
      setDiscarding(undefined);
    },
    onError: (e) => toast.error(errorMessage(e)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: eventQueueKeys.all }),
  });
  const { mutate, isPending, variables } = act;

  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        cell: (c) => <span className="font-mono text-[13px] font-medium">{c.getValue()}</span>,
      }),
      column.accessor('pending', { header: 'Pending', cell: (c) => <Count value={c.getValue()} /> }),
      column.accessor('failed', {
        header: 'Failed',
        cell: (c) => (
          <span className="flex flex-col">
            <Count value={c.getValue()} tone="danger" />
            {c.row.original.next_attempt && (
              <span className="text-[12px] text-muted">next retry {formatTimeUntil(c.row.original.next_attempt)}</span>
            )}
          </span>
        ),
      }),
      column.accessor('average_attempts', {
        header: 'Avg Attempts',
        cell: (c) => <span className="tabular-nums">{c.getValue() ?? '—'}</span>,
      }),
      column.accessor('first_failure', { header: 'First Failure', cell: (c) => <Time value={c.getValue()} /> }),
      column.accessor('last_failure', { header: 'Last Failure', cell: (c) => <Time value={c.getValue()} /> }),
      column.accessor('most_common_error', {
        header: 'Most Common Error',
        cell: (c) => <ErrorText text={c.getValue()} />,
      }),
      ...(isAdmin
        ? [
            column.display({
              id: 'actions',
              header: () => <span className="sr-only">Actions</span>,
              size: 56,
              cell: (c) => {
                const row = c.row.original;
                const busy = isPending && variables?.row.name === row.name;
                return (
                  <DropdownMenu>
                    <DropdownMenuTrigger asChild>
                      <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${row.name}`} loading={busy}>
                        {!busy && <MoreHorizontal className="size-4" />}
                      </Button>
                    </DropdownMenuTrigger>
                    <DropdownMenuContent className="min-w-44">
                      <DropdownMenuItem disabled={row.failed === 0} onSelect={() => mutate({ action: 'retry', row })}>
                        <RotateCcw className="size-4 text-muted" aria-hidden /> Retry failed
                      </DropdownMenuItem>
                      <DropdownMenuItem
                        disabled={row.failed === 0}
                        onSelect={() => setDiscarding(row)}
                        className="text-danger data-[highlighted]:text-danger"
                      >
                        <Trash2 className="size-4" aria-hidden /> Discard failed
                      </DropdownMenuItem>
                    </DropdownMenuContent>
                  </DropdownMenu>
                );
              },
            }),
          ]
        : []),
    ],
    [isAdmin, mutate, isPending, variables],
  );

  return (
    <div className="space-y-4">
      <Breadcrumb items={[{ label: 'Settings' }, { label: 'Event Queue' }]} />
      <div className="relative w-72">
        <Search className="pointer-events-none absolute left-2.5 top-2.5 size-4 text-subtle" aria-hidden />
        <Input
          aria-label="Filter by event name"
          placeholder="Filter by event name"
          className="h-9 pl-8"
          value={nameText}
          onChange={(e) => setNameText(e.target.value)}
        />
      </div>
      <DataTable
        aria-label="Event queue"
        columns={columns}
        data={summary.data?.data}
        total={summary.data?.total}
        loading={summary.isPending || (summary.isFetching && summary.isPlaceholderData)}
        list={list}
        getRowId={(r) => r.name}
        emptyMessage={
          summary.isError
            ? errorMessage(summary.error)
            : name
              ? `No events match “${name}”`
              : 'The event queue is empty'
        }
      />
      <ConfirmDialog
        open={!!discarding}
        onOpenChange={(open) => !open && setDiscarding(undefined)}
        title="Discard failed events ?"
        description={
          discarding
            ? `The ${events(discarding.failed)} of ${discarding.name} that failed will be deleted and never handled.`
            : undefined
        }
        confirmLabel="Discard"
        busy={act.isPending}
        onConfirm={() => discarding && act.mutate({ action: 'discard', row: discarding })}
      />
    </div>
  );
}
