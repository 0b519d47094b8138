// The flat, server-paged item list of /catalog (spec/2 §2.1, §7): name with the deleted marker,
// type, status, health, tags, changes, insights, cost for 1d (with its change flag), 7d and 30d,
// agent and dates. Sorting and paging live in the query string.
// Sortable columns have an accessor (TanStack sorts, here on the server, only columns with one).
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { AgentBadge } from '../../../ui/agent-badge';
import { DataTable } from '../../../ui/data-table';
import type { ListState } from '../../../ui/list-state';
import { hiddenListColumns } from '../listColumns';
import type { ConfigListRow } from '../types';
import {
  ChangesCount,
  Cost1dCell,
  CostCell,
  DateCell,
  DeletedMarker,
  HealthLabel,
  InsightCounts,
  TagList,
} from './Cells';

export const LIST_PAGE_SIZES = [25, 50, 100, 200, 500] as const;

export function ConfigListTable({
  rows,
  total,
  loading,
  list,
  singleType,
  onOpen,
}: {
  rows: ConfigListRow[] | undefined;
  total: number | undefined;
  loading: boolean;
  list: ListState;
  /** The list is filtered to one type: its column would repeat it on every row. */
  singleType: boolean;
  onOpen(row: ConfigListRow): void;
}) {
  const hidden = useMemo(() => hiddenListColumns(rows, singleType), [rows, singleType]);
  const columns = useMemo<ColumnDef<ConfigListRow>[]>(() => {
    const all: ColumnDef<ConfigListRow>[] = [
      {
        id: 'name',
        accessorFn: (r: ConfigListRow) => r.name,
        header: 'Name',
        cell: ({ row }) => (
          <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
            <span className="font-medium" data-testid="config-name">
              {row.original.name ?? row.original.id}
            </span>
            <DeletedMarker deletedAt={row.original.deleted_at} />
            <AgentBadge name={row.original.agent?.name} />
          </span>
        ),
      },
      {
        id: 'type',
        accessorFn: (r: ConfigListRow) => r.type,
        header: 'Type',
        cell: ({ row }) => <span className="text-muted">{row.original.type}</span>,
      },
      {
        id: 'status',
        accessorFn: (r: ConfigListRow) => r.status,
        header: 'Status',
        cell: ({ row }) => row.original.status ?? '',
      },
      {
        id: 'health',
        accessorFn: (r: ConfigListRow) => r.health,
        header: 'Health',
        cell: ({ row }) => <HealthLabel health={row.original.health} />,
      },
      { id: 'tags', header: 'Tags', enableSorting: false, cell: ({ row }) => <TagList tags={row.original.tags} /> },
      {
        id: 'changes',
        accessorFn: (r: ConfigListRow) => r.changes,
        header: 'Changes',
        cell: ({ row }) => <ChangesCount count={row.original.changes} />,
      },
      {
        id: 'analysis',
        header: 'Insights',
        enableSorting: false,
        cell: ({ row }) => <InsightCounts analysis={row.original.analysis} />,
      },
      {
        id: 'cost_total_1d',
        accessorFn: (r: ConfigListRow) => r.cost_total_1d,
        header: 'Cost (1d)',
        cell: ({ row }) => <Cost1dCell cost1d={row.original.cost_total_1d} cost30d={row.original.cost_total_30d} />,
      },
      {
        id: 'cost_total_7d',
        accessorFn: (r: ConfigListRow) => r.cost_total_7d,
        header: 'Cost (7d)',
        cell: ({ row }) => <CostCell value={row.original.cost_total_7d} />,
      },
      {
        id: 'cost_total_30d',
        accessorFn: (r: ConfigListRow) => r.cost_total_30d,
        header: 'Cost (30d)',
        cell: ({ row }) => <CostCell value={row.original.cost_total_30d} />,
      },
      {
        id: 'agent',
        header: 'Agent',
        enableSorting: false,
        cell: ({ row }) => <span className="text-muted">{row.original.agent?.name ?? ''}</span>,
      },
      {
        id: 'created_at',
        accessorFn: (r: ConfigListRow) => r.created_at,
        header: 'Created',
        cell: ({ row }) => <DateCell value={row.original.created_at} relative />,
      },
      {
        id: 'updated_at',
        accessorFn: (r: ConfigListRow) => r.updated_at,
        header: 'Updated',
        cell: ({ row }) => <DateCell value={row.original.updated_at} relative />,
      },
    ];
    return all.filter((c) => !hidden.has(c.id!));
  }, [hidden]);
  return (
    <DataTable
      aria-label="Catalog items"
      columns={columns}
      data={rows}
      total={total}
      loading={loading}
      list={list}
      pageSizes={LIST_PAGE_SIZES}
      getRowId={(row) => row.id}
      onRowClick={onOpen}
    />
  );
}
