// The create and edit modal of a maintenance window: name, message, one-off (start and end) or
// recurring (cron schedule, duration, time zone), the checks, components and status pages it covers,
// and whether it silences notifications. Applied as a MaintenanceWindow resource through
// POST /api/maintenance-window (its 400 answers are shown); windows from YAML or the CLI (source not
// UI) are read-only here. Delete asks first.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { useCan } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { ConfirmDialog, Dialog, DialogContent } from '../../ui/dialog';
import { Field, Input, Select, Textarea } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';
import { Switch } from '../../ui/switch';
import { toast } from '../../ui/toast';
import { maintenanceApi, maintenanceKeys, type MaintenanceRow } from './maintenanceApi';
import {
  EMPTY_MAINTENANCE_FORM,
  formOfResource,
  formProblems,
  resourceOfForm,
  type MaintenanceForm,
} from './maintenanceForm';

/** `windowId`: 'new' for the create modal, a window's id for its edit modal, undefined when closed. */
export function MaintenanceDialog({
  windowId,
  row,
  onClose,
}: {
  windowId: string | undefined;
  row: MaintenanceRow | undefined;
  onClose(): void;
}) {
  return (
    <Dialog open={!!windowId} onOpenChange={(open) => !open && onClose()}>
      {windowId === 'new' ? (
        <Editor onClose={onClose} />
      ) : windowId ? (
        <Loaded id={windowId} row={row} onClose={onClose} />
      ) : null}
    </Dialog>
  );
}

function Loaded({ id, row, onClose }: { id: string; row: MaintenanceRow | undefined; onClose(): void }) {
  const resource = useQuery({
    queryKey: maintenanceKeys.one(id),
    queryFn: ({ signal }) => maintenanceApi.resource(id, signal),
    meta: { silent: true },
  });
  if (resource.data)
    return (
      <Editor
        key={id}
        existing={{ id, source: row?.source ?? null, form: formOfResource(resource.data) }}
        onClose={onClose}
      />
    );
  return (
    <DialogContent title="Maintenance window">
      {resource.isPending ? <Skeleton className="h-40" /> : <Alert tone="error">{errorMessage(resource.error)}</Alert>}
    </DialogContent>
  );
}

const ENTRY_HINT = 'One a line: a name, an id, or label: key=value';

