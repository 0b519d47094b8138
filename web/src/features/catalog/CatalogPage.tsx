// /catalog (spec/2 §2.1): with neither configType nor search set, the grouped summary (POST
// /api/catalog/summary, default grouping config_class,type); otherwise the paged flat list of
// /api/db/config_items. Every filter, the grouping, sorting and paging live in the query string.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useMemo } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { Alert } from '../../ui/alert';
import { Breadcrumb } from '../../ui/breadcrumb';
import { useListState } from '../../ui/list-state';
import { usePageHeader } from '../../ui/page-header';
import { catalogApi } from './catalogApi';
import { CATALOG_DEFAULTS, drillIntoSummaryRow, isSummaryView, summaryFilter, triStateToList } from './catalogParams';
import { CatalogFilters } from './components/CatalogFilters';
import { CatalogTabs } from './components/CatalogTabs';
import { ConfigListTable } from './components/ConfigListTable';
import { ConfigSummaryTable } from './components/ConfigSummaryTable';
import { catalogKeys, LABELS_STALE_MS, SUMMARY_STALE_MS } from './keys';
import type { SummaryGroup, SummaryRequest } from './types';
import { useCatalogView, useHideDeleted } from './useCatalogView';

export default function CatalogPage() {
  const [view, update] = useCatalogView();
  const [hideDeleted, setHideDeleted] = useHideDeleted();
  const list = useListState({
    defaultPageSize: CATALOG_DEFAULTS.pageSize,
    defaultSortBy: CATALOG_DEFAULTS.sortBy,
    defaultSortOrder: CATALOG_DEFAULTS.sortOrder,
  });
  const navigate = useNavigate();
  const summaryMode = isSummaryView(view);

  const labelOptions = useQuery({
    queryKey: catalogKeys.options('labels'),
    queryFn: ({ signal }) => catalogApi.labelsAndTags(signal),
    staleTime: LABELS_STALE_MS,
  });
  const tagEntries = useMemo(() => new Set(labelOptions.data?.tagEntries ?? []), [labelOptions.data]);
  const summaryRequest: SummaryRequest = {
    groupBy: view.groupBy,
    deleted: !hideDeleted,
    filter: summaryFilter(view.labels, tagEntries),
    health: triStateToList(view.health),
    status: triStateToList(view.status),
    ...(view.agent !== 'all' && { agent: view.agent }),
    changes: { since: '30d' },
    analysis: { since: '30d' },
    cost: '30d',
  };
  const summary = useQuery({
    queryKey: catalogKeys.summary(summaryRequest),
    queryFn: ({ signal }) => catalogApi.summary(summaryRequest, signal),
    // Label filters need to know which entries are tags before the first request.
    enabled: summaryMode && (Object.keys(view.labels).length === 0 || !labelOptions.isPending),
    staleTime: SUMMARY_STALE_MS,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });

  const listView = {
    ...view,
    pageIndex: list.pageIndex,
    pageSize: list.pageSize,
    sortBy: list.sortBy ?? 'type',
    sortOrder: list.sortOrder,
  };
  const items = useQuery({
    queryKey: catalogKeys.list({ ...listView, hideDeleted }),
    queryFn: ({ signal }) => catalogApi.list(listView, hideDeleted, signal),
    enabled: !summaryMode,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });

  const current = summaryMode ? summary : items;
  const refetch = current.refetch;
  const onRefresh = useCallback(() => void refetch(), [refetch]);
  usePageHeader({ onRefresh, loading: current.isFetching });

  const openGroup = (row: SummaryGroup) => update(drillIntoSummaryRow(row, view.groupBy, view.labels));

  return (
    <div className="space-y-3" data-testid="catalog-page">
      <CatalogTabs />
      {view.configType && <Breadcrumb items={[{ label: 'Catalog', to: '/catalog' }, { label: view.configType }]} />}
      <CatalogFilters view={view} update={update} hideDeleted={hideDeleted} setHideDeleted={setHideDeleted} />
      {current.isError && <Alert tone="error">{errorMessage(current.error)}</Alert>}
      {summaryMode ? (
        <ConfigSummaryTable
          groups={summary.data?.groups}
          groupBy={view.groupBy}
          loading={summary.isPending || (summary.isFetching && summary.isPlaceholderData)}
          onOpen={openGroup}
        />
      ) : (
        <ConfigListTable
          rows={items.data?.data}
          total={items.data?.total}
          loading={items.isPending || (items.isFetching && items.isPlaceholderData)}
          list={list}
          singleType={!!view.configType}
          onOpen={(row) => navigate(`/catalog/${row.id}`)}
        />
      )}
    </div>
  );
}
