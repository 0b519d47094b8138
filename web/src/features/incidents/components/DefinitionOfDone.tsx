// The Definition of done section (spec/2 §4, §5, §8): the evidences marked definition_of_done,
// removal after confirmation, the done toggle of manual (comment) items after confirmation, and
// the Add wizard: selectEvidence → addScript (a CEL script, with the sample scripts) → submit;
// or a manual item, a comment evidence with definition_of_done true.
import { useMutation } from '@tanstack/react-query';
import { CheckCircle2, Circle, Plus, X } from 'lucide-react';
import { useState } from 'react';
import { DOD_SAMPLE_SCRIPTS } from '@opsdeck/common/incidents';
import { errorMessage } from '../../../api/client';
import { useSession } from '../../../api/session';
import { Button } from '../../../ui/button';
import { ConfirmDialog, Dialog, DialogContent } from '../../../ui/dialog';
import { Field, Input, Textarea } from '../../../ui/input';
import { toast } from '../../../ui/toast';
import { incidentsApi } from '../incidentsApi';
import type { EvidenceRow } from '../types';
import { useDefinitionOfDoneToggle } from './EvidenceItem';
import { evidenceTitle } from './EvidenceView';
import { useIncidentRefresh } from './useIncidentRefresh';

export const LOADING_EVIDENCES = 'Loading evidences please wait...';
export const NO_EVIDENCES = 'There are no evidences provided for this incident';
export const NO_OTHER_EVIDENCES = 'There are no evidences which are not part of definition of done';
export const NO_EVIDENCE = 'No Evidence';

function DoneItem({
  incidentId,
  evidence,
  canWrite,
}: {
  incidentId: string;
  evidence: EvidenceRow;
  canWrite: boolean;
}) {
  const refresh = useIncidentRefresh(incidentId);
  const dod = useDefinitionOfDoneToggle(incidentId, evidence);
  const [confirmDone, setConfirmDone] = useState(false);
  const manual = evidence.type === 'comment';
  const done = !!evidence.done;
  const toggleDone = useMutation({
    mutationFn: () => incidentsApi.updateEvidence(evidence.id, { done: !done }),
    onSuccess: () => {
      setConfirmDone(false);
      refresh('hypotheses');
    },
    onError: (e) => toast.error(errorMessage(e)),
  });
  return (
    <li className="flex items-start gap-2 py-1.5" data-testid="dod-item" data-done={done || undefined}>
      {manual && canWrite ? (
        <button
          type="button"
          className="mt-0.5 cursor-pointer"
          aria-label={done ? 'Mark as not resolved' : 'Mark as resolved'}
          onClick={() => setConfirmDone(true)}
        >
          {done ? <CheckCircle2 className="size-4 text-success" /> : <Circle className="size-4 text-subtle" />}
        </button>
      ) : done ? (
        <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-success" aria-label="resolved" />
      ) : (
        <Circle className="mt-0.5 size-4 shrink-0 text-subtle" aria-label="not resolved" />
      )}
      <div className="min-w-0 flex-1 text-[13px]">
        <div className="font-medium text-foreground">{evidenceTitle(evidence)}</div>
        {evidence.script && <code className="block truncate text-[11.5px] text-muted">{evidence.script}</code>}
        {evidence.script_result && <div className="text-[11.5px] text-muted">{evidence.script_result}</div>}
      </div>
      {canWrite && (
        <Button variant="ghost" size="icon-sm" aria-label="Remove from definition of done" onClick={dod.askRemove}>
          <X className="size-3.5" />
        </Button>
      )}
      {dod.dialog}
      <ConfirmDialog
        open={confirmDone}
        onOpenChange={setConfirmDone}
        title={done ? 'Mark as not resolved ?' : 'Mark as resolved ?'}
        description={
          done
            ? 'Are you sure you want to mark this item as not resolved ?'
            : 'Are you sure you want to mark this item as resolved ?'
        }
        confirmLabel={done ? 'Mark not resolved' : 'Mark resolved'}
        busy={toggleDone.isPending}
        onConfirm={() => toggleDone.mutate()}
      />
    </li>
  );
}

export function DefinitionOfDone({
  incidentId,
  evidences,
  rootHypothesisId,
  loading,
  canWrite,
}: {
  incidentId: string;
  evidences: EvidenceRow[];
  rootHypothesisId: string | undefined;
  loading: boolean;
  canWrite: boolean;
}) {
  const [adding, setAdding] = useState(false);
  const items = evidences.filter((e) => e.definition_of_done);
  return (
    <div data-testid="definition-of-done">
      {items.length === 0 ? (
        <p className="text-[13px] text-muted">{NO_EVIDENCE}</p>
      ) : (
        <ul className="divide-y divide-border">
          {items.map((e) => (
            <DoneItem key={e.id} incidentId={incidentId} evidence={e} canWrite={canWrite} />
          ))}
        </ul>
      )}
      {canWrite && (
        <Button variant="ghost" size="sm" className="mt-2" onClick={() => setAdding(true)}>
          <Plus className="size-3.5" aria-hidden /> Add definition of done
        </Button>
      )}
      <Dialog open={adding} onOpenChange={setAdding}>
        {adding && (
          <AddDefinitionOfDone
            incidentId={incidentId}
            evidences={evidences}
            rootHypothesisId={rootHypothesisId}
            loading={loading}
            onClose={() => setAdding(false)}
          />
        )}
      </Dialog>
    </div>
  );
}

