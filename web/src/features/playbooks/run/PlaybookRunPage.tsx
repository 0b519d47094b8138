// /playbooks/runs/{id} (spec/3 §2, §5): the run's header (playbook, status, resource, who started
// it, its trigger, times, duration, parameters), Re-run and Cancel, the approval panel of a playbook
// with approval, its steps and the selected step's output.
// The run refreshes every 2 s until it finishes; the selected action every 1 s until it does.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Ban, RotateCcw, SearchX } from 'lucide-react';
import { useCallback, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../api/client';
import { useCan } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { EmptyState } from '../../../ui/empty-state';
import { formatDateTime, formatDuration } from '../../../ui/format';
import { usePageHeader } from '../../../ui/page-header';
import { Skeleton } from '../../../ui/skeleton';
import { toast, toastError } from '../../../ui/toast';
import { playbookKeys, playbooksApi } from '../playbooksApi';
import { RunPlaybookModal } from '../RunPlaybookModal';
import { runResource } from '../runsFilters';
import type { PlaybookRunDetail, RunTrigger } from '../types';
import { ApprovalPanel } from './ApprovalPanel';
import { RunStatusBadge, StatusIcon } from './RunStatus';
import { runKeys, runsApi } from './runsApi';
import {
  actionRefetchInterval,
  durationMs,
  isRunFinished,
  runRefetchInterval,
  runSteps,
  selectedStepId,
  type RunStep,
} from './runSteps';
import { ActionArtifacts } from './ActionArtifacts';
import { StepOutput } from './StepOutput';

export const RUN_NOT_FOUND = 'Not found';
export const RUN_CANCELLED = 'Playbook run cancelled';

export default function PlaybookRunPage() {
  const { id = '' } = useParams();
  const run = useQuery({
    queryKey: playbookKeys.run(id),
    queryFn: ({ signal }) => playbooksApi.runDetail(id, signal),
    refetchInterval: (q) => (q.state.data ? runRefetchInterval(q.state.data.status) : false),
    staleTime: 0,
    meta: { silent: true },
  });
  const refetch = run.refetch;
  const onRefresh = useCallback(() => void refetch(), [refetch]);
  usePageHeader({ onRefresh, loading: run.isFetching });

  if (run.isPending)
    return (
      <div className="space-y-4">
        <Skeleton className="h-28 w-full" />
        <Skeleton className="h-64 w-full" />
      </div>
    );
  if (run.isError && run.error instanceof ApiError && run.error.status === 404)
    return <EmptyState icon={SearchX} title={RUN_NOT_FOUND} description="There is no playbook run with this id." />;
  if (run.isError) return <Alert tone="error">{errorMessage(run.error)}</Alert>;
  return <RunView run={run.data} />;
}

function Info({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-[12px] text-muted">{label}</dt>
      <dd className="mt-0.5 truncate text-[13px] text-foreground">{children || '—'}</dd>
    </div>
  );
}

/** What started the run, in words: a person (manual), an event, a schedule or a webhook. */
export function triggerText(trigger: RunTrigger | undefined): string {
  switch (trigger?.type) {
    case 'event':
      return `Event ${trigger.event ?? ''}`.trim();
    case 'schedule':
      return `Schedule ${trigger.schedule ?? ''}`.trim();
    case 'webhook':
      return `Webhook ${trigger.path ?? ''}`.trim();
    default:
      return 'Manual';
  }
}

function resourceOf(run: PlaybookRunDetail): { href: string; label: string; kind: string } | undefined {
  const ref = runResource(run);
  if (!ref) return undefined;
  const named = run[ref.kind];
  return { href: ref.href, label: named?.name ?? ref.id, kind: named?.type ?? ref.kind };
}

function RunView({ run }: { run: PlaybookRunDetail }) {
  const queryClient = useQueryClient();
  // Re-run starts a run and Cancel stops one: both need write on playbooks (as the server asks).
  const canRun = useCan('playbooks', 'write');
  const [rerunOpen, setRerunOpen] = useState(false);
  const [requested, setRequested] = useState<string>();
  const steps = runSteps(run);
  const selectedId = selectedStepId(steps, requested);
  const selected = steps.find((s) => s.id === selectedId);
  const resource = resourceOf(run);
  const startedBy = useQuery({
    queryKey: runKeys.person(run.created_by ?? ''),
    queryFn: ({ signal }) => runsApi.person(run.created_by!, signal),
    enabled: !!run.created_by,
  });

  const cancel = useMutation({
    mutationFn: () => playbooksApi.cancel(run.id),
    onSuccess: () => {
      toast.success(RUN_CANCELLED);
      void queryClient.invalidateQueries({ queryKey: playbookKeys.run(run.id) });
    },
    onError: toastError,
  });

  const title = run.playbooks.title || run.playbooks.name;
  const parameters = Object.entries(run.parameters ?? {});
  const running = !isRunFinished(run.status);

  return (
    <div className="space-y-4" data-testid="playbook-run">
      <div className="rounded-lg border border-border bg-surface p-4 shadow-card">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="min-w-0 truncate text-[16px] font-semibold">
            <Link to={`/playbooks/${run.playbook_id}`} className="hover:underline">
              {title}
            </Link>
          </h1>
          <RunStatusBadge status={run.status} />
          <div className="ml-auto flex gap-2">
            {running && canRun && (
              <Button variant="outline" size="sm" loading={cancel.isPending} onClick={() => cancel.mutate()}>
                <Ban className="size-3.5" /> Cancel
              </Button>
            )}
            {canRun && (
              <Button variant="outline" size="sm" onClick={() => setRerunOpen(true)}>
                <RotateCcw className="size-3.5" /> Re-run
              </Button>
            )}
          </div>
        </div>
        <dl className="mt-3 grid grid-cols-2 gap-x-6 gap-y-2 md:grid-cols-4 xl:grid-cols-7" data-testid="run-info">
          <Info label="Resource">
            {resource && (
              <Link to={resource.href} className="text-primary hover:underline" title={resource.kind}>
                {resource.label}
              </Link>
            )}
          </Info>
          <Info label="Started by">{startedBy.data ?? (run.created_by ? '' : 'System')}</Info>
          <Info label="Started">{formatDateTime(run.start_time ?? run.scheduled_time)}</Info>
          <Info label="Ended">{formatDateTime(run.end_time)}</Info>
          <Info label="Duration">{formatDuration(durationMs(run.start_time, run.end_time))}</Info>
          <Info label="Playbook">{run.playbooks.name}</Info>
          <Info label="Trigger">
            <span data-testid="run-trigger">{triggerText(run.trigger)}</span>
          </Info>
        </dl>
        {parameters.length > 0 && (
          <div className="mt-3">
            <h2 className="text-[12px] text-muted">Parameters</h2>
            <dl
              className="mt-1 grid gap-x-4 gap-y-1 text-[13px] sm:grid-cols-[max-content_minmax(0,1fr)]"
              data-testid="run-parameters"
            >
              {parameters.map(([name, value]) => (
                <div key={name} className="contents">
                  <dt className="font-medium">{name}</dt>
                  <dd className="min-w-0 break-words font-mono text-[12.5px] whitespace-pre-wrap">
                    {typeof value === 'string' ? value : JSON.stringify(value)}
                  </dd>
                </div>
              ))}
            </dl>
          </div>
        )}
      </div>

      {run.approval && <ApprovalPanel run={run} approval={run.approval} />}

      <div className="grid gap-4 lg:grid-cols-[280px_minmax(0,1fr)]">
        <StepList steps={steps} selectedId={selectedId} onSelect={setRequested} />
        <div className="min-w-0 rounded-lg border border-border bg-surface p-4 shadow-card">
          {selected ? (
            <SelectedStep key={selected.id} run={run} step={selected} />
          ) : (
            <p className="text-[13px] text-muted">
              {run.status === 'pending_approval'
                ? 'Waiting for approval...'
                : running
                  ? 'Waiting for the first action...'
                  : 'This run has no actions.'}
            </p>
          )}
        </div>
      </div>

      {rerunOpen && (
        <RunPlaybookModal
          playbook={{ id: run.playbook_id, name: run.playbooks.name, title: run.playbooks.title }}
          resource={{
            ...(run.config_id ? { config_id: run.config_id } : {}),
            ...(run.component_id ? { component_id: run.component_id } : {}),
            ...(run.check_id ? { check_id: run.check_id } : {}),
            label: resource?.label,
          }}
          open={rerunOpen}
          onOpenChange={setRerunOpen}
          rerun={{ runId: run.id, params: run.parameters ?? {} }}
        />
      )}
    </div>
  );
}

function StepList({
  steps,
  selectedId,
  onSelect,
}: {
  steps: RunStep[];
  selectedId: string | undefined;
  onSelect(id: string): void;
}) {
  return (
    <ol
      aria-label="Actions"
      className="h-fit divide-y divide-border overflow-hidden rounded-lg border border-border bg-surface shadow-card"
    >
      {steps.map((s) => {
        const duration = formatDuration(durationMs(s.start_time, s.end_time));
        const active = s.id === selectedId;
        return (
          <li key={s.id} data-testid="run-step" data-status={s.status}>
            <button
              type="button"
              disabled={!s.clickable}
              aria-current={active ? 'step' : undefined}
              onClick={() => onSelect(s.id)}
              className={cn(
                'flex w-full items-center gap-2 px-3 py-2.5 text-left text-[13px]',
                s.clickable ? 'cursor-pointer hover:bg-surface-hover' : 'cursor-not-allowed text-subtle',
                active && 'bg-primary-soft font-medium',
              )}
            >
              <StatusIcon status={s.status} />
              <span className="min-w-0 flex-1 truncate">{s.name}</span>
              {s.status === 'skipped' ? (
                <span className="text-[12px] text-subtle">skipped</span>
              ) : (
                duration && <span className="shrink-0 text-[12px] tabular-nums text-muted">{duration}</span>
              )}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

function SelectedStep({ run, step }: { run: PlaybookRunDetail; step: RunStep }) {
  const fromRun = run.actions.find((a) => a.id === step.id);
  const action = useQuery({
    queryKey: runKeys.action(run.id, step.id),
    queryFn: ({ signal }) => runsApi.action(step.id, signal),
    enabled: !step.synthetic,
    initialData: fromRun,
    staleTime: 0,
    refetchInterval: (q) => actionRefetchInterval(q.state.data?.status ?? step.status, run.status),
    meta: { silent: true },
  });
  if (action.isError) return <Alert tone="error">{errorMessage(action.error)}</Alert>;
  return (
    <div className="min-w-0 space-y-3">
      <StepOutput step={step} action={step.synthetic ? undefined : action.data} loading={action.isFetching} />
      {!step.synthetic && action.data && <ActionArtifacts runId={run.id} action={action.data} />}
    </div>
  );
}
