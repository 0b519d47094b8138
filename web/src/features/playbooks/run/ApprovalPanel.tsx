// The run page's approval panel (issue 16): who must approve (any or all of the listed people and
// teams), who approved or rejected and why, and Approve / Reject for the signed-in person when the
// server says they may (can_approve / can_reject in the run's answer); a rejection takes a reason.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Check, X } from 'lucide-react';
import { useState } from 'react';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { formatDateTime } from '../../../ui/format';
import { Input } from '../../../ui/input';
import { toast, toastError } from '../../../ui/toast';
import { playbookKeys, playbooksApi } from '../playbooksApi';
import type { PlaybookRunDetail, RunApproval } from '../types';

export const RUN_APPROVED = 'Run approved';
export const RUN_REJECTED = 'Run rejected';

function approversText(a: RunApproval): string {
  const names = [...a.approvers.people.map((p) => p.name), ...a.approvers.teams.map((t) => `team ${t.name}`)];
  return names.join(', ') || '—';
}

export function ApprovalPanel({ run, approval }: { run: PlaybookRunDetail; approval: RunApproval }) {
  const queryClient = useQueryClient();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const decide = useMutation({
    mutationFn: (action: 'approve' | 'reject') =>
      playbooksApi.decide(run.id, action, action === 'reject' ? reason.trim() : undefined),
    onSuccess: (_, action) => {
      toast.success(action === 'approve' ? RUN_APPROVED : RUN_REJECTED);
      setRejecting(false);
      void queryClient.invalidateQueries({ queryKey: playbookKeys.run(run.id) });
      void queryClient.invalidateQueries({ queryKey: playbookKeys.pendingApprovals() });
    },
    onError: toastError,
  });
  const waiting = run.status === 'pending_approval';

  return (
    <section
      aria-label="Approval"
      data-testid="run-approval"
      className="rounded-lg border border-border bg-surface p-4 shadow-card"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-[14px] font-semibold">Approval</h2>
        <Badge tone={waiting ? 'warning' : 'neutral'}>
          {approval.type === 'all' ? 'All approvers must approve' : 'One approval is enough'}
        </Badge>
        {(approval.can_approve || approval.can_reject) && !rejecting && (
          <div className="ml-auto flex gap-2">
            {approval.can_reject && (
              <Button variant="outline" size="sm" onClick={() => setRejecting(true)}>
                <X className="size-3.5" /> Reject
              </Button>
            )}
            {approval.can_approve && (
              <Button size="sm" loading={decide.isPending} onClick={() => decide.mutate('approve')}>
                <Check className="size-3.5" /> Approve
              </Button>
            )}
          </div>
        )}
      </div>
      <p className="mt-2 text-[13px] text-muted">
        Approvers: <span className="text-foreground">{approversText(approval)}</span>
      </p>
      {rejecting && (
        <form
          className="mt-3 flex flex-wrap items-center gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            decide.mutate('reject');
          }}
        >
          <Input
            aria-label="Reason"
            placeholder="Why is this run rejected?"
            className="h-8 w-80 text-[13px]"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            autoFocus
          />
          <Button type="submit" variant="danger" size="sm" loading={decide.isPending}>
            Reject run
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => setRejecting(false)}>
            Back
          </Button>
        </form>
      )}
      {approval.approvals.length > 0 && (
        <ul className="mt-3 space-y-1 text-[13px]" data-testid="run-approvals">
          {approval.approvals.map((a) => (
            <li key={a.person_id} className="flex flex-wrap items-center gap-2">
              {a.status === 'approved' ? (
                <Check className="size-4 text-success" aria-label="approved" />
              ) : (
                <X className="size-4 text-danger" aria-label="rejected" />
              )}
              <span className="font-medium">{a.person_name}</span>
              <span className="text-muted">
                {a.status}
                {a.team_name ? ` for team ${a.team_name}` : ''} · {formatDateTime(a.created_at)}
              </span>
              {a.reason && <span className="text-muted">— {a.reason}</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
