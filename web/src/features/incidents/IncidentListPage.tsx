// /incidents (spec/2 §2.7): filters in the query string (type, severity, status — open by
// default —, owner, component, search debounced 400 ms), a server-paged table (Id, Type,
// Severity, Status, Name, Age, Responders as the first 5 avatars), and the Create New Incident
// dialog behind the plus button.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Plus, Search } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { useCan } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { DataTable } from '../../ui/data-table';
import { formatAge, formatDateTime } from '../../ui/format';
import { Input, Select } from '../../ui/input';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  SEVERITY_LABELS,
  STATUS_LABELS,
  TYPE_LABELS,
} from '../../ui/link-to-incident/incidentOptions';
import { useDebouncedValue } from '../../ui/link-to-incident/useDebounced';
import { useListState } from '../../ui/list-state';
import { usePageHeader } from '../../ui/page-header';
import { Avatar } from './components/Avatar';
import { SeverityLabel, StatusBadge, TypeLabel } from './components/Badges';
import { CreateIncidentDialog } from './components/CreateIncidentDialog';
import { readFilters, writeFilter, type FilterKey } from './filters';
import { incidentsApi } from './incidentsApi';
import { incidentKeys } from './keys';
import type { IncidentRow } from './types';

export const NO_INCIDENTS = 'There are no incidents matching this criteria';
export const RESPONDER_AVATARS = 5;

const columns: ColumnDef<IncidentRow>[] = [
  {
    id: 'incident_id',
    header: 'Id',
    enableSorting: false,
    cell: ({ row }) => <span className="font-mono text-[12.5px]">{row.original.incident_id}</span>,
  },
  { id: 'type', header: 'Type', enableSorting: false, cell: ({ row }) => <TypeLabel type={row.original.type} /> },
  {
    id: 'severity',
    header: 'Severity',
    enableSorting: false,
    cell: ({ row }) => <SeverityLabel severity={row.original.severity} />,
  },
  {
    id: 'status',
    header: 'Status',
    enableSorting: false,
    cell: ({ row }) => <StatusBadge status={row.original.status} />,
  },
  {
    id: 'title',
    header: 'Name',
    enableSorting: false,
    cell: ({ row }) => <span className="font-medium">{row.original.title}</span>,
  },
  {
    id: 'age',
    header: 'Age',
    enableSorting: false,
    cell: ({ row }) => (
      <span title={formatDateTime(row.original.created_at)}>{formatAge(row.original.created_at)}</span>
    ),
  },
  {
    id: 'responders',
    header: 'Responders',
    enableSorting: false,
    cell: ({ row }) => {
      const rs = (row.original.responders ?? []).filter((r) => !r.deleted_at);
      return (
        <div className="flex -space-x-1.5" data-testid="incident-responders">
          {rs.slice(0, RESPONDER_AVATARS).map((r) => (
            <Avatar key={r.id} name={r.person?.name ?? r.team?.name} src={r.person?.avatar} />
          ))}
        </div>
      );
    },
  },
];

export default function IncidentListPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const list = useListState({ defaultPageSize: 50 });
  const filters = useMemo(() => readFilters(params), [params]);
  const canWrite = useCan('incident', 'write');
  const [creating, setCreating] = useState(false);

  const [searchText, setSearchText] = useState(filters.search ?? '');
  const debouncedSearch = useDebouncedValue(searchText, 400);
  useEffect(() => {
    if ((debouncedSearch.trim() || undefined) !== filters.search)
      setParams((prev) => writeFilter(prev, 'search', debouncedSearch), { replace: true });
    // Only the debounced text drives the link; a link change updates the box below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debouncedSearch]);

  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize };
  const incidents = useQuery({
    queryKey: incidentKeys.list({ filters, page }),
    queryFn: ({ signal }) => incidentsApi.list(filters, page, signal),
    placeholderData: keepPreviousData,
    staleTime: 0,
    meta: { silent: true },
  });
  const people = useQuery({
    queryKey: incidentKeys.people(''),
    queryFn: ({ signal }) => incidentsApi.people('', signal),
  });
  const components = useQuery({
    queryKey: incidentKeys.components(),
    queryFn: ({ signal }) => incidentsApi.components(signal),
    meta: { silent: true },
  });

  usePageHeader({
    onRefresh: () => void incidents.refetch(),
    loading: incidents.isFetching,
  });

  const setFilter = (key: FilterKey) => (value: string) =>
    setParams((prev) => writeFilter(prev, key, value), { replace: true });

  const filterSelect = (
    key: FilterKey,
    text: string,
    options: ReadonlyArray<{ value: string; label: string }>,
    current: string | undefined,
  ) => (
    <label className="flex items-center gap-2 text-[13px] text-muted">
      {text}
      <Select
        aria-label={text}
        className="h-8 w-40 text-[13px]"
        value={current ?? 'all'}
        onChange={(e) => setFilter(key)(e.target.value)}
      >
        <option value="all">All</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </Select>
    </label>
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        {filterSelect(
          'type',
          'Type',
          INCIDENT_TYPES.map((t) => ({ value: t, label: TYPE_LABELS[t] })),
          filters.type,
        )}
        {filterSelect(
          'severity',
          'Severity',
          INCIDENT_SEVERITIES.map((s) => ({ value: s, label: SEVERITY_LABELS[s] })),
          filters.severity,
        )}
        {filterSelect(
          'status',
          'Status',
          INCIDENT_STATUSES.map((s) => ({ value: s, label: STATUS_LABELS[s] })),
          filters.status,
        )}
        {filterSelect(
          'owner',
          'Owner',
          (people.data ?? []).map((p) => ({ value: p.id, label: p.name })),
          filters.owner,
        )}
        {filterSelect(
          'component',
          'Component',
          (components.data ?? []).map((c) => ({ value: c.id, label: c.name })),
          filters.component,
        )}
        <div className="relative">
          <Search className="pointer-events-none absolute left-2.5 top-2 size-4 text-subtle" aria-hidden />
          <Input
            aria-label="Search incidents"
            placeholder="Search"
            className="h-8 w-56 pl-8 text-[13px]"
            value={searchText}
            onChange={(e) => setSearchText(e.target.value)}
          />
        </div>
        {canWrite && (
          <Button size="icon-sm" className="ml-auto" aria-label="Create New Incident" onClick={() => setCreating(true)}>
            <Plus className="size-4" />
          </Button>
        )}
      </div>
      {incidents.isError && <Alert tone="error">{errorMessage(incidents.error)}</Alert>}
      <DataTable
        aria-label="Incidents"
        columns={columns}
        data={incidents.data?.data}
        total={incidents.data?.total}
        loading={incidents.isFetching}
        list={list}
        getRowId={(r) => r.id}
        onRowClick={(r) => void navigate(`/incidents/${r.id}`)}
        emptyMessage={NO_INCIDENTS}
      />
      <CreateIncidentDialog open={creating} onOpenChange={setCreating} />
    </div>
  );
}
