// A searchable multi-select of people for the Add Members modal: the chosen people as removable
// chips, a search box (a combobox: arrows move, Enter picks, Backspace on an empty search drops the
// last chip) and the list of people matching it, each with a check.
import { Check, X } from 'lucide-react';
import { useEffect, useId, useMemo, useState, type KeyboardEvent } from 'react';
import { cn } from '../../../ui/cn';
import { Input } from '../../../ui/input';
import { Skeleton } from '../../../ui/skeleton';
import { matchesSearch } from './members';
import type { Person } from './teamMembersApi';

export function PeoplePicker({
  people,
  selected,
  onChange,
  loading,
  error,
  disabled,
}: {
  /** Who can be picked. */
  people: readonly Person[];
  /** The ids picked, in the order they were picked. */
  selected: readonly string[];
  onChange: (ids: string[]) => void;
  loading?: boolean;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);

  const shown = useMemo(() => people.filter((p) => matchesSearch(p, text)), [people, text]);
  const byId = useMemo(() => new Map(people.map((p) => [p.id, p])), [people]);
  const chosen = selected.flatMap((pid) => (byId.has(pid) ? [byId.get(pid)!] : []));
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));
  const activePerson = shown[activeIndex];
  const optionId = (p: Person) => `${id}-option-${p.id}`;

  const toggle = (p: Person) =>
    onChange(selected.includes(p.id) ? selected.filter((s) => s !== p.id) : [...selected, p.id]);

  const activeOptionId = activePerson ? optionId(activePerson) : undefined;
  useEffect(() => {
    if (activeOptionId) document.getElementById(activeOptionId)?.scrollIntoView({ block: 'nearest' });
  }, [activeOptionId]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!shown.length) return;
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((activeIndex + step + shown.length) % shown.length);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (activePerson) toggle(activePerson);
    } else if (e.key === 'Backspace' && !text && selected.length) {
      onChange(selected.slice(0, -1));
    }
  };

  return (
    <div className="space-y-2.5">
      {chosen.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Selected people">
          {chosen.map((p) => (
            <li
              key={p.id}
              className="inline-flex items-center gap-1 rounded-full border border-transparent bg-primary-soft py-0.5 pl-2.5 pr-1 text-[12.5px] font-medium text-primary"
            >
              {p.name}
              <button
                type="button"
                disabled={disabled}
                onClick={() => toggle(p)}
                aria-label={`Unselect ${p.name}`}
                className="inline-flex size-4 cursor-pointer items-center justify-center rounded-full hover:bg-primary/15"
              >
                <X className="size-3" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      )}
      <Input
        role="combobox"
        aria-label="Search people"
        aria-expanded
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeOptionId}
        placeholder="Search by name or email"
        value={text}
        disabled={disabled}
        onChange={(e) => {
          setText(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label="People"
        aria-multiselectable
        aria-busy={loading || undefined}
        className="max-h-64 overflow-y-auto rounded-md border border-border bg-surface"
      >
        {loading ? (
          Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="flex items-center gap-3 px-3 py-2.5" aria-hidden>
              <Skeleton className="size-4" />
              <Skeleton className="h-3.5 w-40" />
            </li>
          ))
        ) : error ? (
          <li className="px-3 py-6 text-center text-[13px] text-danger">{error}</li>
        ) : shown.length === 0 ? (
          <li className="px-3 py-6 text-center text-[13px] text-muted">
            {people.length === 0 ? 'Everyone is already a member of this team.' : `No people match "${text.trim()}".`}
          </li>
        ) : (
          shown.map((p, i) => {
            const isSelected = selected.includes(p.id);
            return (
              <li
                key={p.id}
                id={optionId(p)}
                role="option"
                aria-selected={isSelected}
                aria-disabled={disabled || undefined}
                onMouseDown={(e) => e.preventDefault()} // keep the focus in the search box
                onMouseMove={() => i !== activeIndex && setActive(i)}
                onClick={() => !disabled && toggle(p)}
                className={cn(
                  'flex cursor-pointer items-center gap-3 border-b border-border px-3 py-2 last:border-b-0',
                  i === activeIndex && 'bg-surface-hover',
                )}
              >
                <span
                  className={cn(
                    'flex size-4 shrink-0 items-center justify-center rounded border',
                    isSelected ? 'border-primary bg-primary text-primary-foreground' : 'border-border bg-surface',
                  )}
                  aria-hidden
                >
                  {isSelected && <Check className="size-3" strokeWidth={3} />}
                </span>
                <span className="min-w-0">
                  <span className="block truncate text-[13.5px] font-medium text-foreground">{p.name}</span>
                  {p.email && <span className="block truncate text-[12.5px] text-muted">{p.email}</span>}
                </span>
              </li>
            );
          })
        )}
      </ul>
    </div>
  );
}
