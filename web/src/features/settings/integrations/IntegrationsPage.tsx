// /settings/integrations (spec/3 §2 "Integrations"): topologies and catalog scrapers in one list,
// paged, counted and sorted on the server, each with its last run. The add button (write on
// integrations) opens the Add Integration menu; a row opens /settings/integrations/{type}/{id}.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper, type ColumnDef } from '@tanstack/react-table';
import { ChevronDown, Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Feature } from '@opsdeck/common/features';
import { errorMessage } from '../../../api/client';
import { useCan, useSession } from '../../../api/session';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { Button } from '../../../ui/button';
import { DataTable } from '../../../ui/data-table';
import { formatAge, formatDateTime } from '../../../ui/format';
import { useListState } from '../../../ui/list-state';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '../../../ui/menu';
import { usePageHeader } from '../../../ui/page-header';
import { JobStatusBadge } from '../jobs/JobHistoryTable';
import { SourceBadge } from '../resources/SourceBadge';
import {
  INTEGRATION_TYPE_LABELS,
  integrationKeys,
  integrationsApi,
  type IntegrationRow,
  type IntegrationType,
} from './integrationsApi';

const NO_AGENT = '00000000-0000-0000-0000-000000000000';

const column = createColumnHelper<IntegrationRow>();

// Columns hold different value types; the table takes them as one list.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyColumn = ColumnDef<IntegrationRow, any>;

const COLUMNS: AnyColumn[] = [
  column.accessor('name', { header: 'Name', cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
  column.accessor('integration_type', {
    header: 'Type',
    cell: (c) => {
      const type: string = c.getValue();
      return <span>{INTEGRATION_TYPE_LABELS[type as IntegrationType] ?? type}</span>;
    },
  }),
  column.accessor('namespace', {
    header: 'Namespace',
    cell: (c) => <span className="text-muted">{c.getValue()}</span>,
  }),
  column.accessor('source', {
    header: 'Source',
    cell: (c) => {
      const agent = c.row.original.agent_id;
      return (
        <span className="inline-flex items-center gap-1.5">
          <SourceBadge source={c.getValue()} />
          {/* An agent id other than all-zero links to the agent (spec/3 §2). */}
          {agent && agent !== NO_AGENT && (
            <Link
              to={`/settings/agents?id=${agent}`}
              className="text-[12.5px] text-primary hover:underline"
              onClick={(e) => e.stopPropagation()}
            >
              Agent
            </Link>
          )}
        </span>
      );
    },
  }),
  column.accessor('job_time_start', {
    id: 'job_time_start',
    header: 'Last Run',
    cell: (c) => {
      const row = c.row.original;
      if (!row.job_status) return <span className="text-muted">Never</span>;
      return (
        <span className="inline-flex items-center gap-2" title={row.job_name ?? undefined}>
          <JobStatusBadge status={row.job_status} />
          <span className="text-muted tabular-nums" title={formatDateTime(c.getValue())}>
            {formatAge(c.getValue())}
          </span>
        </span>
      );
    },
  }),
  column.accessor('created_at', {
    header: 'Created At',
    cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
  }),
  column.accessor('updated_at', {
    header: 'Updated At',
    cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
  }),
];

/**
 * 'Add Directly' choices of the Add Integration menu, each opening the new-resource page of its
 * settings kind; Log Backends only while the logs feature is on (spec/3 §2).
 */
const ADD_DIRECTLY: Array<{ label: string; to: string; feature: Feature }> = [
  { label: 'Custom Topology', to: '/settings/topologies/new', feature: 'settings.topology' },
  { label: 'Catalog Scraper', to: '/settings/config_scrapers/new', feature: 'settings.config_scraper' },
  { label: 'Log Backends', to: '/settings/logging_backends/new', feature: 'settings.logging_backends' },
];

function AddIntegrationMenu() {
  const session = useSession();
  const choices = ADD_DIRECTLY.filter((c) => !session.disabledFeatures.includes(c.feature));
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button>
          <Plus className="size-4" aria-hidden /> Add Integration <ChevronDown className="size-4" aria-hidden />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent aria-label="Add Integration">
        {/* 'Add via GitOps' (AWS, Azure, Prometheus, Flux, Kubernetes, Mission Control Helm charts)
            needs the chart definitions and value schemas of a public chart registry, which this
            deployment cannot reach; it is left out rather than offered without its charts. */}
        <DropdownMenuLabel>Add Directly</DropdownMenuLabel>
        {choices.map((c) => (
          <DropdownMenuItem key={c.to} asChild>
            <Link to={c.to}>{c.label}</Link>
          </DropdownMenuItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

export default function IntegrationsPage() {
  const navigate = useNavigate();
  const canWrite = useCan('integrations', 'write');
  const list = useListState({ defaultPageSize: 100, defaultSortBy: 'name', defaultSortOrder: 'asc' });
  const page = useMemo(
    () => ({ pageIndex: list.pageIndex, pageSize: list.pageSize, sortBy: list.sortBy, sortOrder: list.sortOrder }),
    [list.pageIndex, list.pageSize, list.sortBy, list.sortOrder],
  );
  const rows = useQuery({
    queryKey: integrationKeys.list(page),
    queryFn: ({ signal }) => integrationsApi.list(page, signal),
    placeholderData: keepPreviousData,
    // Topologies and scrapers are saved from their own pages, which then return here.
    staleTime: 0,
  });

  usePageHeader({ onRefresh: rows.refetch, loading: rows.isFetching });

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Breadcrumb items={[{ label: 'Settings' }, { label: 'Integrations' }]} />
          <p className="mt-1 text-[13px] text-muted">
            Topologies and catalog scrapers that bring components and configuration in, with their last run.
          </p>
        </div>
        {canWrite && <AddIntegrationMenu />}
      </div>
      <DataTable
        aria-label="Integrations"
        columns={COLUMNS}
        data={rows.data?.data}
        total={rows.data?.total}
        loading={rows.isPending || (rows.isFetching && rows.isPlaceholderData)}
        list={list}
        getRowId={(r) => `${r.integration_type}/${r.id}`}
        onRowClick={(r) => navigate(`/settings/integrations/${r.integration_type}/${r.id}`)}
        emptyMessage={rows.isError ? errorMessage(rows.error) : undefined}
      />
    </div>
  );
}
