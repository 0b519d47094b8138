// /health: the health dashboard (spec/1 §2). The summary is fetched for the chosen time range
// and polled at the chosen refresh rate (a superseded request is aborted); search, label filters,
// Agent, Hide Passing, tabs, grouping, sorting and layout all live in the query string and are applied
// here, in the browser. ?checkId= opens the check drawer.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { createElement, useCallback, useEffect, useMemo, useRef, useState, type ComponentProps } from 'react';
import { defaultRangeForLastRun } from '@opsdeck/common/healthChecks';
import { durationMinutes, shorthandRange, TIME_RANGE_OPTIONS } from '@opsdeck/common/timeRange';
import { errorMessage } from '../../api/client';
import { Alert } from '../../ui/alert';
import { cn } from '../../ui/cn';
import { prepareDateFormat } from '../../ui/format';
import { Select } from '../../ui/input';
import { usePageHeader } from '../../ui/page-header';
import { RefreshRateMenu, useRefreshRate } from '../../ui/refresh-rate';
import {
  ALL_TAB,
  filterForTabs,
  groupChecks,
  healthCounts,
  labelCatalogue,
  sortChecks,
  tabsOf,
  visibleChecks,
} from './checkFilters';
import { ChecksCards } from './components/ChecksCards';
import { ChecksTable } from './components/ChecksTable';
import { FilterBar } from './components/FilterBar';
import { FilterSidebar } from './components/FilterSidebar';
import { HealthDot } from './components/HealthDot';
import { healthApi } from './healthApi';
import { healthKeys } from './keys';
import { LOCAL_AGENT_ID, type CheckSummary } from './types';
import { summaryStart } from './healthParams';
import { useHealthView } from './useHealthView';

type DrawerComponent = typeof import('./drawer/CheckDrawer').default;
/** The drawer's module once loaded. */
let loadedDrawer: DrawerComponent | undefined;
let drawerLoading: Promise<DrawerComponent> | undefined;
const loadDrawer = () =>
  (drawerLoading ??= import('./drawer/CheckDrawer').then(
    (m) => (loadedDrawer = m.default),
    (error: unknown) => {
      drawerLoading = undefined; // asked again on the next click
      throw error;
    },
  ));
/** How long the pointer rests on a row before the drawer's check row is fetched. */
const HOVER_PREFETCH_MS = 120;

// The drawer's code (its chunk and ~20 small ones it imports) is fetched as soon as this page's code
// is in: the page then waits for the session and the summary, and the drawer's code arrives and is
// evaluated in that wait. Fetched when the browser was idle instead, it was often not in by the
// first click (the page's first render keeps the main thread busy), and a click then waited for it.
void loadDrawer().catch(() => undefined);

/**
 * The drawer once its code is in: rendered directly, not through React.lazy, whose Suspense
 * boundary React reveals up to 300 ms late (its fallback throttling). Opened before the code is in,
 * it renders nothing until it arrives; a failed load shows the route's error page.
 */
function Drawer(props: ComponentProps<DrawerComponent>) {
  const [state, setState] = useState<{ Component?: DrawerComponent; error?: unknown }>({});
  const Component = state.Component ?? loadedDrawer;
  useEffect(() => {
    // Also when the code arrived between this render and now: this render did not have it.
    if (!Component)
      loadDrawer().then(
        (loaded) => setState({ Component: loaded }),
        (error: unknown) => setState({ error }),
      );
  }, [Component]);
  if (state.error) throw state.error;
  return Component ? createElement(Component, props) : null;
}

function rangeLabel(range: string): string {
  return shorthandRange(range)?.display ?? range;
}

