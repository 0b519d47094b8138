// The grouped summary of /catalog (spec/2 §2.1): one row per group of the chosen grouping with
// its count, health counts (green, red, orange, gray), insights, changes and 30-day cost.
// Clicking a row drills into the flat list of that group.
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { DataTable } from '../../../ui/data-table';
import { formatCount } from '../format';
import type { SummaryGroup } from '../types';
import { ChangesCount, CostCell, HealthCounts, InsightCounts } from './Cells';

const GROUP_LABELS: Record<string, string> = {
  config_class: 'Class',
  type: 'Type',
  status: 'Status',
  health: 'Health',
  agent_id: 'Agent',
};

export function ConfigSummaryTable({
  groups,
  groupBy,
  loading,
  onOpen,
}: {
  groups: SummaryGroup[] | undefined;
  groupBy: string[];
  loading: boolean;
  onOpen(row: SummaryGroup): void;
}) {
  const columns = useMemo<ColumnDef<SummaryGroup>[]>(
    () => [
      ...groupBy.map<ColumnDef<SummaryGroup>>((key) => ({
        id: `group:${key}`,
        header: GROUP_LABELS[key] ?? key,
        cell: ({ row }) => {
          const v = row.original[key];
          return <span className="font-medium">{v === null || v === undefined || v === '' ? '—' : String(v)}</span>;
        },
      })),
      {
        id: 'count',
        header: 'Count',
        cell: ({ row }) => (
          <span className="tabular-nums" data-testid="summary-count">
            {formatCount(row.original.count)}
          </span>
        ),
      },
      { id: 'health', header: 'Health', cell: ({ row }) => <HealthCounts counts={row.original.health} /> },
      { id: 'analysis', header: 'Insights', cell: ({ row }) => <InsightCounts analysis={row.original.analysis} /> },
      { id: 'changes', header: 'Changes', cell: ({ row }) => <ChangesCount count={row.original.changes} /> },
      { id: 'cost', header: 'Cost (30d)', cell: ({ row }) => <CostCell value={row.original.cost_total_30d} /> },
    ],
    [groupBy],
  );
  return (
    <DataTable
      aria-label="Catalog summary"
      columns={columns}
      data={groups}
      loading={loading}
      getRowId={(row, i) => groupBy.map((k) => String(row[k] ?? '')).join('|') || String(i)}
      onRowClick={onOpen}
    />
  );
}
