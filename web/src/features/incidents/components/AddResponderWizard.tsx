// The add-responder wizard (spec/2 §4, §5): 1. Select Responder (a team or a person); 2.
// Responder Type (teams only: the types configured in the team's responder_clients, scrolling
// past 6); 3. Save Team Responder (the type's form, every field required with 'Please provide
// valid value'). Back returns one step; closing resets it.
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import {
  isResponderType,
  RESPONDER_TYPE_FIELDS,
  RESPONDER_TYPE_LABELS,
  validateResponderFields,
  type ResponderType,
} from '@opsdeck/common/incidents';
import { errorMessage } from '../../../api/client';
import { Button } from '../../../ui/button';
import { cn } from '../../../ui/cn';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { Field, Input, Select, Textarea } from '../../../ui/input';
import { toast } from '../../../ui/toast';
import { incidentsApi } from '../incidentsApi';
import { incidentKeys } from '../keys';
import type { TeamRef } from '../types';
import { useIncidentRefresh } from './useIncidentRefresh';

export const RESPONDER_ADDED = 'Responder added successfully';
export const NO_TEAM_RESPONDERS = 'There were no responders configured for this team';

const FIELD_LABELS: Record<string, string> = {
  to: 'To',
  subject: 'Subject',
  body: 'Body',
  project: 'Project',
  issueType: 'Issue Type',
  priority: 'Priority',
  summary: 'Summary',
  description: 'Description',
  category: 'Category',
  product: 'Product',
  plan_id: 'Plan',
  bucket_id: 'Bucket',
  title: 'Title',
};
const LONG_FIELDS = new Set(['body', 'description']);

type Step = 'select' | 'type' | 'form';

