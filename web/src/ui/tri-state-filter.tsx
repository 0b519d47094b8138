// A tri-state multi-value filter (spec/1 §4): each value cycles none → include → exclude.
import { Check, ChevronDown, Minus, X } from 'lucide-react';
import { cycleTriState, type TriState, type TriStateMap } from '@opsdeck/common/triState';
import { Button } from './button';
import { cn } from './cn';
import { Popover, PopoverContent, PopoverTrigger } from './popover';

export interface TriStateOption {
  value: string;
  label: string;
}

function StateIcon({ state }: { state: TriState }) {
  return (
    <span
      className={cn(
        'inline-flex size-4 shrink-0 items-center justify-center rounded border',
        state === 1 && 'border-success bg-success text-white',
        state === -1 && 'border-danger bg-danger text-white',
        state === 0 && 'border-border-strong',
      )}
      aria-hidden
    >
      {state === 1 ? <Check className="size-3" /> : state === -1 ? <Minus className="size-3" /> : null}
    </span>
  );
}

export function TriStateFilter({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: TriStateOption[];
  value: TriStateMap;
  onChange(value: TriStateMap): void;
}) {
  const active = options.filter((o) => (value[o.value] ?? 0) !== 0);
  const summary = active.length
    ? active.map((o) => `${value[o.value] === -1 ? 'not ' : ''}${o.label}`).join(', ')
    : 'All';
  return (
    <Popover>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className="max-w-72" aria-label={`${label}: ${summary}`}>
          <span className="text-muted">{label}:</span>
          <span className="truncate">{summary}</span>
          <ChevronDown className="size-3.5 text-subtle" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-60 p-1">
        <div role="list" aria-label={label}>
          {options.map((o) => {
            const state = value[o.value] ?? 0;
            return (
              <button
                key={o.value}
                type="button"
                role="listitem"
                data-state={state === 1 ? 'include' : state === -1 ? 'exclude' : 'none'}
                aria-label={`${o.label} (${state === 1 ? 'included' : state === -1 ? 'excluded' : 'no filter'})`}
                onClick={() => onChange({ ...value, [o.value]: cycleTriState(state) })}
                className="flex w-full cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-1.5 text-left text-[13px] hover:bg-surface-hover"
              >
                <StateIcon state={state} />
                <span className={cn('flex-1', state === -1 && 'line-through text-muted')}>{o.label}</span>
              </button>
            );
          })}
        </div>
        {active.length > 0 && (
          <div className="mt-1 border-t border-border pt-1">
            <button
              type="button"
              onClick={() => onChange({})}
              className="flex w-full cursor-pointer items-center gap-2 rounded-md px-2.5 py-1.5 text-[13px] text-muted hover:bg-surface-hover"
            >
              <X className="size-3.5" /> Clear filter
            </button>
          </div>
        )}
        <p className="px-2.5 pb-1.5 pt-1 text-[11.5px] text-subtle">Click to include, again to exclude.</p>
      </PopoverContent>
    </Popover>
  );
}
