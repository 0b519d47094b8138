// The changes list (spec/2 §2.3), global (/catalog/changes) or for one item (/catalog/{id}/changes):
// filters in the query string (time range, default the last 2 days; change type, severity, config
// types, tags with key, value and exclude; summary, source, created by; upstream/downstream for an
// item, depth 5), server paging (POST /api/catalog/changes, 200 a page), -created_at first, and
// a drawer with the change's diff (?id=). Changes of deleted items follow the Hide Deleted preference.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import type { TriStateMap } from '@opsdeck/common/triState';
import { Alert } from '../../../ui/alert';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { DataTable } from '../../../ui/data-table';
import { Input, Select } from '../../../ui/input';
import type { ListState } from '../../../ui/list-state';
import { Popover, PopoverContent, PopoverTrigger } from '../../../ui/popover';
import { Switch } from '../../../ui/switch';
import { TimeRangePicker } from '../../../ui/time-range/TimeRangePicker';
import { resolveRangeOrLog } from '../../../ui/time-range/useTimeRange';
import { TriStateFilter } from '../../../ui/tri-state-filter';
import { catalogApi } from '../catalogApi';
import {
  CHANGES_DEFAULTS,
  recursiveMode,
  triStateToList,
  type ChangesView as View,
  type TagFilter,
} from '../catalogParams';
import { SEVERITIES, severityTone } from '../format';
import { catalogKeys, LABELS_STALE_MS } from '../keys';
import type { ChangeRow, ChangesRequest } from '../types';
import { useDebouncedText, useHideDeleted } from '../useCatalogView';
import { useChangesView } from '../useChangesView';
import { DateCell, DeletedMarker } from './Cells';
import { ChangeDrawer } from './ChangeDrawer';

export const NO_CHANGES = 'No changelog found';
export const CHANGES_ERROR_FALLBACK = 'Something went wrong';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PAGE_SIZES = [50, 100, 200, 500, 1000] as const;
const SORTABLE = new Set(['created_at', 'change_type', 'severity', 'source', 'count', 'summary']);

function TextFilter({ label, value, onCommit }: { label: string; value: string; onCommit(v: string): void }) {
  const [text, setText] = useDebouncedText(value, onCommit);
  return (
    <Input
      aria-label={label}
      placeholder={label}
      className="h-8 w-40 text-[13px]"
      value={text}
      onChange={(e) => setText(e.target.value)}
    />
  );
}

function TagFilters({ tags, onChange }: { tags: TagFilter[]; onChange(tags: TagFilter[]): void }) {
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [exclude, setExclude] = useState(false);
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" aria-label={`Tags: ${tags.length ? tags.length : 'All'}`}>
          <span className="text-muted">Tags:</span> {tags.length ? tags.length : 'All'}
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-80 space-y-2 p-3">
        {tags.map((t, i) => (
          <div key={`${t.key}=${t.value}`} className="flex items-center gap-2 text-[13px]">
            <Badge tone={t.exclude ? 'danger' : 'primary'}>
              {t.exclude ? 'not ' : ''}
              {t.key}={t.value}
            </Badge>
            <Button
              variant="ghost"
              size="icon-sm"
              aria-label={`Remove tag ${t.key}`}
              onClick={() => onChange(tags.filter((_, j) => j !== i))}
            >
              <X className="size-3.5" />
            </Button>
          </div>
        ))}
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!key.trim()) return;
            onChange([...tags.filter((t) => t.key !== key.trim()), { key: key.trim(), value, exclude }]);
            setKey('');
            setValue('');
            setExclude(false);
          }}
        >
          <div className="flex gap-2">
            <Input
              aria-label="Tag key"
              placeholder="key"
              className="h-8 text-[13px]"
              value={key}
              onChange={(e) => setKey(e.target.value)}
            />
            <Input
              aria-label="Tag value"
              placeholder="value"
              className="h-8 text-[13px]"
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </div>
          <label className="flex items-center gap-2 text-[13px]">
            <input type="checkbox" checked={exclude} onChange={(e) => setExclude(e.target.checked)} /> Exclude
          </label>
          <Button type="submit" size="sm" variant="secondary" disabled={!key.trim()}>
            <Plus className="size-3.5" /> Add tag filter
          </Button>
        </form>
      </PopoverContent>
    </Popover>
  );
}

