// The Playbook run modal (spec/1 §2-§5, §8): the resource the playbook runs on (given by the
// screen, or picked when the playbook declares resources), its parameters with their defaults
// rendered for that resource (or a re-run's values), Run → 'Running...' → the run's page. A failure
// to start is toasted with the server's error. Used by the health drawer, the catalog, topology and
// the playbooks pages.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { useReducer, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/client';
import { db } from '../../api/postgrest';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Dialog, DialogContent } from '../../ui/dialog';
import { Label } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';
import { toast } from '../../ui/toast';
import { ParameterField } from './ParameterField';
import { playbookKeys, playbooksApi } from './playbooksApi';
import { ResourcePicker, type PickerTable } from './ResourcePicker';
import {
  acceptedKinds,
  canSubmit,
  givenResourceKind,
  initialValues,
  pickResourceRef,
  RESOURCE_LABELS,
  resourceRef,
  runFormReducer,
  toRunParams,
  validateForm,
  type ResourceKind,
} from './runForm';
import type { PlaybookParameter, PlaybookResourceRef, PlaybookRow } from './types';

export interface RunPlaybookModalProps {
  playbook: { id: string; name: string; title?: string | null };
  /** The resource the screen shows (one id), with its name when the screen has it. */
  resource: PlaybookResourceRef & { label?: string };
  open: boolean;
  onOpenChange(open: boolean): void;
  /** Repeating an earlier run: its parameters instead of the defaults, and the run as parent. */
  rerun?: { runId: string; params: Record<string, unknown> };
}

const KIND_TABLES: Record<ResourceKind, PickerTable> = {
  config: 'config_items',
  component: 'components',
  check: 'checks',
};

export function RunPlaybookModal(props: RunPlaybookModalProps) {
  return (
    <Dialog open={props.open} onOpenChange={props.onOpenChange}>
      {props.open && <RunForm {...props} />}
    </Dialog>
  );
}

