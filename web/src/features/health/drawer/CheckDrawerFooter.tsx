// The check drawer's footer actions: Edit (or View definition), Silence, the Playbooks menu, Link
// to Incident and Run Now.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Pencil, Play } from 'lucide-react';
import { Link } from 'react-router';
import { defaultRangeForLastRun } from '@opsdeck/common/healthChecks';
import { canRunChecks } from '@opsdeck/common/rbac';
import { errorMessage } from '../../../api/client';
import { useCan, useMode, useSession } from '../../../api/session';
import { Button } from '../../../ui/button';
import { formatDuration } from '../../../ui/format';
import { LinkToIncidentButton } from '../../../ui/link-to-incident';
import { toast } from '../../../ui/toast';
import { SilenceButton } from '../../notifications';
import { PlaybooksMenu } from '../../playbooks/PlaybooksMenu';
import { healthApi } from '../healthApi';
import { healthKeys } from '../keys';
import { type DrawerCheck } from './drawerCheck';

export function CheckDrawerFooter({ check, range }: { check: DrawerCheck; range?: string }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const canEdit = useCan('canaries', 'write');
  const healthOnly = useMode() === 'health';
  const run = useMutation({
    mutationFn: () => healthApi.runNow(check.id),
    onSuccess: (r) => {
      // An agent's check runs on the agent: its result arrives with the agent's next push.
      if ('queued' in r) toast.success(`${check.name}: ${r.message}`);
      else if (r.pass) toast.success(`${check.name} passed in ${formatDuration(r.durationMs)}`);
      else toast.error(`${check.name} failed: ${r.error || r.message || 'no details'}`);
      void queryClient.invalidateQueries({ queryKey: healthKeys.all });
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  return (
    <>
      <Button asChild variant="outline" size="sm">
        <Link to={`/settings/canaries/${check.canaryId}`}>
          {canEdit ? <Pencil className="size-3.5" aria-hidden /> : <ExternalLink className="size-3.5" aria-hidden />}
          {canEdit ? 'Edit' : 'View definition'}
        </Link>
      </Button>
      <div className="ml-auto flex items-center gap-2">
        <SilenceButton target={{ check_id: check.id }} name={check.name} />
        {!healthOnly && <PlaybooksMenu resource={{ check_id: check.id, label: check.name }} />}
        {!healthOnly && (
          <LinkToIncidentButton
            evidence={{
              type: 'check',
              description: check.name,
              check_id: check.id,
              evidence: {
                check_id: check.id,
                includeMessages: true,
                start: range ?? defaultRangeForLastRun(check.lastRuntime, new Date()),
              },
            }}
          />
        )}
        {canRunChecks(session.roles) && (
          <Button size="sm" loading={run.isPending} onClick={() => run.mutate()}>
            {!run.isPending && <Play className="size-3.5" aria-hidden />}
            Run Now
          </Button>
        )}
      </div>
    </>
  );
}
