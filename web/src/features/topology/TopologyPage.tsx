// /topology and /topology/{id} (spec/2 §2.6): the grid of component cards under a breadcrumb
// (Dashboard plus the ancestors of the component), the filters and sort of the query string, the
// card width slider, and for an id the side panel, the snapshot and link-to-catalog dialogs.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Boxes } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { useCan, useSession } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Breadcrumb } from '../../ui/breadcrumb';
import { EmptyState } from '../../ui/empty-state';
import { usePageHeader } from '../../ui/page-header';
import { LinkToIncidentDialog } from '../../ui/link-to-incident';
import { Skeleton } from '../../ui/skeleton';
import { useStoredState } from '../../ui/storage';
import { CARD_WIDTH_DEFAULT, CARD_WIDTH_STORAGE_KEY, clampCardWidth, isCardWidth } from './cardSize';
import { effectiveSort, isStoredSort, SORT_STORAGE_KEY, sortChoices, type StoredSort } from './cardSort';
import { LinkCatalogDialog } from './components/LinkCatalogDialog';
import { SnapshotDialog } from './components/SnapshotDialog';
import { TopologyCard, type CardLinks } from './components/TopologyCard';
import { TopologyFilters } from './components/TopologyFilters';
import { topologyKeys } from './keys';
import { MULTIPLE_COMPONENTS, NO_MATCH } from './messages';
import { ComponentSidePanel } from './panel/ComponentSidePanel';
import { topologyApi } from './topologyApi';
import {
  ancestorIds,
  readTopologyView,
  topologyQuery,
  writeTopologyView,
  zoomInUrl,
  type TopologyViewChange,
} from './topologyParams';
import type { TopologyComponent } from './types';

