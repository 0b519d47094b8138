// The Link to Incident dialog (spec/1 §2, §5): attach a piece of evidence (a check, a config, a
// component...) to a new incident (title, type, severity) or to an existing one (picked by
// search) under one of its hypotheses or a new one. 'Link', 'Linking..' while busy, and a toast
// with a link to the incident for 5 seconds.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../api/client';
import { Alert } from '../alert';
import { Button } from '../button';
import { Dialog, DialogContent } from '../dialog';
import { Field, Input, Select, Textarea } from '../input';
import { toast, TOAST_DURATION_MS } from '../toast';
import { incidentService, type EvidenceInput } from './incidentApi';
import {
  INCIDENT_SEVERITIES,
  INCIDENT_TYPES,
  SEVERITY_LABELS,
  TYPE_LABELS,
  type IncidentSeverity,
  type IncidentType,
} from './incidentOptions';
import { useDebouncedValue } from './useDebounced';

export const MUST_SELECT_INCIDENT = 'Must select or create an incident';
export const MUST_SELECT_HYPOTHESIS = 'Must select or create a hypothesis';
export const SELECT_SEVERITY = 'Please select incident severity';
export const SELECT_TYPE = 'Please select an incident type';

const NEW_HYPOTHESIS = '__new__';

interface Errors {
  incident?: string;
  hypothesis?: string;
  severity?: string;
  type?: string;
}

