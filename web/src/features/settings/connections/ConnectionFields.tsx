// The fields of a connection form: name and namespace, then the chosen type's fields (common's
// CONNECTION_TYPES) with their messages under them. A secret field has a mode (static text, Secret or
// ConfigMap reference); on an edit it shows that a value is set without ever holding it.
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import type { ConnectionField, ConnectionTypeDef } from '@opsdeck/common/connections';
import { Field, Input, Select, Textarea } from '../../../ui/input';
import { Switch } from '../../../ui/switch';
import type { ConnectionFormValues, SecretColumn, StoredSecrets } from './connectionForm';
import { SECRET_MODES, type SecretMode } from './secretValue';

type Form = UseFormReturn<ConnectionFormValues>;

const UNCHANGED_PLACEHOLDER = '•••••• (unchanged)';

function FieldLabel({ field }: { field: Pick<ConnectionField, 'label' | 'required' | 'default'> }) {
  return (
    <>
      {field.label}
      {field.required && field.default === undefined && (
        <span className="text-danger" aria-hidden>
          {' *'}
        </span>
      )}
    </>
  );
}

export function ConnectionFields({ form, def, stored }: { form: Form; def: ConnectionTypeDef; stored: StoredSecrets }) {
  const errors = form.formState.errors;
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field label={<FieldLabel field={{ label: 'Name', required: true }} />} error={errors.name?.message}>
        {(id, d) => (
          <Input id={id} aria-describedby={d} invalid={!!errors.name} autoComplete="off" {...form.register('name')} />
        )}
      </Field>
      <Field label={<FieldLabel field={{ label: 'Namespace', required: true }} />} error={errors.namespace?.message}>
        {(id, d) => <Input id={id} aria-describedby={d} invalid={!!errors.namespace} {...form.register('namespace')} />}
      </Field>
      {def.fields.map((field) =>
        field.kind === 'secret' ? (
          <SecretField key={field.key} form={form} field={field} stored={stored[field.key as SecretColumn]} />
        ) : (
          <PlainField key={field.key} form={form} field={field} />
        ),
      )}
    </div>
  );
}

const WIDE: ReadonlySet<ConnectionField['kind']> = new Set(['url', 'textarea', 'boolean']);

function PlainField({ form, field }: { form: Form; field: ConnectionField }) {
  const name = `fields.${field.key}` as const;
  const error = form.formState.errors.fields?.[field.key]?.message;
  if (field.kind === 'boolean') {
    return (
      <Controller
        control={form.control}
        name={name}
        render={({ field: f }) => (
          <Switch
            className="sm:col-span-2"
            label={field.label}
            description={field.hint}
            checked={f.value === true}
            onCheckedChange={f.onChange}
          />
        )}
      />
    );
  }
  return (
    <Field
      label={<FieldLabel field={field} />}
      error={error}
      hint={field.hint}
      className={WIDE.has(field.kind) ? 'sm:col-span-2' : undefined}
    >
      {(id, d) =>
        field.kind === 'select' ? (
          <Select id={id} aria-describedby={d} invalid={!!error} {...form.register(name)}>
            {!field.required && <option value="">—</option>}
            {field.options?.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </Select>
        ) : field.kind === 'textarea' ? (
          <Textarea id={id} aria-describedby={d} placeholder={field.placeholder} {...form.register(name)} />
        ) : (
          <Input
            id={id}
            aria-describedby={d}
            invalid={!!error}
            placeholder={field.placeholder}
            inputMode={field.kind === 'number' ? 'numeric' : undefined}
            className={field.kind === 'url' ? 'font-mono text-[13px]' : undefined}
            autoComplete="off"
            {...form.register(name)}
          />
        )
      }
    </Field>
  );
}

function SecretField({
  form,
  field,
  stored,
}: {
  form: Form;
  field: ConnectionField;
  stored: StoredSecrets[SecretColumn];
}) {
  const name = `fields.${field.key}` as const;
  const mode = useWatch({ control: form.control, name: `secretModes.${field.key}` }) ?? 'static';
  const error = form.formState.errors.fields?.[field.key]?.message;
  const keptStatic = !!stored?.set && !stored.ref;
  const multiline = field.key === 'certificate';

  let placeholder = mode === 'static' ? field.placeholder : 'name/key';
  if (mode === 'static' && keptStatic) placeholder = UNCHANGED_PLACEHOLDER;
  let hint: string | undefined = field.hint;
  if (stored?.set)
    hint = stored.ref
      ? `Stored as a reference: ${stored.ref}. Type a new value to replace it.`
      : 'A value is set. Leave the field empty to keep it.';
  else if (mode !== 'static') hint = `The ${mode === 'secret' ? 'Secret' : 'ConfigMap'} and key, as name/key.`;

  const switchMode = (next: SecretMode) => {
    form.setValue(`secretModes.${field.key}`, next, { shouldDirty: true });
    form.setValue(name, '', { shouldDirty: true });
    form.clearErrors(name);
  };

  return (
    <Field label={<FieldLabel field={field} />} error={error} hint={hint} className="sm:col-span-2">
      {(id, d) => (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
          <Select
            aria-label={`${field.label} source`}
            value={mode}
            onChange={(e) => switchMode(e.target.value as SecretMode)}
            className="sm:w-52 sm:shrink-0"
          >
            {SECRET_MODES.map((m) => (
              <option key={m.mode} value={m.mode}>
                {m.label}
              </option>
            ))}
          </Select>
          {multiline && mode === 'static' ? (
            <Textarea
              id={id}
              aria-describedby={d}
              placeholder={placeholder}
              className="font-mono text-[12.5px]"
              spellCheck={false}
              {...form.register(name)}
            />
          ) : (
            <Input
              id={id}
              aria-describedby={d}
              invalid={!!error}
              type={mode === 'static' ? 'password' : 'text'}
              autoComplete={mode === 'static' ? 'new-password' : 'off'}
              placeholder={placeholder}
              className={mode === 'static' ? undefined : 'font-mono text-[13px]'}
              {...form.register(name)}
            />
          )}
        </div>
      )}
    </Field>
  );
}
