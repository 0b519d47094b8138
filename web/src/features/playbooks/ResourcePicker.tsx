// A search select over one /api/db table by name (catalog items, components, checks, teams,
// people) for the run modal: the resource a playbook runs on and the picker parameters. Searches
// once typing pauses for 300 ms (spec/1 §5); 'Start typing to search' before, 'No options found'
// when nothing matches (spec/1 §2).
import { useQuery } from '@tanstack/react-query';
import { Check, ChevronDown } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { containsPattern, db } from '../../api/postgrest';
import { cn } from '../../ui/cn';
import { Input } from '../../ui/input';
import { useDebouncedValue } from '../../ui/link-to-incident/useDebounced';
import { Popover, PopoverContent, PopoverTrigger } from '../../ui/popover';
import { playbookKeys } from './playbooksApi';

export type PickerTable = 'config_items' | 'components' | 'checks' | 'teams' | 'people';

const SEARCH_DEBOUNCE_MS = 300;
const MAX_OPTIONS = 25;

interface PickerOption {
  id: string;
  name: string | null;
  /** A type (catalog items, components, checks) or an email (people) shown under the name. */
  detail: string | null;
}

const COLUMNS: Record<PickerTable, string> = {
  config_items: 'id,name,detail:type',
  components: 'id,name,detail:type',
  checks: 'id,name,detail:type',
  teams: 'id,name',
  people: 'id,name,detail:email',
};

/** A parameter's `filter` may narrow the types offered: {types: [...]} (or a list of such). */
function filterTypes(filter: unknown): string[] {
  const list = Array.isArray(filter) ? filter : [filter];
  return list.flatMap((f) =>
    f && typeof f === 'object' && Array.isArray((f as { types?: unknown }).types)
      ? (f as { types: unknown[] }).types.filter((t): t is string => typeof t === 'string')
      : [],
  );
}

function searchOptions(table: PickerTable, text: string, types: string[], signal: AbortSignal) {
  const q = db<PickerOption>(table)
    .select(COLUMNS[table])
    .ilike('name', containsPattern(text))
    .is('deleted_at', null)
    .order('name')
    .limit(MAX_OPTIONS);
  if (types.length && table !== 'teams' && table !== 'people') q.in('type', types);
  return q.list(signal).then((r) => r.data);
}

export function ResourcePicker({
  table,
  value,
  onChange,
  id,
  label,
  selectedName,
  filter,
  invalid,
  describedBy,
  disabled,
}: {
  table: PickerTable;
  /** The chosen row's id, or ''. */
  value: string;
  onChange(id: string, name: string): void;
  id?: string;
  /** The accessible name of the trigger (the field's label). */
  label: string;
  /** The chosen row's name when the caller knows it (else it is looked up). */
  selectedName?: string;
  filter?: unknown;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const search = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const types = filterTypes(filter);

  const options = useQuery({
    queryKey: [...playbookKeys.all, 'picker', table, search, types],
    queryFn: ({ signal }) => searchOptions(table, search, types, signal),
    enabled: open && search !== '',
    staleTime: 30_000,
  });
  const chosen = useQuery({
    queryKey: [...playbookKeys.all, 'picked', table, value],
    queryFn: async ({ signal }) =>
      (await db<PickerOption>(table).select(COLUMNS[table]).eq('id', value).single(signal)) ?? null,
    enabled: !!value && !selectedName,
    meta: { silent: true },
  });
  const shownName = value ? (selectedName ?? chosen.data?.name ?? (chosen.isPending ? '…' : value)) : '';

  const rows = search ? (options.data ?? []) : [];
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));
  const optionId = (o: PickerOption) => `${listId}-${o.id}`;

  const pick = (o: PickerOption) => {
    onChange(o.id, o.name ?? o.id);
    setOpen(false);
    setText('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (rows.length) setActive((activeIndex + (e.key === 'ArrowDown' ? 1 : -1) + rows.length) % rows.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (rows[activeIndex]) pick(rows[activeIndex]);
    }
  };

  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild disabled={disabled}>
        <button
          id={id}
          type="button"
          aria-label={label}
          aria-describedby={describedBy}
          aria-invalid={invalid || undefined}
          className={cn(
            'flex h-9 w-full items-center justify-between gap-2 rounded-md border border-border bg-surface px-3 text-left text-sm shadow-xs',
            'focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/20 disabled:cursor-not-allowed disabled:bg-surface-muted',
            invalid && 'border-danger',
          )}
        >
          <span className={cn('truncate', !value && 'text-subtle')}>{shownName || 'Select…'}</span>
          <ChevronDown className="size-4 shrink-0 text-subtle" aria-hidden />
        </button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-[var(--radix-popover-trigger-width)] min-w-64 p-2">
        <Input
          role="combobox"
          aria-label={`Search ${label}`}
          aria-expanded
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={rows[activeIndex] ? optionId(rows[activeIndex]) : undefined}
          placeholder="Start typing to search"
          autoFocus
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={listId} role="listbox" aria-label={label} className="mt-2 max-h-60 overflow-y-auto">
          {!search ? (
            <li className="px-2 py-3 text-center text-[13px] text-muted">Start typing to search</li>
          ) : options.isPending || search !== text.trim() ? (
            <li className="px-2 py-3 text-center text-[13px] text-muted">Searching…</li>
          ) : options.isError ? (
            <li className="px-2 py-3 text-center text-[13px] text-danger">Search failed</li>
          ) : rows.length === 0 ? (
            <li className="px-2 py-3 text-center text-[13px] text-muted">No options found</li>
          ) : (
            rows.map((o, i) => (
              <li
                key={o.id}
                id={optionId(o)}
                role="option"
                aria-selected={o.id === value}
                onMouseMove={() => i !== activeIndex && setActive(i)}
                onClick={() => pick(o)}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5',
                  i === activeIndex && 'bg-surface-hover',
                )}
              >
                <span className="min-w-0 flex-1">
                  <span className="block truncate text-[13.5px] text-foreground">{o.name ?? o.id}</span>
                  {o.detail && <span className="block truncate text-[12px] text-muted">{o.detail}</span>}
                </span>
                {o.id === value && <Check className="size-4 shrink-0 text-primary" aria-hidden />}
              </li>
            ))
          )}
        </ul>
      </PopoverContent>
    </Popover>
  );
}