export function AddResponderWizard({
  incidentId,
  open,
  onOpenChange,
}: {
  incidentId: string;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {/* Mounted only while open: closing resets the wizard. */}
      {open && <Wizard incidentId={incidentId} onClose={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function configuredTypes(team: TeamRef | undefined): ResponderType[] {
  return Object.keys(team?.spec?.responder_clients ?? {}).filter(isResponderType);
}

function Wizard({ incidentId, onClose }: { incidentId: string; onClose(): void }) {
  const refresh = useIncidentRefresh(incidentId);
  const [step, setStep] = useState<Step>('select');
  const [kind, setKind] = useState<'team' | 'person'>('team');
  const [teamId, setTeamId] = useState('');
  const [personId, setPersonId] = useState('');
  const [type, setType] = useState<ResponderType | ''>('');
  const [fields, setFields] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});

  const teams = useQuery({ queryKey: incidentKeys.teams(), queryFn: ({ signal }) => incidentsApi.teams(signal) });
  const people = useQuery({
    queryKey: incidentKeys.people(''),
    queryFn: ({ signal }) => incidentsApi.people('', signal),
  });
  const team = teams.data?.find((t) => t.id === teamId);
  const types = configuredTypes(team);

  const save = useMutation({
    mutationFn: () =>
      kind === 'person'
        ? incidentsApi.addResponder(incidentId, {
            type: 'person',
            person_id: personId,
            properties: { responderType: 'person', person: personId },
          })
        : incidentsApi.addResponder(incidentId, {
            type: 'system',
            team_id: teamId,
            properties: { responderType: type, ...fields },
          }),
    onSuccess: () => {
      toast.success(RESPONDER_ADDED);
      refresh('responders');
      onClose();
    },
    // spec/2 §8: on failure the error shows and the dialog closes.
    onError: (e) => {
      toast.error(errorMessage(e));
      onClose();
    },
  });

  function chooseType(t: ResponderType) {
    setType(t);
    const client = team?.spec?.responder_clients?.[t];
    const defaults = { ...(client?.values ?? {}), ...(client?.defaults ?? {}) };
    setFields(
      Object.fromEntries(
        RESPONDER_TYPE_FIELDS[t].map((f) => [f, defaults[f] === undefined ? '' : String(defaults[f])]),
      ),
    );
    setErrors({});
  }

  function submitForm() {
    if (!type) return;
    const next = validateResponderFields(type, fields);
    setErrors(next);
    if (Object.keys(next).length === 0) save.mutate();
  }

  const title = step === 'select' ? 'Select Responder' : step === 'type' ? 'Responder Type' : 'Save Team Responder';
  let body;
  let footer;
  if (step === 'select') {
    body = (
      <div className="space-y-4">
        <div role="radiogroup" aria-label="Responder kind" className="flex gap-4 text-sm">
          {(['team', 'person'] as const).map((k) => (
            <label key={k} className="flex cursor-pointer items-center gap-2">
              <input type="radio" name="responder-kind" checked={kind === k} onChange={() => setKind(k)} />
              {k === 'team' ? 'Team' : 'Person'}
            </label>
          ))}
        </div>
        {kind === 'team' ? (
          <Field label="Team">
            {(id) => (
              <Select id={id} value={teamId} onChange={(e) => setTeamId(e.target.value)}>
                <option value="">Select a team</option>
                {teams.data?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        ) : (
          <Field label="Person" error={undefined}>
            {(id) => (
              <Select id={id} value={personId} onChange={(e) => setPersonId(e.target.value)}>
                <option value="">Select a person</option>
                {people.data?.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </Select>
            )}
          </Field>
        )}
      </div>
    );
    footer =
      kind === 'person' ? (
        <Button disabled={!personId} loading={save.isPending} onClick={() => save.mutate()}>
          Add
        </Button>
      ) : (
        <Button
          disabled={!teamId}
          onClick={() => {
            setType('');
            setStep('type');
          }}
        >
          Next
        </Button>
      );
  } else if (step === 'type') {
    body =
      types.length === 0 ? (
        <p className="text-[13px] text-muted">{NO_TEAM_RESPONDERS}</p>
      ) : (
        <ul
          role="radiogroup"
          aria-label="Responder type"
          className={cn('space-y-1', types.length > 6 && 'max-h-64 overflow-y-auto')}
        >
          {types.map((t) => (
            <li key={t}>
              <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-[13px] hover:bg-surface-hover">
                <input type="radio" name="responder-type" checked={type === t} onChange={() => chooseType(t)} />
                {RESPONDER_TYPE_LABELS[t]}
              </label>
            </li>
          ))}
        </ul>
      );
    footer = (
      <>
        <Button variant="outline" className="mr-auto" onClick={() => setStep('select')}>
          Back
        </Button>
        <Button disabled={!type} onClick={() => setStep('form')}>
          Next
        </Button>
      </>
    );
  } else {
    const list = type ? RESPONDER_TYPE_FIELDS[type] : [];
    // Jira: issue type and priority wait for a project; Planner: the bucket waits for a plan.
    const waitsFor: Record<string, string> = {
      issueType: 'project',
      priority: type === 'jira' ? 'project' : '',
      bucket_id: 'plan_id',
    };
    body = (
      <form
        id="responder-form"
        className="space-y-3"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submitForm();
        }}
      >
        <p className="text-[13px] text-muted">
          {team?.name} · {type ? RESPONDER_TYPE_LABELS[type] : ''}
        </p>
        {list.map((f) => {
          const dependency = waitsFor[f];
          const disabled = !!dependency && !fields[dependency]?.trim();
          const onChange = (v: string) => setFields((prev) => ({ ...prev, [f]: v }));
          return (
            <Field key={f} label={FIELD_LABELS[f] ?? f} error={errors[f]}>
              {(id) =>
                LONG_FIELDS.has(f) ? (
                  <Textarea id={id} value={fields[f] ?? ''} onChange={(e) => onChange(e.target.value)} />
                ) : (
                  <Input
                    id={id}
                    value={fields[f] ?? ''}
                    disabled={disabled}
                    invalid={!!errors[f]}
                    onChange={(e) => onChange(e.target.value)}
                  />
                )
              }
            </Field>
          );
        })}
      </form>
    );
    footer = (
      <>
        <Button variant="outline" className="mr-auto" onClick={() => setStep('type')}>
          Back
        </Button>
        <Button type="submit" form="responder-form" disabled={!type} loading={save.isPending}>
          Save
        </Button>
      </>
    );
  }

  return (
    <DialogContent title={title} footer={footer}>
      {body}
    </DialogContent>
  );
}
