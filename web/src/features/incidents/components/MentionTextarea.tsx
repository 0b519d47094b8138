// A textarea with @mentions (spec/2 §5; react-mentions breaks on React 19): typing '@' after a
// space opens suggestions from /api/db/people; choosing one inserts '@Name' and remembers the
// person, so the comment is stored with @[Name](user:id).
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Textarea } from '../../../ui/input';
import { useDebouncedValue } from '../../../ui/link-to-incident/useDebounced';
import { incidentsApi } from '../incidentsApi';
import { incidentKeys } from '../keys';
import { activeMention, insertMention, type Mention } from '../mentions';
import { Avatar } from './Avatar';

export interface MentionValue {
  text: string;
  mentions: Mention[];
}

export function MentionTextarea({
  value,
  onChange,
  placeholder,
  ariaLabel,
  onSubmit,
}: {
  value: MentionValue;
  onChange(value: MentionValue): void;
  placeholder?: string;
  ariaLabel?: string;
  /** Ctrl/Cmd+Enter. */
  onSubmit?(): void;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [highlight, setHighlight] = useState(0);
  const [dismissed, setDismissed] = useState<number | undefined>();
  const active = activeMention(value.text, caret);
  const open = !!active && dismissed !== active.start;
  const query = useDebouncedValue(active?.query ?? '', 150);
  const people = useQuery({
    queryKey: incidentKeys.people(query),
    queryFn: ({ signal }) => incidentsApi.people(query, signal),
    enabled: open,
    meta: { silent: true },
  });
  const options = open ? (people.data ?? []).slice(0, 8) : [];

  function choose(p: { id: string; name: string }) {
    if (!active) return;
    const m = { id: p.id, display: p.name };
    const next = insertMention(value.text, active.start, caret, m);
    onChange({ text: next.text, mentions: [...value.mentions, m] });
    setCaret(next.caret);
    requestAnimationFrame(() => {
      ref.current?.focus();
      ref.current?.setSelectionRange(next.caret, next.caret);
    });
  }

  return (
    <div className="relative">
      <Textarea
        ref={ref}
        aria-label={ariaLabel}
        placeholder={placeholder}
        value={value.text}
        className="min-h-16"
        onChange={(e) => {
          onChange({ text: e.target.value, mentions: value.mentions });
          setCaret(e.target.selectionStart);
          setHighlight(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={(e) => {
          if (options.length) {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              const d = e.key === 'ArrowDown' ? 1 : -1;
              setHighlight((h) => (h + d + options.length) % options.length);
              return;
            }
            if (e.key === 'Enter' || e.key === 'Tab') {
              e.preventDefault();
              choose(options[Math.min(highlight, options.length - 1)]);
              return;
            }
            if (e.key === 'Escape') {
              e.preventDefault();
              setDismissed(active?.start);
              return;
            }
          }
          if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) {
            e.preventDefault();
            onSubmit?.();
          }
        }}
      />
      {options.length > 0 && (
        <ul
          role="listbox"
          aria-label="People"
          className="absolute left-0 top-full z-30 mt-1 max-h-60 w-72 overflow-y-auto rounded-lg border border-border bg-surface p-1 shadow-pop"
        >
          {options.map((p, i) => (
            <li
              key={p.id}
              role="option"
              aria-selected={i === highlight}
              className={`flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-[13px] ${
                i === highlight ? 'bg-surface-hover' : ''
              }`}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(p);
              }}
              onMouseEnter={() => setHighlight(i)}
            >
              <Avatar name={p.name} src={p.avatar} />
              <span className="font-medium">{p.name}</span>
              {p.email && <span className="truncate text-muted">{p.email}</span>}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
