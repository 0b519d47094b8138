// A month calendar for the absolute From/To inputs.
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../button';
import { cn } from '../cn';

const WEEKDAYS = ['Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa', 'Su'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const sameDay = (a: Date, b: Date) =>
  a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();

export function Calendar({
  selected,
  onSelect,
  label,
}: {
  selected?: Date;
  onSelect: (day: Date) => void;
  label: string;
}) {
  const [month, setMonth] = useState(() => {
    const base = selected ?? new Date();
    return new Date(base.getFullYear(), base.getMonth(), 1);
  });
  const today = new Date();
  const lead = (month.getDay() + 6) % 7; // Monday-first grid
  const days = new Date(month.getFullYear(), month.getMonth() + 1, 0).getDate();
  const cells: Array<Date | null> = [
    ...Array(lead).fill(null),
    ...Array.from({ length: days }, (_, i) => new Date(month.getFullYear(), month.getMonth(), i + 1)),
  ];

  return (
    <div className="rounded-md border border-border p-2" role="group" aria-label={label}>
      <div className="mb-1 flex items-center justify-between">
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Previous month"
          onClick={() => setMonth(new Date(month.getFullYear(), month.getMonth() - 1, 1))}
        >
          <ChevronLeft className="size-4" />
        </Button>
        <span className="text-[13px] font-medium">
          {MONTHS[month.getMonth()]} {month.getFullYear()}
        </span>
        <Button
          variant="ghost"
          size="icon-sm"
          aria-label="Next month"
          onClick={() => setMonth(new Date(month.getFullYear(), month.getMonth() + 1, 1))}
        >
          <ChevronRight className="size-4" />
        </Button>
      </div>
      <div className="grid grid-cols-7 gap-0.5 text-center text-[12px]">
        {WEEKDAYS.map((d) => (
          <span key={d} className="py-1 font-medium text-subtle">
            {d}
          </span>
        ))}
        {cells.map((day, i) =>
          day ? (
            <button
              key={i}
              type="button"
              onClick={() => onSelect(day)}
              aria-label={day.toDateString()}
              aria-pressed={selected ? sameDay(day, selected) : false}
              className={cn(
                'h-7 cursor-pointer rounded-md tabular-nums hover:bg-surface-hover',
                sameDay(day, today) && 'font-semibold text-primary',
                selected && sameDay(day, selected) && 'bg-primary text-primary-foreground hover:bg-primary-hover',
              )}
            >
              {day.getDate()}
            </button>
          ) : (
            <span key={i} />
          ),
        )}
      </div>
    </div>
  );
}
