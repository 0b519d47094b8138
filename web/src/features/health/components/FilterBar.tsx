// The filter bar above the checks: search (debounced 400 ms), Agent, Group By, Tab By and the
// table/card layout switch.
import { LayoutGrid, Search, Table2, X } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { cn } from '../../../ui/cn';
import { AgentFilterSelect } from '../../agents/AgentFilterSelect';
import { Input, Select } from '../../../ui/input';
import { GROUP_BY_FIELDS, type LabelKeyInfo } from '../checkFilters';
import type { HealthView, HealthViewChange } from '../healthParams';
import { debounce } from '../useHealthView';

export const SEARCH_PLACEHOLDER = 'Search by name, description, or endpoint';
export const SEARCH_DEBOUNCE_MS = 400;

export function FilterBar({
  view,
  update,
  labels,
}: {
  view: HealthView;
  update(changes: HealthViewChange): void;
  labels: LabelKeyInfo[];
}) {
  const [text, setText] = useState(view.query);
  // The query this box last wrote; a different one in the URL came from back/forward or a link.
  const [written, setWritten] = useState(view.query);
  const push = useMemo(
    () =>
      debounce((query: string) => {
        setWritten(query);
        update({ query });
      }, SEARCH_DEBOUNCE_MS),
    [update],
  );
  useEffect(() => () => push.cancel(), [push]);
  if (written !== view.query) {
    setWritten(view.query);
    setText(view.query);
  }

  const labelKeys = labels.filter((l) => !l.boolean).map((l) => l.key);
  const known = (v: string, options: string[]) => (options.includes(v) ? [] : [v]);
  const groupOptions = GROUP_BY_FIELDS.map((g) => g.value as string).concat(labelKeys);
  const tabOptions = ['namespace', 'agent', ...labelKeys];

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="health-filter-bar">
      <div className="relative min-w-72 flex-[2]">
        <Search
          className="pointer-events-none absolute left-2.5 top-1/2 size-4 -translate-y-1/2 text-subtle"
          aria-hidden
        />
        <Input
          type="search"
          aria-label="Search checks"
          placeholder={SEARCH_PLACEHOLDER}
          className="h-9 pl-8 pr-8"
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            push(e.target.value);
          }}
        />
        {text && (
          <button
            type="button"
            aria-label="Clear search"
            className="absolute right-2 top-1/2 -translate-y-1/2 cursor-pointer rounded p-0.5 text-subtle hover:text-foreground"
            onClick={() => {
              setText('');
              setWritten('');
              push.cancel();
              update({ query: '' });
            }}
          >
            <X className="size-3.5" />
          </button>
        )}
      </div>
      <AgentFilterSelect value={view.agent} onChange={(agent) => update({ agent })} />
      <label className="flex items-center gap-2 text-[13px] text-muted">
        <span className="whitespace-nowrap">Group By</span>
        <Select
          aria-label="Group By"
          className="h-9 w-36 text-[13px]"
          value={view.groupBy}
          onChange={(e) => update({ groupBy: e.target.value })}
        >
          {GROUP_BY_FIELDS.map((g) => (
            <option key={g.value} value={g.value}>
              {g.label}
            </option>
          ))}
          {labelKeys.length > 0 && (
            <optgroup label="Labels">
              {labelKeys.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </optgroup>
          )}
          {known(view.groupBy, groupOptions).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </Select>
      </label>
      <label className="flex items-center gap-2 text-[13px] text-muted">
        <span className="whitespace-nowrap">Tab By</span>
        <Select
          aria-label="Tab By"
          className="h-9 w-32 text-[13px]"
          value={view.tabBy}
          onChange={(e) => update({ tabBy: e.target.value })}
        >
          <option value="namespace">Namespace</option>
          <option value="agent">Agent</option>
          {labelKeys.length > 0 && (
            <optgroup label="Labels">
              {labelKeys.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </optgroup>
          )}
          {known(view.tabBy, tabOptions).map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </Select>
      </label>
      <div
        className="inline-flex rounded-md border border-border bg-surface-muted p-0.5"
        role="radiogroup"
        aria-label="Layout"
      >
        {(
          [
            ['table', 'Table', Table2],
            ['card', 'Cards', LayoutGrid],
          ] as const
        ).map(([value, label, Icon]) => (
          <button
            key={value}
            type="button"
            role="radio"
            aria-checked={view.layout === value}
            aria-label={label}
            title={label}
            onClick={() => update({ layout: value })}
            className={cn(
              'inline-flex h-7 w-8 cursor-pointer items-center justify-center rounded text-muted',
              view.layout === value && 'bg-surface text-foreground shadow-sm',
            )}
          >
            <Icon className="size-4" />
          </button>
        ))}
      </div>
    </div>
  );
}
