// The item's Checks tab: health checks linked to it (check_summary_for_config), each opening the
// check on the health dashboard.
import { useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../api/client';
import { Alert } from '../../../ui/alert';
import { DataTable } from '../../../ui/data-table';
import { catalogApi } from '../catalogApi';
import { catalogKeys } from '../keys';
import type { CheckForConfig } from '../types';
import { DateCell, HealthLabel } from './Cells';

const columns: ColumnDef<CheckForConfig>[] = [
  { id: 'name', header: 'Name', cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
  { id: 'type', header: 'Type', cell: ({ row }) => row.original.type },
  { id: 'canary', header: 'Canary', cell: ({ row }) => row.original.canary_name ?? '' },
  { id: 'status', header: 'Status', cell: ({ row }) => <HealthLabel health={row.original.status} /> },
  {
    id: 'last_runtime',
    header: 'Last Run',
    cell: ({ row }) => <DateCell value={row.original.last_runtime} relative />,
  },
];

export function ChecksTab({ configId }: { configId: string }) {
  const navigate = useNavigate();
  const checks = useQuery({
    queryKey: catalogKeys.checks(configId),
    queryFn: ({ signal }) => catalogApi.checks(configId, signal),
    meta: { silent: true },
  });
  return (
    <div className="space-y-3">
      {checks.isError && <Alert tone="error">{errorMessage(checks.error)}</Alert>}
      <DataTable
        aria-label="Checks"
        columns={columns}
        data={checks.data}
        loading={checks.isPending}
        getRowId={(r) => r.id}
        onRowClick={(r) => navigate(`/health?checkId=${encodeURIComponent(r.id)}`)}
      />
    </div>
  );
}
