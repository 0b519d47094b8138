// The /logs filter bar (spec/2 §2.9): the component (or catalog item), its log selector, the search box, the time
// range, live tail, and the actions on the lines (download, link the selected ones to an incident).
import { Download, Search } from 'lucide-react';
import type { TimeRange } from '@opsdeck/common/timeRange';
import { Button } from '../../../ui/button';
import { Input, Select } from '../../../ui/input';
import { LinkToIncidentButton, type EvidenceInput } from '../../../ui/link-to-incident';
import { Switch } from '../../../ui/switch';
import { TimeRangePicker } from '../../../ui/time-range/TimeRangePicker';
import { ownerKey, parseOwnerKey, type LogOwner, type LogOwnerKind } from '../useLogOwners';

export const NO_RESULT = 'No result';

export interface LogsToolbarProps {
  components: LogOwner[];
  /** Catalog items with logs (a second group of the dropdown when there are any). */
  configs: LogOwner[];
  componentsLoading: boolean;
  owner: { kind: LogOwnerKind; id: string } | undefined;
  onOwnerChange(owner: { kind: LogOwnerKind; id: string } | undefined): void;
  selectorNames: string[];
  selector: string | undefined;
  onSelectorChange(name: string): void;
  search: string;
  onSearchChange(text: string): void;
  range: TimeRange;
  onRangeChange(range: TimeRange | undefined): void;
  live: boolean;
  onLiveChange(live: boolean): void;
  canDownload: boolean;
  downloading: boolean;
  onDownload(): void;
  selectedCount: number;
  evidence: EvidenceInput | undefined;
}

export function LogsToolbar(p: LogsToolbarProps) {
  const components = p.components;
  const option = (o: LogOwner) => (
    <option key={ownerKey(o.kind, o.id)} value={ownerKey(o.kind, o.id)}>
      {o.name}
      {o.type ? ` (${o.type})` : ''}
    </option>
  );
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="logs-toolbar">
      <Select
        aria-label="Component"
        className="w-64"
        value={p.owner ? ownerKey(p.owner.kind, p.owner.id) : ''}
        onChange={(e) => p.onOwnerChange(parseOwnerKey(e.target.value))}
      >
        <option value="">
          {p.componentsLoading ? 'Loading…' : components.length || p.configs.length ? 'Select a component' : NO_RESULT}
        </option>
        {p.configs.length ? <optgroup label="Components">{components.map(option)}</optgroup> : components.map(option)}
        {p.configs.length > 0 && <optgroup label="Catalog items">{p.configs.map(option)}</optgroup>}
      </Select>
      <Select
        aria-label="Log selector"
        className="w-48"
        value={p.selector ?? ''}
        disabled={!p.owner || p.selectorNames.length === 0}
        onChange={(e) => p.onSelectorChange(e.target.value)}
      >
        {p.selectorNames.length === 0 && <option value="">{NO_RESULT}</option>}
        {p.selectorNames.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </Select>
      <div className="relative min-w-56 flex-1">
        <Search
          className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-subtle"
          aria-hidden
        />
        <Input
          type="search"
          aria-label="Search logs"
          placeholder="Search (text or /regex/)"
          className="pl-8"
          value={p.search}
          onChange={(e) => p.onSearchChange(e.target.value)}
        />
      </div>
      <TimeRangePicker value={p.range} onChange={p.onRangeChange} allowFuture={false} />
      <Switch label="Live tail" checked={p.live} onCheckedChange={p.onLiveChange} className="items-center" />
      <Button variant="outline" size="sm" disabled={!p.canDownload} loading={p.downloading} onClick={p.onDownload}>
        <Download className="size-3.5" aria-hidden /> Download
      </Button>
      {p.selectedCount > 0 && p.evidence && (
        <>
          <span className="text-[13px] text-muted" data-testid="logs-selected">
            {p.selectedCount} selected
          </span>
          <LinkToIncidentButton evidence={p.evidence} />
        </>
      )}
    </div>
  );
}
