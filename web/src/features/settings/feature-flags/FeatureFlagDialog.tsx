// Add or edit a feature flag: name and value are both needed ('please provide all details').
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { errorMessage } from '../../../api/client';
import { sessionKeys, useSession } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import { ConfirmDialog, Dialog, DialogContent } from '../../../ui/dialog';
import { Field, Input } from '../../../ui/input';
import { toast } from '../../../ui/toast';
import { settingsKeys } from '../keys';
import { featureFlagsApi, type FeatureFlag } from './featureFlagsApi';

export const ALL_DETAILS_NEEDED = 'please provide all details';

export function FeatureFlagDialog({
  flag,
  open,
  onOpenChange,
}: {
  flag?: FeatureFlag;
  open: boolean;
  onOpenChange(open: boolean): void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <FeatureFlagForm flag={flag} onClose={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function FeatureFlagForm({ flag, onClose }: { flag?: FeatureFlag; onClose(): void }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState(flag?.name ?? '');
  const [value, setValue] = useState(flag?.value ?? '');
  const [error, setError] = useState<string>();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const changed = () => {
    void queryClient.invalidateQueries({ queryKey: settingsKeys.featureFlags() });
    // Flags change what the sidebar and guards allow.
    void queryClient.invalidateQueries({ queryKey: sessionKeys.whoami() });
  };

  const save = useMutation({
    mutationFn: () =>
      flag
        ? featureFlagsApi.update(flag.name, value.trim())
        : featureFlagsApi.create({ name: name.trim(), value: value.trim() }, session.person.id),
    onSuccess: () => {
      toast.success(flag ? 'Feature flag updated successfully' : 'Feature flag added successfully');
      changed();
      onClose();
    },
    onError: (e) => setError(errorMessage(e)),
  });

  const remove = useMutation({
    mutationFn: () => featureFlagsApi.remove(flag!.name),
    onSuccess: () => {
      toast.success('Feature flag removed successfully');
      changed();
      setConfirmDelete(false);
      onClose();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim() || !value.trim()) {
      setError(ALL_DETAILS_NEEDED);
      return;
    }
    setError(undefined);
    save.mutate();
  };

  return (
    <>
      <DialogContent
        title={flag ? 'Edit feature flag' : 'Add feature flag'}
        description="A property named {feature}.disable with the value true turns that feature off."
        footer={
          <div className="flex w-full items-center">
            {flag && (
              <Button variant="ghost" className="text-danger" onClick={() => setConfirmDelete(true)}>
                Delete
              </Button>
            )}
            <div className="ml-auto flex gap-2">
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" form="feature-flag-form" loading={save.isPending}>
                {flag ? 'Update' : 'Save'}
              </Button>
            </div>
          </div>
        }
      >
        <form id="feature-flag-form" onSubmit={submit} className="space-y-4" noValidate>
          {error && <Alert tone="error">{error}</Alert>}
          <Field label="Name" hint="For example: logs.disable">
            {(id, d) => (
              <Input
                id={id}
                aria-describedby={d}
                value={name}
                disabled={!!flag}
                onChange={(e) => setName(e.target.value)}
                className="font-mono"
              />
            )}
          </Field>
          <Field label="Value">
            {(id) => <Input id={id} value={value} onChange={(e) => setValue(e.target.value)} className="font-mono" />}
          </Field>
        </form>
      </DialogContent>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Feature Flag ?"
        description={`The property ${flag?.name} will be removed.`}
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
