// The details of one send history entry (?id=): what was decided and why, the rendered body, the
// error, the event it came from and the delivery attempts.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../api/client';
import { Alert } from '../../../ui/alert';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { formatDateTime, formatDuration } from '../../../ui/format';
import { Skeleton } from '../../../ui/skeleton';
import { notificationKeys } from '../keys';
import { notificationsApi } from '../notificationsApi';
import { ResourceCell } from '../ResourceCell';
import type { SendHistoryRow } from '../types';
import { MarkdownBody } from './MarkdownBody';
import { SendStatusBadge } from './SendStatusBadge';

export function SendHistoryDetails({ id, onClose }: { id: string | undefined; onClose(): void }) {
  return (
    <Dialog open={!!id} onOpenChange={(open) => !open && onClose()}>
      {id && <DetailsContent id={id} />}
    </Dialog>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[9rem_1fr] gap-3 py-1.5 text-[13px]">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

function DetailsContent({ id }: { id: string }) {
  const entry = useQuery({
    queryKey: notificationKeys.historyEntry(id),
    queryFn: ({ signal }) => notificationsApi.historyEntry(id, signal),
    meta: { silent: true },
  });
  const e = entry.data;
  return (
    <DialogContent title={e?.title || e?.notification_name || 'Notification'} size="lg">
      {entry.isPending ? (
        <div className="space-y-2">
          <Skeleton className="h-4 w-64" />
          <Skeleton className="h-32" />
        </div>
      ) : entry.isError ? (
        <Alert tone="error">{errorMessage(entry.error)}</Alert>
      ) : !e ? (
        <Alert tone="info">This notification no longer exists.</Alert>
      ) : (
        <EntryDetails entry={e} />
      )}
    </DialogContent>
  );
}

function EntryDetails({ entry: e }: { entry: SendHistoryRow }) {
  return (
    <div className="space-y-4" data-testid="send-details">
      <dl className="divide-y divide-border">
        <Row label="Status">
          <SendStatusBadge status={e.status} />
        </Row>
        {e.reason && <Row label="Reason">{e.reason}</Row>}
        <Row label="Event">
          <span className="font-mono text-[12.5px]">{e.source_event}</span>
        </Row>
        <Row label="Resource">
          <ResourceCell type={e.resource_type} id={e.resource_id} name={e.resource_name ?? e.resource?.name} />
        </Row>
        <Row label="Rule">{e.notification_name ?? e.notification_id}</Row>
        {(e.recipient || e.person_name) && <Row label="Recipient">{e.person_name ?? e.recipient}</Row>}
        <Row label="Created">{formatDateTime(e.created_at)}</Row>
        <Row label="First observed">{formatDateTime(e.first_observed)}</Row>
        <Row label="Count">{e.count}</Row>
        <Row label="Attempts">{e.attempts}</Row>
        {e.duration_millis !== null && <Row label="Duration">{formatDuration(e.duration_millis)}</Row>}
      </dl>
      {e.error && (
        <div className="space-y-1.5">
          <p className="text-[13px] font-medium">Error</p>
          <pre className="whitespace-pre-wrap rounded-md bg-danger-soft p-3 font-mono text-[12.5px] text-danger">
            {e.error}
          </pre>
        </div>
      )}
      <div className="space-y-1.5">
        <p className="text-[13px] font-medium">Body</p>
        {e.body ? (
          <div className="rounded-md border border-border p-3">
            <MarkdownBody text={e.body} />
          </div>
        ) : (
          <p className="text-[13px] text-muted">No message was rendered for this entry.</p>
        )}
      </div>
    </div>
  );
}
