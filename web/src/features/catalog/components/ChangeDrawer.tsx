// One change in a drawer (opened by ?id=): its summary and fields, the unified diff, and the JSON
// merge patch and details as stored.
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/client';
import { Alert } from '../../../ui/alert';
import { Badge } from '../../../ui/badge';
import { LinkToIncidentButton } from '../../../ui/link-to-incident';
import { formatDateTime } from '../../../ui/format';
import { Sheet, SheetContent } from '../../../ui/sheet';
import { Skeleton } from '../../../ui/skeleton';
import { catalogApi } from '../catalogApi';
import { severityTone } from '../format';
import { catalogKeys } from '../keys';
import type { ChangeRow } from '../types';
import { ChangeDiff } from './ChangeDiff';

function prettyJson(text: string | null | undefined): string {
  if (!text) return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export function ChangeDrawer({
  changeId,
  row,
  onClose,
}: {
  changeId: string;
  row: ChangeRow | undefined;
  onClose(): void;
}) {
  const change = useQuery({
    queryKey: catalogKeys.change(changeId),
    queryFn: ({ signal }) => catalogApi.change(changeId, signal),
    meta: { silent: true },
  });
  const c = change.data;
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        title={c?.summary || row?.summary || 'Change'}
        className="lg:w-[min(960px,calc(100vw-3rem))]"
        header={
          <div className="space-y-1">
            <div className="flex flex-wrap items-center gap-2 text-[15px] font-semibold">
              {c?.change_type ?? row?.change_type}
              {(c?.severity ?? row?.severity) && (
                <Badge tone={severityTone(c?.severity ?? row?.severity)}>{c?.severity ?? row?.severity}</Badge>
              )}
            </div>
            <p className="text-[13px] text-muted">{c?.summary ?? row?.summary}</p>
            {c && (
              <LinkToIncidentButton
                evidence={{
                  type: 'config_change',
                  config_change_id: c.id,
                  config_id: c.config_id,
                  description: c.summary || `${c.change_type} of ${row?.config?.name ?? c.config_id}`,
                }}
              />
            )}
          </div>
        }
      >
        <div className="space-y-4 p-5" data-testid="change-drawer">
          {change.isError && <Alert tone="error">{errorMessage(change.error)}</Alert>}
          {change.isPending && <Skeleton className="h-40 w-full" />}
          {change.isSuccess && !c && <Alert tone="warning">This change no longer exists.</Alert>}
          {c && (
            <>
              <dl className="grid grid-cols-[140px_minmax(0,1fr)] gap-x-3 gap-y-1.5 text-[13px]">
                {row?.config && (
                  <>
                    <dt className="text-muted">Catalog</dt>
                    <dd>
                      <Link className="text-primary hover:underline" to={`/catalog/${row.config.id}`}>
                        {row.config.name}
                      </Link>{' '}
                      <span className="text-muted">{row.config.type}</span>
                    </dd>
                  </>
                )}
                <dt className="text-muted">Source</dt>
                <dd>{c.source ?? ''}</dd>
                <dt className="text-muted">Created</dt>
                <dd>{formatDateTime(c.created_at)}</dd>
                <dt className="text-muted">First observed</dt>
                <dd>{formatDateTime(c.first_observed)}</dd>
                <dt className="text-muted">Count</dt>
                <dd>{c.count ?? 1}</dd>
                {c.external_created_by && (
                  <>
                    <dt className="text-muted">Created by</dt>
                    <dd>{c.external_created_by}</dd>
                  </>
                )}
              </dl>
              <section className="space-y-2">
                <h3 className="text-[13px] font-semibold">Diff</h3>
                <ChangeDiff diff={c.diff} />
              </section>
              {c.patches && (
                <section className="space-y-2">
                  <h3 className="text-[13px] font-semibold">Patch</h3>
                  <pre className="max-h-80 overflow-auto rounded-md border border-border bg-surface-muted p-3 font-mono text-[12px]">
                    {prettyJson(c.patches)}
                  </pre>
                </section>
              )}
              {c.details !== null && c.details !== undefined && (
                <section className="space-y-2">
                  <h3 className="text-[13px] font-semibold">Details</h3>
                  <pre className="max-h-80 overflow-auto rounded-md border border-border bg-surface-muted p-3 font-mono text-[12px]">
                    {JSON.stringify(c.details, null, 2)}
                  </pre>
                </section>
              )}
            </>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}
