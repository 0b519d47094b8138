// The check drawer (spec/1 §2 "Check drawer"), full size, opened by ?checkId=: header (icon, name,
// namespace, endpoint, agent badge), metrics for the chosen time range (uptime, latency
// percentiles, severity, last run, transition, next run), the Health Overview chart, tabs History
// / Graph (short screens only) / Spec / Relationships, and the footer actions: Edit, the Playbooks
// menu, Link to Incident and Run Now (admin, editor, responder, commander). This file loads the
// check; the parts are in CheckDrawerHeader, CheckDrawerBody and CheckDrawerFooter.
import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { errorMessage } from '../../../api/client';
import { EmptyState } from '../../../ui/empty-state';
import { Sheet, SheetContent } from '../../../ui/sheet';
import { Skeleton } from '../../../ui/skeleton';
import { healthApi } from '../healthApi';
import { healthKeys } from '../keys';
import { type CheckSummary } from '../types';
import { CheckDrawerBody } from './CheckDrawerBody';
import { CheckDrawerFooter } from './CheckDrawerFooter';
import { CheckDrawerHeader } from './CheckDrawerHeader';
import { drawerCheck } from './drawerCheck';

export default function CheckDrawer({
  checkId,
  summary,
  initialRange,
  onClose,
}: {
  checkId: string;
  summary: CheckSummary | undefined;
  /** The dashboard's chosen range; without one, the range follows the check's last run. */
  initialRange?: string;
  onClose(): void;
}) {
  const row = useQuery({
    queryKey: healthKeys.check(checkId),
    queryFn: ({ signal }) => healthApi.check(checkId, signal),
    staleTime: 0,
    meta: { silent: true }, // shown in the drawer
  });
  const check = drawerCheck(row.data, summary);

  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        title={check?.name ?? 'Health check'}
        header={check ? <CheckDrawerHeader check={check} /> : <Skeleton className="h-10 w-80" />}
        footer={check ? <CheckDrawerFooter check={check} range={initialRange} /> : undefined}
      >
        {check ? (
          <CheckDrawerBody key={check.id} check={check} initialRange={initialRange} />
        ) : row.isPending ? (
          <div className="space-y-4 p-6">
            <Skeleton className="h-24" />
            <Skeleton className="h-52" />
            <Skeleton className="h-64" />
          </div>
        ) : (
          <EmptyState
            icon={SearchX}
            title={row.isError ? errorMessage(row.error) : 'Check not found'}
            description="It may have been deleted, or the link points to a check that never existed."
          />
        )}
      </SheetContent>
    </Sheet>
  );
}
