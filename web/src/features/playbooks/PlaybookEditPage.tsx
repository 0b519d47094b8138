// /playbooks/{id} (id 'new' to add): the Playbook spec form (spec/3 §2): a required title and the
// whole Playbook resource as YAML, checked against playbookResourceJsonSchema as it is typed. The
// title field edits `spec.title` in the YAML, so the two never disagree. Save applies the text as
// written through POST /api/playbook (its line/column errors are marked in the editor). Editing an
// existing spec is shown with write on connections (spec/3 §2), creating one with write on
// playbooks; everyone else reads the spec. A playbook from another source is read-only here.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Save, Trash2 } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client';
import { db } from '../../api/postgrest';
import { useCan } from '../../api/session';
import { Alert } from '../../ui/alert';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { CodeEditor, describeProblem, parseEditorDocument, type DocumentProblem } from '../../ui/code-editor';
import { ConfirmDialog } from '../../ui/dialog';
import { EditorBackLink, EditorLoading, EditorUnavailable } from '../../ui/editor-page';
import { Field, Input } from '../../ui/input';
import { usePageHeader } from '../../ui/page-header';
import { toast } from '../../ui/toast';
// The server's 400 answers for applied resources have one shape; the settings editors read it the same way.
import { appliedProblemsOf } from '../settings/resources/appliedResourceStore';
import { playbookTitle } from './playbookCards';
import { playbookResourceJsonSchema, SAMPLE_PLAYBOOK_YAML, titleOfYaml, withYamlTitle } from './playbookSchema';
import { playbookKeys, playbooksApi } from './playbooksApi';
import type { PlaybookRow } from './types';

const NOT_FOUND = 'No resources found';

type PlaybookHeader = Pick<PlaybookRow, 'id' | 'name' | 'namespace' | 'title' | 'source'>;

interface LoadedPlaybook {
  row: PlaybookHeader;
  yaml: string;
}

/** The live playbook and its YAML, or null when there is none (a malformed id answers 400: the same). */
async function loadPlaybook(id: string, signal: AbortSignal): Promise<LoadedPlaybook | null> {
  try {
    const row = await db<PlaybookHeader>('playbooks')
      .select('id,name,namespace,title,source')
      .eq('id', id)
      .is('deleted_at', null)
      .single(signal);
    if (!row) return null;
    return { row, yaml: await playbooksApi.spec(id, signal) };
  } catch (e) {
    if (e instanceof ApiError && (e.status === 400 || e.status === 404)) return null;
    throw e;
  }
}

export default function PlaybookEditPage() {
  const { id = 'new' } = useParams();
  const isNew = id === 'new';
  const playbook = useQuery({
    queryKey: [...playbookKeys.all, 'spec', id],
    queryFn: ({ signal }) => loadPlaybook(id, signal),
    enabled: !isNew,
    meta: { silent: true }, // shown in place of the editor
  });
  usePageHeader({ title: isNew ? 'New Playbook' : playbook.data ? playbookTitle(playbook.data.row) : undefined });

  const back = <EditorBackLink to="/playbooks" label="Playbooks" />;

  if (!isNew && playbook.isPending) return <EditorLoading back={back} testId="playbook-loading" />;
  if (!isNew && (playbook.isError || !playbook.data))
    return <EditorUnavailable back={back} title={playbook.isError ? errorMessage(playbook.error) : NOT_FOUND} />;
  // Keyed so that another playbook starts a fresh editor.
  return <PlaybookSpecForm key={playbook.data?.row.id ?? 'new'} loaded={playbook.data ?? undefined} back={back} />;
}