export default function TopologyPage() {
  const { id } = useParams<{ id: string }>();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => readTopologyView(params), [params]);
  const update = useCallback(
    (changes: TopologyViewChange) => setParams((prev) => writeTopologyView(prev, changes), { replace: true }),
    [setParams],
  );

  const session = useSession();
  const logsEnabled = !session.disabledFeatures.includes('logs');
  const incidentsEnabled = !session.disabledFeatures.includes('incidents');
  const canLinkConfig = useCan('topologies', 'write');
  const canLinkIncident = useCan('incident', 'write');

  const [storedSort, setStoredSort] = useStoredState<StoredSort | null>(SORT_STORAGE_KEY, null, isStoredSort);
  const sort = effectiveSort(view, storedSort);
  const onSort = (next: StoredSort) => {
    setStoredSort(next);
    update({ sortBy: next.sortBy, sortOrder: next.sortOrder });
  };
  const [storedWidth, setWidth] = useStoredState<number>(CARD_WIDTH_STORAGE_KEY, CARD_WIDTH_DEFAULT, isCardWidth);
  const width = clampCardWidth(storedWidth);

  const query = useMemo(() => topologyQuery(id, view, sort), [id, view, sort]);
  const cards = useQuery({
    queryKey: topologyKeys.cards(query),
    queryFn: ({ signal }) => topologyApi.cards(query, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true }, // shown on the page
  });
  const labels = useQuery({
    queryKey: topologyKeys.labels(),
    queryFn: ({ signal }) => topologyApi.labels(signal),
    meta: { silent: true },
  });
  const agents = useQuery({
    queryKey: topologyKeys.agents(),
    queryFn: ({ signal }) => topologyApi.agents(signal),
    meta: { silent: true },
  });

  const liveAgents = useMemo(() => (agents.data ?? []).filter((a) => !a.deleted_at), [agents.data]);

  const response = cards.data;
  const root: TopologyComponent | undefined = id ? response?.components.find((c) => c.id === id) : undefined;
  const multiple = !!id && (response?.components.length ?? 0) > 1;
  let shown: TopologyComponent[] = [];
  if (response) {
    if (!id) shown = response.components;
    else if (root) shown = root.components.length ? root.components : root.is_leaf ? [root] : [];
  }

  const ancestors = useMemo(() => ancestorIds(root?.path), [root?.path]);
  const names = useQuery({
    queryKey: topologyKeys.names(ancestors),
    queryFn: ({ signal }) => topologyApi.names(ancestors, signal),
    enabled: ancestors.length > 0,
    meta: { silent: true },
  });

  const refetch = cards.refetch;
  const onRefresh = useCallback(() => void refetch(), [refetch]);
  usePageHeader({ onRefresh, loading: cards.isFetching });

  const [snapshotOf, setSnapshotOf] = useState<TopologyComponent | null>(null);
  const [linkOf, setLinkOf] = useState<TopologyComponent | null>(null);
  const [incidentOf, setIncidentOf] = useState<TopologyComponent | null>(null);

  const links: CardLinks = {
    zoomTo: (target) => zoomInUrl(target, params, id),
    logsEnabled,
    incidentsEnabled,
    onSnapshot: setSnapshotOf,
    onLinkIncident: canLinkIncident && incidentsEnabled ? setIncidentOf : undefined,
    agent: (agentId) => agents.data?.find((a) => a.id === agentId),
  };

  const dashboardLink = (() => {
    const next = new URLSearchParams(params);
    next.delete('refererId');
    next.delete('status');
    const qs = next.toString();
    return `/topology${qs ? `?${qs}` : ''}`;
  })();
  const crumbs: Array<{ label: string; to?: string }> = [{ label: 'Dashboard', to: id ? dashboardLink : undefined }];
  for (const a of ancestors) {
    crumbs.push({ label: names.data?.find((n) => n.id === a)?.name ?? '…', to: zoomInUrl(a, params, id) });
  }
  if (id) crumbs.push({ label: root?.name ?? '…' });

  return (
    <div className="space-y-4">
      <Breadcrumb items={crumbs} />
      <TopologyFilters
        view={view}
        update={update}
        types={response?.types ?? []}
        teams={response?.teams ?? []}
        healthStatuses={response?.healthStatuses ?? []}
        labels={labels.data ?? []}
        agents={liveAgents}
        sort={sort}
        sortChoices={sortChoices(shown)}
        onSort={onSort}
        width={width}
        onWidth={setWidth}
      />
      {multiple && <Alert tone="warning">{MULTIPLE_COMPONENTS}</Alert>}
      <div className={id && root ? 'grid gap-4 lg:grid-cols-[minmax(0,1fr)_400px]' : undefined}>
        <div className="min-w-0">
          {cards.isError ? (
            <Alert tone="error">{errorMessage(cards.error)}</Alert>
          ) : cards.isPending ? (
            <div className="flex flex-wrap gap-3" data-testid="cards-skeleton">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-44 w-80" />
              ))}
            </div>
          ) : shown.length === 0 ? (
            <EmptyState icon={Boxes} title={NO_MATCH} />
          ) : (
            <div className="flex flex-wrap items-start gap-3" data-testid="topology-cards">
              {shown.map((c) => (
                <TopologyCard key={c.id} component={c} width={width} links={links} selected={c.id === id} />
              ))}
            </div>
          )}
        </div>
        {id && root && (
          <ComponentSidePanel
            key={root.id}
            component={root}
            incidentsEnabled={incidentsEnabled}
            canLinkConfig={canLinkConfig}
            onSnapshot={() => setSnapshotOf(root)}
            onLinkConfig={() => setLinkOf(root)}
          />
        )}
      </div>
      <SnapshotDialog component={snapshotOf} onClose={() => setSnapshotOf(null)} />
      <LinkCatalogDialog component={linkOf} onClose={() => setLinkOf(null)} />
      {incidentOf && (
        <LinkToIncidentDialog
          open
          onOpenChange={(open) => !open && setIncidentOf(null)}
          evidence={{ type: 'topology', component_id: incidentOf.id, description: incidentOf.name }}
        />
      )}
    </div>
  );
}
