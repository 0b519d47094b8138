// Settings → Status Pages (/settings/status-pages): the pages with their address (opens the public
// page in a new tab), visibility, sections and source; a row (or ?id=) opens the editor, Add a new
// one (admins and editors: write on canaries, as the server enforces).
import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { ExternalLink, Plus } from 'lucide-react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { useCan } from '../../api/session';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { DataTable } from '../../ui/data-table';
import { formatDateTime } from '../../ui/format';
import { usePageHeader } from '../../ui/page-header';
import { StatusPageDialog } from './StatusPageDialog';
import { statusPageKeys, statusPagesApi, type StatusPageListRow } from './statusPagesApi';

const column = createColumnHelper<StatusPageListRow>();

export default function StatusPagesPage() {
  const [params, setParams] = useSearchParams();
  const canWrite = useCan('canaries', 'write');
  const pages = useQuery({ queryKey: statusPageKeys.list(), queryFn: ({ signal }) => statusPagesApi.list(signal) });
  usePageHeader({ onRefresh: pages.refetch, loading: pages.isFetching });
  const setId = (id: string | undefined) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id) next.set('id', id);
      else next.delete('id');
      return next;
    });

  const columns = useMemo(
    () => [
      column.accessor('title', {
        header: 'Title',
        cell: (c) => <span className="font-medium">{c.getValue()}</span>,
      }),
      column.accessor('url', {
        header: 'Address',
        cell: (c) => (
          <a
            href={c.getValue()}
            target="_blank"
            rel="noreferrer"
            className="inline-flex items-center gap-1 font-mono text-[12.5px] text-primary hover:underline"
            onClick={(e) => e.stopPropagation()}
          >
            {c.getValue()} <ExternalLink className="size-3.5" aria-label="Open the public page" />
          </a>
        ),
      }),
      column.accessor('private', {
        header: 'Visibility',
        cell: (c) => (c.getValue() ? <Badge tone="warning">Private</Badge> : <Badge tone="success">Public</Badge>),
      }),
      column.accessor('sections', {
        header: 'Sections',
        cell: (c) => <span className="tabular-nums">{c.getValue()}</span>,
      }),
      column.accessor('source', { header: 'Source', cell: (c) => <Badge>{c.getValue() || 'UI'}</Badge> }),
      column.accessor('updated_at', {
        header: 'Updated At',
        cell: (c) => <span className="text-muted tabular-nums">{formatDateTime(c.getValue())}</span>,
      }),
    ],
    [],
  );

  const open = params.get('id') ?? undefined;
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-4">
        <p className="text-[13px] text-muted">
          Public pages of the health of chosen checks and components, readable without signing in (unless private), with
          badges for each entry.
        </p>
        {canWrite && (
          <Button size="sm" onClick={() => setId('new')}>
            <Plus className="size-4" aria-hidden /> Add Status Page
          </Button>
        )}
      </div>
      <DataTable
        aria-label="Status pages"
        columns={columns}
        data={pages.data}
        loading={pages.isPending}
        getRowId={(r) => r.id}
        onRowClick={(r) => setId(r.id)}
        emptyMessage="No status pages yet"
      />
      <StatusPageDialog pageId={open === 'new' && !canWrite ? undefined : open} onClose={() => setId(undefined)} />
    </div>
  );
}
