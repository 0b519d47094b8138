// The agent delete flow (spec/1 §4): Delete asks 'Would you like to delete resources created by
// agent?' (Yes: cleanup, No: keep them), then 'Are you sure you want to delete agent?'; the answer
// to the first question is the cleanup flag of the delete.
import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useState } from 'react';
import { Button } from '../../ui/button';
import { ConfirmDialog } from '../../ui/dialog';
import { ModalOverlay } from '../../ui/overlay';

export const CLEANUP_QUESTION = 'Would you like to delete resources created by agent?';
export const CONFIRM_QUESTION = 'Are you sure you want to delete agent?';

type Step = { step: 'cleanup' } | { step: 'confirm'; cleanup: boolean };

export function DeleteAgentFlow({
  agentName,
  busy,
  onDelete,
  onCancel,
}: {
  agentName: string;
  busy: boolean;
  onDelete(cleanup: boolean): void;
  onCancel(): void;
}) {
  const [state, setState] = useState<Step>({ step: 'cleanup' });

  if (state.step === 'cleanup') {
    return (
      <AlertDialog.Root open onOpenChange={(open) => !open && onCancel()}>
        <AlertDialog.Portal>
          <ModalOverlay className="z-50" />
          <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl border border-border bg-surface p-6 shadow-pop focus:outline-none">
            <AlertDialog.Title className="text-base font-semibold text-foreground">
              {CLEANUP_QUESTION}
            </AlertDialog.Title>
            <AlertDialog.Description className="mt-2 text-sm text-muted">
              Yes deletes the checks, configs and components {agentName} pushed. No keeps them, marked as from a deleted
              agent.
            </AlertDialog.Description>
            <div className="mt-6 flex justify-end gap-2">
              <AlertDialog.Cancel asChild>
                <Button variant="ghost">Cancel</Button>
              </AlertDialog.Cancel>
              <Button variant="outline" onClick={() => setState({ step: 'confirm', cleanup: false })}>
                No
              </Button>
              <Button variant="danger" onClick={() => setState({ step: 'confirm', cleanup: true })}>
                Yes
              </Button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    );
  }

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onCancel()}
      title={CONFIRM_QUESTION}
      description={
        state.cleanup
          ? `${agentName} and the resources it created will be deleted.`
          : `${agentName} will be deleted; the resources it created are kept.`
      }
      busy={busy}
      onConfirm={() => onDelete(state.cleanup)}
    />
  );
}