function RunForm({ playbook, resource, onOpenChange, rerun }: RunPlaybookModalProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const given = givenResourceKind(resource);

  // Without a resource from the screen, the playbook's own selectors say what may be picked.
  const row = useQuery({
    queryKey: [...playbookKeys.all, 'row', playbook.id],
    queryFn: async ({ signal }) =>
      (await db<Pick<PlaybookRow, 'id' | 'spec'>>('playbooks')
        .select('id,spec')
        .eq('id', playbook.id)
        .is('deleted_at', null)
        .single(signal)) ?? null,
    enabled: !given && !!playbook.id,
    staleTime: 0,
    meta: { silent: true },
  });
  const kinds: ResourceKind[] = given ? [given] : row.data ? acceptedKinds(row.data.spec?.spec ?? {}) : [];
  const [picked, setPicked] = useState<{ kind: ResourceKind; id: string; name: string } | null>(null);

  // The resource of the run: the given one, the picked one, none for a playbook without selectors.
  const ref: PlaybookResourceRef | undefined = given
    ? pickResourceRef(resource)
    : picked
      ? resourceRef(picked.kind, picked.id)
      : row.data && kinds.length === 0
        ? {}
        : undefined;

  const params = useQuery({
    queryKey: playbookKeys.params(playbook.id, ref ?? {}),
    queryFn: ({ signal }) => playbooksApi.params(playbook.id, ref ?? {}, signal),
    enabled: !!ref && !!playbook.id,
    staleTime: Infinity, // the form's values are keyed by these: no refetch under the user's typing
    gcTime: 0,
    meta: { silent: true }, // shown in the modal
  });
  const parameters: readonly PlaybookParameter[] = params.data?.params ?? [];

  const formKey = ref && params.data ? JSON.stringify(ref) : '';
  const [form, dispatch] = useReducer(runFormReducer, { key: '', values: {}, touched: {} });
  if (formKey && form.key !== formKey) {
    dispatch({ type: 'reset', key: formKey, values: initialValues(parameters, rerun?.params) });
  }
  const loaded = !!formKey && form.key === formKey;
  const errors = loaded ? validateForm(parameters, form.values) : {};

  const run = useMutation({
    mutationFn: () =>
      playbooksApi.run({
        id: playbook.id,
        ...ref,
        params: toRunParams(parameters, form.values),
        ...(rerun ? { parent_id: rerun.runId } : {}),
      }),
    onSuccess: ({ run_id }) => {
      void queryClient.invalidateQueries({ queryKey: playbookKeys.all });
      onOpenChange(false);
      void navigate(`/playbooks/runs/${run_id}`);
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const submittable = canSubmit({ playbookId: playbook.id, loaded, errors, running: run.isPending });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (submittable) run.mutate();
  };

  const wide = parameters.some(
    (p) => p.type === 'code' || p.properties?.size === 'large' || p.properties?.size === 'full',
  );
  const needsPick = !given && kinds.length > 0 && !picked;

  return (
    <DialogContent
      title={playbook.title?.trim() || 'Run Playbook'}
      size={wide ? 'lg' : 'md'}
      footer={
        <>
          <Button variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" form="run-playbook" disabled={!submittable}>
            {run.isPending ? 'Running...' : 'Run'}
          </Button>
        </>
      }
    >
      <form id="run-playbook" className="space-y-5" onSubmit={submit} noValidate>
        {(given || kinds.length > 0 || row.isPending) && (
          <section className="space-y-3" aria-label="Resource">
            {given ? (
              <div className="space-y-1.5">
                <Label>{RESOURCE_LABELS[given]}</Label>
                <div
                  className="flex h-9 items-center rounded-md border border-border bg-surface-muted px-3 text-sm"
                  data-testid="run-resource"
                >
                  {resource.label ?? params.data?.resource?.name ?? (params.isPending ? '…' : '')}
                </div>
              </div>
            ) : row.isPending ? (
              <Skeleton className="h-9" />
            ) : (
              kinds.map((kind) => (
                <div key={kind} className="space-y-1.5">
                  <Label>
                    {RESOURCE_LABELS[kind]}
                    <span className="ml-0.5 text-danger" aria-hidden>
                      *
                    </span>
                  </Label>
                  <ResourcePicker
                    table={KIND_TABLES[kind]}
                    label={RESOURCE_LABELS[kind]}
                    value={picked?.kind === kind ? picked.id : ''}
                    selectedName={picked?.kind === kind ? picked.name : undefined}
                    // One resource per run: choosing one kind clears the others.
                    onChange={(id, name) => setPicked({ kind, id, name })}
                  />
                </div>
              ))
            )}
          </section>
        )}

        <section className="space-y-3" aria-labelledby="run-playbook-parameters">
          <h3 id="run-playbook-parameters" className="text-[13px] font-semibold uppercase tracking-wide text-subtle">
            Playbook Parameters
          </h3>
          {row.isError ? (
            <Alert tone="error">{errorMessage(row.error)}</Alert>
          ) : row.data === null ? (
            <Alert tone="error">This playbook no longer exists.</Alert>
          ) : needsPick ? (
            <p className="flex items-center gap-2 text-[13px] text-muted">
              <TriangleAlert className="size-4" aria-hidden />
              Please select a resource to see the parameters.
            </p>
          ) : params.isError ? (
            <Alert tone="error">{errorMessage(params.error)}</Alert>
          ) : !loaded ? (
            <div className="space-y-3">
              <Skeleton className="h-9" />
              <Skeleton className="h-9" />
            </div>
          ) : parameters.length === 0 ? (
            <p className="py-2 text-[13px] text-muted">No parameters for this playbook.</p>
          ) : (
            parameters.map((p) => (
              <ParameterField
                key={p.name}
                param={p}
                value={form.values[p.name]}
                error={form.touched[p.name] ? errors[p.name] : undefined}
                disabled={run.isPending}
                onChange={(value) => dispatch({ type: 'set', name: p.name, value })}
              />
            ))
          )}
        </section>
      </form>
    </DialogContent>
  );
}
