// The check drawer's body: maintenance notice, time range picker, metric tiles, the Health
// Overview chart (above the tabs, or in a Graph tab on short screens) and the History / Spec /
// Relationships tabs.
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { defaultRangeForLastRun } from '@opsdeck/common/healthChecks';
import { shorthandRange, type TimeRange } from '@opsdeck/common/timeRange';
import { useMode } from '../../../api/session';
import { Skeleton } from '../../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { TimeRangePicker } from '../../../ui/time-range/TimeRangePicker';
import { InMaintenance } from '../../maintenance/InMaintenance';
import { CheckHistory } from './CheckHistory';
import { CheckMetrics } from './CheckMetrics';
import { RelationshipsTab, useCheckRelationships } from './CheckRelationships';
import { type DrawerCheck } from './drawerCheck';
import { HealthOverviewCard } from './HealthOverviewCard';
import { useCheckStats } from './useCheckStats';

/** Below this window height the chart moves from above the tabs into a Graph tab. */
const SHORT_SCREEN = '(max-height: 760px)';

// The Spec tab (and the YAML writer) is loaded when first shown: writing a large spec took ~90 ms and
// the writer's code ~30 kB gzipped, both on the way to opening the drawer before.
const CheckSpec = lazy(() => import('./CheckSpec'));

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

export function CheckDrawerBody({ check, initialRange }: { check: DrawerCheck; initialRange?: string }) {
  const [range, setRange] = useState<TimeRange | undefined>(() =>
    shorthandRange(initialRange ?? defaultRangeForLastRun(check.lastRuntime, new Date())),
  );
  const short = useMediaQuery(SHORT_SCREEN);
  const [tab, setTab] = useState('history');
  const activeTab = tab === 'graph' && !short ? 'history' : tab;

  const { span, stats } = useCheckStats(check.id, range);
  const chart = <HealthOverviewCard stats={stats} rangeMs={span.ms} />;

  // Health-only mode has no topology, catalog, playbooks or incidents (common/src/modes.ts).
  const healthOnly = useMode() === 'health';
  const relationships = useCheckRelationships(check.id, !healthOnly);

  return (
    <div className="space-y-4 p-5 lg:p-6">
      <InMaintenance checkId={check.id} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-[12.5px] text-muted">
          Metrics for <span className="font-medium text-foreground">{range?.display ?? 'the last hour'}</span>
        </p>
        <TimeRangePicker value={range} onChange={setRange} allowFuture={false} />
      </div>
      <CheckMetrics check={check} stats={stats.data} />

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
          <Suspense fallback={<Skeleton className="h-48" />}>
            <CheckSpec spec={check.spec} />
          </Suspense>
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
