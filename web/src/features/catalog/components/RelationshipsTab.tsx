// The item's Relationships tab (spec/2 §2.5): a Table/Graph toggle; Outgoing, Incoming and Soft
// toggles (outgoing on and incoming off by default; turning incoming off forces outgoing on);
// related items from rpc/related_configs_recursive (depth 10); the graph's LR/TB and
// bezier/smoothstep switches; and the linked components, where links made by hand (selector_id
// 'manual') can be unlinked ('Deleted config link successfully').
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { Unlink } from 'lucide-react';
import { lazy, Suspense, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../../api/client';
import { Alert } from '../../../ui/alert';
import { Badge } from '../../../ui/badge';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { DataTable } from '../../../ui/data-table';
import { Skeleton } from '../../../ui/skeleton';
import { Switch } from '../../../ui/switch';
import { toast, toastError } from '../../../ui/toast';
import { catalogApi } from '../catalogApi';
import {
  applyToggle,
  DEFAULT_TOGGLES,
  relatedConfigsArgs,
  type RelatedConfig,
  type RelationshipToggles,
} from '../graph';
import type { LayoutDirection } from '../graphLayout';
import { catalogKeys } from '../keys';
import type { ComponentLink, ConfigDetail } from '../types';
import { useHideDeleted } from '../useCatalogView';
import { ChangesCount, DeletedMarker, HealthLabel } from './Cells';
import type { EdgeStyle } from './RelationshipGraph';

const RelationshipGraph = lazy(() => import('./RelationshipGraph'));

export const UNLINK_SUCCESS = 'Deleted config link successfully';

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<{ value: NoInfer<T>; label: string }>;
  onChange(v: T): void;
}) {
  return (
    <div role="radiogroup" aria-label={label} className="inline-flex rounded-md border border-border bg-surface p-0.5">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          role="radio"
          aria-checked={value === o.value}
          onClick={() => onChange(o.value)}
          className={cn(
            'cursor-pointer rounded px-2.5 py-1 text-[12.5px] font-medium',
            value === o.value ? 'bg-primary-soft text-primary' : 'text-muted hover:text-foreground',
          )}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

const columns: ColumnDef<RelatedConfig>[] = [
  {
    id: 'name',
    header: 'Name',
    cell: ({ row }) => (
      <span className="inline-flex items-center gap-1.5">
        <span className="font-medium">{row.original.name}</span>
        <DeletedMarker deletedAt={row.original.deleted_at} />
      </span>
    ),
  },
  { id: 'type', header: 'Type', cell: ({ row }) => <span className="text-muted">{row.original.type}</span> },
  { id: 'relation', header: 'Relation', cell: ({ row }) => row.original.relation ?? '' },
  {
    id: 'direction',
    header: 'Direction',
    cell: ({ row }) => <span data-testid="related-direction">{row.original.direction}</span>,
  },
  { id: 'depth', header: 'Depth', cell: ({ row }) => row.original.depth },
  { id: 'status', header: 'Status', cell: ({ row }) => row.original.status ?? '' },
  { id: 'health', header: 'Health', cell: ({ row }) => <HealthLabel health={row.original.health} /> },
  { id: 'changes', header: 'Changes', cell: ({ row }) => <ChangesCount count={row.original.changes} /> },
];

function LinkedComponents({ configId }: { configId: string }) {
  const client = useQueryClient();
  const links = useQuery({
    queryKey: catalogKeys.componentLinks(configId),
    queryFn: ({ signal }) => catalogApi.componentLinks(configId, signal),
    meta: { silent: true },
  });
  const unlink = useMutation({
    mutationFn: (link: ComponentLink) =>
      catalogApi.unlinkComponent({ component_id: link.component_id, config_id: link.config_id }),
    onSuccess: () => {
      toast.success(UNLINK_SUCCESS);
      void client.invalidateQueries({ queryKey: catalogKeys.item(configId) });
    },
    onError: toastError,
  });
  if (links.isError) return <Alert tone="error">{errorMessage(links.error)}</Alert>;
  if (!links.data?.length) return null;
  return (
    <section className="space-y-2" data-testid="linked-components">
      <h3 className="text-[13px] font-semibold">Components</h3>
      <ul className="divide-y divide-border rounded-lg border border-border bg-surface">
        {links.data.map((l) => (
          <li key={`${l.component_id}:${l.selector_id}`} className="flex items-center gap-2 px-3 py-2 text-[13px]">
            <Link to={`/topology/${l.component_id}`} className="font-medium hover:underline">
              {l.component?.name ?? l.component_id}
            </Link>
            {l.component?.type && <span className="text-muted">{l.component.type}</span>}
            <Badge>{l.selector_id}</Badge>
            {l.selector_id === 'manual' && (
              <Button
                variant="ghost"
                size="sm"
                className="ml-auto"
                loading={unlink.isPending && unlink.variables === l}
                onClick={() => unlink.mutate(l)}
              >
                <Unlink className="size-3.5" /> Unlink
              </Button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function RelationshipsTab({ config }: { config: ConfigDetail }) {
  const navigate = useNavigate();
  const [hideDeleted] = useHideDeleted();
  const [mode, setMode] = useState<'table' | 'graph'>('table');
  const [toggles, setToggles] = useState<RelationshipToggles>(DEFAULT_TOGGLES);
  const [direction, setDirection] = useState<LayoutDirection>('LR');
  const [edgeStyle, setEdgeStyle] = useState<EdgeStyle>('bezier');
  const args = useMemo(() => relatedConfigsArgs(config.id, toggles, !hideDeleted), [config.id, toggles, hideDeleted]);
  const related = useQuery({
    queryKey: catalogKeys.related(config.id, args),
    queryFn: ({ signal }) => catalogApi.related(args, signal),
    meta: { silent: true },
  });
  const rows = related.data ?? [];
  const others = rows.filter((r) => r.id !== config.id);
  const root: RelatedConfig = useMemo(
    () => ({
      id: config.id,
      name: config.name,
      type: config.type,
      status: config.status,
      health: config.health,
      deleted_at: config.deleted_at,
      tags: config.tags,
      changes: config.changes,
    }),
    [config],
  );
  const set = (key: keyof RelationshipToggles) => (value: boolean) => setToggles((t) => applyToggle(t, key, value));

  return (
    <div className="space-y-3" data-testid="relationships-tab">
      <div className="flex flex-wrap items-center gap-4">
        <Segmented
          label="View"
          value={mode}
          options={[
            { value: 'table', label: 'Table' },
            { value: 'graph', label: 'Graph' },
          ]}
          onChange={(v) => setMode(v)}
        />
        <Switch
          label="Outgoing"
          checked={toggles.outgoing}
          disabled={!toggles.incoming}
          onCheckedChange={set('outgoing')}
        />
        <Switch label="Incoming" checked={toggles.incoming} onCheckedChange={set('incoming')} />
        <Switch label="Soft" checked={toggles.soft} onCheckedChange={set('soft')} />
        {mode === 'graph' && (
          <>
            <Segmented
              label="Layout direction"
              value={direction}
              options={[
                { value: 'LR', label: 'LR' },
                { value: 'TB', label: 'TB' },
              ]}
              onChange={(v) => setDirection(v)}
            />
            <Segmented
              label="Edge style"
              value={edgeStyle}
              options={[
                { value: 'bezier', label: 'Bezier' },
                { value: 'smoothstep', label: 'Smooth step' },
              ]}
              onChange={(v) => setEdgeStyle(v)}
            />
          </>
        )}
      </div>
      {related.isError && <Alert tone="error">{errorMessage(related.error)}</Alert>}
      {mode === 'table' ? (
        <DataTable
          aria-label="Related items"
          columns={columns}
          data={related.isPending ? undefined : others}
          loading={related.isPending}
          getRowId={(r) => `${r.id}:${r.direction}`}
          onRowClick={(r) => navigate(`/catalog/${r.id}`)}
        />
      ) : (
        <Suspense fallback={<Skeleton className="h-[65vh] w-full" />}>
          {related.isPending ? (
            <Skeleton className="h-[65vh] w-full" />
          ) : (
            <RelationshipGraph root={root} rows={rows} direction={direction} edgeStyle={edgeStyle} />
          )}
        </Suspense>
      )}
      <LinkedComponents configId={config.id} />
    </div>
  );
}