type Step = 'selectEvidence' | 'addScript' | 'manual';

function AddDefinitionOfDone({
  incidentId,
  evidences,
  rootHypothesisId,
  loading,
  onClose,
}: {
  incidentId: string;
  evidences: EvidenceRow[];
  rootHypothesisId: string | undefined;
  loading: boolean;
  onClose(): void;
}) {
  const session = useSession();
  const refresh = useIncidentRefresh(incidentId);
  const [step, setStep] = useState<Step>('selectEvidence');
  const [selected, setSelected] = useState<string[]>([]);
  const [script, setScript] = useState('');
  const [manual, setManual] = useState('');
  const candidates = evidences.filter((e) => !e.definition_of_done);

  const submit = useMutation({
    mutationFn: async () => {
      if (step === 'manual') {
        if (!rootHypothesisId) throw new Error('The incident has no hypothesis to attach the item to');
        await incidentsApi.addEvidence({
          hypothesis_id: rootHypothesisId,
          type: 'comment',
          description: manual.trim(),
          definition_of_done: true,
          created_by: session.person.id,
        });
      } else {
        await incidentsApi.markDefinitionOfDone(selected, script.trim() || undefined);
      }
    },
    onSuccess: () => {
      refresh('hypotheses');
      onClose();
    },
    onError: (e) =>
      toast.error(step === 'manual' ? errorMessage(e) : `Marking evidence as part of definition of done failed`),
  });

  let body;
  let footer;
  if (step === 'selectEvidence') {
    body = loading ? (
      <p className="text-[13px] text-muted">{LOADING_EVIDENCES}</p>
    ) : evidences.length === 0 ? (
      <p className="text-[13px] text-muted">{NO_EVIDENCES}</p>
    ) : candidates.length === 0 ? (
      <p className="text-[13px] text-muted">{NO_OTHER_EVIDENCES}</p>
    ) : (
      <ul className="max-h-80 space-y-1 overflow-y-auto">
        {candidates.map((e) => (
          <li key={e.id}>
            <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-[13px] hover:bg-surface-hover">
              <input
                type="checkbox"
                checked={selected.includes(e.id)}
                onChange={(ev) =>
                  setSelected((s) => (ev.target.checked ? [...s, e.id] : s.filter((id) => id !== e.id)))
                }
              />
              <span className="font-medium">{evidenceTitle(e)}</span>
              <span className="text-muted">{e.type}</span>
            </label>
          </li>
        ))}
      </ul>
    );
    footer = (
      <>
        <Button variant="outline" className="mr-auto" onClick={() => setStep('manual')}>
          Add manually
        </Button>
        <Button variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button disabled={selected.length === 0} onClick={() => setStep('addScript')}>
          Add
        </Button>
      </>
    );
  } else if (step === 'addScript') {
    body = (
      <div className="space-y-3">
        <Field
          label="Script"
          hint="A CEL expression evaluated over the evidence; when true, the item is done. Leave empty to mark it by hand."
        >
          {(id) => (
            <Textarea
              id={id}
              className="min-h-28 font-mono text-[12.5px]"
              value={script}
              onChange={(e) => setScript(e.target.value)}
              spellCheck={false}
            />
          )}
        </Field>
        <div className="flex flex-wrap gap-2">
          <span className="text-[12.5px] text-muted">Samples:</span>
          {DOD_SAMPLE_SCRIPTS.map((s) => (
            <Button key={s.name} variant="outline" size="sm" onClick={() => setScript(s.script)}>
              {s.name}
            </Button>
          ))}
        </div>
      </div>
    );
    footer = (
      <>
        <Button variant="outline" className="mr-auto" onClick={() => setStep('selectEvidence')}>
          Back
        </Button>
        <Button loading={submit.isPending} onClick={() => submit.mutate()}>
          Submit
        </Button>
      </>
    );
  } else {
    body = (
      <Field label="Definition of done">
        {(id) => <Input id={id} autoFocus value={manual} onChange={(e) => setManual(e.target.value)} />}
      </Field>
    );
    footer = (
      <>
        <Button variant="outline" className="mr-auto" onClick={() => setStep('selectEvidence')}>
          Back
        </Button>
        <Button disabled={!manual.trim()} loading={submit.isPending} onClick={() => submit.mutate()}>
          Submit
        </Button>
      </>
    );
  }

  return (
    <DialogContent title="Add definition of done" footer={footer}>
      {body}
    </DialogContent>
  );
}
