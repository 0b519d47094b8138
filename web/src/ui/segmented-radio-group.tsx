// A segmented choice of one value (the rule's recipient kind, the silenced resource's kind): real
// radio inputs, hidden but focusable, so the arrow keys move the choice and focus shows as a ring.
import type { InputHTMLAttributes, Ref } from 'react';
import { cn } from './cn';

export function SegmentedRadioGroup<V extends string>({
  label,
  options,
  value,
  inputProps,
}: {
  /** The group's accessible name. */
  label: string;
  options: readonly { value: V; label: string }[];
  /** The chosen value (shown as the raised segment). */
  value: string;
  /** What each radio input gets besides its value: `register(...)` of a form, or name/checked/onChange. */
  inputProps(value: V): InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> };
}) {
  return (
    <div
      role="radiogroup"
      aria-label={label}
      className="inline-flex gap-0.5 rounded-lg border border-border bg-surface-muted p-0.5"
    >
      {options.map((o) => (
        <label
          key={o.value}
          className={cn(
            'cursor-pointer rounded-md px-3 py-1 text-[13px] font-medium text-muted has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-primary/40',
            value === o.value && 'bg-surface text-foreground shadow-sm',
          )}
        >
          <input type="radio" className="sr-only" value={o.value} {...inputProps(o.value)} />
          {o.label}
        </label>
      ))}
    </div>
  );
}
