// The catalog list's filter bar: debounced search, type, status, health and label/tag tri-state
// filters, the summary's grouping, and the Preferences panel with 'Hide Deleted Catalog'.
import { useQuery } from '@tanstack/react-query';
import { Search, SlidersHorizontal } from 'lucide-react';
import { Button } from '../../../ui/button';
import { Input, Select } from '../../../ui/input';
import { AgentFilterSelect } from '../../agents/AgentFilterSelect';
import { Popover, PopoverContent, PopoverTrigger } from '../../../ui/popover';
import { Switch } from '../../../ui/switch';
import { TriStateFilter } from '../../../ui/tri-state-filter';
import { catalogApi } from '../catalogApi';
import { DEFAULT_GROUP_BY, isSummaryView, type CatalogView, type CatalogViewChange } from '../catalogParams';
import { HEALTH_ORDER } from '../format';
import { catalogKeys, LABELS_STALE_MS } from '../keys';
import { useDebouncedText } from '../useCatalogView';

const GROUPINGS: Array<{ value: string; label: string }> = [
  { value: DEFAULT_GROUP_BY.join(','), label: 'Class, Type' },
  { value: 'type', label: 'Type' },
  { value: 'config_class', label: 'Class' },
  { value: 'type,status', label: 'Type, Status' },
  { value: 'type,health', label: 'Type, Health' },
  { value: 'status', label: 'Status' },
  { value: 'health', label: 'Health' },
];

export function CatalogFilters({
  view,
  update,
  hideDeleted,
  setHideDeleted,
}: {
  view: CatalogView;
  update(changes: CatalogViewChange): void;
  hideDeleted: boolean;
  setHideDeleted(v: boolean): void;
}) {
  const [search, setSearch] = useDebouncedText(view.search, (text) => update({ search: text }));
  const types = useQuery({
    queryKey: catalogKeys.options('types'),
    queryFn: ({ signal }) => catalogApi.types(signal),
    staleTime: LABELS_STALE_MS,
  });
  const statuses = useQuery({
    queryKey: catalogKeys.options('statuses'),
    queryFn: ({ signal }) => catalogApi.statuses(signal),
    staleTime: LABELS_STALE_MS,
  });
  const labels = useQuery({
    queryKey: catalogKeys.options('labels'),
    queryFn: ({ signal }) => catalogApi.labelsAndTags(signal),
    staleTime: LABELS_STALE_MS,
  });
  const tagKeys = [...new Set((labels.data?.tagEntries ?? []).map((l) => l.slice(0, l.indexOf('='))))].sort();
  const groupValue = view.groupBy.join(',');
  const groupings = [
    ...GROUPINGS,
    ...tagKeys.map((k) => ({ value: `type,tags.${k}`, label: `Type, ${k}` })),
    ...(GROUPINGS.some((g) => g.value === groupValue) || tagKeys.some((k) => `type,tags.${k}` === groupValue)
      ? []
      : [{ value: groupValue, label: groupValue }]),
  ];

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="catalog-filters">
      <div className="relative w-64">
        <Search className="pointer-events-none absolute left-2.5 top-2 size-4 text-subtle" aria-hidden />
        <Input
          aria-label="Search catalog"
          placeholder="Search…"
          className="h-8 pl-8 text-[13px]"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </div>
      <Select
        aria-label="Type"
        className="h-8 w-56 text-[13px]"
        value={view.configType ?? ''}
        onChange={(e) => update({ configType: e.target.value || undefined })}
      >
        <option value="">All types</option>
        {[...new Set([...(types.data ?? []), ...(view.configType ? [view.configType] : [])])].map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </Select>
      <TriStateFilter
        label="Status"
        options={(statuses.data ?? []).map((s) => ({ value: s, label: s }))}
        value={view.status}
        onChange={(status) => update({ status })}
      />
      <TriStateFilter
        label="Health"
        options={HEALTH_ORDER.map((h) => ({ value: h, label: h }))}
        value={view.health}
        onChange={(health) => update({ health })}
      />
      <TriStateFilter
        label="Labels"
        options={(labels.data?.entries ?? []).map((l) => ({ value: l, label: l }))}
        value={view.labels}
        onChange={(labels) => update({ labels })}
      />
      <AgentFilterSelect className="h-8" value={view.agent} onChange={(agent) => update({ agent })} />
      {isSummaryView(view) && (
        <Select
          aria-label="Group by"
          className="h-8 w-44 text-[13px]"
          value={groupValue}
          onChange={(e) => update({ groupBy: e.target.value.split(',') })}
        >
          {groupings.map((g) => (
            <option key={g.value} value={g.value}>
              Group by: {g.label}
            </option>
          ))}
        </Select>
      )}
      <Popover>
        <PopoverTrigger asChild>
          <Button variant="outline" size="sm" aria-label="Preferences">
            <SlidersHorizontal className="size-4" /> Preferences
          </Button>
        </PopoverTrigger>
        <PopoverContent align="end" className="w-64 p-3">
          <Switch label="Hide Deleted Catalog" checked={hideDeleted} onCheckedChange={setHideDeleted} />
        </PopoverContent>
      </Popover>
    </div>
  );
}
