// /catalog/scrapers/{id} (spec/2 §2.1): one ScrapeConfig with the tabs Spec (the resource as YAML,
// Run Now, and a link to edit it in Settings) and Job History (its runs from job_history).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Play } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { stringify } from 'yaml';
import { errorMessage } from '../../api/client';
import { Alert } from '../../ui/alert';
import { Badge } from '../../ui/badge';
import { Breadcrumb } from '../../ui/breadcrumb';
import { Button } from '../../ui/button';
import { CodeEditor } from '../../ui/code-editor';
import { DataTable } from '../../ui/data-table';
import { EmptyState } from '../../ui/empty-state';
import { formatDuration } from '../../ui/format';
import { Skeleton } from '../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { toast, toastError } from '../../ui/toast';
import { catalogApi } from './catalogApi';
import { DateCell } from './components/Cells';
import { CatalogTabs } from './components/CatalogTabs';
import { catalogKeys } from './keys';
import type { JobRunRow } from './types';

const jobColumns: ColumnDef<JobRunRow>[] = [
  {
    id: 'time_start',
    header: 'Started',
    cell: ({ row }) => <DateCell value={row.original.time_start ?? row.original.created_at} />,
  },
  {
    id: 'status',
    header: 'Status',
    cell: ({ row }) => (
      <Badge
        tone={row.original.status === 'SUCCESS' ? 'success' : row.original.status === 'FAILED' ? 'danger' : 'warning'}
      >
        {row.original.status}
      </Badge>
    ),
  },
  { id: 'duration', header: 'Duration', cell: ({ row }) => formatDuration(row.original.duration_millis) },
  { id: 'success_count', header: 'Success', cell: ({ row }) => row.original.success_count ?? 0 },
  { id: 'error_count', header: 'Errors', cell: ({ row }) => row.original.error_count ?? 0 },
  {
    id: 'details',
    header: 'Details',
    cell: ({ row }) => {
      const d = row.original.details as { errors?: unknown } | null;
      const errors = Array.isArray(d?.errors) ? d.errors.map(String).join('; ') : '';
      return <span className="line-clamp-2 max-w-md text-[12px] text-muted">{errors}</span>;
    },
  },
];

function JobHistory({ id }: { id: string }) {
  const [pageIndex, setPageIndex] = useState(0);
  const [pageSize, setPageSize] = useState(25);
  const page = { pageIndex, pageSize };
  const jobs = useQuery({
    queryKey: catalogKeys.scraperJobs(id, page),
    queryFn: ({ signal }) => catalogApi.scraperJobs(id, page, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
  return (
    <div className="space-y-3">
      {jobs.isError && <Alert tone="error">{errorMessage(jobs.error)}</Alert>}
      <DataTable
        aria-label="Job history"
        columns={jobColumns}
        data={jobs.data?.data}
        total={jobs.data?.total}
        loading={jobs.isPending}
        list={{
          pageIndex,
          pageSize,
          sortBy: undefined,
          sortOrder: 'desc',
          setPageIndex,
          setPageSize: (s) => {
            setPageSize(s);
            setPageIndex(0);
          },
          setSort: () => {},
        }}
        getRowId={(r) => r.id}
      />
    </div>
  );
}

export default function ScraperDetailPage() {
  const { id = '' } = useParams();
  const client = useQueryClient();
  const scraper = useQuery({
    queryKey: catalogKeys.scraper(id),
    queryFn: ({ signal }) => catalogApi.scraper(id, signal),
    meta: { silent: true },
  });
  const run = useMutation({
    mutationFn: () => catalogApi.runScraper(id),
    onSuccess: () => {
      toast.success('Scraper run finished');
      void client.invalidateQueries({ queryKey: catalogKeys.all });
    },
    onError: toastError,
  });

  if (scraper.isPending) return <Skeleton className="h-64 w-full" />;
  if (scraper.isError) return <Alert tone="error">{errorMessage(scraper.error)}</Alert>;
  if (!scraper.data) return <EmptyState title="Scraper not found" />;
  const s = scraper.data;

  return (
    <div className="space-y-3" data-testid="scraper-detail">
      <CatalogTabs />
      <div className="flex flex-wrap items-center gap-2">
        <Breadcrumb
          items={[
            { label: 'Catalog', to: '/catalog' },
            { label: 'Scrapers', to: '/catalog/scrapers' },
            { label: s.name },
          ]}
        />
        <div className="ml-auto flex gap-2">
          <Button variant="outline" size="sm" asChild>
            <Link to={`/settings/config_scrapers/${s.id}`}>Edit</Link>
          </Button>
          <Button size="sm" loading={run.isPending} onClick={() => run.mutate()}>
            <Play className="size-3.5" /> Run Now
          </Button>
        </div>
      </div>
      <Tabs defaultValue="spec">
        <TabsList>
          <TabsTrigger value="spec">Spec</TabsTrigger>
          <TabsTrigger value="jobs">Job History</TabsTrigger>
        </TabsList>
        <TabsContent value="spec" className="pt-3">
          <CodeEditor
            value={stringify(s.spec ?? {}, { lineWidth: 0 })}
            language="yaml"
            readOnly
            ariaLabel="Scraper spec"
          />
        </TabsContent>
        <TabsContent value="jobs" className="pt-3">
          <JobHistory id={s.id} />
        </TabsContent>
      </Tabs>
    </div>
  );
}
