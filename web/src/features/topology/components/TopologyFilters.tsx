// The filter bar of the topology page (spec/2 §2.6): labels, team, type, status (tri-state, in the
// query string), agent, 'Show hidden components', the sort choice (stored locally) and the card
// width slider (250–768 px, stored locally).
import { ArrowDownWideNarrow, ArrowUpNarrowWide } from 'lucide-react';
import { Button } from '../../../ui/button';
import { Select } from '../../../ui/input';
import { Switch } from '../../../ui/switch';
import { TriStateFilter } from '../../../ui/tri-state-filter';
import { CARD_WIDTH_MAX, CARD_WIDTH_MIN, CARD_WIDTH_STEP } from '../cardSize';
import type { SortChoice, StoredSort } from '../cardSort';
import type { AgentOption } from '../topologyApi';
import type { TopologyView, TopologyViewChange } from '../topologyParams';

const options = (values: readonly string[]) => values.map((v) => ({ value: v, label: v }));

export function TopologyFilters({
  view,
  update,
  types,
  teams,
  healthStatuses,
  labels,
  agents,
  sort,
  sortChoices,
  onSort,
  width,
  onWidth,
}: {
  view: TopologyView;
  update(changes: TopologyViewChange): void;
  types: readonly string[];
  teams: readonly string[];
  healthStatuses: readonly string[];
  labels: readonly { key: string; value: string }[];
  agents: readonly AgentOption[];
  sort: StoredSort;
  sortChoices: readonly SortChoice[];
  onSort(sort: StoredSort): void;
  width: number;
  onWidth(width: number): void;
}) {
  // Values in the query string stay selectable even when the current answer no longer has them.
  const withSelected = (values: readonly string[], selected: Record<string, unknown>) =>
    [...new Set([...values, ...Object.keys(selected)])].sort((a, b) => a.localeCompare(b));
  const labelValues = withSelected(
    labels.map((l) => `${l.key}=${l.value}`),
    view.labels,
  );
  const choices = sortChoices.some((c) => c.value === sort.sortBy)
    ? sortChoices
    : [...sortChoices, { value: sort.sortBy, label: sort.sortBy }];

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="topology-filters">
      <TriStateFilter
        label="Labels"
        options={options(labelValues)}
        value={view.labels}
        onChange={(labels) => update({ labels })}
      />
      <TriStateFilter
        label="Team"
        options={options(withSelected(teams, view.team))}
        value={view.team}
        onChange={(team) => update({ team })}
      />
      <TriStateFilter
        label="Type"
        options={options(withSelected(types, view.type))}
        value={view.type}
        onChange={(type) => update({ type })}
      />
      <TriStateFilter
        label="Status"
        options={options(withSelected(healthStatuses, view.status))}
        value={view.status}
        onChange={(status) => update({ status })}
      />
      <Select
        aria-label="Agent"
        className="h-8 w-40 text-[13px]"
        value={view.agentId ?? 'all'}
        onChange={(e) => update({ agentId: e.target.value === 'all' ? undefined : e.target.value })}
      >
        <option value="all">All agents</option>
        <option value="local">local</option>
        {agents.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
        {view.agentId && view.agentId !== 'local' && !agents.some((a) => a.id === view.agentId) && (
          <option value={view.agentId}>{view.agentId}</option>
        )}
      </Select>
      <Switch
        className="items-center rounded-md border border-border bg-surface px-2.5 py-1.5"
        label="Show hidden components"
        checked={view.showHiddenComponents}
        onCheckedChange={(showHiddenComponents) => update({ showHiddenComponents })}
      />
      <div className="ml-auto flex items-center gap-2">
        <Select
          aria-label="Sort by"
          className="h-8 w-40 text-[13px]"
          value={sort.sortBy}
          onChange={(e) => onSort({ ...sort, sortBy: e.target.value })}
        >
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </Select>
        <Button
          variant="outline"
          size="icon-sm"
          aria-label={sort.sortOrder === 'asc' ? 'Ascending' : 'Descending'}
          title={sort.sortOrder === 'asc' ? 'Ascending' : 'Descending'}
          onClick={() => onSort({ ...sort, sortOrder: sort.sortOrder === 'asc' ? 'desc' : 'asc' })}
        >
          {sort.sortOrder === 'asc' ? (
            <ArrowUpNarrowWide className="size-4" />
          ) : (
            <ArrowDownWideNarrow className="size-4" />
          )}
        </Button>
        <label className="flex items-center gap-2 text-[12.5px] text-muted">
          Card width
          <input
            type="range"
            aria-label="Card width"
            min={CARD_WIDTH_MIN}
            max={CARD_WIDTH_MAX}
            step={CARD_WIDTH_STEP}
            value={width}
            onChange={(e) => onWidth(Number(e.target.value))}
            className="w-28 accent-[var(--primary)]"
          />
          <span className="w-12 tabular-nums">{width}px</span>
        </label>
      </div>
    </div>
  );
}