function PlaybookSpecForm({ loaded, back }: { loaded?: LoadedPlaybook; back: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const row = loaded?.row;
  const canWritePlaybooks = useCan('playbooks', 'write');
  const canWriteConnections = useCan('connections', 'write');
  const fromElsewhere = !!row?.source && row.source !== 'UI';
  const editable = row ? canWritePlaybooks && canWriteConnections && !fromElsewhere : canWritePlaybooks;

  const [text, setText] = useState(() => loaded?.yaml ?? SAMPLE_PLAYBOOK_YAML);
  // What the server found wrong with the last text sent; cleared by the next edit.
  const [serverProblems, setServerProblems] = useState<DocumentProblem[]>([]);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const check = useMemo(() => parseEditorDocument(text, 'yaml', playbookResourceJsonSchema), [text]);
  const title = useMemo(() => titleOfYaml(text), [text]);
  const problems = [...check.problems, ...serverProblems].map(describeProblem);

  const edit = (next: string) => {
    setText(next);
    setServerProblems([]);
  };

  const save = useMutation({
    mutationFn: async () => {
      const { applied } = await playbooksApi.apply(text, 'yaml');
      if (!applied[0]) throw new Error('Nothing was applied');
      return applied[0];
    },
    onSuccess: (saved) => {
      toast.success(saved.created ? 'Playbook Spec created successfully' : 'Playbook Spec updated successfully');
      void queryClient.invalidateQueries({ queryKey: playbookKeys.all });
      navigate('/playbooks');
    },
    onError: (e) => {
      setServerProblems(appliedProblemsOf(e));
      toast.error(`Unable to update playbook spec: ${errorMessage(e)}`);
    },
  });

  const remove = useMutation({
    mutationFn: () => playbooksApi.remove(row!.id),
    onSuccess: () => {
      toast.success('Playbook Spec deleted successfully');
      void queryClient.invalidateQueries({ queryKey: playbookKeys.all });
      navigate('/playbooks', { replace: true });
    },
    onError: (e) => toast.error(`Unable to delete playbook spec: ${errorMessage(e)}`),
  });

  return (
    <div className="space-y-4">
      {back}
      <Card>
        {row && fromElsewhere && (
          <Alert tone="info" className="m-5 mb-0">
            This playbook comes from <strong>{row.source}</strong> and is read-only here; change it at its source.
          </Alert>
        )}
        {row && !fromElsewhere && !editable && (
          <Alert tone="info" className="m-5 mb-0">
            You can read this spec; changing it needs write access to connections.
          </Alert>
        )}
        {!row && !editable && (
          <Alert tone="info" className="m-5 mb-0">
            This is a sample; creating a playbook needs write access to playbooks.
          </Alert>
        )}
        <div className="space-y-4 p-5">
          <Field
            label="Title"
            error={editable && title === '' ? 'Title is required' : undefined}
            hint={title === undefined ? 'Fix the YAML below to change the title here.' : 'Shown on the playbook card.'}
          >
            {(fid, described) => (
              <Input
                id={fid}
                aria-describedby={described}
                required
                invalid={editable && title === ''}
                value={title ?? ''}
                disabled={!editable || title === undefined}
                onChange={(e) => {
                  const next = withYamlTitle(text, e.target.value);
                  if (next !== undefined) edit(next);
                }}
              />
            )}
          </Field>
          <div className="space-y-1.5">
            <p className="text-[13px] font-medium">Spec</p>
            <CodeEditor
              language="yaml"
              value={text}
              onChange={edit}
              schema={playbookResourceJsonSchema}
              extraProblems={serverProblems}
              readOnly={!editable}
              minHeight="380px"
              ariaLabel="Playbook YAML"
            />
          </div>
        </div>

        {editable && problems.length > 0 && (
          <div className="px-5 pb-4" data-testid="document-problems">
            <Alert tone="error">
              <ul className="space-y-0.5">
                {problems.map((p, i) => (
                  <li key={i} className="font-mono text-[12.5px]">
                    {p}
                  </li>
                ))}
              </ul>
            </Alert>
          </div>
        )}

        {(editable || (row && canWritePlaybooks)) && (
          <div className="flex items-center gap-2 border-t border-border bg-surface-muted/50 px-5 py-3">
            {row && canWritePlaybooks && (
              <Button variant="ghost" className="text-danger" onClick={() => setConfirmDelete(true)}>
                <Trash2 className="size-4" aria-hidden /> Delete
              </Button>
            )}
            {editable && (
              <div className="ml-auto flex gap-2">
                <Button asChild variant="outline">
                  <Link to="/playbooks">Cancel</Link>
                </Button>
                <Button disabled={problems.length > 0 || !title} loading={save.isPending} onClick={() => save.mutate()}>
                  {!save.isPending && <Save className="size-4" aria-hidden />}
                  {save.isPending ? (row ? 'Updating' : 'Saving') : row ? 'Update' : 'Save'}
                </Button>
              </div>
            )}
          </div>
        )}
      </Card>
      {row && (
        <ConfirmDialog
          open={confirmDelete}
          onOpenChange={setConfirmDelete}
          title="Delete Playbook ?"
          description={`${playbookTitle(row)} will be deleted; its runs stay in the history.`}
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      )}
    </div>
  );
}