export function LinkToIncidentDialog({
  open,
  onOpenChange,
  evidence,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  evidence: EvidenceInput;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <LinkForm evidence={evidence} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function LinkForm({ evidence, onDone }: { evidence: EvidenceInput; onDone(): void }) {
  const queryClient = useQueryClient();
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [title, setTitle] = useState('');
  const [type, setType] = useState<IncidentType | ''>('');
  const [severity, setSeverity] = useState<IncidentSeverity | ''>('');
  const [search, setSearch] = useState('');
  const [incidentId, setIncidentId] = useState('');
  const [hypothesisId, setHypothesisId] = useState('');
  const [hypothesisTitle, setHypothesisTitle] = useState('');
  const [description, setDescription] = useState(evidence.description);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string>();

  const debouncedSearch = useDebouncedValue(search, 300);
  const incidents = useQuery({
    queryKey: ['incidents', 'pick', debouncedSearch],
    queryFn: ({ signal }) => incidentService.search(debouncedSearch, signal),
    enabled: mode === 'existing',
    staleTime: 0,
  });
  const hypotheses = useQuery({
    queryKey: ['incidents', 'pick-hypotheses', incidentId],
    queryFn: ({ signal }) => incidentService.hypotheses(incidentId, signal),
    enabled: mode === 'existing' && !!incidentId,
    staleTime: 0,
  });

  const link = useMutation({
    mutationFn: async (): Promise<{ id: string; label: string }> => {
      const ev: EvidenceInput = { ...evidence, description: description.trim() || evidence.description };
      if (mode === 'new') {
        const created = await incidentService.create({ title: title.trim(), type, severity, evidence: ev });
        return { id: created.id, label: created.incident_id };
      }
      // A new hypothesis is created under the root by the server, in the same transaction as the evidence.
      await incidentService.attachEvidence(
        incidentId,
        hypothesisId === NEW_HYPOTHESIS
          ? { ...ev, hypothesis_title: hypothesisTitle.trim() }
          : { ...ev, hypothesis_id: hypothesisId },
      );
      const picked = incidents.data?.find((i) => i.id === incidentId);
      return { id: incidentId, label: picked?.incident_id ?? 'the incident' };
    },
    onSuccess: ({ id, label }) => {
      void queryClient.invalidateQueries({ queryKey: ['incidents'] });
      const href = `/incidents/${id}`;
      toast.success(
        <span>
          Evidence linked to incident{' '}
          <a
            href={href}
            className="font-medium underline"
            // A plain link (a full load): a router navigation started from here races the URL
            // updates of the screen underneath (closing the check drawer). Clickable while a modal
            // still makes the rest of the page inert.
            style={{ pointerEvents: 'auto' }}
          >
            {label}
          </a>
        </span>,
        { duration: TOAST_DURATION_MS },
      );
      onDone();
    },
    onError: (e) => {
      // Creation failures from this dialog are logged (spec/1 §8); the form keeps what was typed.
      console.error('Linking evidence to an incident failed', e);
      setFailure(errorMessage(e));
    },
  });

  function validate(): Errors {
    const next: Errors = {};
    if (mode === 'new') {
      if (!title.trim()) next.incident = MUST_SELECT_INCIDENT;
      if (!severity) next.severity = SELECT_SEVERITY;
      if (!type) next.type = SELECT_TYPE;
    } else {
      if (!incidentId) next.incident = MUST_SELECT_INCIDENT;
      else if (!hypothesisId || (hypothesisId === NEW_HYPOTHESIS && !hypothesisTitle.trim()))
        next.hypothesis = MUST_SELECT_HYPOTHESIS;
    }
    return next;
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const next = validate();
    setErrors(next);
    setFailure(undefined);
    if (Object.keys(next).length === 0) link.mutate();
  }

  return (
    <DialogContent
      title="Link to Incident"
      description="Attach this as evidence to a new or an existing incident."
      footer={
        <>
          <Button variant="outline" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" form="link-to-incident" disabled={link.isPending}>
            {link.isPending ? 'Linking..' : 'Link'}
          </Button>
        </>
      }
    >
      <form id="link-to-incident" className="space-y-4" onSubmit={submit} noValidate>
        <div role="radiogroup" aria-label="Incident" className="flex gap-4 text-sm">
          {(['new', 'existing'] as const).map((m) => (
            <label key={m} className="flex cursor-pointer items-center gap-2">
              <input
                type="radio"
                name="incident-mode"
                checked={mode === m}
                onChange={() => {
                  setMode(m);
                  setErrors({});
                }}
              />
              {m === 'new' ? 'New incident' : 'Existing incident'}
            </label>
          ))}
        </div>

        {mode === 'new' ? (
          <>
            <Field label="Incident title" error={errors.incident}>
              {(id) => (
                <Input id={id} value={title} onChange={(e) => setTitle(e.target.value)} invalid={!!errors.incident} />
              )}
            </Field>
            <div className="grid grid-cols-2 gap-3">
              <Field label="Type" error={errors.type}>
                {(id) => (
                  <Select
                    id={id}
                    value={type}
                    onChange={(e) => setType(e.target.value as IncidentType)}
                    invalid={!!errors.type}
                  >
                    <option value="">Select type</option>
                    {INCIDENT_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {TYPE_LABELS[t]}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
              <Field label="Severity" error={errors.severity}>
                {(id) => (
                  <Select
                    id={id}
                    value={severity}
                    onChange={(e) => setSeverity(e.target.value as IncidentSeverity)}
                    invalid={!!errors.severity}
                  >
                    <option value="">Select severity</option>
                    {INCIDENT_SEVERITIES.map((s) => (
                      <option key={s} value={s}>
                        {SEVERITY_LABELS[s]}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
            </div>
          </>
        ) : (
          <>
            <Field label="Search incidents">
              {(id) => (
                <Input id={id} value={search} placeholder="Title or Id" onChange={(e) => setSearch(e.target.value)} />
              )}
            </Field>
            <Field label="Incident" error={errors.incident}>
              {(id) => (
                <Select
                  id={id}
                  value={incidentId}
                  invalid={!!errors.incident}
                  onChange={(e) => {
                    setIncidentId(e.target.value);
                    setHypothesisId('');
                  }}
                >
                  <option value="">{incidents.isFetching ? 'Loading…' : 'Select an incident'}</option>
                  {incidents.data?.map((i) => (
                    <option key={i.id} value={i.id}>
                      {i.incident_id} · {i.title}
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            {incidentId && (
              <Field label="Hypothesis" error={errors.hypothesis}>
                {(id) => (
                  <Select
                    id={id}
                    value={hypothesisId}
                    invalid={!!errors.hypothesis}
                    onChange={(e) => setHypothesisId(e.target.value)}
                  >
                    <option value="">Select a hypothesis</option>
                    {hypotheses.data?.map((h) => (
                      <option key={h.id} value={h.id}>
                        {h.title || '(untitled)'} · {h.type}
                      </option>
                    ))}
                    <option value={NEW_HYPOTHESIS}>Create a new hypothesis…</option>
                  </Select>
                )}
              </Field>
            )}
            {hypothesisId === NEW_HYPOTHESIS && (
              <Field label="New hypothesis">
                {(id) => <Input id={id} value={hypothesisTitle} onChange={(e) => setHypothesisTitle(e.target.value)} />}
              </Field>
            )}
          </>
        )}

        <Field label="Description">
          {(id) => <Textarea id={id} value={description} onChange={(e) => setDescription(e.target.value)} />}
        </Field>
        {failure && <Alert tone="error">{failure}</Alert>}
      </form>
    </DialogContent>
  );
}
