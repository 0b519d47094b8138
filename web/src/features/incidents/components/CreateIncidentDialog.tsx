// The Create New Incident dialog (spec/2 §2.7, §5): title required, description optional,
// severity, status and type required (defaults Low, open, availability), optional commander
// and communicator. On success the user lands on the new incident.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { DEFAULT_INCIDENT_SEVERITY, DEFAULT_INCIDENT_STATUS, DEFAULT_INCIDENT_TYPE } from '@opsdeck/common/incidents';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/button';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { Field, Input, Select, Textarea } from '../../../ui/input';
import { incidentService } from '../../../ui/link-to-incident/incidentApi';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  SEVERITY_LABELS,
  STATUS_LABELS,
  TYPE_LABELS,
} from '../../../ui/link-to-incident/incidentOptions';
import { toast } from '../../../ui/toast';
import { incidentsApi } from '../incidentsApi';
import { incidentKeys } from '../keys';

const REQUIRED = 'This field is required';

export function CreateIncidentDialog({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <CreateForm onClose={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function CreateForm({ onClose }: { onClose(): void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState({
    title: '',
    description: '',
    severity: DEFAULT_INCIDENT_SEVERITY as string,
    status: DEFAULT_INCIDENT_STATUS as string,
    type: DEFAULT_INCIDENT_TYPE as string,
    commander_id: '',
    communicator_id: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const people = useQuery({
    queryKey: incidentKeys.people(''),
    queryFn: ({ signal }) => incidentsApi.people('', signal),
  });
  const set = (k: keyof typeof values) => (v: string) => setValues((prev) => ({ ...prev, [k]: v }));

  const create = useMutation({
    mutationFn: () =>
      incidentService.create({
        title: values.title.trim(),
        description: values.description.trim() || undefined,
        severity: values.severity,
        status: values.status,
        type: values.type,
        commander_id: values.commander_id || undefined,
        communicator_id: values.communicator_id || undefined,
      }),
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: incidentKeys.lists() });
      toast.success(`Incident ${created.incident_id} created`);
      onClose();
      void navigate(`/incidents/${created.id}`);
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  function submit(e: FormEvent) {
    e.preventDefault();
    const next: Record<string, string> = {};
    for (const k of ['title', 'severity', 'status', 'type'] as const) if (!values[k].trim()) next[k] = REQUIRED;
    setErrors(next);
    if (!Object.keys(next).length) create.mutate();
  }

  const select = (
    key: 'severity' | 'status' | 'type',
    text: string,
    options: readonly string[],
    labels: Record<string, string>,
  ) => (
    <Field label={text} error={errors[key]}>
      {(id) => (
        <Select id={id} value={values[key]} onChange={(e) => set(key)(e.target.value)} invalid={!!errors[key]}>
          <option value="">Select {text.toLowerCase()}</option>
          {options.map((o) => (
            <option key={o} value={o}>
              {labels[o] ?? o}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );

  const personSelect = (key: 'commander_id' | 'communicator_id', text: string) => (
    <Field label={text}>
      {(id) => (
        <Select id={id} value={values[key]} onChange={(e) => set(key)(e.target.value)}>
          <option value="">None</option>
          {people.data?.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </Select>
      )}
    </Field>
  );

  return (
    <DialogContent
      title="Create New Incident"
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" form="create-incident" loading={create.isPending}>
            Create
          </Button>
        </>
      }
    >
      <form id="create-incident" className="space-y-4" onSubmit={submit} noValidate>
        <Field label="Title" error={errors.title}>
          {(id) => (
            <Input
              id={id}
              value={values.title}
              onChange={(e) => set('title')(e.target.value)}
              invalid={!!errors.title}
              autoFocus
            />
          )}
        </Field>
        <Field label="Description">
          {(id) => <Textarea id={id} value={values.description} onChange={(e) => set('description')(e.target.value)} />}
        </Field>
        <div className="grid grid-cols-3 gap-3">
          {select('severity', 'Severity', INCIDENT_SEVERITIES, SEVERITY_LABELS)}
          {select('status', 'Status', INCIDENT_STATUSES, STATUS_LABELS)}
          {select('type', 'Type', INCIDENT_TYPES, TYPE_LABELS)}
        </div>
        <div className="grid grid-cols-2 gap-3">
          {personSelect('commander_id', 'Commander')}
          {personSelect('communicator_id', 'Communicator')}
        </div>
      </form>
    </DialogContent>
  );
}
