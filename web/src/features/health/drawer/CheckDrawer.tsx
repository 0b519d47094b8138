// The check drawer (spec/1 §2 "Check drawer"), full size, opened by ?checkId=: header (icon, name,
// namespace, endpoint, agent badge), metrics for the chosen time range (uptime, latency
// percentiles, severity, last run, transition, next run), the Health Overview chart, tabs History
// / Graph (short screens only) / Spec / Relationships, and the footer actions: Edit, the Playbooks
// menu, Link to Incident and Run Now (admin, editor, responder, commander).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Clock3, ExternalLink, Pencil, Play, SearchX } from 'lucide-react';
import { lazy, Suspense, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { Link } from 'react-router';
import { defaultRangeForLastRun, formatPercent, uptimePercent } from '@opsdeck/common/healthChecks';
import { canRunChecks } from '@opsdeck/common/rbac';
import { relativePreset, shorthandRange, type TimeRange } from '@opsdeck/common/timeRange';
import { errorMessage } from '../../../api/client';
import { useCan, useMode, useSession } from '../../../api/session';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { CodeEditor, formatEditorDocument } from '../../../ui/code-editor';
import { CopyButton } from '../../../ui/copy-button';
import { EmptyState } from '../../../ui/empty-state';
import { LinkToIncidentButton } from '../../../ui/link-to-incident';
import { formatAge, formatDateTime, formatDuration, formatTimeUntil } from '../../../ui/format';
import { Sheet, SheetContent } from '../../../ui/sheet';
import { Skeleton } from '../../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { TimeRangePicker } from '../../../ui/time-range/TimeRangePicker';
import { resolveRangeOrLog } from '../../../ui/time-range/useTimeRange';
import { toast } from '../../../ui/toast';
import { SilenceButton } from '../../notifications';
import { PlaybooksMenu } from '../../playbooks/PlaybooksMenu';
import { InMaintenance } from '../../maintenance/InMaintenance';
import { CheckHealthCell } from '../components/CheckCells';
import { CheckIcon } from '../components/CheckIcon';
import { healthApi } from '../healthApi';
import { healthKeys } from '../keys';
import { LOCAL_AGENT_ID, type CheckRow, type CheckSummary } from '../types';
import { CheckHistory } from './CheckHistory';
import { RelationshipsTab, useCheckRelationships } from './CheckRelationships';

const HealthOverviewChart = lazy(() => import('./HealthOverviewChart'));

/** Below this window height the chart moves from above the tabs into a Graph tab. */
const SHORT_SCREEN = '(max-height: 760px)';
const CHART_BUCKETS = 60;
const LAST_HOUR = relativePreset('1h');

function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      const mq = matchMedia(query);
      mq.addEventListener('change', notify);
      return () => mq.removeEventListener('change', notify);
    },
    () => matchMedia(query).matches,
  );
}

/** What the drawer shows of a check: the summary item when the dashboard has it, else the row. */
interface DrawerCheck {
  id: string;
  canaryId: string;
  canaryName: string | undefined;
  name: string;
  namespace: string | null;
  type: string;
  icon: string | null;
  endpoint: string | null;
  description: string | null;
  agentId: string | null;
  severity: string | null;
  status: CheckSummary['status'];
  lastRuntime: string | null;
  lastTransition: string | null;
  nextRuntime: string | null;
  spec: Record<string, unknown> | null;
}