function Editor({
  existing,
  onClose,
}: {
  existing?: { id: string; source: string | null; form: MaintenanceForm };
  onClose(): void;
}) {
  const queryClient = useQueryClient();
  const canWrite = useCan('canaries', 'write');
  const fromUi = !existing?.source || existing.source === 'UI';
  const editable = canWrite && fromUi;
  const [form, setForm] = useState<MaintenanceForm>(existing?.form ?? EMPTY_MAINTENANCE_FORM);
  const [touched, setTouched] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const problems = touched ? formProblems(form) : {};
  const set = (patch: Partial<MaintenanceForm>) => setForm((f) => ({ ...f, ...patch }));
  const changed = () => void queryClient.invalidateQueries({ queryKey: maintenanceKeys.all });

  const apply = useMutation({
    mutationFn: async () => {
      const { applied } = await maintenanceApi.apply(resourceOfForm(form));
      if (!applied[0]) throw new Error('Nothing was applied');
      return applied[0];
    },
    onSuccess: (saved) => {
      toast.success(saved.created ? `${saved.name} created successfully` : `${saved.name} updated successfully`);
      changed();
      onClose();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });
  const remove = useMutation({
    mutationFn: () => maintenanceApi.remove(existing!.id),
    onSuccess: () => {
      toast.success(`${form.name} deleted successfully`);
      changed();
      setConfirmDelete(false);
      onClose();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });
  const submit = () => {
    setTouched(true);
    if (Object.keys(formProblems(form)).length) return;
    apply.mutate();
  };

  const text = (key: keyof MaintenanceForm, label: string, placeholder?: string, hint?: string) => (
    <Field label={label} error={problems[key]} hint={hint}>
      {(id, describedBy) => (
        <Input
          id={id}
          aria-describedby={describedBy}
          value={form[key] as string}
          invalid={!!problems[key]}
          placeholder={placeholder}
          readOnly={key === 'name' && !!existing}
          onChange={(e) => set({ [key]: e.target.value })}
        />
      )}
    </Field>
  );
  const list = (key: 'checks' | 'components' | 'statusPages', label: string, hint: string) => (
    <Field label={label} error={problems[key]} hint={hint}>
      {(id, describedBy) => (
        <Textarea
          id={id}
          aria-describedby={describedBy}
          className="font-mono text-[12.5px]"
          value={form[key]}
          onChange={(e) => set({ [key]: e.target.value })}
        />
      )}
    </Field>
  );
  const when = (key: 'start' | 'end', label: string) => (
    <Field label={label} error={problems[key]}>
      {(id, describedBy) => (
        <Input
          id={id}
          type="datetime-local"
          aria-describedby={describedBy}
          value={form[key]}
          invalid={!!problems[key]}
          onChange={(e) => set({ [key]: e.target.value })}
        />
      )}
    </Field>
  );

  return (
    <>
      <DialogContent
        title={existing ? existing.form.name : 'Create Maintenance Window'}
        size="lg"
        footer={
          <div className="flex w-full items-center">
            {existing && editable && (
              <Button variant="ghost" className="text-danger" onClick={() => setConfirmDelete(true)}>
                <Trash2 className="size-4" aria-hidden /> Delete
              </Button>
            )}
            <div className="ml-auto flex gap-2">
              <Button variant="outline" onClick={onClose}>
                {editable ? 'Cancel' : 'Close'}
              </Button>
              {editable && (
                <Button onClick={submit} loading={apply.isPending}>
                  {existing ? (apply.isPending ? 'Updating' : 'Update') : apply.isPending ? 'Saving' : 'Save'}
                </Button>
              )}
            </div>
          </div>
        }
      >
        {existing && !fromUi && (
          <Alert tone="info" className="mb-4">
            This window comes from <strong>{existing.source}</strong> and is read-only here; change it at its source.
          </Alert>
        )}
        {apply.error && (
          <Alert tone="error" className="mb-4">
            {errorMessage(apply.error)}
          </Alert>
        )}
        <fieldset disabled={!editable} className="min-w-0 space-y-4">
          <div className="grid gap-4 sm:grid-cols-2">
            {text('name', 'Name', 'e.g. database-upgrade')}
            <Field label="Happens">
              {(id) => (
                <Select
                  id={id}
                  value={form.kind}
                  onChange={(e) => set({ kind: e.target.value as MaintenanceForm['kind'] })}
                >
                  <option value="once">Once</option>
                  <option value="recurring">On a schedule</option>
                </Select>
              )}
            </Field>
          </div>
          <Field label="Message" hint="Shown on the status pages while the window lasts">
            {(id, describedBy) => (
              <Textarea
                id={id}
                aria-describedby={describedBy}
                value={form.message}
                onChange={(e) => set({ message: e.target.value })}
              />
            )}
          </Field>
          {form.kind === 'once' ? (
            <div className="grid gap-4 sm:grid-cols-2">
              {when('start', 'Start')}
              {when('end', 'End')}
            </div>
          ) : (
            <div className="grid gap-4 sm:grid-cols-3">
              {text('schedule', 'Schedule', '0 2 * * 0', 'Cron: minute hour day month weekday')}
              {text('duration', 'Duration', '2h')}
              {text('timezone', 'Time zone', 'UTC')}
            </div>
          )}
          <div className="grid gap-4 sm:grid-cols-3">
            {list('checks', 'Checks', ENTRY_HINT)}
            {list('components', 'Components', ENTRY_HINT)}
            {list('statusPages', 'Status pages', 'One address a line: the whole page is in maintenance')}
          </div>
          <Switch
            checked={form.silence}
            onCheckedChange={(v) => set({ silence: v })}
            label="Silence notifications"
            description="While the window lasts, notifications for what it covers are silenced, naming the window."
            disabled={!editable}
          />
        </fieldset>
      </DialogContent>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Maintenance Window"
        description="Are you sure you want to delete this maintenance window? Its pages stop announcing it at once."
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
