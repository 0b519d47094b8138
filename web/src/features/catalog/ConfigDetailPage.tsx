// /catalog/{id} and its tabs (spec/2 §2.2): Config, Changes, Insights, Relationships, Playbooks
// and Checks, each with a count badge from the item summary; the breadcrumb Catalog > type > name;
// the deleted and 'last scraped' warnings; the details sidebar (a toggle on small screens); and
// 'Details not found' for a missing item.
import { useQuery } from '@tanstack/react-query';
import { PanelRightClose, PanelRightOpen } from 'lucide-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import { NavLink, useParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { AgentBadge } from '../../ui/agent-badge';
import { Alert } from '../../ui/alert';
import { Breadcrumb } from '../../ui/breadcrumb';
import { Button } from '../../ui/button';
import { cn } from '../../ui/cn';
import { EmptyState } from '../../ui/empty-state';
import { formatAge, formatDateTime } from '../../ui/format';
import { usePageHeader } from '../../ui/page-header';
import { Skeleton } from '../../ui/skeleton';
import { SilenceButton } from '../notifications';
import { PlaybookRunsTable } from '../playbooks/PlaybookRunsTable';
import { PlaybooksMenu } from '../playbooks/PlaybooksMenu';
import { catalogApi } from './catalogApi';
import { DeletedMarker } from './components/Cells';
import { ChangesView } from './components/ChangesView';
import { ChecksTab } from './components/ChecksTab';
import { ConfigCodeView } from './components/ConfigCodeView';
import { ConfigSidebar } from './components/ConfigSidebar';
import { InsightsView } from './components/InsightsView';
import { formatCount, isScrapeStale } from './format';
import { catalogKeys } from './keys';
import type { ConfigDetail } from './types';

const RelationshipsTab = lazy(() => import('./components/RelationshipsTab'));

export type ConfigTab = 'config' | 'changes' | 'insights' | 'relationships' | 'playbooks' | 'checks';

export const DETAILS_NOT_FOUND = 'Details not found';

const TABS: Array<{ tab: ConfigTab; label: string; path: string; count?: keyof NonNullable<ConfigDetail['summary']> }> =
  [
    { tab: 'config', label: 'Config', path: '' },
    { tab: 'changes', label: 'Changes', path: '/changes', count: 'changes' },
    { tab: 'insights', label: 'Insights', path: '/insights', count: 'analysis' },
    { tab: 'relationships', label: 'Relationships', path: '/relationships', count: 'relationships' },
    { tab: 'playbooks', label: 'Playbooks', path: '/playbooks', count: 'playbook_runs' },
    { tab: 'checks', label: 'Checks', path: '/checks', count: 'checks' },
  ];

export default function ConfigDetailPage({ tab = 'config' }: { tab?: ConfigTab }) {
  const { id = '' } = useParams();
  const [sidebarOpen, setSidebarOpen] = useState(false);
  const item = useQuery({
    queryKey: catalogKeys.item(id),
    queryFn: ({ signal }) => catalogApi.item(id, signal),
    meta: { silent: true },
  });
  const refetch = item.refetch;
  const onRefresh = useCallback(() => void refetch(), [refetch]);
  usePageHeader({ title: item.data?.name ?? undefined, onRefresh, loading: item.isFetching });

  if (item.isPending) return <Skeleton className="h-64 w-full" />;
  if (item.isError) return <Alert tone="error">{errorMessage(item.error)}</Alert>;
  if (!item.data) return <EmptyState title={DETAILS_NOT_FOUND} />;
  const config = item.data;

  return (
    <div className="space-y-3" data-testid="config-detail">
      <div className="flex items-center gap-2">
        <Breadcrumb
          items={[
            { label: 'Catalog', to: '/catalog' },
            { label: config.type, to: `/catalog?configType=${encodeURIComponent(config.type)}` },
            {
              label: (
                <span className="inline-flex items-center gap-1.5">
                  {config.name ?? config.id}
                  <DeletedMarker deletedAt={config.deleted_at} />
                  <AgentBadge name={config.agent?.name} />
                </span>
              ),
            },
          ]}
        />
        <SilenceButton target={{ config_id: config.id }} name={config.name ?? undefined} className="ml-auto" />
        <Button
          variant="ghost"
          size="icon-sm"
          className="ml-auto lg:hidden"
          aria-label={sidebarOpen ? 'Hide details' : 'Show details'}
          onClick={() => setSidebarOpen((v) => !v)}
        >
          {sidebarOpen ? <PanelRightClose className="size-4" /> : <PanelRightOpen className="size-4" />}
        </Button>
      </div>
      {config.deleted_at && (
        <Alert tone="warning">
          Deleted {formatDateTime(config.deleted_at)}
          {config.delete_reason ? ` (${config.delete_reason})` : ''}
        </Alert>
      )}
      {isScrapeStale(config) && (
        <Alert tone="warning">
          <span data-testid="stale-scrape">Last scraped {formatAge(config.last_scraped_time)}</span>
        </Alert>
      )}
      <nav aria-label="Item tabs" className="flex gap-1 overflow-x-auto border-b border-border">
        {TABS.map((t) => {
          const count = t.count ? config.summary?.[t.count] : undefined;
          return (
            <NavLink
              key={t.tab}
              to={`/catalog/${config.id}${t.path}`}
              end
              aria-current={tab === t.tab ? 'page' : undefined}
              className={cn(
                '-mb-px inline-flex items-center gap-1.5 whitespace-nowrap border-b-2 px-3 py-2 text-[13px] font-medium',
                tab === t.tab
                  ? 'border-primary text-foreground'
                  : 'border-transparent text-muted hover:text-foreground',
              )}
            >
              {t.label}
              {count !== undefined && (
                <span
                  className="rounded-full bg-surface-muted px-1.5 text-[11px] tabular-nums text-muted"
                  data-testid={`tab-count-${t.tab}`}
                >
                  {formatCount(count)}
                </span>
              )}
            </NavLink>
          );
        })}
      </nav>
      <div className="grid gap-4 lg:grid-cols-[minmax(0,1fr)_320px]">
        <div className="min-w-0">
          {tab === 'config' && <ConfigCodeView config={config.config} item={config} />}
          {tab === 'changes' && <ChangesView configId={config.id} />}
          {tab === 'insights' && <InsightsView configId={config.id} />}
          {tab === 'relationships' && (
            <Suspense fallback={<Skeleton className="h-64 w-full" />}>
              <RelationshipsTab config={config} />
            </Suspense>
          )}
          {tab === 'playbooks' && (
            <div className="space-y-3" data-testid="config-playbooks">
              <div className="flex justify-end">
                <PlaybooksMenu resource={{ config_id: config.id, label: config.name ?? config.id }} />
              </div>
              <PlaybookRunsTable filter={{ config_id: config.id }} compact />
            </div>
          )}
          {tab === 'checks' && <ChecksTab configId={config.id} />}
        </div>
        <div className={cn(!sidebarOpen && 'hidden', 'lg:block')}>
          <ConfigSidebar item={config} />
        </div>
      </div>
    </div>
  );
}
