// Insights (spec/2 §2.4), global (/catalog/insights) or for one item: columns Catalog, Type,
// Analyzer, Severity, Status, First Observed, Last Observed; 50 a page (pages = ceil(total/size));
// filters type, severity, status, analyzer and component (links from topology cards) in the query
// string; a row opens the insight's detail panel.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../api/client';
import { Alert } from '../../../ui/alert';
import { Badge } from '../../../ui/badge';
import { LinkToIncidentButton } from '../../../ui/link-to-incident';
import { DataTable } from '../../../ui/data-table';
import { formatDateTime } from '../../../ui/format';
import { Select } from '../../../ui/input';
import { useListState } from '../../../ui/list-state';
import { Sheet, SheetContent } from '../../../ui/sheet';
import { catalogApi } from '../catalogApi';
import { INSIGHTS_PAGE_SIZE, readInsightsView } from '../catalogParams';
import { SEVERITIES, severityTone } from '../format';
import { catalogKeys, LABELS_STALE_MS } from '../keys';
import type { InsightRow } from '../types';
import { DateCell } from './Cells';

export const INSIGHT_TYPES = [
  'cost',
  'availability',
  'performance',
  'security',
  'integration',
  'compliance',
  'technical_debt',
  'reliability',
  'recommendation',
  'other',
] as const;

const STATUSES = ['open', 'resolved', 'silenced'] as const;

function InsightPanel({ insight, onClose }: { insight: InsightRow; onClose(): void }) {
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        title={insight.analyzer}
        className="lg:w-[min(760px,calc(100vw-3rem))]"
        header={
          <div className="flex flex-wrap items-center gap-2">
            <span className="text-[15px] font-semibold">{insight.analyzer}</span>
            <Badge tone={severityTone(insight.severity)}>{insight.severity}</Badge>
            <Badge>{insight.status}</Badge>
            <LinkToIncidentButton
              className="ml-auto"
              evidence={{
                type: 'config_analysis',
                config_analysis_id: insight.id,
                config_id: insight.config_id,
                description: insight.summary || insight.message || insight.analyzer,
              }}
            />
          </div>
        }
      >
        <div className="space-y-4 p-5 text-[13px]" data-testid="insight-panel">
          <dl className="grid grid-cols-[140px_minmax(0,1fr)] gap-x-3 gap-y-1.5">
            <dt className="text-muted">Catalog</dt>
            <dd>
              {insight.config && (
                <Link className="text-primary hover:underline" to={`/catalog/${insight.config.id}`}>
                  {insight.config.name}
                </Link>
              )}
            </dd>
            <dt className="text-muted">Type</dt>
            <dd>{insight.analysis_type}</dd>
            <dt className="text-muted">Source</dt>
            <dd>{insight.source ?? ''}</dd>
            <dt className="text-muted">First observed</dt>
            <dd>{formatDateTime(insight.first_observed)}</dd>
            <dt className="text-muted">Last observed</dt>
            <dd>{formatDateTime(insight.last_observed)}</dd>
          </dl>
          {insight.summary && <p className="font-medium">{insight.summary}</p>}
          {insight.message && <p className="whitespace-pre-wrap">{insight.message}</p>}
          {insight.analysis !== null && insight.analysis !== undefined && (
            <pre className="max-h-96 overflow-auto rounded-md border border-border bg-surface-muted p-3 font-mono text-[12px]">
              {JSON.stringify(insight.analysis, null, 2)}
            </pre>
          )}
        </div>
      </SheetContent>
    </Sheet>
  );
}

export function InsightsView({ configId }: { configId?: string }) {
  const [params, setParams] = useSearchParams();
  const list = useListState({ defaultPageSize: INSIGHTS_PAGE_SIZE });
  const view = { ...readInsightsView(params), pageIndex: list.pageIndex, pageSize: list.pageSize };
  const [open, setOpen] = useState<InsightRow | undefined>(undefined);
  const analyzers = useQuery({
    queryKey: catalogKeys.options('analyzers'),
    queryFn: ({ signal }) => catalogApi.analyzers(signal),
    staleTime: LABELS_STALE_MS,
  });
  const insights = useQuery({
    queryKey: catalogKeys.insights({ ...view, configId }),
    queryFn: ({ signal }) => catalogApi.insights({ ...view, configId }, signal),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
  const setFilter = (key: string, value: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (value) next.set(key, value);
        else next.delete(key);
        next.delete('pageIndex');
        return next;
      },
      { replace: true },
    );

  const columns = useMemo<ColumnDef<InsightRow>[]>(
    () => [
      {
        id: 'catalog',
        header: 'Catalog',
        cell: ({ row }) => <span className="font-medium">{row.original.config?.name ?? ''}</span>,
      },
      { id: 'type', header: 'Type', cell: ({ row }) => row.original.analysis_type },
      {
        id: 'analyzer',
        header: 'Analyzer',
        cell: ({ row }) => <span data-testid="insight-analyzer">{row.original.analyzer}</span>,
      },
      {
        id: 'severity',
        header: 'Severity',
        cell: ({ row }) => <Badge tone={severityTone(row.original.severity)}>{row.original.severity}</Badge>,
      },
      { id: 'status', header: 'Status', cell: ({ row }) => row.original.status },
      {
        id: 'first_observed',
        header: 'First Observed',
        cell: ({ row }) => <DateCell value={row.original.first_observed} relative />,
      },
      {
        id: 'last_observed',
        header: 'Last Observed',
        cell: ({ row }) => <DateCell value={row.original.last_observed} relative />,
      },
    ],
    [],
  );
  // Server order is fixed (last observed first); the table pages but does not sort.
  const pagingOnly = { ...list, sortBy: undefined, setSort: () => {} };

  return (
    <div className="space-y-3" data-testid="insights-view">
      <div className="flex flex-wrap items-center gap-2">
        <Select
          aria-label="Insight type"
          className="h-8 w-44 text-[13px]"
          value={view.type ?? ''}
          onChange={(e) => setFilter('type', e.target.value)}
        >
          <option value="">All types</option>
          {INSIGHT_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Severity"
          className="h-8 w-40 text-[13px]"
          value={view.severity ?? ''}
          onChange={(e) => setFilter('severity', e.target.value)}
        >
          <option value="">All severities</option>
          {SEVERITIES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        <Select
          aria-label="Status"
          className="h-8 w-36 text-[13px]"
          value={view.status ?? ''}
          onChange={(e) => setFilter('status', e.target.value)}
        >
          <option value="">All statuses</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
        {!view.component && (
          <Select
            aria-label="Analyzer"
            className="h-8 w-48 text-[13px]"
            value={view.analyzer ?? ''}
            onChange={(e) => setFilter('analyzer', e.target.value)}
          >
            <option value="">All analyzers</option>
            {(analyzers.data ?? []).map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        )}
      </div>
      {insights.isError && <Alert tone="error">{errorMessage(insights.error)}</Alert>}
      <DataTable
        aria-label="Insights"
        columns={columns}
        data={insights.data?.data}
        total={insights.data?.total}
        loading={insights.isPending || (insights.isFetching && insights.isPlaceholderData)}
        list={pagingOnly}
        getRowId={(r) => r.id}
        onRowClick={setOpen}
      />
      {open && <InsightPanel insight={open} onClose={() => setOpen(undefined)} />}
    </div>
  );
}