/** The changes request for a view (from/to resolved now, when the query runs). */
export function changesRequest(
  view: View,
  resolved: { from: Date; to: Date } | undefined,
  configId: string | undefined,
  includeDeleted: boolean,
): ChangesRequest {
  const tags = Object.fromEntries(view.tags.map((t) => [t.key, `${t.exclude ? '!' : ''}${t.value}`]));
  // Lists (not one plain string, which the server reads as a minimum severity).
  const list = (map: TriStateMap) => triStateToList(map)?.split(',');
  return {
    id: configId,
    config_type: configId ? undefined : list(view.configTypes),
    change_type: list(view.changeType),
    severity: list(view.severity),
    from: resolved?.from.toISOString(),
    to: resolved?.to.toISOString(),
    summary: view.summary || undefined,
    source: view.source || undefined,
    created_by: UUID.test(view.createdBy) ? view.createdBy : undefined,
    external_created_by: view.externalCreatedBy || undefined,
    tags: view.tags.length ? tags : undefined,
    page: view.page,
    page_size: view.pageSize,
    sort_by: view.sortBy,
    sort_order: view.sortDirection,
    recursive: configId ? recursiveMode(view) : undefined,
    depth: configId ? CHANGES_DEFAULTS.depth : undefined,
    include_deleted_configs: includeDeleted,
  };
}

const RELATED_OPTIONS = [
  { value: 'none', label: 'This item' },
  { value: 'all', label: 'All' },
  { value: 'upstream', label: 'Upstream' },
  { value: 'downstream', label: 'Downstream' },
] as const;

