// The create and edit modal of a notification rule (spec/3 §2): a Form tab written through
// /api/db/notifications and a Code tab (the Notification resource as YAML) applied through
// POST /api/notification, its 400 answers marked on their lines. Update/Save only for rules made
// here (source UI or empty); Delete (soft) when editing. Server errors are toasted as they come.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, errorMessage } from '../../../api/client';
import { useCan, useSession } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Button } from '../../../ui/button';
import {
  CodeEditor,
  describeProblem,
  formatEditorDocument,
  parseEditorDocument,
  type DocumentProblem,
} from '../../../ui/code-editor';
import { ConfirmDialog, Dialog, DialogContent } from '../../../ui/dialog';
import { Skeleton } from '../../../ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { toast } from '../../../ui/toast';
// The server's 400 answers for applied resources have one shape; the settings editors read it the same way.
import { appliedProblemsOf } from '../../settings/resources/appliedResourceStore';
import { notificationKeys } from '../keys';
import { notificationsApi } from '../notificationsApi';
import type { NotificationRuleRow } from '../types';
import {
  EMPTY_RULE_FORM,
  isEditableRule,
  notificationResourceOf,
  ruleFormOfRow,
  ruleFormSchema,
  ruleRowOfForm,
  type RecipientNames,
  type RuleFormValues,
} from './ruleForm';
import { RuleFormFields } from './RuleFormFields';

/** `ruleId`: 'new' for the create modal, a rule's id for its edit modal, undefined when closed. */
export function RuleDialog({ ruleId, onClose }: { ruleId: string | undefined; onClose(): void }) {
  return (
    <Dialog open={!!ruleId} onOpenChange={(open) => !open && onClose()}>
      {ruleId === 'new' ? (
        <RuleEditor onClose={onClose} />
      ) : ruleId ? (
        <LoadedRule id={ruleId} onClose={onClose} />
      ) : null}
    </Dialog>
  );
}

function LoadedRule({ id, onClose }: { id: string; onClose(): void }) {
  const rule = useQuery({
    queryKey: notificationKeys.rule(id),
    queryFn: async ({ signal }) => {
      try {
        return (await notificationsApi.rule(id, signal)) ?? null;
      } catch (e) {
        if (e instanceof ApiError && e.status === 400) return null; // not an id
        throw e;
      }
    },
    meta: { silent: true },
  });
  if (rule.data) return <RuleEditor key={rule.data.id} rule={rule.data} onClose={onClose} />;
  return (
    <DialogContent title="Notification rule">
      {rule.isPending ? (
        <Skeleton className="h-40" />
      ) : (
        <Alert tone={rule.isError ? 'error' : 'info'}>
          {rule.isError ? errorMessage(rule.error) : 'No resources found'}
        </Alert>
      )}
    </DialogContent>
  );
}

/** The form's values as the Code tab's YAML (a new rule, or an edited form). */
function yamlOfForm(rule: NotificationRuleRow | undefined, values: RuleFormValues, names: RecipientNames): string {
  return formatEditorDocument(notificationResourceOf(values, names, rule?.namespace ?? 'default'), 'yaml');
}

