// The first step of a new connection: its type, grouped by family (databases, cloud, source control,
// notification services, other), with a filter for long lists.
import { Search } from 'lucide-react';
import { useState } from 'react';
import { CONNECTION_FAMILIES, CONNECTION_TYPES } from '@opsdeck/common/connections';
import { Input } from '../../../ui/input';
import { ConnectionTypeIcon } from './ConnectionTypeIcon';

export function ConnectionTypePicker({ onPick }: { onPick(type: string): void }) {
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const matches = CONNECTION_TYPES.filter(
    (t) => !needle || t.label.toLowerCase().includes(needle) || t.type.includes(needle),
  );

  return (
    <div className="space-y-5">
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-2.5 size-4 text-subtle" aria-hidden />
        <Input
          aria-label="Filter connection types"
          placeholder="Filter types"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          className="pl-9"
          autoFocus
        />
      </div>
      {CONNECTION_FAMILIES.map(({ family, label }) => {
        const types = matches.filter((t) => t.family === family);
        if (!types.length) return null;
        return (
          <section key={family} aria-label={label}>
            <h3 className="mb-2 text-[12px] font-semibold uppercase tracking-wide text-muted">{label}</h3>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
              {types.map((t) => (
                <button
                  key={t.type}
                  type="button"
                  onClick={() => onPick(t.type)}
                  className="flex cursor-pointer items-center gap-2.5 rounded-md border border-border bg-surface px-3 py-2.5 text-left text-sm transition-colors hover:border-primary hover:bg-primary-soft focus:outline-none focus-visible:ring-2 focus-visible:ring-primary/30"
                >
                  <ConnectionTypeIcon type={t.type} />
                  <span className="truncate">{t.label}</span>
                </button>
              ))}
            </div>
          </section>
        );
      })}
      {!matches.length && <p className="py-6 text-center text-sm text-muted">No connection type matches “{filter}”.</p>}
    </div>
  );
}
