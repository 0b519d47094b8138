// /settings/audit (admins): who changed what, when and from where. Filters (actor, action, resource
// type, resource name, time range; all in the query string), a server-paged table, newest first,
// and the entry's details (which fields a write set, never their values) on a click.
import { keepPreviousData, useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { relativePreset } from '@opsdeck/common/timeRange';
import { errorMessage } from '../../api/client';
import { Badge } from '../../ui/badge';
import { Breadcrumb } from '../../ui/breadcrumb';
import { DataTable } from '../../ui/data-table';
import { Dialog, DialogContent } from '../../ui/dialog';
import { formatAge, formatDateTime } from '../../ui/format';
import { Input, Select } from '../../ui/input';
import { useListState } from '../../ui/list-state';
import { usePageHeader } from '../../ui/page-header';
import { TimeRangePicker } from '../../ui/time-range/TimeRangePicker';
import { resolveRangeOrLog, useTimeRangeParams } from '../../ui/time-range/useTimeRange';
import { actionLabel, auditApi, auditKeys, type AuditEntry, type AuditFilters } from './auditApi';

const DEFAULT_RANGE = relativePreset('7d');
const column = createColumnHelper<AuditEntry>();

export default function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const list = useListState({ defaultPageSize: 50 });
  const { range, setRange } = useTimeRangeParams(DEFAULT_RANGE);
  const values = useQuery({ queryKey: auditKeys.filters(), queryFn: ({ signal }) => auditApi.filters(signal) });
  const setParam = (key: string, value: string | undefined) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (!value || value === 'all') next.delete(key);
        else next.set(key, value);
        next.delete('pageIndex');
        return next;
      },
      { replace: true },
    );

  const rangeKey = JSON.stringify(range);
  const { from, to } = useMemo(() => {
    const r = resolveRangeOrLog(range);
    return {
      from: r?.from.toISOString(),
      to: range?.type === 'relative' && !range.range.startsWith('now+') ? undefined : r?.to.toISOString(),
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the serialised range
  }, [rangeKey]);
  const filters: AuditFilters = {
    actor: params.get('actor') ?? undefined,
    action: params.get('action') ?? undefined,
    resourceType: params.get('resourceType') ?? undefined,
    q: params.get('q') ?? undefined,
    from,
    to,
  };
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize };
  const entries = useQuery({
    queryKey: auditKeys.list(filters, page),
    queryFn: ({ signal }) => auditApi.list(filters, page, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
  const [details, setDetails] = useState<AuditEntry>();

  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: auditKeys.all }) > 0;
  usePageHeader({
    onRefresh: () => void queryClient.invalidateQueries({ queryKey: auditKeys.all }),
    loading: fetching,
  });

  const columns = useMemo(
    () => [
      column.accessor('at', {
        header: 'Time',
        enableSorting: false,
        cell: (c) => (
          <span className="text-muted tabular-nums" title={formatDateTime(c.getValue())}>
            {formatAge(c.getValue())}
          </span>
        ),
      }),
      column.accessor('actor_email', {
        header: 'Actor',
        enableSorting: false,
        cell: (c) => (
          <span className="flex items-center gap-1.5">
            <span className="font-medium">{c.row.original.actor_name ?? c.getValue() ?? 'System'}</span>
            {c.row.original.actor_kind !== 'person' && <Badge tone="neutral">{c.row.original.actor_kind}</Badge>}
          </span>
        ),
      }),
      column.accessor('action', {
        header: 'Action',
        enableSorting: false,
        cell: (c) => <Badge tone={c.getValue() === 'delete' ? 'danger' : 'neutral'}>{actionLabel(c.getValue())}</Badge>,
      }),
      column.accessor('resource_type', {
        header: 'Resource',
        enableSorting: false,
        cell: (c) => (
          <span>
            <span className="text-muted">{c.getValue()}</span>{' '}
            <span className="font-medium">{c.row.original.resource_name ?? c.row.original.resource_id ?? ''}</span>
          </span>
        ),
      }),
      column.accessor('source_ip', {
        header: 'Source',
        enableSorting: false,
        cell: (c) => (
          <span className="text-muted tabular-nums" title={c.row.original.user_agent ?? undefined}>
            {c.getValue() ?? ''}
          </span>
        ),
      }),
    ],
    [],
  );

  return (
    <div className="space-y-4">
      <Breadcrumb items={[{ label: 'Settings' }, { label: 'Audit Log' }]} />
      <div className="flex flex-wrap items-center gap-2" data-testid="audit-filters">
        <Select
          aria-label="Actor"
          className="h-8 w-56 text-[13px]"
          value={filters.actor ?? 'all'}
          onChange={(e) => setParam('actor', e.target.value)}
        >
          <option value="all">All actors</option>
          {(values.data?.actors ?? []).map((a) => (
            <option key={a.id} value={a.id}>
              {a.name ?? a.email ?? a.id}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Action"
          className="h-8 w-44 text-[13px]"
          value={filters.action ?? 'all'}
          onChange={(e) => setParam('action', e.target.value)}
        >
          <option value="all">All actions</option>
          {(values.data?.actions ?? []).map((a) => (
            <option key={a} value={a}>
              {actionLabel(a)}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Resource type"
          className="h-8 w-48 text-[13px]"
          value={filters.resourceType ?? 'all'}
          onChange={(e) => setParam('resourceType', e.target.value)}
        >
          <option value="all">All resource types</option>
          {(values.data?.resource_types ?? []).map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
        <Input
          aria-label="Resource name"
          placeholder="Resource name or id"
          className="h-8 w-56 text-[13px]"
          defaultValue={filters.q ?? ''}
          onKeyDown={(e) => {
            if (e.key === 'Enter') setParam('q', (e.target as HTMLInputElement).value.trim() || undefined);
          }}
          onBlur={(e) => setParam('q', e.target.value.trim() || undefined)}
        />
        <TimeRangePicker value={range} onChange={setRange} allowFuture={false} />
      </div>
      <DataTable
        aria-label="Audit log"
        columns={columns}
        data={entries.data?.data}
        total={entries.data?.total}
        loading={entries.isPending || (entries.isFetching && entries.isPlaceholderData)}
        list={list}
        getRowId={(r) => r.id}
        onRowClick={setDetails}
        emptyMessage={entries.isError && !entries.data ? errorMessage(entries.error) : undefined}
      />
      <Dialog open={!!details} onOpenChange={(o) => !o && setDetails(undefined)}>
        {details && (
          <DialogContent title={`${actionLabel(details.action)} · ${formatDateTime(details.at)}`} size="lg">
            <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1.5 text-[13px]">
              <dt className="text-muted">Actor</dt>
              <dd>
                {details.actor_name ?? 'System'} {details.actor_email ? `<${details.actor_email}>` : ''} (
                {details.actor_kind})
              </dd>
              <dt className="text-muted">Resource</dt>
              <dd>
                {details.resource_type} {details.resource_name ?? ''}{' '}
                {details.resource_id ? `(${details.resource_id})` : ''}
              </dd>
              <dt className="text-muted">Source address</dt>
              <dd>{details.source_ip ?? ''}</dd>
              <dt className="text-muted">User agent</dt>
              <dd className="break-all">{details.user_agent ?? ''}</dd>
            </dl>
            <pre className="mt-3 max-h-[50vh] overflow-auto rounded-md border border-border bg-surface-muted p-3 font-mono text-[12px]">
              {JSON.stringify(details.details, null, 2)}
            </pre>
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
}
