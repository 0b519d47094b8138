// /catalog/scrapers (spec/2 §2.1): the ScrapeConfig resources, each opening /catalog/scrapers/{id}.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { Alert } from '../../ui/alert';
import { Breadcrumb } from '../../ui/breadcrumb';
import { DataTable } from '../../ui/data-table';
import { useListState } from '../../ui/list-state';
import { usePageHeader } from '../../ui/page-header';
import { catalogApi } from './catalogApi';
import { DateCell, TagList } from './components/Cells';
import { CatalogTabs } from './components/CatalogTabs';
import { catalogKeys } from './keys';
import type { ScraperRow } from './types';

const columns: ColumnDef<ScraperRow>[] = [
  { id: 'name', header: 'Name', cell: ({ row }) => <span className="font-medium">{row.original.name}</span> },
  { id: 'namespace', header: 'Namespace', cell: ({ row }) => row.original.namespace },
  { id: 'schedule', header: 'Schedule', cell: ({ row }) => row.original.schedule ?? '' },
  { id: 'labels', header: 'Labels', cell: ({ row }) => <TagList tags={row.original.labels} /> },
  { id: 'source', header: 'Source', cell: ({ row }) => row.original.source ?? '' },
  {
    id: 'last_runtime',
    header: 'Last Run',
    cell: ({ row }) => <DateCell value={row.original.last_runtime} relative />,
  },
  { id: 'created_at', header: 'Created', cell: ({ row }) => <DateCell value={row.original.created_at} relative /> },
];

export default function ScrapersPage() {
  const navigate = useNavigate();
  const list = useListState({ defaultPageSize: 50 });
  const page = { pageIndex: list.pageIndex, pageSize: list.pageSize };
  const scrapers = useQuery({
    queryKey: catalogKeys.scrapers(page),
    queryFn: ({ signal }) => catalogApi.scrapers(page, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
  const refetch = scrapers.refetch;
  const onRefresh = useCallback(() => void refetch(), [refetch]);
  usePageHeader({ onRefresh, loading: scrapers.isFetching });
  return (
    <div className="space-y-3">
      <CatalogTabs />
      <Breadcrumb items={[{ label: 'Catalog', to: '/catalog' }, { label: 'Scrapers' }]} />
      {scrapers.isError && <Alert tone="error">{errorMessage(scrapers.error)}</Alert>}
      <DataTable
        aria-label="Scrapers"
        columns={columns}
        data={scrapers.data?.data}
        total={scrapers.data?.total}
        loading={scrapers.isPending}
        list={{ ...list, sortBy: undefined, setSort: () => {} }}
        getRowId={(r) => r.id}
        onRowClick={(r) => navigate(`/catalog/scrapers/${r.id}`)}
      />
    </div>
  );
}
