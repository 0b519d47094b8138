// "In maintenance: <message>" for a check in a maintenance window in progress (named in the window;
// GET /api/maintenance-window/occurrences at this instant, refreshed every minute).
import { useQuery } from '@tanstack/react-query';
import { Wrench } from 'lucide-react';
import { api } from '../../api/client';
import { formatDateTime } from '../../ui/format';

interface Occurrence {
  id: string;
  name: string;
  message: string;
  end: string;
  checkIds: string[];
  componentIds: string[];
}

export function InMaintenance({ checkId }: { checkId: string }) {
  const active = useQuery({
    queryKey: ['maintenance-windows', 'active'],
    queryFn: ({ signal }) => {
      const now = new Date().toISOString();
      return api.get<Occurrence[]>('/api/maintenance-window/occurrences', { query: { from: now, to: now }, signal });
    },
    refetchInterval: 60_000,
    meta: { silent: true },
  });
  const window = active.data?.find((o) => o.checkIds.includes(checkId));
  if (!window) return null;
  return (
    <div
      role="status"
      data-testid="in-maintenance"
      className="flex items-start gap-2 rounded-md border border-border bg-muted/10 px-3 py-2 text-[13px]"
    >
      <Wrench className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
      <span>
        <span className="font-medium">In maintenance: </span>
        {window.message || window.name}
        <span className="text-muted"> (until {formatDateTime(window.end)})</span>
      </span>
    </div>
  );
}
