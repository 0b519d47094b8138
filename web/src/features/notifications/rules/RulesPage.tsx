// /notifications/rules (spec/3 §2): the rules, paged and sorted on the server, with their
// recipients, counts of sends, durations, source and errors; the most common error opens in a
// modal. A row (or ?id=) opens the edit modal; Add opens the create modal (write on notifications).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Plus, Users, User, Send } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCan } from '../../../api/session';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { DataTable, pagedQueryProps } from '../../../ui/data-table';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { formatDateTime, formatDuration } from '../../../ui/format';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { withOpenId } from '../idParam';
import { notificationKeys } from '../keys';
import { NotificationsTabs } from '../NotificationsTabs';
import { notificationsApi } from '../notificationsApi';
import type { NotificationRuleRow } from '../types';
import { formatStoredDuration } from './durationField';
import { RuleDialog } from './RuleDialog';

const column = createColumnHelper<NotificationRuleRow>();
const muted = (text: string) => <span className="text-muted tabular-nums">{text}</span>;

/** Who a rule sends to, for its Recipient cell. */
export function recipientText(rule: NotificationRuleRow): { kind: 'person' | 'team' | 'others'; text: string } {
  if (rule.person_id) return { kind: 'person', text: rule.person?.name ?? rule.person?.email ?? rule.person_id };
  if (rule.team_id) return { kind: 'team', text: rule.team?.name ?? rule.team_id };
  const other = rule.custom_services?.[0];
  return { kind: 'others', text: other?.connection ?? other?.email ?? other?.url ?? other?.name ?? '' };
}

const RECIPIENT_ICONS = { person: User, team: Users, others: Send } as const;

export default function RulesPage() {
  const [params, setParams] = useSearchParams();
  const canWrite = useCan('notifications', 'write');
  const list = useListState({ defaultPageSize: 50, defaultSortBy: 'name', defaultSortOrder: 'asc' });
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize, sortBy: list.sortBy, sortOrder: list.sortOrder };
  const rules = useQuery({
    queryKey: notificationKeys.ruleList(page),
    queryFn: ({ signal }) => notificationsApi.rules(page, signal),
    placeholderData: keepPreviousData,
  });
  const [commonError, setCommonError] = useState<string>();
  usePageHeader({ onRefresh: rules.refetch, loading: rules.isFetching });

  const setId = (id: string | undefined) => setParams((prev) => withOpenId(prev, id));

  const columns = useMemo(
    () => [
      column.accessor('name', {
        header: 'Name',
        cell: (c) => <span className="whitespace-nowrap font-medium">{c.getValue()}</span>,
      }),
      column.accessor('events', {
        header: 'Events',
        enableSorting: false,
        cell: (c) => (
          <span className="block max-w-56 truncate font-mono text-[12.5px]" title={c.getValue().join(', ')}>
            {c.getValue().join(', ')}
          </span>
        ),
      }),
      column.display({
        id: 'recipient',
        header: 'Recipient',
        cell: (c) => {
          const r = recipientText(c.row.original);
          const Icon = RECIPIENT_ICONS[r.kind];
          return (
            <span className="inline-flex max-w-56 items-center gap-1.5" title={r.text}>
              <Icon className="size-3.5 shrink-0 text-muted" aria-label={r.kind} />
              <span className="truncate">{r.text}</span>
            </span>
          );
        },
      }),
      column.accessor('filter', {
        header: 'Filter',
        cell: (c) => (
          <span className="block max-w-48 truncate font-mono text-[12.5px] text-muted" title={c.getValue() ?? ''}>
            {c.getValue()}
          </span>
        ),
      }),
      column.accessor('pending', { header: 'Pending', cell: (c) => muted(String(c.getValue() ?? 0)) }),
      column.accessor('failed', {
        header: 'Failed',
        cell: (c) => (c.getValue() ? <Badge tone="danger">{c.getValue()}</Badge> : muted('0')),
      }),
      column.accessor('sent', { header: 'Sent', cell: (c) => muted(String(c.getValue() ?? 0)) }),
      column.accessor('avg_duration_ms', { header: 'Avg Duration', cell: (c) => muted(formatDuration(c.getValue())) }),
      column.accessor('repeat_interval', {
        header: 'Repeat Interval',
        cell: (c) => muted(formatStoredDuration(c.getValue())),
      }),
      column.accessor('wait_for', { header: 'Wait For', cell: (c) => muted(formatStoredDuration(c.getValue())) }),
      column.accessor('source', { header: 'Source', cell: (c) => <Badge>{c.getValue() || 'UI'}</Badge> }),
      column.accessor('error', {
        header: 'Error',
        cell: (c) => (
          <span className="block max-w-48 truncate text-danger" title={c.getValue() ?? ''}>
            {c.getValue()}
          </span>
        ),
      }),
      column.accessor('most_common_error', {
        header: 'Most Common Error',
        cell: (c) => {
          const text = c.getValue();
          if (!text) return null;
          return (
            <button
              type="button"
              className="block max-w-48 cursor-pointer truncate text-left text-danger hover:underline"
              onClick={(e) => {
                e.stopPropagation();
                setCommonError(text);
              }}
            >
              {text}
            </button>
          );
        },
      }),
      column.accessor('created_at', { header: 'Created At', cell: (c) => muted(formatDateTime(c.getValue())) }),
      column.accessor('updated_at', { header: 'Updated At', cell: (c) => muted(formatDateTime(c.getValue())) }),
    ],
    [],
  );

  const open = params.get('id') ?? undefined;

  return (
    <div className="space-y-4">
      <NotificationsTabs
        actions={
          canWrite && (
            <Button size="sm" onClick={() => setId('new')}>
              <Plus className="size-4" aria-hidden /> Add Rule
            </Button>
          )
        }
      />
      <DataTable
        aria-label="Notification rules"
        columns={columns}
        {...pagedQueryProps(rules)}
        list={list}
        getRowId={(r) => r.id}
        onRowClick={(r) => setId(r.id)}
      />
      <RuleDialog ruleId={open === 'new' && !canWrite ? undefined : open} onClose={() => setId(undefined)} />
      <Dialog open={commonError !== undefined} onOpenChange={(o) => !o && setCommonError(undefined)}>
        {commonError !== undefined && (
          <DialogContent title="Most Common Error" size="lg">
            <pre className="whitespace-pre-wrap break-words font-mono text-[12.5px]">{commonError}</pre>
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
}
