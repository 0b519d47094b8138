// The in-console approval badge: how many playbook runs wait for the signed-in person's approval
// (GET /api/playbook/approvals/pending), as a link to the runs page filtered on Pending Approval.
// Renders nothing when none wait.
import { useQuery } from '@tanstack/react-query';
import { UserCheck } from 'lucide-react';
import { Link } from 'react-router';
import { playbookKeys, playbooksApi } from './playbooksApi';

const REFRESH_MS = 30_000;

export function AwaitingApproval() {
  const pending = useQuery({
    queryKey: playbookKeys.pendingApprovals(),
    queryFn: ({ signal }) => playbooksApi.pendingApprovals(signal),
    refetchInterval: REFRESH_MS,
    meta: { silent: true },
  });
  const count = pending.data?.count ?? 0;
  if (!count) return null;
  return (
    <Link
      to="/playbooks/runs?status=pending_approval"
      data-testid="awaiting-approval"
      className="inline-flex h-8 items-center gap-1.5 rounded-md bg-warning-soft px-2.5 text-[13px] font-medium text-warning hover:underline"
    >
      <UserCheck className="size-4" />
      {count} {count === 1 ? 'run awaits' : 'runs await'} your approval
    </Link>
  );
}
