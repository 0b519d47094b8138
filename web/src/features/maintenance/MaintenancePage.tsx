// Settings → Maintenance (/settings/maintenance): the maintenance windows with when they are (one-off
// span or recurring schedule), what they cover, whether they silence notifications and their source;
// a row (or ?id=) opens the editor, Add a new one (admins and editors: write on canaries, as the
// server enforces; viewers read).
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { Plus } from 'lucide-react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useCan } from '../../api/session';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { DataTable } from '../../ui/data-table';
import { formatDateTime } from '../../ui/format';
import { usePageHeader } from '../../ui/page-header';
import { MaintenanceDialog } from './MaintenanceDialog';
import { maintenanceApi, maintenanceKeys, type MaintenanceRow } from './maintenanceApi';

const column = createColumnHelper<MaintenanceRow>();

/** "Mar 1, 10:00 – Mar 1, 12:00" or "0 2 * * 0 for 2h (Europe/Berlin)". */
export function whenOf(r: MaintenanceRow): string {
  if (r.schedule) return `${r.schedule} for ${r.duration ?? '?'}${r.timezone ? ` (${r.timezone})` : ''}`;
  return `${formatDateTime(r.starts_at ?? '')} – ${formatDateTime(r.ends_at ?? '')}`;
}

function coversOf(r: MaintenanceRow): string {
  const parts = [];
  if (r.check_ids.length) parts.push(`${r.check_ids.length} check${r.check_ids.length === 1 ? '' : 's'}`);
  if (r.component_ids.length)
    parts.push(`${r.component_ids.length} component${r.component_ids.length === 1 ? '' : 's'}`);
  if (r.status_pages.length) parts.push(`pages: ${r.status_pages.join(', ')}`);
  return parts.join(', ');
}

export default function MaintenancePage() {
  const [params, setParams] = useSearchParams();
  const canWrite = useCan('canaries', 'write');
  const windows = useQuery({ queryKey: maintenanceKeys.list(), queryFn: ({ signal }) => maintenanceApi.list(signal) });
  usePageHeader({ onRefresh: windows.refetch, loading: windows.isFetching });
  const setId = (id: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set('id', id);
      else next.delete('id');
      return next;
    });

  const columns = useMemo(
    () => [
      column.accessor('name', { header: 'Name', cell: (c) => <span className="font-medium">{c.getValue()}</span> }),
      column.display({
        id: 'when',
        header: 'When',
        cell: (c) => <span className="tabular-nums">{whenOf(c.row.original)}</span>,
      }),
      column.display({ id: 'covers', header: 'Covers', cell: (c) => coversOf(c.row.original) }),
      column.accessor('message', {
        header: 'Message',
        cell: (c) => <span className="line-clamp-1 text-muted">{c.getValue()}</span>,
      }),
      column.accessor('silence', {
        header: 'Notifications',
        cell: (c) => (c.getValue() ? <Badge tone="warning">Silenced</Badge> : <Badge>Sent</Badge>),
      }),
      column.accessor('source', { header: 'Source', cell: (c) => <Badge>{c.getValue() || 'UI'}</Badge> }),
    ],
    [],
  );

  const open = params.get('id') ?? undefined;
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-4">
        <p className="text-[13px] text-muted">
          Planned work on checks, components or whole status pages: the pages announce it, and notifications for what it
          covers are silenced while it lasts.
        </p>
        {canWrite && (
          <Button size="sm" onClick={() => setId('new')}>
            <Plus className="size-4" aria-hidden /> Add Maintenance Window
          </Button>
        )}
      </div>
      <DataTable
        aria-label="Maintenance windows"
        columns={columns}
        data={windows.data}
        loading={windows.isPending}
        getRowId={(r) => r.id}
        onRowClick={(r) => setId(r.id)}
        emptyMessage="No maintenance windows yet"
      />
      <MaintenanceDialog
        windowId={open === 'new' && !canWrite ? undefined : open}
        row={windows.data?.find((r) => r.id === open)}
        onClose={() => setId(undefined)}
      />
    </div>
  );
}