export function ChangesView({ configId }: { configId?: string }) {
  const { view, update, range, setRange } = useChangesView();
  const [hideDeleted, setHideDeleted] = useHideDeleted();
  const changeTypes = useQuery({
    queryKey: catalogKeys.options('changeTypes'),
    queryFn: ({ signal }) => catalogApi.changeTypes(signal),
    staleTime: LABELS_STALE_MS,
  });
  const types = useQuery({
    queryKey: catalogKeys.options('types'),
    queryFn: ({ signal }) => catalogApi.types(signal),
    staleTime: LABELS_STALE_MS,
    enabled: !configId,
  });

  const { id: openId, ...filters } = view;
  const key = { ...filters, range, configId, hideDeleted };
  const changes = useQuery({
    queryKey: catalogKeys.changes(key),
    queryFn: ({ signal }) =>
      catalogApi.changes(changesRequest(view, resolveRangeOrLog(range), configId, !hideDeleted), signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });

  const list: ListState = {
    pageIndex: view.page - 1,
    pageSize: view.pageSize,
    sortBy: view.sortBy,
    sortOrder: view.sortDirection,
    setPageIndex: (i) => update({ page: i + 1 }),
    setPageSize: (pageSize) => update({ pageSize }),
    setSort: (sortBy, order = 'asc') =>
      update(
        sortBy && SORTABLE.has(sortBy)
          ? { sortBy, sortDirection: order }
          : { sortBy: CHANGES_DEFAULTS.sortBy, sortDirection: CHANGES_DEFAULTS.sortDirection },
      ),
  };

  const columns = useMemo<ColumnDef<ChangeRow>[]>(
    () => [
      {
        id: 'created_at',
        accessorFn: (r: ChangeRow) => r.created_at,
        header: 'Created',
        cell: ({ row }) => <DateCell value={row.original.created_at} relative />,
      },
      ...(configId
        ? []
        : [
            {
              id: 'config',
              header: 'Catalog',
              enableSorting: false,
              cell: ({ row }) =>
                row.original.config ? (
                  <span className="inline-flex items-center gap-1.5">
                    <Link
                      to={`/catalog/${row.original.config.id}`}
                      onClick={(e) => e.stopPropagation()}
                      className="font-medium hover:underline"
                    >
                      {row.original.config.name}
                    </Link>
                    <DeletedMarker deletedAt={row.original.config.deleted_at} />
                    <span className="text-[12px] text-muted">{row.original.config.type}</span>
                  </span>
                ) : null,
            } satisfies ColumnDef<ChangeRow>,
          ]),
      {
        id: 'change_type',
        accessorFn: (r: ChangeRow) => r.change_type,
        header: 'Change',
        cell: ({ row }) => <span data-testid="change-type">{row.original.change_type}</span>,
      },
      {
        id: 'summary',
        accessorFn: (r: ChangeRow) => r.summary,
        header: 'Summary',
        cell: ({ row }) => (
          <span className="line-clamp-2 max-w-xl" data-testid="change-summary">
            {row.original.summary}
          </span>
        ),
      },
      {
        id: 'severity',
        accessorFn: (r: ChangeRow) => r.severity,
        header: 'Severity',
        cell: ({ row }) =>
          row.original.severity ? (
            <Badge tone={severityTone(row.original.severity)}>{row.original.severity}</Badge>
          ) : null,
      },
      {
        id: 'source',
        accessorFn: (r: ChangeRow) => r.source,
        header: 'Source',
        cell: ({ row }) => <span className="text-muted">{row.original.source}</span>,
      },
      {
        id: 'created_by',
        header: 'Created By',
        enableSorting: false,
        cell: ({ row }) => row.original.external_created_by ?? '',
      },
      {
        id: 'count',
        accessorFn: (r: ChangeRow) => r.count,
        header: 'Count',
        cell: ({ row }) => <span className="tabular-nums">{row.original.count ?? 1}</span>,
      },
    ],
    [configId],
  );

  const setTri = (field: 'changeType' | 'severity' | 'configTypes') => (value: TriStateMap) =>
    update({ [field]: value });
  const error = changes.error;
  const rows = changes.data?.changes;

  return (
    <div className="space-y-3" data-testid="changes-view">
      <div className="flex flex-wrap items-center gap-2" data-testid="changes-filters">
        <TimeRangePicker value={range} onChange={setRange} allowFuture={false} />
        {configId && (
          <Select
            aria-label="Related changes"
            className="h-8 w-36 text-[13px]"
            value={recursiveMode(view)}
            onChange={(e) => {
              const v = e.target.value;
              update({ upstream: v === 'all' || v === 'upstream', downstream: v === 'all' || v === 'downstream' });
            }}
          >
            {RELATED_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </Select>
        )}
        {!configId && (
          <TriStateFilter
            label="Type"
            options={(types.data ?? []).map((t) => ({ value: t, label: t }))}
            value={view.configTypes}
            onChange={setTri('configTypes')}
          />
        )}
        <TriStateFilter
          label="Change"
          options={(changeTypes.data ?? []).map((t) => ({ value: t, label: t }))}
          value={view.changeType}
          onChange={setTri('changeType')}
        />
        <TriStateFilter
          label="Severity"
          options={SEVERITIES.map((s) => ({ value: s, label: s }))}
          value={view.severity}
          onChange={setTri('severity')}
        />
        <TagFilters tags={view.tags} onChange={(tags) => update({ tags })} />
        <TextFilter label="Summary" value={view.summary} onCommit={(summary) => update({ summary })} />
        <TextFilter label="Source" value={view.source} onCommit={(source) => update({ source })} />
        <TextFilter
          label="Created by"
          value={view.externalCreatedBy}
          onCommit={(v) => update({ externalCreatedBy: v })}
        />
        <Popover>
          <PopoverTrigger asChild>
            <Button variant="outline" size="sm">
              Preferences
            </Button>
          </PopoverTrigger>
          <PopoverContent align="end" className="w-64 p-3">
            <Switch label="Hide Deleted Catalog" checked={hideDeleted} onCheckedChange={setHideDeleted} />
          </PopoverContent>
        </Popover>
      </div>
      {changes.isError && (
        <Alert tone="error">{error instanceof Error && error.message ? error.message : CHANGES_ERROR_FALLBACK}</Alert>
      )}
      <DataTable
        aria-label="Changes"
        columns={columns}
        data={rows}
        total={changes.data?.total}
        loading={changes.isPending || (changes.isFetching && changes.isPlaceholderData)}
        list={list}
        pageSizes={PAGE_SIZES}
        getRowId={(r) => r.id}
        onRowClick={(r) => update({ id: r.id })}
        emptyMessage={NO_CHANGES}
      />
      {openId && (
        <ChangeDrawer
          changeId={openId}
          row={rows?.find((r) => r.id === openId)}
          onClose={() => update({ id: undefined })}
        />
      )}
    </div>
  );
}
