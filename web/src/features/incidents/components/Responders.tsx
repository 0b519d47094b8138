// Responders of an incident (spec/2 §4, §8): each with its progress Created → Acknowledged →
// Resolved → Closed, 'recorded only' when no connection delivered it, and a soft delete after
// 'Delete Responder ?'.
import { useMutation } from '@tanstack/react-query';
import { Trash2, UserPlus } from 'lucide-react';
import { useState } from 'react';
import {
  RESPONDER_PROGRESS_STEPS,
  RESPONDER_TYPE_LABELS,
  responderProgress,
  type ResponderType,
} from '@opsdeck/common/incidents';
import { errorMessage } from '../../../api/client';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { ConfirmDialog } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import { incidentsApi } from '../incidentsApi';
import type { ResponderRow } from '../types';
import { AddResponderWizard } from './AddResponderWizard';
import { Avatar } from './Avatar';
import { useIncidentRefresh } from './useIncidentRefresh';

export const RESPONDER_DELETED = 'Responder deleted successfully';

function Progress({ responder }: { responder: ResponderRow }) {
  const current = responderProgress(responder);
  const currentIndex = current ? RESPONDER_PROGRESS_STEPS.indexOf(current) : RESPONDER_PROGRESS_STEPS.length;
  return (
    <ol className="mt-1 flex items-center gap-1 text-[11px]" aria-label="Progress" data-current={current ?? 'done'}>
      {RESPONDER_PROGRESS_STEPS.map((s, i) => (
        <li
          key={s}
          className={cn(
            'rounded px-1.5 py-0.5',
            i < currentIndex
              ? 'bg-success-soft text-success'
              : i === currentIndex
                ? 'bg-primary-soft text-primary'
                : 'text-subtle',
          )}
          aria-current={i === currentIndex ? 'step' : undefined}
        >
          {s}
        </li>
      ))}
    </ol>
  );
}

export function Responders({
  incidentId,
  responders,
  canWrite,
}: {
  incidentId: string;
  responders: ResponderRow[];
  canWrite: boolean;
}) {
  const refresh = useIncidentRefresh(incidentId);
  const [adding, setAdding] = useState(false);
  const [deleting, setDeleting] = useState<ResponderRow>();
  const remove = useMutation({
    mutationFn: (id: string) => incidentsApi.deleteResponder(id),
    onSuccess: () => {
      toast.success(RESPONDER_DELETED);
      setDeleting(undefined);
      refresh('responders');
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  return (
    <div data-testid="responders">
      {responders.length === 0 ? (
        <p className="text-[13px] text-muted">No responders</p>
      ) : (
        <ul className="space-y-2">
          {responders.map((r) => {
            const type = r.properties?.responderType;
            const name = r.person?.name ?? r.team?.name ?? 'Unknown';
            return (
              <li key={r.id} className="flex items-start gap-2" data-testid="responder">
                <Avatar name={name} src={r.person?.avatar} className="size-7" />
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-1.5 text-[13px]">
                    <span className="font-medium text-foreground">{name}</span>
                    {type && type !== 'person' && (
                      <span className="text-muted">{RESPONDER_TYPE_LABELS[type as ResponderType] ?? type}</span>
                    )}
                    {r.type === 'system' && r.delivery_status === 'recorded' && <Badge>recorded only</Badge>}
                    {r.delivery_status === 'failed' && (
                      <span title={r.delivery_error ?? undefined}>
                        <Badge tone="danger">delivery failed</Badge>
                      </span>
                    )}
                  </div>
                  <Progress responder={r} />
                </div>
                {canWrite && (
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    aria-label={`Delete responder ${name}`}
                    onClick={() => setDeleting(r)}
                  >
                    <Trash2 className="size-3.5" />
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canWrite && (
        <Button variant="ghost" size="sm" className="mt-2" onClick={() => setAdding(true)}>
          <UserPlus className="size-3.5" aria-hidden /> Add Responder
        </Button>
      )}
      <AddResponderWizard incidentId={incidentId} open={adding} onOpenChange={setAdding} />
      <ConfirmDialog
        open={!!deleting}
        onOpenChange={(o) => !o && setDeleting(undefined)}
        title="Delete Responder ?"
        description="Are you sure you want to delete the responder ?"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
      />
    </div>
  );
}
