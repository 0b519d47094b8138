// The edit modal of a silence (?id= on /notifications/silences).
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client';
import { useCan } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import { Dialog, DialogContent } from '../../../ui/dialog';
import { Skeleton } from '../../../ui/skeleton';
import { notificationKeys } from '../keys';
import { notificationsApi } from '../notificationsApi';
import type { SilenceRow } from '../types';
import { SilenceFormFields } from './SilenceFormFields';
import { silenceFormErrors, silenceFormOfRow, type SilenceFormValues } from './silenceForm';
import { useSaveSilence } from './useSaveSilence';

export function SilenceDialog({ id, onClose }: { id: string | undefined; onClose(): void }) {
  return (
    <Dialog open={!!id} onOpenChange={(open) => !open && onClose()}>
      {id && <LoadedSilence id={id} onClose={onClose} />}
    </Dialog>
  );
}

function LoadedSilence({ id, onClose }: { id: string; onClose(): void }) {
  const silence = useQuery({
    queryKey: notificationKeys.silence(id),
    queryFn: async ({ signal }) => {
      try {
        return (await notificationsApi.silence(id, signal)) ?? null;
      } catch (e) {
        if (e instanceof ApiError && e.status === 400) return null;
        throw e;
      }
    },
    meta: { silent: true },
  });
  if (silence.data) return <SilenceEditor key={silence.data.id} silence={silence.data} onClose={onClose} />;
  return (
    <DialogContent title="Edit Silence">
      {silence.isPending ? (
        <Skeleton className="h-40" />
      ) : (
        <Alert tone={silence.isError ? 'error' : 'info'}>
          {silence.isError ? errorMessage(silence.error) : 'No resources found'}
        </Alert>
      )}
    </DialogContent>
  );
}

function SilenceEditor({ silence, onClose }: { silence: SilenceRow; onClose(): void }) {
  const canWrite = useCan('notifications', 'write');
  const editable = canWrite && (!silence.source || silence.source === 'UI');
  const [values, setValues] = useState<SilenceFormValues>(() => silenceFormOfRow(silence));
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? silenceFormErrors(values, new Date()) : {};
  const save = useSaveSilence(silence, onClose);
  return (
    <DialogContent
      title="Edit Silence"
      size="lg"
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            {editable ? 'Cancel' : 'Close'}
          </Button>
          {editable && (
            <Button type="submit" form="silence-edit-form" loading={save.isPending}>
              {save.isPending ? 'Updating' : 'Update'}
            </Button>
          )}
        </>
      }
    >
      <form
        id="silence-edit-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setSubmitted(true);
          if (Object.keys(silenceFormErrors(values, new Date())).length === 0) save.mutate(values);
        }}
      >
        {silence.source && silence.source !== 'UI' && (
          <Alert tone="info" className="mb-4">
            This silence comes from <strong>{silence.source}</strong> and is read-only here.
          </Alert>
        )}
        <fieldset disabled={!editable} className="min-w-0">
          <SilenceFormFields values={values} onChange={setValues} errors={errors} />
        </fieldset>
      </form>
    </DialogContent>
  );
}
