// The filter sidebar (spec/1 §2): 'Filter by Health' with the Hide Passing switch, and 'Filter by
// Label': a multi-select (include/exclude per value) for labels with several values, a
// three-way toggle (any, include, exclude) for boolean labels.
import { Check, Minus } from 'lucide-react';
import type { TriState, TriStateMap } from '@opsdeck/common/triState';
import { cn } from '../../../ui/cn';
import { Switch } from '../../../ui/switch';
import { TriStateFilter } from '../../../ui/tri-state-filter';
import { labelId, type LabelKeyInfo } from '../checkFilters';

export function FilterSidebar({
  hidePassing,
  onHidePassing,
  labels,
  value,
  onChange,
}: {
  hidePassing: boolean;
  onHidePassing(value: boolean): void;
  labels: LabelKeyInfo[];
  value: TriStateMap;
  onChange(value: TriStateMap): void;
}) {
  const setMany = (changes: TriStateMap) => {
    const next = { ...value, ...changes };
    for (const k of Object.keys(next)) if (next[k] === 0) delete next[k];
    onChange(next);
  };

  return (
    <aside className="space-y-5" aria-label="Filters" data-testid="health-filters">
      <section className="rounded-lg border border-border bg-surface p-4 shadow-card">
        <h2 className="mb-3 text-[12px] font-semibold uppercase tracking-wide text-muted">Filter by Health</h2>
        <Switch
          label="Hide Passing"
          description="Show only failing checks and checks that have not run yet."
          checked={hidePassing}
          onCheckedChange={onHidePassing}
        />
      </section>
      <section className="rounded-lg border border-border bg-surface p-4 shadow-card">
        <h2 className="mb-3 text-[12px] font-semibold uppercase tracking-wide text-muted">Filter by Label</h2>
        {labels.length === 0 ? (
          <p className="text-[12.5px] text-subtle">The checks shown have no labels.</p>
        ) : (
          <div className="space-y-3">
            {labels.map((l) =>
              l.boolean ? (
                <BooleanLabel
                  key={l.key}
                  name={l.key}
                  state={value[labelId(l.key, 'true')] ?? 0}
                  onChange={(state) => setMany({ [labelId(l.key, 'true')]: state })}
                />
              ) : (
                <div key={l.key}>
                  <TriStateFilter
                    label={l.key}
                    options={l.values.map((v) => ({ value: labelId(l.key, v), label: v }))}
                    value={Object.fromEntries(l.values.map((v) => [labelId(l.key, v), value[labelId(l.key, v)] ?? 0]))}
                    onChange={(map) => setMany({ ...map, ...clearedOf(l, map) })}
                  />
                </div>
              ),
            )}
          </div>
        )}
      </section>
    </aside>
  );
}

/** Values of the key that the multi-select no longer lists (Clear filter) are unset. */
function clearedOf(label: LabelKeyInfo, map: TriStateMap): TriStateMap {
  const out: TriStateMap = {};
  for (const v of label.values) if (!(labelId(label.key, v) in map)) out[labelId(label.key, v)] = 0;
  return out;
}

const STATES: Array<{ state: TriState; label: string }> = [
  { state: 0, label: 'Any' },
  { state: 1, label: 'Include' },
  { state: -1, label: 'Exclude' },
];

function BooleanLabel({ name, state, onChange }: { name: string; state: TriState; onChange(s: TriState): void }) {
  return (
    <div className="flex items-center justify-between gap-2">
      <span className="truncate text-[12.5px] font-medium" title={name}>
        {name}
      </span>
      <div
        role="radiogroup"
        aria-label={name}
        className="inline-flex shrink-0 rounded-md border border-border bg-surface-muted p-0.5"
      >
        {STATES.map((s) => (
          <button
            key={s.state}
            type="button"
            role="radio"
            aria-checked={state === s.state}
            aria-label={`${name}: ${s.label}`}
            title={s.label}
            onClick={() => onChange(s.state)}
            className={cn(
              'inline-flex h-6 min-w-7 cursor-pointer items-center justify-center rounded px-1.5 text-[11.5px] text-muted',
              state === s.state && s.state === 0 && 'bg-surface text-foreground shadow-sm',
              state === s.state && s.state === 1 && 'bg-success text-white shadow-sm',
              state === s.state && s.state === -1 && 'bg-danger text-white shadow-sm',
            )}
          >
            {s.state === 0 ? 'Any' : s.state === 1 ? <Check className="size-3.5" /> : <Minus className="size-3.5" />}
          </button>
        ))}
      </div>
    </div>
  );
}
