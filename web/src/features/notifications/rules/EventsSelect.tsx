// The events a rule listens to (required): a multi-select of NOTIFICATION_EVENTS grouped by the
// kind of resource, the chosen ones shown as removable chips.
import { ChevronDown, X } from 'lucide-react';
import { NOTIFICATION_EVENTS, eventResourceType, type NotificationEvent } from '@opsdeck/common/notifications';
import { cn } from '../../../ui/cn';
import { Popover, PopoverContent, PopoverTrigger } from '../../../ui/popover';

const GROUPS = ['check', 'component', 'config', 'incident', 'playbook'] as const;
const GROUP_LABELS: Record<(typeof GROUPS)[number], string> = {
  check: 'Checks',
  component: 'Components',
  config: 'Catalog',
  incident: 'Incidents',
  playbook: 'Playbooks',
};

export function EventsSelect({
  id,
  value,
  onChange,
  invalid,
  describedBy,
  disabled,
}: {
  id: string;
  value: readonly NotificationEvent[];
  onChange(events: NotificationEvent[]): void;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
}) {
  const toggle = (e: NotificationEvent) =>
    onChange(
      value.includes(e)
        ? value.filter((v) => v !== e)
        : NOTIFICATION_EVENTS.filter((x) => x === e || value.includes(x)),
    );
  return (
    <div className="space-y-2">
      <Popover>
        <PopoverTrigger asChild disabled={disabled}>
          <button
            id={id}
            type="button"
            aria-label="Events"
            aria-describedby={describedBy}
            aria-invalid={invalid || undefined}
            className={cn(
              'flex h-9 w-full items-center justify-between gap-2 rounded-md border border-border bg-surface px-3 text-left text-sm shadow-xs',
              'focus:border-primary focus:outline-none focus:ring-2 focus:ring-primary/20 disabled:cursor-not-allowed disabled:bg-surface-muted',
              invalid && 'border-danger',
            )}
          >
            <span className={cn(!value.length && 'text-subtle')}>
              {value.length ? `${value.length} selected` : 'Select events…'}
            </span>
            <ChevronDown className="size-4 text-subtle" aria-hidden />
          </button>
        </PopoverTrigger>
        <PopoverContent align="start" className="max-h-80 w-[var(--radix-popover-trigger-width)] overflow-y-auto p-2">
          {GROUPS.map((g) => (
            <fieldset key={g} className="mb-2 last:mb-0">
              <legend className="px-1 text-[11.5px] font-semibold uppercase tracking-wide text-muted">
                {GROUP_LABELS[g]}
              </legend>
              {NOTIFICATION_EVENTS.filter((e) => eventResourceType(e) === g).map((e) => (
                <label
                  key={e}
                  className="flex cursor-pointer items-center gap-2 rounded px-1 py-1 font-mono text-[12.5px] hover:bg-surface-hover"
                >
                  <input type="checkbox" checked={value.includes(e)} onChange={() => toggle(e)} />
                  {e}
                </label>
              ))}
            </fieldset>
          ))}
        </PopoverContent>
      </Popover>
      {value.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label="Chosen events">
          {value.map((e) => (
            <li
              key={e}
              className="inline-flex items-center gap-1 rounded-full border border-border bg-surface-muted py-0.5 pl-2 pr-1 font-mono text-[12px]"
            >
              {e}
              {!disabled && (
                <button
                  type="button"
                  aria-label={`Remove ${e}`}
                  onClick={() => toggle(e)}
                  className="rounded-full p-0.5 text-muted hover:bg-surface-hover hover:text-foreground"
                >
                  <X className="size-3" aria-hidden />
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
