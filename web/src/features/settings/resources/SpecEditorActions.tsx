// The footer of a settings resource's Spec editor: Delete (with its confirmation), Cancel and
// Save / Update.
import { Save, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../ui/button';
import { ConfirmDialog } from '../../../ui/dialog';
import { type SettingsResourceKind } from './kinds';
import { type SettingsResourceRow } from './resourcesApi';

export function SpecEditorActions({
  kind,
  row,
  editable,
  canSave,
  saving,
  onSave,
  deleting,
  onDelete,
}: {
  kind: SettingsResourceKind;
  row?: SettingsResourceRow;
  editable: boolean;
  canSave: boolean;
  saving: boolean;
  onSave(): void;
  deleting: boolean;
  onDelete(): void;
}) {
  const [confirmDelete, setConfirmDelete] = useState(false);
  const busyLabel = row ? 'Updating' : 'Saving';
  const idleLabel = row ? 'Update' : 'Save';

  return (
    <>
      {editable && (
        <div className="flex items-center gap-2 border-t border-border bg-surface-muted/50 px-5 py-3">
          {row && (
            <Button variant="ghost" className="text-danger" onClick={() => setConfirmDelete(true)}>
              <Trash2 className="size-4" aria-hidden /> Delete
            </Button>
          )}
          <div className="ml-auto flex gap-2">
            <Button asChild variant="outline">
              <Link to={kind.list?.to ?? `/settings/${kind.table}`}>Cancel</Link>
            </Button>
            <Button disabled={!canSave} loading={saving} onClick={onSave}>
              {!saving && <Save className="size-4" aria-hidden />}
              {saving ? busyLabel : idleLabel}
            </Button>
          </div>
        </div>
      )}
      {row && (
        <ConfirmDialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title={`Delete ${kind.singular} ?`}
          description={`${row.name} will be deleted.`}
          busy={deleting}
          onConfirm={onDelete}
        />
      )}
    </>
  );
}
