// The fields of the agent form (spec/1 §3): name (read-only when editing), properties as key/value
// rows, and the install options Kubernetes {enabled, interval} and Push Telemetry {enabled, topologyName}.
import { Plus, Trash2 } from 'lucide-react';
import { Controller, useFieldArray, useWatch, type UseFormReturn } from 'react-hook-form';
import { Button } from '../../ui/button';
import { Field, Input, Label, Select } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { KUBERNETES_INTERVALS, type AgentFormValues } from './agentForm';

type Form = UseFormReturn<AgentFormValues>;

const Required = () => (
  <span className="text-danger" aria-hidden>
    {' *'}
  </span>
);

export function AgentFormFields({ form, editing }: { form: Form; editing: boolean }) {
  const errors = form.formState.errors;
  return (
    <div className="space-y-6">
      <Field
        label={
          <>
            Name
            <Required />
          </>
        }
        error={errors.name?.message}
        hint={editing ? 'The name of an agent cannot be changed.' : undefined}
      >
        {(id, d) => (
          <Input
            id={id}
            aria-describedby={d}
            invalid={!!errors.name}
            readOnly={editing}
            autoComplete="off"
            {...form.register('name')}
          />
        )}
      </Field>
      <PropertiesEditor form={form} />
      <KubernetesFields form={form} />
      <PushTelemetryFields form={form} />
    </div>
  );
}

function PropertiesEditor({ form }: { form: Form }) {
  const rows = useFieldArray({ control: form.control, name: 'properties' });
  const errors = form.formState.errors.properties;
  return (
    <fieldset className="space-y-2">
      <legend className="text-[13px] font-medium text-foreground">Properties</legend>
      <p className="text-[12.5px] text-muted">Labels of the agent, shown with the data it pushes.</p>
      {rows.fields.map((row, i) => {
        const keyError = errors?.[i]?.key?.message;
        return (
          <div key={row.id} className="space-y-1" data-testid="agent-property">
            <div className="flex items-center gap-2">
              <Input
                aria-label={`Property ${i + 1} key`}
                placeholder="Key"
                invalid={!!keyError}
                {...form.register(`properties.${i}.key`)}
              />
              <Input
                aria-label={`Property ${i + 1} value`}
                placeholder="Value"
                {...form.register(`properties.${i}.value`)}
              />
              <Button
                variant="ghost"
                size="icon-sm"
                aria-label={`Remove property ${i + 1}`}
                onClick={() => (rows.fields.length > 1 ? rows.remove(i) : rows.update(0, { key: '', value: '' }))}
              >
                <Trash2 className="size-4" aria-hidden />
              </Button>
            </div>
            {keyError && (
              <p role="alert" className="text-[12.5px] text-danger">
                {keyError}
              </p>
            )}
          </div>
        );
      })}
      <Button variant="outline" size="sm" onClick={() => rows.append({ key: '', value: '' })}>
        <Plus className="size-4" aria-hidden /> Add property
      </Button>
    </fieldset>
  );
}

function KubernetesFields({ form }: { form: Form }) {
  const enabled = useWatch({ control: form.control, name: 'kubernetes.enabled' });
  return (
    <fieldset className="space-y-3 rounded-lg border border-border p-4">
      <legend className="px-1 text-[13px] font-medium text-foreground">Kubernetes</legend>
      <Controller
        control={form.control}
        name="kubernetes.enabled"
        render={({ field }) => (
          <Switch
            label="Scrape the cluster"
            description="The agent catalogs the Kubernetes cluster it runs in."
            checked={field.value}
            onCheckedChange={field.onChange}
          />
        )}
      />
      {enabled && (
        <div className="space-y-1.5">
          <Label htmlFor="agent-kubernetes-interval">Interval</Label>
          <Select id="agent-kubernetes-interval" className="w-32" {...form.register('kubernetes.interval')}>
            {KUBERNETES_INTERVALS.map((interval) => (
              <option key={interval} value={interval}>
                {interval}
              </option>
            ))}
          </Select>
        </div>
      )}
    </fieldset>
  );
}

function PushTelemetryFields({ form }: { form: Form }) {
  const enabled = useWatch({ control: form.control, name: 'pushTelemetry.enabled' });
  const error = form.formState.errors.pushTelemetry?.topologyName?.message;
  return (
    <fieldset className="space-y-3 rounded-lg border border-border p-4">
      <legend className="px-1 text-[13px] font-medium text-foreground">Push Telemetry</legend>
      <Controller
        control={form.control}
        name="pushTelemetry.enabled"
        render={({ field }) => (
          <Switch
            label="Push telemetry"
            description="The agent pushes a topology of what it runs."
            checked={field.value}
            onCheckedChange={field.onChange}
          />
        )}
      />
      {enabled && (
        <Field
          label={
            <>
              Topology Name
              <Required />
            </>
          }
          error={error}
        >
          {(id, d) => (
            <Input id={id} aria-describedby={d} invalid={!!error} {...form.register('pushTelemetry.topologyName')} />
          )}
        </Field>
      )}
    </fieldset>
  );
}
