// Add or edit a connection (spec/3 §2 Connections, §6, §8): a new one starts by picking its type, then
// the type's fields with their defaults. Save creates (with created_by), Update sends only the changed
// fields, Delete asks first; Test tries the form's values (an edit's untouched secrets come from the
// stored row). Connections from a source other than the UI are read-only here.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, PlugZap } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useForm, useWatch, type FieldErrors, type FieldPath, type Resolver } from 'react-hook-form';
import { connectionType } from '@opsdeck/common/connections';
import { errorMessage } from '../../../api/client';
import { useCan, useSession } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import { ConfirmDialog, Dialog, DialogContent } from '../../../ui/dialog';
import { toast } from '../../../ui/toast';
import { settingsKeys } from '../keys';
import { ConnectionFields } from './ConnectionFields';
import {
  connectionPatch,
  formDefaults,
  formPath,
  formToWrite,
  rowToForm,
  storedSecrets,
  validateForm,
  type ConnectionFormValues,
  type FormFieldError,
  type StoredSecrets,
} from './connectionForm';
import { connectionsApi, type ConnectionRow } from './connectionsApi';
import { fieldErrorsOf, TEST_SUCCEEDED, type TestOutcome } from './connectionTest';
import { ConnectionTypeLabel } from './ConnectionTypeIcon';
import { ConnectionTypePicker } from './ConnectionTypePicker';
import { useConnectionTest } from './useConnectionTest';

const FORM_ID = 'connection-form';

/** Editable here: made in the console (source UI or none). */
const isLocalConnection = (row: Pick<ConnectionRow, 'source'>) => !row.source || row.source === 'UI';

