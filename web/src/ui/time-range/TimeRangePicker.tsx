// The time range picker (spec/3 §4, §5; spec/1 §9): absolute From/To with a calendar, Clear and
// Submit (disabled unless both are set), the last five absolute ranges, relative presets for the
// past and the future, and quick ranges. With nothing chosen it reads 'Please select time range'.
import { CalendarDays, ChevronDown, Clock } from 'lucide-react';
import { useState } from 'react';
import {
  absoluteRangeFromInputs,
  addRecentRange,
  describeTimeRange,
  formatLocalDateTime,
  parseLocalDateTime,
  QUICK_RANGES,
  RELATIVE_PRESETS,
  relativePreset,
  sameTimeRange,
  type TimeRange,
} from '@opsdeck/common/timeRange';
import { Button } from '../button';
import { cn } from '../cn';
import { Input } from '../input';
import { Popover, PopoverContent, PopoverTrigger } from '../popover';
import { readStored, writeStored } from '../storage';
import { Calendar } from './Calendar';

export const NO_TIME_RANGE = 'Please select time range';
const RECENT_KEY = 'opsdeck.recentTimeRanges';

function isTimeRangeList(v: unknown): boolean {
  return Array.isArray(v) && v.every((r) => r && typeof r === 'object' && 'type' in r && 'display' in r);
}

function inputValue(iso: string | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? '' : formatLocalDateTime(d);
}

export interface TimeRangePickerProps {
  value: TimeRange | undefined;
  onChange(range: TimeRange | undefined): void;
  /** Offer 'Next …' presets as well. */
  allowFuture?: boolean;
  className?: string;
}

export function TimeRangePicker({ value, onChange, allowFuture = true, className }: TimeRangePickerProps) {
  const [open, setOpen] = useState(false);
  return (
    <Popover open={open} onOpenChange={setOpen}>
      <PopoverTrigger asChild>
        <Button variant="outline" size="sm" className={cn('max-w-80', className)} data-testid="time-range-picker">
          <Clock className="size-4 text-muted" aria-hidden />
          <span className={cn('truncate', !value && 'text-muted')}>
            {value ? describeTimeRange(value) : NO_TIME_RANGE}
          </span>
          <ChevronDown className="size-3.5 text-subtle" aria-hidden />
        </Button>
      </PopoverTrigger>
      <PopoverContent align="start" className="w-[min(680px,calc(100vw-24px))] p-0" aria-label="Time range">
        {open && (
          <PickerPanel
            value={value}
            allowFuture={allowFuture}
            onChange={(range) => {
              onChange(range);
              setOpen(false);
            }}
          />
        )}
      </PopoverContent>
    </Popover>
  );
}

