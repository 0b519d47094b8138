// The create and edit modal of a status page: a Form tab (address, title, texts, private, sections
// with their checks and components one per line) and a Code tab (the StatusPage resource as YAML).
// Both are applied through POST /api/status-page; its 400 answers are marked on their lines (Code)
// or toasted (Form). Pages from YAML or the CLI (source not UI) are read-only here.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, Plus, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { useCan } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import {
  CodeEditor,
  describeProblem,
  formatEditorDocument,
  parseEditorDocument,
  type DocumentProblem,
} from '../../ui/code-editor';
import { ConfirmDialog, Dialog, DialogContent } from '../../ui/dialog';
import { Field, Input, Textarea } from '../../ui/input';
import { Skeleton } from '../../ui/skeleton';
import { Switch } from '../../ui/switch';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { toast } from '../../ui/toast';
import { appliedProblemsOf } from '../settings/resources/appliedResourceStore';
import {
  EMPTY_SECTION,
  EMPTY_STATUS_PAGE_FORM,
  formOfResource,
  formProblems,
  resourceOfForm,
  type StatusPageForm,
  type StatusPageResource,
} from './statusPageForm';
import { statusPageKeys, statusPagesApi, type StatusPageRow } from './statusPagesApi';

/** `pageId`: 'new' for the create modal, a page's id for its edit modal, undefined when closed. */
export function StatusPageDialog({ pageId, onClose }: { pageId: string | undefined; onClose(): void }) {
  return (
    <Dialog open={!!pageId} onOpenChange={(open) => !open && onClose()}>
      {pageId === 'new' ? <Editor onClose={onClose} /> : pageId ? <Loaded id={pageId} onClose={onClose} /> : null}
    </Dialog>
  );
}

function Loaded({ id, onClose }: { id: string; onClose(): void }) {
  const page = useQuery({
    queryKey: statusPageKeys.one(id),
    queryFn: ({ signal }) => statusPagesApi.get(id, signal),
    meta: { silent: true },
  });
  if (page.data) return <Editor key={page.data.id} page={page.data} onClose={onClose} />;
  return (
    <DialogContent title="Status page">
      {page.isPending ? <Skeleton className="h-40" /> : <Alert tone="error">{errorMessage(page.error)}</Alert>}
    </DialogContent>
  );
}

const yamlOf = (resource: StatusPageResource) => formatEditorDocument(resource, 'yaml');

