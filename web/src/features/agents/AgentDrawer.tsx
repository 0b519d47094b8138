// The agent drawer (spec/1 §2–§4, §8): 'Create new agent' or the agent's name as its title, the agent
// form, and Save / Delete for those who may write agents. Creating calls /generate and hands the
// one-time token to the page for the install instructions; saving an agent stores its properties.
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client';
import { useCan } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Sheet, SheetContent } from '../../ui/sheet';
import { Skeleton } from '../../ui/skeleton';
import { toast } from '../../ui/toast';
import { agentFormSchema, agentToForm, emptyAgentForm, formToProperties, type AgentFormValues } from './agentForm';
import { AgentFormFields } from './AgentFormFields';
import type { AgentDrawer as DrawerState } from './agentParams';
import { agentKeys, agentsApi, type AgentRow } from './agentsApi';
import { DeleteAgentFlow } from './DeleteAgentFlow';
import type { InstallTarget } from './installSnippets';

export const CREATE_TITLE = 'Create new agent';
const FORM_ID = 'agent-form';

export type CreatedAgent = Omit<InstallTarget, 'version'>;

export function AgentDrawer({
  drawer,
  onClose,
  onCreated,
}: {
  drawer: DrawerState;
  onClose(): void;
  onCreated(agent: CreatedAgent): void;
}) {
  const agent = useQuery({
    queryKey: agentKeys.detail(drawer.mode === 'edit' ? drawer.id : ''),
    queryFn: ({ signal }) => agentsApi.get(drawer.mode === 'edit' ? drawer.id : '', signal),
    enabled: drawer.mode === 'edit',
  });
  const title = drawer.mode === 'create' ? CREATE_TITLE : (agent.data?.name ?? 'Agent');

  let body;
  if (drawer.mode === 'create') body = <AgentFormBody key="new" onClose={onClose} onCreated={onCreated} />;
  else if (agent.isPending) body = <Skeleton className="m-6 h-40" />;
  else if (agent.isError) body = <Alert tone="error">{errorMessage(agent.error)}</Alert>;
  else if (!agent.data) body = <Alert tone="error">This agent does not exist or was deleted.</Alert>;
  else body = <AgentFormBody key={agent.data.id} agent={agent.data} onClose={onClose} onCreated={onCreated} />;

  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        title={title}
        className="lg:w-[40rem] 2xl:max-w-[40rem]"
        header={<div className="text-base font-semibold text-foreground">{title}</div>}
      >
        {body}
      </SheetContent>
    </Sheet>
  );
}

function AgentFormBody({
  agent,
  onClose,
  onCreated,
}: {
  agent?: AgentRow;
  onClose(): void;
  onCreated(agent: CreatedAgent): void;
}) {
  const canWrite = useCan('agents', 'write');
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const form = useForm<AgentFormValues>({
    resolver: zodResolver(agentFormSchema),
    defaultValues: agent ? agentToForm(agent) : emptyAgentForm(),
  });
  const changed = () => void queryClient.invalidateQueries({ queryKey: agentKeys.all });

  const save = useMutation({
    mutationFn: async (values: AgentFormValues) => {
      const properties = formToProperties(values);
      if (agent) {
        await agentsApi.updateProperties(agent.id, properties);
        return undefined;
      }
      return agentsApi.generate({ name: values.name.trim(), properties });
    },
    onSuccess: (generated, values) => {
      changed();
      if (!generated) {
        toast.success('Agent updated');
        onClose();
        return;
      }
      toast.success('Agent created');
      onCreated({
        upstreamUrl: window.location.origin,
        agentName: values.name.trim(),
        token: generated.access_token,
        kubernetes: values.kubernetes,
        pushTelemetry: values.pushTelemetry,
      });
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const remove = useMutation({
    mutationFn: (cleanup: boolean) => agentsApi.remove(agent!.id, cleanup),
    onSuccess: () => {
      toast.success('Agent deleted');
      changed();
      setDeleting(false);
      onClose();
    },
    onError: (e) => {
      toast.error(errorMessage(e));
      setDeleting(false);
    },
  });

  return (
    <div className="flex min-h-full flex-col">
      <form
        id={FORM_ID}
        aria-label="Agent"
        noValidate
        className="flex-1 px-6 py-5"
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
      >
        <fieldset disabled={!canWrite}>
          <AgentFormFields form={form} editing={!!agent} />
        </fieldset>
      </form>
      <div className="sticky bottom-0 flex flex-wrap items-center gap-2 border-t border-border bg-surface px-6 py-3">
        {agent && canWrite && (
          <Button variant="ghost" className="text-danger" onClick={() => setDeleting(true)}>
            Delete
          </Button>
        )}
        <div className="ml-auto flex gap-2">
          <Button variant="outline" onClick={onClose}>
            {canWrite ? 'Cancel' : 'Close'}
          </Button>
          {canWrite && (
            <Button type="submit" form={FORM_ID} loading={save.isPending}>
              {save.isPending ? 'Saving' : 'Save'}
            </Button>
          )}
        </div>
      </div>
      {deleting && agent && (
        <DeleteAgentFlow
          agentName={agent.name}
          busy={remove.isPending}
          onDelete={(cleanup) => remove.mutate(cleanup)}
          onCancel={() => setDeleting(false)}
        />
      )}
    </div>
  );
}
