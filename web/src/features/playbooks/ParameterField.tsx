// One playbook parameter as a form field, by its type (spec/1 §3 "Playbook parameter"): text
// (an input, a textarea when multiline, memory and cpu amounts, other formats as the input type),
// code (the YAML/JSON editor), checkbox, list (its options), and pickers of teams, people,
// components, catalog items and checks, secret (a hidden input) and connection (the stored
// connections by name). Label, required marker and the field's error.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { cn } from '../../ui/cn';
import { CodeEditor } from '../../ui/code-editor';
import { Field, Input, Select, Textarea } from '../../ui/input';
import { playbookKeys, playbooksApi } from './playbooksApi';
import { ResourcePicker, type PickerTable } from './ResourcePicker';
import {
  codeLanguage,
  joinMemory,
  joinMillicores,
  MEMORY_UNITS,
  millicoresAmount,
  splitMemory,
  type MemoryUnit,
  type ParamValue,
} from './runForm';
import type { ParameterType, PlaybookParameter } from './types';

const PICKER_TABLES: Partial<Record<ParameterType, PickerTable>> = {
  team: 'teams',
  people: 'people',
  component: 'components',
  config: 'config_items',
  check: 'checks',
};

const WIDTHS = {
  'very-small': 'max-w-32',
  small: 'max-w-56',
  medium: 'max-w-sm',
  large: 'max-w-lg',
  full: 'max-w-none',
} as const;

/** The <input type> of a text format: numbers as number, checked-only formats as text, others as named. */
function inputType(format: string | undefined): string {
  if (!format) return 'text';
  if (format === 'integer' || format === 'float') return 'number';
  return format === 'dns1123' ? 'text' : format;
}

const CODE_HEIGHTS = { 'very-small': '80px', small: '120px', medium: '180px', large: '280px', full: '400px' } as const;

export function parameterLabel(param: PlaybookParameter): string {
  return param.label || param.name;
}

function LabelText({ param }: { param: PlaybookParameter }): ReactNode {
  return (
    <>
      {parameterLabel(param)}
      {param.required && (
        <span className="ml-0.5 text-danger" aria-hidden>
          *
        </span>
      )}
    </>
  );
}

export function ParameterField({
  param,
  value,
  error,
  onChange,
  disabled,
}: {
  param: PlaybookParameter;
  value: ParamValue | undefined;
  /** Shown once the field has been changed. */
  error?: string;
  onChange(value: ParamValue): void;
  disabled?: boolean;
}) {
  const props = param.properties ?? {};
  const text = typeof value === 'string' ? value : '';
  const width = WIDTHS[props.size ?? 'full'] ?? WIDTHS.full;

  if (param.type === 'checkbox') {
    return (
      <label className="flex cursor-pointer items-center gap-2 text-[13px] font-medium text-foreground">
        <input
          type="checkbox"
          className="size-4 accent-[var(--color-primary)]"
          checked={value === true}
          disabled={disabled}
          onChange={(e) => onChange(e.target.checked)}
        />
        <LabelText param={param} />
      </label>
    );
  }

  const picker = param.type ? PICKER_TABLES[param.type] : undefined;

  return (
    <Field label={<LabelText param={param} />} error={error}>
      {(id, describedBy) => {
        const common = {
          id,
          'aria-describedby': describedBy,
          'aria-required': param.required || undefined,
          disabled,
        };
        if (param.type === 'code') {
          return (
            <CodeEditor
              language={codeLanguage(param)}
              value={text}
              onChange={onChange}
              readOnly={disabled}
              minHeight={CODE_HEIGHTS[props.size ?? 'medium'] ?? CODE_HEIGHTS.medium}
              ariaLabel={parameterLabel(param)}
            />
          );
        }
        if (picker) {
          return (
            <div className={width}>
              <ResourcePicker
                id={id}
                table={picker}
                value={text}
                onChange={(picked) => onChange(picked)}
                label={parameterLabel(param)}
                filter={props.filter}
                invalid={!!error}
                describedBy={describedBy}
                disabled={disabled}
              />
            </div>
          );
        }
        if (param.type === 'secret') {
          return (
            <Input
              {...common}
              className={width}
              type="password"
              autoComplete="new-password"
              value={text}
              invalid={!!error}
              onChange={(e) => onChange(e.target.value)}
            />
          );
        }
        if (param.type === 'connection') {
          return (
            <ConnectionSelect common={common} className={width} value={text} invalid={!!error} onChange={onChange} />
          );
        }
        if (param.type === 'list') {
          return (
            <Select
              {...common}
              className={width}
              value={text}
              invalid={!!error}
              onChange={(e) => onChange(e.target.value)}
            >
              <option value="">Select…</option>
              {(props.options ?? []).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label || o.value}
                </option>
              ))}
              {text && !(props.options ?? []).some((o) => o.value === text) && <option value={text}>{text}</option>}
            </Select>
          );
        }
        if (props.format === 'bytes') {
          const { amount, unit } = splitMemory(text);
          return (
            <div className={cn('flex gap-2', width)}>
              <Input
                {...common}
                type="number"
                min={0}
                value={amount}
                invalid={!!error}
                onChange={(e) => onChange(joinMemory(e.target.value, unit))}
              />
              <Select
                aria-label={`${parameterLabel(param)} unit`}
                className="w-24 shrink-0"
                value={unit}
                disabled={disabled}
                onChange={(e) => onChange(joinMemory(amount, e.target.value as MemoryUnit))}
              >
                {MEMORY_UNITS.map((u) => (
                  <option key={u} value={u}>
                    {u}
                  </option>
                ))}
              </Select>
            </div>
          );
        }
        if (props.format === 'millicores') {
          return (
            <div className={cn('flex items-center gap-2', width)}>
              <Input
                {...common}
                type="number"
                min={0}
                value={millicoresAmount(text)}
                invalid={!!error}
                onChange={(e) => onChange(joinMillicores(e.target.value))}
              />
              <span className="text-[13px] text-muted">m</span>
            </div>
          );
        }
        const multiline = props.multiline === true || props.multiline === 'true';
        if (multiline) {
          return (
            <Textarea
              {...common}
              className={cn(width, error && 'border-danger')}
              value={text}
              aria-invalid={!!error || undefined}
              onChange={(e) => onChange(e.target.value)}
            />
          );
        }
        return (
          <Input
            {...common}
            className={width}
            type={inputType(props.format)}
            value={text}
            invalid={!!error}
            onChange={(e) => onChange(e.target.value)}
          />
        );
      }}
    </Field>
  );
}

/** The stored connections by name (GET /api/playbook/connections); the value is connection://<type>/<name>. */
function ConnectionSelect({
  common,
  className,
  value,
  invalid,
  onChange,
}: {
  common: { id: string; 'aria-describedby'?: string; 'aria-required'?: boolean; disabled?: boolean };
  className: string;
  value: string;
  invalid: boolean;
  onChange(value: string): void;
}) {
  const connections = useQuery({
    queryKey: playbookKeys.connections(),
    queryFn: ({ signal }) => playbooksApi.connections(signal),
    staleTime: 30_000,
  });
  const options = (connections.data ?? []).map((c) => ({
    value: `connection://${c.type}/${c.name}`,
    label: `${c.name} (${c.type}${c.namespace === 'default' ? '' : `, ${c.namespace}`})`,
  }));
  return (
    <Select
      {...common}
      className={className}
      value={value}
      invalid={invalid}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{connections.isLoading ? 'Loading connections…' : 'Select a connection…'}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {value && !options.some((o) => o.value === value) && <option value={value}>{value}</option>}
    </Select>
  );
}
