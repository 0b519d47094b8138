// 'Add contributing factors to definition of done' (spec/2 §4): shown before moving to mitigated
// or resolved. Submit marks the selected evidences and then saves the status ('Please select
// atleast one evidence' with none); Skip saves the status alone; Cancel keeps everything.
import { useState } from 'react';
import { Button } from '../../../ui/button';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import type { EvidenceRow } from '../types';
import { NO_EVIDENCES } from './DefinitionOfDone';
import { evidenceTitle } from './EvidenceView';

export const CONTRIBUTING_FACTORS_TITLE = 'Add contributing factors to definition of done';
export const SELECT_EVIDENCE = 'Please select atleast one evidence';

export function ContributingFactorsDialog({
  open,
  evidences,
  busy,
  onSubmit,
  onSkip,
  onCancel,
}: {
  open: boolean;
  evidences: EvidenceRow[];
  busy: boolean;
  onSubmit(ids: string[]): void;
  onSkip(): void;
  onCancel(): void;
}) {
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) {
          setSelected([]);
          onCancel();
        }
      }}
    >
      {open && (
        <DialogContent
          title={CONTRIBUTING_FACTORS_TITLE}
          footer={
            <>
              <Button variant="outline" className="mr-auto" onClick={onCancel}>
                Cancel
              </Button>
              <Button variant="outline" disabled={busy} onClick={onSkip}>
                Skip
              </Button>
              <Button
                loading={busy}
                onClick={() => {
                  if (!selected.length) toast.error(SELECT_EVIDENCE);
                  else onSubmit(selected);
                }}
              >
                Submit
              </Button>
            </>
          }
        >
          {evidences.length === 0 ? (
            <p className="text-[13px] text-muted">{NO_EVIDENCES}</p>
          ) : (
            <ul className="max-h-80 space-y-1 overflow-y-auto">
              {evidences.map((e) => (
                <li key={e.id}>
                  <label className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-[13px] hover:bg-surface-hover">
                    <input
                      type="checkbox"
                      checked={selected.includes(e.id) || e.definition_of_done}
                      disabled={e.definition_of_done}
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
          )}
        </DialogContent>
      )}
    </Dialog>
  );
}