function RuleEditor({ rule, onClose }: { rule?: NotificationRuleRow; onClose(): void }) {
  const session = useSession();
  const queryClient = useQueryClient();
  const canWrite = useCan('notifications', 'write');
  const editable = canWrite && isEditableRule(rule);
  const form = useForm<RuleFormValues>({
    resolver: zodResolver(ruleFormSchema),
    defaultValues: rule ? ruleFormOfRow(rule) : EMPTY_RULE_FORM,
  });
  const [names, setNames] = useState<RecipientNames>({
    person: rule?.person?.email ?? rule?.person?.name ?? undefined,
    team: rule?.team?.name,
  });
  const [tab, setTab] = useState<'form' | 'code'>('form');
  const [yaml, setYaml] = useState<string>();
  const [serverProblems, setServerProblems] = useState<DocumentProblem[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const changed = () => void queryClient.invalidateQueries({ queryKey: notificationKeys.rules() });

  const save = useMutation({
    mutationFn: async (values: RuleFormValues) => {
      const row = ruleRowOfForm(values);
      if (rule) await notificationsApi.updateRule(rule.id, row);
      else await notificationsApi.createRule(row, session.person.id);
      return row.name;
    },
    onSuccess: (name) => {
      toast.success(rule ? `${name} updated successfully` : `${name} created successfully`);
      changed();
      onClose();
    },
    onError: (e) => {
      if (e instanceof ApiError && e.field && e.field in EMPTY_RULE_FORM)
        form.setError(e.field as keyof RuleFormValues, { message: e.message });
      toast.error(errorMessage(e));
    },
  });

  const apply = useMutation({
    mutationFn: async (text: string) => {
      const { applied } = await notificationsApi.applyRule(text, 'yaml');
      if (!applied[0]) throw new Error('Nothing was applied');
      return applied[0];
    },
    onSuccess: (saved) => {
      toast.success(saved.created ? `${saved.name} created successfully` : `${saved.name} updated successfully`);
      changed();
      onClose();
    },
    onError: (e) => {
      setServerProblems(appliedProblemsOf(e));
      toast.error(errorMessage(e));
    },
  });

  const remove = useMutation({
    mutationFn: () => notificationsApi.deleteRule(rule!.id),
    onSuccess: () => {
      toast.success(`${rule!.name} deleted successfully`);
      changed();
      setConfirmDelete(false);
      onClose();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  // An unchanged stored rule shows its resource as stored (groupBy, inhibitions… included).
  const useStored = !!rule && yaml === undefined && !form.formState.isDirty;
  const stored = useQuery({
    queryKey: [...notificationKeys.rule(rule?.id ?? ''), 'yaml'],
    queryFn: ({ signal }) => notificationsApi.ruleYaml(rule!.id, signal),
    enabled: tab === 'code' && useStored,
    meta: { silent: true },
  });
  const code = yaml ?? (useStored && stored.data ? stored.data : yamlOfForm(rule, form.getValues(), names));
  const codeProblems = [...parseEditorDocument(code, 'yaml').problems, ...serverProblems].map(describeProblem);
  const busy = save.isPending || apply.isPending;
  const submit = () => {
    if (tab === 'code') apply.mutate(code);
    else void form.handleSubmit((values) => save.mutate(values))();
  };

  return (
    <>
      <DialogContent
        title={rule ? rule.name : 'Create Notification Rule'}
        size="lg"
        footer={
          <div className="flex w-full items-center">
            {rule && editable && (
              <Button variant="ghost" className="text-danger" onClick={() => setConfirmDelete(true)}>
                <Trash2 className="size-4" aria-hidden /> Delete
              </Button>
            )}
            <div className="ml-auto flex gap-2">
              <Button variant="outline" onClick={onClose}>
                {editable ? 'Cancel' : 'Close'}
              </Button>
              {editable && (
                <Button onClick={submit} loading={busy}>
                  {rule ? (busy ? 'Updating' : 'Update') : busy ? 'Saving' : 'Save'}
                </Button>
              )}
            </div>
          </div>
        }
      >
        {rule && !isEditableRule(rule) && (
          <Alert tone="info" className="mb-4">
            This rule comes from <strong>{rule.source}</strong> and is read-only here; change it at its source.
          </Alert>
        )}
        <Tabs value={tab} onValueChange={(v) => setTab(v as 'form' | 'code')}>
          <TabsList className="mb-4">
            <TabsTrigger value="form">Form</TabsTrigger>
            <TabsTrigger value="code">Code</TabsTrigger>
          </TabsList>
          <TabsContent value="form">
            <form
              id="notification-rule-form"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                submit();
              }}
            >
              <fieldset disabled={!editable} className="min-w-0">
                <RuleFormFields form={form} names={names} onNames={setNames} isNew={!rule} />
              </fieldset>
            </form>
          </TabsContent>
          <TabsContent value="code" className="space-y-3">
            {useStored && stored.isPending ? (
              <Skeleton className="h-80" />
            ) : (
              <CodeEditor
                language="yaml"
                value={code}
                onChange={(text) => {
                  setYaml(text);
                  setServerProblems([]);
                }}
                extraProblems={serverProblems}
                readOnly={!editable}
                minHeight="320px"
                ariaLabel="Notification YAML"
              />
            )}
            {editable && codeProblems.length > 0 && (
              <Alert tone="error">
                <ul className="space-y-0.5" data-testid="document-problems">
                  {codeProblems.map((p, i) => (
                    <li key={i} className="font-mono text-[12.5px]">
                      {p}
                    </li>
                  ))}
                </ul>
              </Alert>
            )}
          </TabsContent>
        </Tabs>
      </DialogContent>
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title="Delete Notification Rule"
        description="Are you sure you want to delete this notification rule?"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