export function ConnectionFormDialog({
  open,
  onOpenChange,
  connection,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  connection?: ConnectionRow;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <ConnectionFormBody connection={connection} onClose={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function toFieldErrors(problems: FormFieldError[]): FieldErrors<ConnectionFormValues> {
  const errors: Record<string, unknown> = {};
  const fields: Record<string, { type: string; message: string }> = {};
  for (const p of problems) {
    const error = { type: 'validate', message: p.message };
    if (p.path.startsWith('fields.')) fields[p.path.slice('fields.'.length)] = error;
    else errors[p.path] = error;
  }
  if (Object.keys(fields).length) errors.fields = fields;
  return errors as FieldErrors<ConnectionFormValues>;
}

function ConnectionFormBody({ connection, onClose }: { connection?: ConnectionRow; onClose(): void }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const canWrite = useCan('connections', 'write');
  const readOnly = !canWrite || (!!connection && !isLocalConnection(connection));
  const stored: StoredSecrets = useMemo(() => (connection ? storedSecrets(connection) : {}), [connection]);
  const [formError, setFormError] = useState<string>();
  const [outcome, setOutcome] = useState<TestOutcome>();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const resolver: Resolver<ConnectionFormValues> = (values) => {
    const problems = validateForm(values, stored);
    return problems.length ? { values: {}, errors: toFieldErrors(problems) } : { values, errors: {} };
  };
  const form = useForm<ConnectionFormValues>({
    defaultValues: connection ? rowToForm(connection) : formDefaults(''),
    resolver,
  });
  const type = useWatch({ control: form.control, name: 'type' });
  const def = connectionType(type);

  const showServerErrors = (e: unknown) => {
    for (const d of fieldErrorsOf(e))
      form.setError(formPath(d.field) as FieldPath<ConnectionFormValues>, { message: d.message });
  };
  const changed = () => void queryClient.invalidateQueries({ queryKey: settingsKeys.connections() });

  const save = useMutation({
    mutationFn: async (values: ConnectionFormValues): Promise<'saved' | 'unchanged'> => {
      if (!connection) {
        await connectionsApi.create(formToWrite(values), session.person.id);
        return 'saved';
      }
      const patch = connectionPatch(connection, values);
      if (!Object.keys(patch).length) return 'unchanged';
      await connectionsApi.update(connection.id, patch);
      return 'saved';
    },
    onSuccess: (result) => {
      if (result === 'saved') {
        toast.success(connection ? 'Connection updated successfully' : 'Connection added successfully');
        changed();
      }
      onClose();
    },
    onError: (e) => {
      showServerErrors(e);
      setFormError(errorMessage(e));
    },
  });

  const remove = useMutation({
    mutationFn: () => connectionsApi.remove(connection!.id),
    onSuccess: () => {
      toast.success('Connection deleted successfully');
      changed();
      setConfirmDelete(false);
      onClose();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const test = useConnectionTest(showServerErrors);

  const pickType = (next: string) => {
    const { name, namespace } = form.getValues();
    form.reset({ ...formDefaults(next), name, namespace });
    setFormError(undefined);
    setOutcome(undefined);
  };

  const submit = form.handleSubmit((values) => {
    setFormError(undefined);
    save.mutate(values);
  });
  const testForm = form.handleSubmit((values) => {
    setOutcome(undefined);
    test.mutate(() => connectionsApi.test({ ...formToWrite(values, stored), id: connection?.id }), {
      onSuccess: setOutcome,
    });
  });
  // A read-only connection cannot have been changed here: the stored row itself is tested.
  const runTest = () => {
    if (!readOnly || !connection) return void testForm();
    setOutcome(undefined);
    test.mutate(() => connectionsApi.testSaved(connection.id), { onSuccess: setOutcome });
  };

  const title = connection ? (readOnly ? 'Connection' : 'Edit Connection') : 'Add Connection';

  if (!def) {
    return (
      <DialogContent title={title} description="Choose the kind of system to connect to." size="lg">
        {connection ? (
          <Alert tone="error">This connection has an unknown type: {connection.type}</Alert>
        ) : (
          <ConnectionTypePicker onPick={pickType} />
        )}
      </DialogContent>
    );
  }

  const footer = (
    <div className="flex w-full flex-wrap items-center gap-2">
      {connection && !readOnly && (
        <Button variant="ghost" className="text-danger" onClick={() => setConfirmDelete(true)}>
          Delete
        </Button>
      )}
      <div className="ml-auto flex gap-2">
        {canWrite && (
          <Button variant="outline" onClick={runTest} loading={test.isPending}>
            {!test.isPending && <PlugZap className="size-4" aria-hidden />}
            {test.isPending ? 'Testing' : 'Test'}
          </Button>
        )}
        <Button variant="outline" onClick={onClose}>
          {readOnly ? 'Close' : 'Cancel'}
        </Button>
        {!readOnly && (
          <Button type="submit" form={FORM_ID} loading={save.isPending}>
            {connection ? (save.isPending ? 'Updating' : 'Update') : save.isPending ? 'Saving' : 'Save'}
          </Button>
        )}
      </div>
    </div>
  );

  return (
    <>
      <DialogContent
        title={title}
        description={
          <span className="inline-flex items-center gap-3">
            <ConnectionTypeLabel type={def.type} className="text-foreground" />
            {!connection && (
              <button
                type="button"
                onClick={() => form.setValue('type', '')}
                className="inline-flex cursor-pointer items-center gap-1 text-primary hover:underline"
              >
                <ArrowLeft className="size-3.5" aria-hidden /> Change type
              </button>
            )}
          </span>
        }
        size="lg"
        footer={footer}
      >
        <form id={FORM_ID} onSubmit={submit} noValidate aria-label="Connection">
          <fieldset disabled={readOnly} className="space-y-4">
            {readOnly && connection && !isLocalConnection(connection) && (
              <Alert tone="info">This connection comes from {connection.source}; it can only be changed there.</Alert>
            )}
            {formError && <Alert tone="error">{formError}</Alert>}
            <ConnectionFields form={form} def={def} stored={stored} />
          </fieldset>
        </form>
        {outcome && (
          <div className="mt-4" data-testid="connection-test-result">
            {outcome.ok ? (
              <Alert tone="success">
                <p className="font-medium">{TEST_SUCCEEDED}</p>
                {outcome.details && <p className="text-muted">{outcome.details}</p>}
              </Alert>
            ) : (
              <Alert tone="error">
                <pre className="whitespace-pre-wrap break-words font-sans">{outcome.message}</pre>
              </Alert>
            )}
          </div>
        )}
      </DialogContent>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Connection ?"
        description={`The connection ${connection?.namespace}/${connection?.name} will be deleted.`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
