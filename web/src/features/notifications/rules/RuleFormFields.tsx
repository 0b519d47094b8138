// The fields of the rule form (spec/3 §2, §5): name, title, events, filter, recipient (Person,
// Team, Others), repeat interval, wait for, template and properties.
import { Controller, type UseFormReturn } from 'react-hook-form';
import { useCan } from '../../../api/session';
import { cn } from '../../../ui/cn';
import { Field, Input, Select, Textarea } from '../../../ui/input';
import { NamePicker } from '../../../ui/name-picker';
import { SegmentedRadioGroup } from '../../../ui/segmented-radio-group';
import { notificationKeys } from '../keys';
import { DurationField } from './DurationField';
import { REPEAT_INTERVAL_OPTIONS, WAIT_FOR_OPTIONS } from './durationField';
import { EventsSelect } from './EventsSelect';
import { OTHER_KINDS, RECIPIENT_KINDS, type RecipientNames, type RuleFormValues } from './ruleForm';

export function RuleFormFields({
  form,
  names,
  onNames,
  isNew,
}: {
  form: UseFormReturn<RuleFormValues>;
  names: RecipientNames;
  onNames(names: RecipientNames): void;
  isNew: boolean;
}) {
  const { register, control, watch, setValue, formState } = form;
  const errors = formState.errors;
  const recipientKind = watch('recipientKind');
  const otherKind = watch('otherKind');
  // Only admins read connections (spec/1 §6): others send to a service URL or an email address.
  const canPickConnections = useCan('connections', 'read');
  const otherKinds = OTHER_KINDS.filter((k) => k.value !== 'connection' || canPickConnections);

  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" error={errors.name?.message}>
          {(id, d) => (
            <Input id={id} aria-describedby={d} invalid={!!errors.name} disabled={!isNew} {...register('name')} />
          )}
        </Field>
        <Field label="Title" hint="A Go template; the default names the resource and its state.">
          {(id, d) => <Input id={id} aria-describedby={d} {...register('title')} />}
        </Field>
      </div>

      <Field label="Events" error={errors.events?.message}>
        {(id, d) => (
          <Controller
            control={control}
            name="events"
            render={({ field }) => (
              <EventsSelect
                id={id}
                describedBy={d}
                value={field.value}
                onChange={field.onChange}
                invalid={!!errors.events}
              />
            )}
          />
        )}
      </Field>

      <Field label="Filter" hint="CEL over the event's resource, e.g. check.type == 'http'">
        {(id, d) => (
          <Textarea id={id} aria-describedby={d} rows={2} className="font-mono text-[13px]" {...register('filter')} />
        )}
      </Field>

      <fieldset className="space-y-3">
        <legend className="mb-1.5 text-[13px] font-medium">Recipient</legend>
        <SegmentedRadioGroup
          label="Recipient"
          options={RECIPIENT_KINDS}
          value={recipientKind}
          inputProps={() => register('recipientKind')}
        />
        {recipientKind === 'person' && (
          <Field label="Person" error={errors.personId?.message}>
            {(id, d) => (
              <Controller
                control={control}
                name="personId"
                render={({ field }) => (
                  <NamePicker
                    id={id}
                    queryScope={notificationKeys.all}
                    table="people"
                    label="Person"
                    describedBy={d}
                    value={field.value}
                    selectedName={names.person}
                    invalid={!!errors.personId}
                    onChange={(o) => {
                      field.onChange(o.id);
                      onNames({ ...names, person: o.detail ?? o.name ?? o.id });
                    }}
                  />
                )}
              />
            )}
          </Field>
        )}
        {recipientKind === 'team' && (
          <Field label="Team" error={errors.teamId?.message}>
            {(id, d) => (
              <Controller
                control={control}
                name="teamId"
                render={({ field }) => (
                  <NamePicker
                    id={id}
                    queryScope={notificationKeys.all}
                    table="teams"
                    label="Team"
                    describedBy={d}
                    value={field.value}
                    selectedName={names.team}
                    invalid={!!errors.teamId}
                    onChange={(o) => {
                      field.onChange(o.id);
                      onNames({ ...names, team: o.name ?? o.id });
                    }}
                  />
                )}
              />
            )}
          </Field>
        )}
        {recipientKind === 'others' && (
          <div className="grid gap-3 sm:grid-cols-[10rem_1fr]">
            <Field label="Send to">
              {(id) => (
                <Select
                  id={id}
                  value={otherKind}
                  onChange={(e) => setValue('otherKind', e.target.value as RuleFormValues['otherKind'])}
                >
                  {otherKinds.map((k) => (
                    <option key={k.value} value={k.value}>
                      {k.label}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            {otherKind === 'connection' && canPickConnections ? (
              <Field label="Connection" error={errors.connection?.message}>
                {(id, d) => (
                  <Controller
                    control={control}
                    name="connection"
                    render={({ field }) => (
                      <NamePicker
                        id={id}
                        queryScope={notificationKeys.all}
                        table="connections"
                        label="Connection"
                        describedBy={d}
                        value={field.value}
                        selectedName={field.value || undefined}
                        invalid={!!errors.connection}
                        onChange={(o) => field.onChange(`connection://${o.detail ?? ''}/${o.name ?? o.id}`)}
                      />
                    )}
                  />
                )}
              </Field>
            ) : otherKind === 'email' ? (
              <Field label="Email" error={errors.email?.message}>
                {(id, d) => (
                  <Input id={id} type="email" aria-describedby={d} invalid={!!errors.email} {...register('email')} />
                )}
              </Field>
            ) : (
              <Field
                label="Service URL"
                error={errors.url?.message}
                hint="slack://…, teams://…, smtp://…, generic+https://host/path"
              >
                {(id, d) => (
                  <Input
                    id={id}
                    aria-describedby={d}
                    invalid={!!errors.url}
                    className="font-mono"
                    {...register('url')}
                  />
                )}
              </Field>
            )}
          </div>
        )}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Repeat Interval" error={errors.repeatInterval?.message}>
          {(id, d) => (
            <Controller
              control={control}
              name="repeatInterval"
              render={({ field }) => (
                <DurationField
                  id={id}
                  label="Repeat Interval"
                  describedBy={d}
                  value={field.value}
                  onChange={field.onChange}
                  choices={REPEAT_INTERVAL_OPTIONS}
                  invalid={!!errors.repeatInterval}
                />
              )}
            />
          )}
        </Field>
        <Field label="Wait For" error={errors.waitFor?.message}>
          {(id, d) => (
            <Controller
              control={control}
              name="waitFor"
              render={({ field }) => (
                <DurationField
                  id={id}
                  label="Wait For"
                  describedBy={d}
                  value={field.value}
                  onChange={field.onChange}
                  choices={WAIT_FOR_OPTIONS}
                  invalid={!!errors.waitFor}
                />
              )}
            />
          )}
        </Field>
      </div>

      <Field label="Template" hint="A Go template in Markdown; the default depends on the event.">
        {(id, d) => (
          <Textarea id={id} aria-describedby={d} rows={4} className="font-mono text-[13px]" {...register('template')} />
        )}
      </Field>

      <Field label="Properties" error={errors.properties?.message} hint='JSON, e.g. {"priority": "P1"}'>
        {(id, d) => (
          <Textarea
            id={id}
            aria-describedby={d}
            rows={2}
            className={cn('font-mono text-[13px]', errors.properties && 'border-danger')}
            {...register('properties')}
          />
        )}
      </Field>
    </div>
  );
}
