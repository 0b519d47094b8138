// A duration field of the rule form: the spec's choices, None, or a custom text ("90m", "2d");
// the form stores the text and saves nanoseconds (see ./durationField.ts).
import { useState } from 'react';
import { Input, Select } from '../../../ui/input';
import { durationLabel, isDurationChoice, type DurationChoice } from './durationField';

const CUSTOM = '__custom__';

export function DurationField({
  id,
  value,
  onChange,
  choices,
  label,
  invalid,
  describedBy,
  disabled,
  required,
}: {
  id: string;
  value: string;
  onChange(text: string): void;
  choices: readonly DurationChoice[];
  label: string;
  invalid?: boolean;
  describedBy?: string;
  disabled?: boolean;
  required?: boolean;
}) {
  // A stored value that is not one of the choices opens in custom mode.
  const [custom, setCustom] = useState(() => value !== '' && !isDurationChoice(value, choices));
  return (
    <div className="flex gap-2">
      <Select
        id={id}
        aria-label={label}
        aria-describedby={describedBy}
        invalid={invalid && !custom}
        disabled={disabled}
        value={custom ? CUSTOM : value}
        onChange={(e) => {
          const next = e.target.value;
          setCustom(next === CUSTOM);
          onChange(next === CUSTOM ? '' : next);
        }}
        className={custom ? 'w-32' : undefined}
      >
        <option value="">{required ? 'Select…' : 'None'}</option>
        {choices.map((c) => (
          <option key={c.value} value={c.value}>
            {durationLabel(c.value, choices)}
          </option>
        ))}
        <option value={CUSTOM}>Custom…</option>
      </Select>
      {custom && (
        <Input
          aria-label={`${label} (custom)`}
          aria-describedby={describedBy}
          placeholder="e.g. 90m, 2d"
          value={value}
          invalid={invalid}
          disabled={disabled}
          autoFocus
          onChange={(e) => onChange(e.target.value)}
          className="font-mono"
        />
      )}
    </div>
  );
}