function PickerPanel({
  value,
  onChange,
  allowFuture,
}: {
  value: TimeRange | undefined;
  onChange(r: TimeRange | undefined): void;
  allowFuture: boolean;
}) {
  const [from, setFrom] = useState(value?.type === 'absolute' ? inputValue(value.from) : '');
  const [to, setTo] = useState(value?.type === 'absolute' ? inputValue(value.to) : '');
  const [calendar, setCalendar] = useState<'from' | 'to' | null>(null);
  const [error, setError] = useState<string>();
  const [future, setFuture] = useState(value?.type === 'relative' && value.range.startsWith('now+'));
  const [recent] = useState<TimeRange[]>(() => readStored<TimeRange[]>(RECENT_KEY, [], isTimeRangeList));

  const submit = () => {
    const result = absoluteRangeFromInputs(from, to);
    if ('error' in result) {
      setError(result.error);
      return;
    }
    writeStored(RECENT_KEY, addRecentRange(recent, result));
    onChange(result);
  };

  const pickDay = (which: 'from' | 'to', day: Date) => {
    const d = new Date(day);
    if (which === 'to') d.setHours(23, 59, 59, 0);
    (which === 'from' ? setFrom : setTo)(formatLocalDateTime(d));
    setError(undefined);
    setCalendar(null);
  };

  const presetButton = (range: TimeRange, key: string) => (
    <button
      key={key}
      type="button"
      onClick={() => onChange(range)}
      className={cn(
        'w-full cursor-pointer rounded-md px-2.5 py-1.5 text-left text-[13px] hover:bg-surface-hover',
        sameTimeRange(range, value) && 'bg-primary-soft font-medium text-primary hover:bg-primary-soft',
      )}
    >
      {range.display}
    </button>
  );

  return (
    <div className="grid grid-cols-1 sm:grid-cols-[1fr_1fr_1fr]">
      <section className="border-b border-border p-4 sm:border-b-0 sm:border-r" aria-label="Absolute time range">
        <h3 className="mb-3 text-[12px] font-semibold uppercase tracking-wide text-muted">Absolute time range</h3>
        <form
          className="space-y-3"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          {(['from', 'to'] as const).map((which) => (
            <div key={which} className="space-y-1.5">
              <label htmlFor={`range-${which}`} className="text-[13px] font-medium">
                {which === 'from' ? 'From' : 'To'}
              </label>
              <div className="flex gap-1.5">
                <Input
                  id={`range-${which}`}
                  placeholder="YYYY-MM-DD HH:mm:ss"
                  className="h-8 font-mono text-[12.5px]"
                  value={which === 'from' ? from : to}
                  onChange={(e) => {
                    (which === 'from' ? setFrom : setTo)(e.target.value);
                    setError(undefined);
                  }}
                />
                <Button
                  variant={calendar === which ? 'secondary' : 'outline'}
                  size="icon-sm"
                  aria-label={`${which === 'from' ? 'From' : 'To'} calendar`}
                  aria-expanded={calendar === which}
                  onClick={() => setCalendar(calendar === which ? null : which)}
                >
                  <CalendarDays className="size-4" />
                </Button>
              </div>
              {calendar === which && (
                <Calendar
                  label={`${which === 'from' ? 'From' : 'To'} date`}
                  selected={parseLocalDateTime(which === 'from' ? from : to)}
                  onSelect={(d) => pickDay(which, d)}
                />
              )}
            </div>
          ))}
          {error && (
            <p role="alert" className="text-[12.5px] text-danger">
              {error}
            </p>
          )}
          <div className="flex justify-end gap-2 pt-1">
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                setFrom('');
                setTo('');
                onChange(undefined);
              }}
            >
              Clear
            </Button>
            <Button type="submit" size="sm" disabled={!from.trim() || !to.trim()}>
              Submit
            </Button>
          </div>
        </form>
        <h3 className="mb-1.5 mt-5 text-[12px] font-semibold uppercase tracking-wide text-muted">Recently used</h3>
        {recent.length ? (
          <div className="space-y-0.5" data-testid="recent-ranges">
            {recent.map((r, i) => (
              <button
                key={i}
                type="button"
                onClick={() => onChange(r)}
                className="w-full cursor-pointer truncate rounded-md px-2 py-1 text-left font-mono text-[12px] text-muted hover:bg-surface-hover hover:text-foreground"
              >
                {describeTimeRange(r)}
              </button>
            ))}
          </div>
        ) : (
          <p className="text-[12.5px] text-subtle">Absolute ranges you submit appear here.</p>
        )}
      </section>

      <section className="border-b border-border p-3 sm:border-b-0 sm:border-r" aria-label="Relative time ranges">
        <div className="mb-2 flex items-center justify-between gap-2 px-1">
          <h3 className="text-[12px] font-semibold uppercase tracking-wide text-muted">Relative</h3>
          {allowFuture && (
            <div
              className="inline-flex rounded-md border border-border bg-surface-muted p-0.5 text-[12px]"
              role="radiogroup"
              aria-label="Direction"
            >
              {(['Past', 'Future'] as const).map((label) => {
                const active = (label === 'Future') === future;
                return (
                  <button
                    key={label}
                    type="button"
                    role="radio"
                    aria-checked={active}
                    onClick={() => setFuture(label === 'Future')}
                    className={cn(
                      'cursor-pointer rounded px-2 py-0.5',
                      active ? 'bg-surface font-medium shadow-sm' : 'text-muted',
                    )}
                  >
                    {label}
                  </button>
                );
              })}
            </div>
          )}
        </div>
        <div className="max-h-80 space-y-0.5 overflow-y-auto">
          {RELATIVE_PRESETS.map((p) => presetButton(relativePreset(p, future), `${future ? '+' : '-'}${p}`))}
        </div>
      </section>

      <section className="p-3" aria-label="Quick ranges">
        <h3 className="mb-2 px-1 text-[12px] font-semibold uppercase tracking-wide text-muted">Quick ranges</h3>
        <div className="max-h-80 space-y-0.5 overflow-y-auto">
          {QUICK_RANGES.map((q) => presetButton({ type: 'mapped', display: q.display }, q.display))}
        </div>
      </section>
    </div>
  );
}
