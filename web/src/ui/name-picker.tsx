// A search select over one /api/db table by name (a rule's recipient, a silenced resource, the
// resource a playbook runs on): searches once typing pauses for 300 ms (spec/1 §5); 'Start typing
// to search' before, 'No options found' when nothing matches (spec/1 §2).
import { useQuery } from '@tanstack/react-query';
import { Check, ChevronDown } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import { containsPattern, db } from '../api/postgrest';
import { cn } from './cn';
import { Input } from './input';
import { useDebouncedValue } from './link-to-incident/useDebounced';
import { Popover, PopoverContent, PopoverTrigger } from './popover';

export type PickerTable = 'checks' | 'canaries' | 'components' | 'config_items' | 'people' | 'teams' | 'connections';

export interface PickerOption {
  id: string;
  name: string | null;
  /** Shown under the name: a type, a namespace or an email. */
  detail?: string | null;
}

const COLUMNS: Record<PickerTable, string> = {
  checks: 'id,name,detail:type',
  canaries: 'id,name,detail:namespace',
  components: 'id,name,detail:type',
  config_items: 'id,name,detail:type',
  people: 'id,name,detail:email',
  teams: 'id,name',
  connections: 'id,name,detail:type',
};

/** The tables with a `type` column, which `types` can narrow. */
const TYPED_TABLES: ReadonlySet<PickerTable> = new Set(['checks', 'components', 'config_items', 'connections']);

const SEARCH_DEBOUNCE_MS = 300;
const MAX_OPTIONS = 25;

function search(table: PickerTable, text: string, types: readonly string[], signal: AbortSignal) {
  const q = db<PickerOption>(table)
    .select(COLUMNS[table])
    .ilike('name', containsPattern(text))
    .is('deleted_at', null)
    .order('name')
    .limit(MAX_OPTIONS);
  if (types.length && TYPED_TABLES.has(table)) q.in('type', types);
  return q.list(signal).then((r) => r.data);
}

const NO_TYPES: readonly string[] = [];

export function NamePicker({
  table,
  value,
  selectedName,
  types = NO_TYPES,
  queryScope,
  onChange,
  id,
  label,
  invalid,
  describedBy,
  disabled,
}: {
  table: PickerTable;
  /** The chosen row's id, or ''. */
  value: string;
  /** The chosen row's name when known (else it is looked up by id). */
  selectedName?: string;
  /** Offer only rows of these types (tables with a `type` column); all when empty. */
  types?: readonly string[];
  /** The caller's query-key root, so invalidating its area also refreshes the picker. */
  queryScope: readonly unknown[];
  onChange(option: PickerOption): void;
  id?: string;
  /** The accessible name of the trigger (the field's label). */
  label: string;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
}) {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const term = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);

  const options = useQuery({
    queryKey: [...queryScope, 'picker', table, term, types],
    queryFn: ({ signal }) => search(table, term, types, signal),
    enabled: open && term !== '',
    staleTime: 30_000,
  });
  const chosen = useQuery({
    queryKey: [...queryScope, 'picked', table, value],
    queryFn: async ({ signal }) =>
      (await db<PickerOption>(table).select(COLUMNS[table]).eq('id', value).single(signal)) ?? null,
    enabled: !!value && !selectedName,
    meta: { silent: true },
  });
  const shown = value ? (selectedName ?? chosen.data?.name ?? (chosen.isPending ? '…' : value)) : '';

  const rows = term ? (options.data ?? []) : [];
  const activeIndex = Math.min(active, Math.max(0, rows.length - 1));
  const optionId = (o: PickerOption) => `${listId}-${o.id}`;

  const pick = (o: PickerOption) => {
    onChange(o);
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

  let status: string | undefined;
  if (!term) status = 'Start typing to search';
  else if (options.isPending || term !== text.trim()) status = 'Searching…';
  else if (options.isError) status = 'Search failed';
  else if (!rows.length) status = 'No options found';
  const failed = status === 'Search failed';

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
          <span className={cn('truncate', !value && 'text-subtle')}>{shown || 'Select…'}</span>
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
          {status ? (
            <li className={cn('px-2 py-3 text-center text-[13px]', failed ? 'text-danger' : 'text-muted')}>{status}</li>
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