export default function HealthPage() {
  const [view, update] = useHealthView();
  // Without a range in the link, the range follows the age of the most recent run (spec/1 §9).
  const [derivedRange, setDerivedRange] = useState<string>('1h');
  const range = view.timeRange ?? derivedRange;
  const refresh = useRefreshRate('health', durationMinutes(range));

  const start = summaryStart(range);
  // The page load's early answer, when already read, is the first data: no loading table first.
  const [ready] = useState(() => ({ start, answer: healthApi.readySummary(start) }));
  const first = ready.start === start ? ready.answer : undefined;
  const summary = useQuery({
    queryKey: healthKeys.summary({ start }),
    queryFn: ({ signal }) => healthApi.summary(start, signal),
    initialData: first?.summary,
    initialDataUpdatedAt: first?.at,
    // An answer this young is not asked for again when the page mounts (the server's are ≤ 5 s old).
    staleTime: 5_000,
    placeholderData: keepPreviousData,
    refetchInterval: refresh.intervalMs,
    // Unchanged checks keep their objects (consoleSummary.ts); no deep comparison of 10,000 checks.
    structuralSharing: false,
    meta: { silent: true }, // shown above the table
  });
  const all = useMemo(() => summary.data?.checks_summary ?? [], [summary.data]);
  // The rows' tooltips and the drawer show full dates: their format is made once the browser idles.
  const shown = all.length > 0;
  useEffect(() => {
    if (shown) prepareDateFormat();
  }, [shown]);

  const [derivedFrom, setDerivedFrom] = useState<unknown>(undefined);
  if (!view.timeRange && summary.data && !summary.isPlaceholderData && derivedFrom !== summary.data) {
    setDerivedFrom(summary.data);
    const newest = all.reduce<string | null>(
      (m, c) => (c.last_runtime && (!m || c.last_runtime > m) ? c.last_runtime : m),
      null,
    );
    const next = defaultRangeForLastRun(newest, new Date());
    if (next !== derivedRange) setDerivedRange(next);
  }

  // The filters only: opening or closing the drawer (checkId) must not filter, sort and group
  // thousands of checks again.
  const filterKey = JSON.stringify([
    view.query,
    view.labels,
    view.agent,
    view.hidePassing,
    view.tab,
    view.tabBy,
    view.sortBy,
    view.sortDesc,
    view.groupBy,
  ]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the serialised filters
  const filters = useMemo(() => view, [filterKey]);
  const labels = useMemo(() => labelCatalogue(all), [all]);
  const forTabs = useMemo(() => filterForTabs(all, filters), [all, filters]);
  const tabs = useMemo(() => tabsOf(forTabs, filters.tabBy), [forTabs, filters.tabBy]);
  const groups = useMemo(
    () => groupChecks(sortChecks(visibleChecks(all, filters), filters.sortBy, filters.sortDesc), filters.groupBy),
    [all, filters],
  );
  const counts = useMemo(() => healthCounts(forTabs), [forTabs]);

  const agentIds = useMemo(
    () => [...new Set(all.map((c) => c.agent_id).filter((id): id is string => !!id && id !== LOCAL_AGENT_ID))].sort(),
    [all],
  );
  const agents = useQuery({
    queryKey: healthKeys.agents(agentIds),
    queryFn: ({ signal }) => healthApi.agentNames(agentIds, signal),
    enabled: view.tabBy === 'agent' && agentIds.length > 0,
    meta: { silent: true },
  });
  const tabLabel = (value: string) =>
    view.tabBy === 'agent' ? (value === LOCAL_AGENT_ID ? 'local' : (agents.data?.[value] ?? value)) : value;

  const open = useCallback((c: CheckSummary) => update({ checkId: c.id }), [update]);

  // A row the pointer rests on has the check row the drawer reads asked for (the rest of the drawer
  // shows what the summary has), and the drawer's code if it is not in yet (see below).
  const queryClient = useQueryClient();
  const hoverTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(hoverTimer.current), []);
  const prepare = useCallback(
    (c: CheckSummary) => {
      void loadDrawer().catch(() => undefined);
      clearTimeout(hoverTimer.current);
      hoverTimer.current = setTimeout(
        () =>
          void queryClient.prefetchQuery({
            queryKey: healthKeys.check(c.id),
            queryFn: ({ signal }) => healthApi.check(c.id, signal),
            staleTime: 10_000,
            meta: { silent: true }, // a failure shows in the drawer, if it is opened
          }),
        HOVER_PREFETCH_MS,
      );
    },
    [queryClient],
  );
  const refetch = summary.refetch;
  const onRefresh = useCallback(() => void refetch(), [refetch]);

  const extra = useMemo(
    () => (
      <>
        <div
          className="inline-flex h-8 items-center gap-3 rounded-md border border-border bg-surface px-3 text-[13px] shadow-sm"
          data-testid="health-counts"
        >
          <span className="inline-flex items-center gap-1.5" data-testid="health-passing">
            <HealthDot health="healthy" label="passing" />
            <strong className="font-semibold tabular-nums">{counts.passing}</strong>
            <span className="text-muted">passing</span>
          </span>
          <span className="h-4 w-px bg-border" aria-hidden />
          <span className="inline-flex items-center gap-1.5" data-testid="health-failing">
            <HealthDot health="unhealthy" label="failing" />
            <strong className="font-semibold tabular-nums">{counts.failing}</strong>
            <span className="text-muted">failing</span>
          </span>
        </div>
        <Select
          aria-label="Time range"
          data-testid="health-time-range"
          className="h-8 w-40 text-[13px]"
          value={range}
          onChange={(e) => update({ timeRange: e.target.value })}
        >
          {TIME_RANGE_OPTIONS.map((r) => (
            <option key={r} value={r}>
              {rangeLabel(r)}
            </option>
          ))}
        </Select>
        <RefreshRateMenu state={refresh} />
      </>
    ),
    [counts.passing, counts.failing, range, refresh, update],
  );
  usePageHeader({ extra, onRefresh, loading: summary.isFetching });

  const loading = summary.isPending || (summary.isFetching && summary.isPlaceholderData);
  const tabValues = tabs.map((t) => t.value);
  const selectedMissing = view.tab !== ALL_TAB && !tabValues.includes(view.tab);

  return (
    <div className="grid gap-5 lg:grid-cols-[248px_minmax(0,1fr)]">
      <FilterSidebar
        hidePassing={view.hidePassing}
        onHidePassing={(hidePassing) => update({ hidePassing })}
        labels={labels}
        value={view.labels}
        onChange={(labels) => update({ labels })}
      />
      <div className="min-w-0 space-y-3">
        <FilterBar view={view} update={update} labels={labels} />
        <div
          role="tablist"
          aria-label={`Checks by ${view.tabBy}`}
          className="flex gap-1 overflow-x-auto border-b border-border"
          data-testid="health-tabs"
        >
          {[
            { value: ALL_TAB, label: 'All', count: forTabs.length },
            ...tabs.map((t) => ({ value: t.value, label: tabLabel(t.value), count: t.count })),
            ...(selectedMissing ? [{ value: view.tab, label: tabLabel(view.tab), count: 0 }] : []),
          ].map((t) => {
            const active = view.tab === t.value;
            return (
              <button
                key={t.value}
                type="button"
                role="tab"
                aria-selected={active}
                onClick={() => update({ tab: t.value })}
                className={cn(
                  '-mb-px inline-flex cursor-pointer items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 text-[13px] font-medium transition-colors',
                  active ? 'border-primary text-foreground' : 'border-transparent text-muted hover:text-foreground',
                )}
              >
                {t.label}
                <span
                  className={cn(
                    'rounded-full px-1.5 text-[11px] tabular-nums',
                    active ? 'bg-primary-soft text-primary' : 'bg-surface-muted text-muted',
                  )}
                >
                  {t.count}
                </span>
              </button>
            );
          })}
        </div>
        {summary.isError && <Alert tone="error">{errorMessage(summary.error)}</Alert>}
        {view.layout === 'card' ? (
          <ChecksCards groups={groups} groupBy={view.groupBy} loading={loading} onOpen={open} />
        ) : (
          <ChecksTable
            groups={groups}
            groupBy={view.groupBy}
            loading={loading}
            sortBy={view.sortBy}
            sortDesc={view.sortDesc}
            onSort={(sortBy, sortDesc) => update({ sortBy, sortDesc })}
            onOpen={open}
            onPrepare={prepare}
          />
        )}
      </div>
      {view.checkId && (
        <Drawer
          checkId={view.checkId}
          summary={all.find((c) => c.id === view.checkId)}
          initialRange={view.timeRange}
          onClose={() => update({ checkId: undefined })}
        />
      )}
    </div>
  );
}
