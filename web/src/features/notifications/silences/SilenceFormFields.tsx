// The silence form (spec/3 §2, §5), shared by /notifications/silences/add and the edit modal:
// the kind of resource (choosing one clears the others) and its picker, or a namespace; how long;
// the reason; recursive.
import { Field, Input, Select, Textarea } from '../../../ui/input';
import { NamePicker } from '../../../ui/name-picker';
import { SegmentedRadioGroup } from '../../../ui/segmented-radio-group';
import { notificationKeys } from '../keys';
import {
  SILENCE_DURATIONS,
  SILENCE_RESOURCE_KINDS,
  withResourceKind,
  type SilenceDuration,
  type SilenceFormValues,
} from './silenceForm';

export function SilenceFormFields({
  values,
  onChange,
  errors,
}: {
  values: SilenceFormValues;
  onChange(values: SilenceFormValues): void;
  errors: Partial<Record<'resource' | 'until', string>>;
}) {
  const set = (patch: Partial<SilenceFormValues>) => onChange({ ...values, ...patch });
  const kind = SILENCE_RESOURCE_KINDS.find((k) => k.value === values.kind)!;
  return (
    <div className="space-y-4">
      <fieldset className="space-y-3">
        <legend className="mb-1.5 text-[13px] font-medium">Resource</legend>
        <SegmentedRadioGroup
          label="Resource kind"
          options={SILENCE_RESOURCE_KINDS}
          value={values.kind}
          inputProps={(v) => ({
            name: 'silence-kind',
            checked: values.kind === v,
            onChange: () => onChange(withResourceKind(values, v)),
          })}
        />
        <Field label={kind.label} error={errors.resource}>
          {(id, d) => (
            <NamePicker
              id={id}
              queryScope={notificationKeys.all}
              table={kind.table}
              label={kind.label}
              describedBy={d}
              value={values.resourceId}
              selectedName={values.resourceName}
              invalid={!!errors.resource}
              onChange={(o) => set({ resourceId: o.id, resourceName: o.name ?? o.id })}
            />
          )}
        </Field>
        <Field label="Namespace" hint="Silences everything in this namespace (with or without a resource above).">
          {(id, d) => (
            <Input
              id={id}
              aria-describedby={d}
              value={values.namespace}
              onChange={(e) => set({ namespace: e.target.value })}
            />
          )}
        </Field>
        <label className="flex items-center gap-2 text-[13px]">
          <input type="checkbox" checked={values.recursive} onChange={(e) => set({ recursive: e.target.checked })} />
          Recursive
          <span className="text-muted">— also silence the children of a component or catalog item</span>
        </label>
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Duration">
          {(id) => (
            <Select
              id={id}
              value={values.duration}
              onChange={(e) => set({ duration: e.target.value as SilenceDuration })}
            >
              {SILENCE_DURATIONS.map((d) => (
                <option key={d.value} value={d.value}>
                  {d.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        {values.duration === 'custom' && (
          <Field label="Until" error={errors.until}>
            {(id, d) => (
              <Input
                id={id}
                type="datetime-local"
                aria-describedby={d}
                invalid={!!errors.until}
                value={values.until}
                onChange={(e) => set({ until: e.target.value })}
              />
            )}
          </Field>
        )}
      </div>

      <Field label="Reason">
        {(id) => (
          <Textarea
            id={id}
            rows={3}
            value={values.description}
            onChange={(e) => set({ description: e.target.value })}
          />
        )}
      </Field>
    </div>
  );
}