function drawerCheck(row: CheckRow | null | undefined, summary: CheckSummary | undefined): DrawerCheck | undefined {
  if (!row && !summary) return undefined;
  const spec = row?.spec ?? null;
  const specSeverity = typeof spec?.severity === 'string' ? spec.severity : null;
  return {
    id: (row?.id ?? summary?.id)!,
    canaryId: (row?.canary_id ?? summary?.canary_id)!,
    canaryName: row?.canaries?.name ?? summary?.canary_name,
    name: (row?.name ?? summary?.name)!,
    namespace: row?.namespace ?? summary?.namespace ?? null,
    type: (row?.type ?? summary?.type)!,
    icon: row?.icon ?? summary?.icon ?? null,
    endpoint: row?.endpoint ?? summary?.endpoint ?? null,
    description: row?.description ?? summary?.description ?? null,
    agentId: row?.agent_id ?? summary?.agent_id ?? null,
    severity: row?.severity ?? summary?.severity ?? specSeverity,
    status: row ? row.status : (summary?.status ?? null),
    lastRuntime: row ? row.last_runtime : (summary?.last_runtime ?? null),
    lastTransition: row ? row.last_transition_time : (summary?.last_transition_time ?? null),
    nextRuntime: row ? row.next_runtime : (summary?.next_runtime ?? null),
    spec,
  };
}

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
        header={check ? <DrawerHeader check={check} /> : <Skeleton className="h-10 w-80" />}
        footer={check ? <DrawerFooter check={check} range={initialRange} /> : undefined}
      >
        {check ? (
          <DrawerBody key={check.id} check={check} initialRange={initialRange} />
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

function DrawerHeader({ check }: { check: DrawerCheck }) {
  const agents = useQuery({
    queryKey: healthKeys.agents(check.agentId ? [check.agentId] : []),
    queryFn: ({ signal }) => healthApi.agentNames([check.agentId!], signal),
    enabled: !!check.agentId && check.agentId !== LOCAL_AGENT_ID,
    meta: { silent: true },
  });
  const agent =
    !check.agentId || check.agentId === LOCAL_AGENT_ID ? 'local' : (agents.data?.[check.agentId] ?? 'agent');
  return (
    <div className="flex min-w-0 items-start gap-3.5" data-testid="check-drawer-header">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg border border-border bg-surface-muted">
        <CheckIcon icon={check.icon} type={check.type} className="size-5 text-foreground" />
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="truncate text-[17px] font-semibold tracking-tight" data-testid="check-drawer-title">
            {check.name}
          </h2>
          <CheckHealthCell check={{ status: check.status } as CheckSummary} />
          {check.namespace && <Badge>{check.namespace}</Badge>}
          <Badge tone="primary">
            <span className="sr-only">Agent </span>
            {agent}
          </Badge>
        </div>
        <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-[12.5px] text-muted">
          {check.endpoint && (
            <span className="inline-flex min-w-0 items-center gap-1">
              <span className="truncate font-mono text-[12px]" title={check.endpoint} data-testid="check-endpoint">
                {check.endpoint}
              </span>
              <CopyButton value={check.endpoint} label="Copy endpoint" />
            </span>
          )}
          {check.canaryName && (
            <span>
              <span className="text-subtle">canary</span> {check.canaryName}
            </span>
          )}
          {check.description && <span className="truncate">{check.description}</span>}
        </div>
      </div>
    </div>
  );
}

function Metric({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="min-w-0 rounded-lg border border-border bg-surface px-4 py-3 shadow-card" data-testid={testId}>
      <div className="text-[11.5px] font-medium uppercase tracking-wide text-subtle">{label}</div>
      <div className="mt-1 text-[15px] font-semibold text-foreground">{children}</div>
    </div>
  );
}

function DrawerBody({ check, initialRange }: { check: DrawerCheck; initialRange?: string }) {
  const [range, setRange] = useState<TimeRange | undefined>(() =>
    shorthandRange(initialRange ?? defaultRangeForLastRun(check.lastRuntime, new Date())),
  );
  const short = useMediaQuery(SHORT_SCREEN);
  const [tab, setTab] = useState('history');
  const activeTab = tab === 'graph' && !short ? 'history' : tab;

  // Resolved once per chosen range, so query keys stay stable between renders.
  const rangeKey = JSON.stringify(range);
  const span = useMemo(() => {
    // A cleared (or unreadable) range falls back to the last hour.
    const effective = range && resolveRangeOrLog(range) ? range : LAST_HOUR;
    const r = resolveRangeOrLog(effective)!;
    const endsNow = effective.type === 'relative' && !effective.range.startsWith('now+');
    return {
      from: r.from.toISOString(),
      to: endsNow ? undefined : r.to.toISOString(),
      ms: r.to.getTime() - r.from.getTime() || 3_600_000,
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the serialised range
  }, [rangeKey]);

  const stats = useQuery({
    queryKey: healthKeys.stats(check.id, { range: rangeKey }),
    queryFn: ({ signal }) =>
      healthApi.stats(check.id, { start: span.from, end: span.to, buckets: CHART_BUCKETS }, signal),
    staleTime: 0,
    meta: { silent: true },
  });
  const uptime = stats.data?.uptime;
  const latency = stats.data?.latency;
  const pct = uptime ? uptimePercent(uptime) : undefined;
  const lat = (v: number | null | undefined) => (v === null || v === undefined ? '—' : formatDuration(v));

  const chart = (
    <div className="rounded-lg border border-border bg-surface p-4 shadow-card">
      <div className="mb-2 flex items-center justify-between gap-2">
        <h3 className="text-[13px] font-semibold">Health Overview</h3>
        <div className="flex items-center gap-3 text-[11.5px] text-muted">
          <span className="inline-flex items-center gap-1.5">
            <span className="size-2 rounded-sm bg-success" /> Passed
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="size-2 rounded-sm bg-danger" /> Failed
          </span>
          <span className="inline-flex items-center gap-1.5">
            <span className="h-0.5 w-3 rounded bg-primary" /> Avg duration
          </span>
        </div>
      </div>
      {stats.isPending ? (
        <Skeleton className="h-[200px]" />
      ) : stats.isError ? (
        <p className="py-16 text-center text-[13px] text-danger">{errorMessage(stats.error)}</p>
      ) : !stats.data?.series.length ? (
        <p className="py-16 text-center text-[13px] text-muted">No runs in this time range</p>
      ) : (
        <Suspense fallback={<Skeleton className="h-[200px]" />}>
          <HealthOverviewChart series={stats.data.series} rangeMs={span.ms} />
        </Suspense>
      )}
    </div>
  );

  // Health-only mode has no topology, catalog, playbooks or incidents (common/src/modes.ts).
  const healthOnly = useMode() === 'health';
  const relationships = useCheckRelationships(check.id, !healthOnly);
  // Written out when the Spec tab is shown: a large spec took ~90 ms, on the way to opening the drawer.
  const specShown = activeTab === 'spec';
  const specYaml = useMemo(
    () => (specShown ? formatEditorDocument(check.spec ?? {}, 'yaml') : ''),
    [check.spec, specShown],
  );

  return (
    <div className="space-y-4 p-5 lg:p-6">
      <InMaintenance checkId={check.id} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-[12.5px] text-muted">
          Metrics for <span className="font-medium text-foreground">{range?.display ?? 'the last hour'}</span>
        </p>
        <TimeRangePicker value={range} onChange={setRange} allowFuture={false} />
      </div>
      <div className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-6" data-testid="check-metrics">
        <Metric label="Uptime" testId="metric-uptime">
          {pct === undefined ? <span className="text-subtle">—</span> : formatPercent(pct)}
          {uptime && (
            <div className="mt-0.5 text-[12px] font-normal text-muted tabular-nums">
              <span className="text-success">{uptime.passed} passed</span> ·{' '}
              <span className={uptime.failed ? 'text-danger' : undefined}>{uptime.failed} failed</span>
            </div>
          )}
        </Metric>
        <Metric label="Latency" testId="metric-latency">
          <div className="grid grid-cols-3 gap-2 text-[13px] tabular-nums">
            {(
              [
                ['95%', latency?.p95],
                ['97%', latency?.p97],
                ['99%', latency?.p99],
              ] as const
            ).map(([p, v]) => (
              <div key={p}>
                <div className="text-[11px] font-normal text-subtle">{p}</div>
                <div>{lat(v)}</div>
              </div>
            ))}
          </div>
        </Metric>
        <Metric label="Severity">
          {check.severity ? (
            <span className="capitalize">{check.severity}</span>
          ) : (
            <span className="text-subtle">—</span>
          )}
        </Metric>
        <Metric label="Last Run">
          <span title={formatDateTime(check.lastRuntime)}>{formatAge(check.lastRuntime) || 'Never'}</span>
        </Metric>
        <Metric label="Transitioned">
          <span title={formatDateTime(check.lastTransition)}>
            {formatAge(check.lastTransition) || <span className="text-subtle">—</span>}
          </span>
        </Metric>
        <Metric label="Next Run" testId="metric-next-run">
          <span title={formatDateTime(check.nextRuntime)} className="inline-flex items-center gap-1.5">
            {check.nextRuntime ? (
              <>
                <Clock3 className="size-3.5 text-muted" aria-hidden />
                {formatTimeUntil(check.nextRuntime)}
              </>
            ) : (
              <span className="text-subtle">Not scheduled</span>
            )}
          </span>
        </Metric>
      </div>

      {!short && chart}

      <Tabs value={activeTab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="history">History</TabsTrigger>
          {short && <TabsTrigger value="graph">Graph</TabsTrigger>}
          <TabsTrigger value="spec">Spec</TabsTrigger>
          {!healthOnly && (
            <TabsTrigger value="relationships">
              <span className="inline-flex items-center gap-1.5">
                Relationships
                <span
                  className="rounded-full bg-surface-muted px-1.5 text-[11px] tabular-nums text-muted"
                  data-testid="relationships-count"
                >
                  {relationships.count ?? '…'}
                </span>
              </span>
            </TabsTrigger>
          )}
        </TabsList>
        <TabsContent value="history" className="pt-4">
          <CheckHistory checkId={check.id} from={span.from} to={span.to} />
        </TabsContent>
        {short && (
          <TabsContent value="graph" className="pt-4">
            {chart}
          </TabsContent>
        )}
        <TabsContent value="spec" className="pt-4">
          <CodeEditor language="yaml" value={specYaml} readOnly minHeight="200px" ariaLabel="Check spec" />
        </TabsContent>
        {!healthOnly && (
          <TabsContent value="relationships" className="pt-4">
            <RelationshipsTab relationships={relationships} />
          </TabsContent>
        )}
      </Tabs>
    </div>
  );
}

function DrawerFooter({ check, range }: { check: DrawerCheck; range?: string }) {
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
