// An evidence row of a hypothesis: the evidence, whether it is part of the definition of done
// (add, or remove after 'Remove from definition of done ?'), and delete.
import { useMutation } from '@tanstack/react-query';
import { CircleCheck, ListPlus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import { incidentsApi } from '../incidentsApi';
import type { EvidenceRow } from '../types';
import { EvidenceView } from './EvidenceView';
import { useIncidentRefresh } from './useIncidentRefresh';

export const REMOVE_DOD_TITLE = 'Remove from definition of done ?';
export const REMOVE_DOD_TEXT = 'Are you sure you want to remove the evidence from definition of done ?';
export const REMOVE_DOD_FAILED = 'Removing evidence from definition of done failed';
export const ADD_DOD_FAILED = 'Marking evidence as part of definition of done failed';
export const EVIDENCE_DELETE_FAILED = 'Evidence delete failed';

/** Add or remove an evidence from the definition of done (removal confirmed). */
export function useDefinitionOfDoneToggle(incidentId: string, evidence: EvidenceRow) {
  const refresh = useIncidentRefresh(incidentId);
  const [confirming, setConfirming] = useState(false);
  const toggle = useMutation({
    mutationFn: (on: boolean) => incidentsApi.updateEvidence(evidence.id, { definition_of_done: on }),
    onSuccess: () => {
      setConfirming(false);
      refresh('hypotheses');
    },
    onError: (_e, on) => toast.error(on ? ADD_DOD_FAILED : REMOVE_DOD_FAILED),
  });
  const dialog = (
    <ConfirmDialog
      open={confirming}
      onOpenChange={setConfirming}
      title={REMOVE_DOD_TITLE}
      description={REMOVE_DOD_TEXT}
      confirmLabel="Remove"
      busy={toggle.isPending}
      onConfirm={() => toggle.mutate(false)}
    />
  );
  return { add: () => toggle.mutate(true), askRemove: () => setConfirming(true), busy: toggle.isPending, dialog };
}

export function EvidenceItem({
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
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation({
    mutationFn: () => incidentsApi.deleteEvidence(evidence.id),
    onSuccess: () => {
      setDeleting(false);
      refresh('hypotheses');
    },
    onError: () => toast.error(EVIDENCE_DELETE_FAILED),
  });

  return (
    <li className="flex items-start gap-2 rounded-md border border-border bg-surface px-3 py-2" data-testid="evidence">
      <div className="min-w-0 flex-1 text-[13px]">
        <EvidenceView evidence={evidence} />
      </div>
      {evidence.definition_of_done && (
        <span
          className="inline-flex items-center gap-1 text-[12px] text-success"
          title="Part of the definition of done"
        >
          <CircleCheck className="size-3.5" aria-hidden /> Definition of done
        </span>
      )}
      {canWrite && (
        <div className="flex shrink-0 gap-1">
          {evidence.definition_of_done ? (
            <Button variant="ghost" size="sm" onClick={dod.askRemove} disabled={dod.busy}>
              Remove from definition of done
            </Button>
          ) : (
            <Button variant="ghost" size="sm" onClick={dod.add} loading={dod.busy}>
              <ListPlus className="size-3.5" aria-hidden /> Add to definition of done
            </Button>
          )}
          <Button variant="ghost" size="icon-sm" aria-label="Delete evidence" onClick={() => setDeleting(true)}>
            <Trash2 className="size-3.5" />
          </Button>
        </div>
      )}
      {dod.dialog}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title="Delete Evidence ?"
        description="Are you sure you want to delete the evidence ?"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}