function Editor({ page, onClose }: { page?: StatusPageRow; onClose(): void }) {
  const queryClient = useQueryClient();
  const canWrite = useCan('canaries', 'write');
  const fromUi = !page?.source || page.source === 'UI';
  const editable = canWrite && fromUi;
  const [form, setForm] = useState<StatusPageForm>(page ? formOfResource(page.resource) : EMPTY_STATUS_PAGE_FORM);
  const [tab, setTab] = useState<'form' | 'code'>('form');
  const [yaml, setYaml] = useState<string>();
  const [serverProblems, setServerProblems] = useState<DocumentProblem[]>([]);
  const [touched, setTouched] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const problems = touched ? formProblems(form) : {};
  const set = (patch: Partial<StatusPageForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setYaml(undefined);
  };
  const setSection = (i: number, patch: Partial<StatusPageForm['sections'][number]>) =>
    set({ sections: form.sections.map((s, j) => (j === i ? { ...s, ...patch } : s)) });

  const changed = () => void queryClient.invalidateQueries({ queryKey: statusPageKeys.all });
  const apply = useMutation({
    mutationFn: async (text: string) => {
      const { applied } = await statusPagesApi.apply(text, 'yaml');
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
    mutationFn: () => statusPagesApi.remove(page!.id),
    onSuccess: () => {
      toast.success(`${page!.slug} deleted successfully`);
      changed();
      setConfirmDelete(false);
      onClose();
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  const code = yaml ?? yamlOf(resourceOfForm(form));
  const codeProblems = [...parseEditorDocument(code, 'yaml').problems, ...serverProblems].map(describeProblem);
  const submit = () => {
    if (tab === 'code') return apply.mutate(code);
    setTouched(true);
    if (Object.keys(formProblems(form)).length) return;
    apply.mutate(yamlOf(resourceOfForm(form)));
  };

  return (
    <>
      <DialogContent
        title={page ? (page.resource.spec.title ?? page.slug) : 'Create Status Page'}
        size="lg"
        footer={
          <div className="flex w-full items-center">
            {page && editable && (
              <Button variant="ghost" className="text-danger" onClick={() => setConfirmDelete(true)}>
                <Trash2 className="size-4" aria-hidden /> Delete
              </Button>
            )}
            {page && (
              <a
                href={page.url}
                target="_blank"
                rel="noreferrer"
                className="ml-2 inline-flex items-center gap-1 text-[13px] text-primary hover:underline"
              >
                Open page <ExternalLink className="size-3.5" aria-hidden />
              </a>
            )}
            <div className="ml-auto flex gap-2">
              <Button variant="outline" onClick={onClose}>
                {editable ? 'Cancel' : 'Close'}
              </Button>
              {editable && (
                <Button onClick={submit} loading={apply.isPending}>
                  {page ? (apply.isPending ? 'Updating' : 'Update') : apply.isPending ? 'Saving' : 'Save'}
                </Button>
              )}
            </div>
          </div>
        }
      >
        {page && !fromUi && (
          <Alert tone="info" className="mb-4">
            This page comes from <strong>{page.source}</strong> and is read-only here; change it at its source.
          </Alert>
        )}
        {apply.error instanceof ApiError && tab === 'form' && (
          <Alert tone="error" className="mb-4">
            {errorMessage(apply.error)}
          </Alert>
        )}
        <Tabs value={tab} onValueChange={(v) => setTab(v as 'form' | 'code')}>
          <TabsList className="mb-4">
            <TabsTrigger value="form">Form</TabsTrigger>
            <TabsTrigger value="code">Code</TabsTrigger>
          </TabsList>
          <TabsContent value="form">
            <fieldset disabled={!editable} className="min-w-0 space-y-4">
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Address" error={problems.slug} hint={`/status/${form.slug || '<address>'}`}>
                  {(id, describedBy) => (
                    <Input
                      id={id}
                      aria-describedby={describedBy}
                      value={form.slug}
                      readOnly={!!page}
                      invalid={!!problems.slug}
                      placeholder="e.g. shop"
                      onChange={(e) => set({ slug: e.target.value })}
                    />
                  )}
                </Field>
                <Field label="Title" error={problems.title}>
                  {(id, describedBy) => (
                    <Input
                      id={id}
                      aria-describedby={describedBy}
                      value={form.title}
                      invalid={!!problems.title}
                      onChange={(e) => set({ title: e.target.value })}
                    />
                  )}
                </Field>
              </div>
              <Field label="Description">
                {(id) => (
                  <Textarea id={id} value={form.description} onChange={(e) => set({ description: e.target.value })} />
                )}
              </Field>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Logo URL">
                  {(id) => <Input id={id} value={form.logo} onChange={(e) => set({ logo: e.target.value })} />}
                </Field>
                <Field label="Footer">
                  {(id) => <Input id={id} value={form.footer} onChange={(e) => set({ footer: e.target.value })} />}
                </Field>
              </div>
              <Switch
                checked={form.private}
                onCheckedChange={(v) => set({ private: v })}
                label="Private"
                description="Only signed-in users may read a private page; its entries get no public badges."
                disabled={!editable}
              />
              {form.sections.map((s, i) => (
                <section
                  key={i}
                  className="space-y-3 rounded-md border border-border p-3"
                  aria-label={`Section ${i + 1}`}
                >
                  <div className="flex items-end gap-2">
                    <Field label="Section" className="flex-1">
                      {(id) => (
                        <Input id={id} value={s.name} onChange={(e) => setSection(i, { name: e.target.value })} />
                      )}
                    </Field>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove section ${i + 1}`}
                      onClick={() => set({ sections: form.sections.filter((_, j) => j !== i) })}
                    >
                      <X className="size-4" />
                    </Button>
                  </div>
                  <div className="grid gap-3 sm:grid-cols-2">
                    <Field label="Checks" hint="One a line: a name, an id, or label: key=value">
                      {(id, describedBy) => (
                        <Textarea
                          id={id}
                          aria-describedby={describedBy}
                          className="font-mono text-[12.5px]"
                          value={s.checks}
                          onChange={(e) => setSection(i, { checks: e.target.value })}
                        />
                      )}
                    </Field>
                    <Field label="Components" hint="One a line: a name, an id, or label: key=value">
                      {(id, describedBy) => (
                        <Textarea
                          id={id}
                          aria-describedby={describedBy}
                          className="font-mono text-[12.5px]"
                          value={s.components}
                          onChange={(e) => setSection(i, { components: e.target.value })}
                        />
                      )}
                    </Field>
                  </div>
                </section>
              ))}
              <Button
                variant="outline"
                size="sm"
                onClick={() => set({ sections: [...form.sections, { ...EMPTY_SECTION }] })}
              >
                <Plus className="size-4" aria-hidden /> Add Section
              </Button>
            </fieldset>
          </TabsContent>
          <TabsContent value="code" className="space-y-3">
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
              ariaLabel="Status page YAML"
            />
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
        title="Delete Status Page"
        description="Are you sure you want to delete this status page? Its address stops working at once."
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
    </>
  );
}
