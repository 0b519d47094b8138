// /agents and /settings/agents (spec/1 §2 Agents screen): the agents, paged and sorted on the server,
// with their derived Online/Offline status; an add button for those who may write agents. ?id= opens
// an agent's drawer and ?addAgent=true the create drawer; after a create, the install instructions.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useCan } from '../../api/session';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { DataTable, pagedQueryProps } from '../../ui/data-table';
import { formatAge, formatDateTime } from '../../ui/format';
import { useListState } from '../../ui/list-state';
import { usePageHeader } from '../../ui/page-header';
import { AgentDrawer, type CreatedAgent } from './AgentDrawer';
import {
  AGENT_LIST_OPTIONS,
  agentOrder,
  drawerFromParams,
  isSortableAgentColumn,
  paramsWithDrawer,
  type AgentDrawer as DrawerState,
} from './agentParams';
import { agentKeys, agentsApi, type AgentRow } from './agentsApi';
import { agentStatus } from './agentStatus';
import { InstallInstructionsDialog } from './InstallInstructionsDialog';

const column = createColumnHelper<AgentRow>();

/** Status is relative to now: re-rendered every few seconds so Online turns Offline on time. */
const STATUS_TICK_MS = 5_000;
/** last_seen moves with every ping; the list is read again this often while open. */
const REFETCH_MS = 30_000;

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

const muted = (value: string) => <span className="text-muted tabular-nums whitespace-nowrap">{value}</span>;

function StatusBadge({ lastSeen, now }: { lastSeen: string | null; now: number }) {
  const status = agentStatus(lastSeen, now);
  if (!status) return null;
  return (
    <Badge tone={status === 'Online' ? 'success' : 'neutral'} className="agent-status">
      <span
        aria-hidden
        className={status === 'Online' ? 'size-1.5 rounded-full bg-success' : 'size-1.5 rounded-full bg-subtle'}
      />
      {status}
    </Badge>
  );
}

const ago = (value: string | null) =>
  value ? <span title={formatDateTime(value)}>{muted(formatAge(value))}</span> : null;

export default function AgentsPage() {
  const canWrite = useCan('agents', 'write');
  const list = useListState(AGENT_LIST_OPTIONS);
  const [params, setParams] = useSearchParams();
  const drawer = drawerFromParams(params);
  const [created, setCreated] = useState<CreatedAgent>();
  const now = useNow(STATUS_TICK_MS);

  const page = {
    pageIndex: list.pageIndex,
    pageSize: list.pageSize,
    order: agentOrder(list.sortBy, list.sortOrder),
  };
  const agents = useQuery({
    queryKey: agentKeys.list(page),
    queryFn: ({ signal }) => agentsApi.list(page, signal),
    placeholderData: keepPreviousData,
    refetchInterval: REFETCH_MS,
  });

  usePageHeader({ onRefresh: agents.refetch, loading: agents.isFetching });

  const openDrawer = useCallback(
    (next: DrawerState | undefined) => setParams((prev) => paramsWithDrawer(prev, next), { replace: !next }),
    [setParams],
  );

  const columns = useMemo(
    () =>
      [
        column.accessor('name', {
          header: 'Name',
          cell: (c) => <span className="font-medium whitespace-nowrap">{c.getValue()}</span>,
        }),
        column.accessor('hostname', { header: 'Hostname', cell: (c) => muted(c.getValue() ?? '') }),
        column.accessor('version', { header: 'Version', cell: (c) => muted(c.getValue() ?? '') }),
        column.accessor('last_seen', {
          id: 'status',
          header: 'Status',
          cell: (c) => <StatusBadge lastSeen={c.getValue()} now={now} />,
        }),
        column.accessor('last_seen', { header: 'Last Seen', cell: (c) => ago(c.getValue()) }),
        column.accessor('last_received', { header: 'Last Received', cell: (c) => ago(c.getValue()) }),
        column.accessor((r) => r.creator?.name ?? '', {
          id: 'created_by',
          header: 'Created By',
          cell: (c) => <span className="text-muted whitespace-nowrap">{c.getValue()}</span>,
        }),
        column.accessor('created_at', { header: 'Created At', cell: (c) => muted(formatDateTime(c.getValue())) }),
      ].map((def) => {
        const id = def.id ?? ('accessorKey' in def ? String(def.accessorKey) : '');
        return { ...def, enableSorting: isSortableAgentColumn(id) };
      }),
    [now],
  );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-[13px] text-muted">
          Agents run checks and scrapers inside other networks and push what they find to this console.
        </p>
        {canWrite && (
          <Button onClick={() => openDrawer({ mode: 'create' })}>
            <Plus className="size-4" aria-hidden /> Add Agent
          </Button>
        )}
      </div>
      <DataTable
        aria-label="Agents"
        columns={columns}
        {...pagedQueryProps(agents)}
        list={list}
        getRowId={(r) => r.id}
        onRowClick={(row) => openDrawer({ mode: 'edit', id: row.id })}
      />
      {drawer && (
        <AgentDrawer
          key={drawer.mode === 'edit' ? drawer.id : 'new'}
          drawer={drawer}
          onClose={() => openDrawer(undefined)}
          onCreated={(agent) => {
            openDrawer(undefined);
            setCreated(agent);
          }}
        />
      )}
      <InstallInstructionsDialog target={created} onClose={() => setCreated(undefined)} />
    </div>
  );
}
