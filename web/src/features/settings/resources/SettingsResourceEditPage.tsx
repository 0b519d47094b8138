// /settings/<table>/<id> (id 'new' to add): the edit page of a settings resource with Spec and
// Job History tabs, and for teams a Members tab (?tab=manageTeam, ../teams/TeamMembersTab). Spec has
// a Form tab (name, icon, namespace, labels, schedule, spec editor) and a Code tab (the whole
// resource as YAML or JSON, checked against its JSON Schema with the error lines shown). An invalid
// document is never saved. Name and namespace are read-only when editing; resources from another
// source (agent, file, Kubernetes) are read-only altogether.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Save, Trash2 } from 'lucide-react';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { describeSchemaError, validateJsonSchema } from '@opsdeck/common/jsonSchema';
import { errorMessage } from '../../../api/client';
import { useCan, useSession } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Breadcrumb } from '../../../ui/breadcrumb';
import { Button } from '../../../ui/button';
import { Card } from '../../../ui/card';
import {
  CodeEditor,
  describeProblem,
  formatEditorDocument,
  parseEditorDocument,
  type DocumentLanguage,
  type DocumentProblem,
} from '../../../ui/code-editor';
import { ConfirmDialog } from '../../../ui/dialog';
import { EditorBackLink, EditorLoading, EditorUnavailable } from '../../../ui/editor-page';
import { Field, Input, Select, Textarea } from '../../../ui/input';
import { useListState } from '../../../ui/list-state';
import { usePageHeader } from '../../../ui/page-header';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { toast } from '../../../ui/toast';
import { JobHistoryTable } from '../jobs/JobHistoryTable';
import { healthKeys } from '../../health';
import { settingsKeys } from '../keys';
import { TeamMembersTab } from '../teams/TeamMembersTab';
import { settingsResourceKind, type SettingsResourceKind } from './kinds';
import { isLocallyEditable, resourcesApi, type ResourceDocument, type SettingsResourceRow } from './resourcesApi';
import { HttpChecksForm } from './canary/HttpChecksForm';
import { storeFor } from './resourceStores';
import { RESOURCE_SCHEMAS } from './schemas';
import { SourceBadge } from './SourceBadge';

export const NO_RESOURCES_FOUND = 'No resources found';
const SCHEDULES = ['@every 30s', '@every 1m', '@every 5m', '@every 30m', '@hourly', '@every 6h', '@daily', '@weekly'];

export default function SettingsResourceEditPage({
  table,
  list,
}: {
  table: string;
  /** Back link, breadcrumb and Cancel lead here instead of the kind's own list. */
  list?: { to: string; title: string };
}) {
  const base = settingsResourceKind(table)!;
  const kind = useMemo(() => (list ? { ...base, list } : base), [base, list]);
  const { id = 'new' } = useParams();
  const isNew = id === 'new';
  const resource = useQuery({
    queryKey: settingsKeys.resource(table, id),
    queryFn: ({ signal }) => resourcesApi.get(kind, id, signal),
    enabled: !isNew,
    meta: { silent: true }, // shown in place of the editor
  });

  usePageHeader({ title: isNew ? `New ${kind.singular}` : resource.data?.name });

  const back = <EditorBackLink to={kind.list?.to ?? `/settings/${table}`} label={kind.list?.title ?? kind.title} />;

  if (!isNew && resource.isPending) return <EditorLoading back={back} />;
  if (!isNew && (resource.isError || !resource.data))
    return (
      <EditorUnavailable back={back} title={resource.isError ? errorMessage(resource.error) : NO_RESOURCES_FOUND} />
    );
  // Keyed so that a different row (or a saved new one) starts a fresh editor.
  return <ResourceEditor key={resource.data?.id ?? 'new'} kind={kind} row={resource.data ?? undefined} back={back} />;
}

function ResourceEditor({
  kind,
  row,
  back,
}: {
  kind: SettingsResourceKind;
  row?: SettingsResourceRow;
  back: ReactNode;
}) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab = row && (requested === 'jobHistory' || (requested === 'manageTeam' && kind.members)) ? requested : 'spec';
  const setTab = (t: string) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (t === 'spec') next.delete('tab');
        else next.set('tab', t);
        return next;
      },
      { replace: true },
    );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="space-y-1.5">
          {back}
          <Breadcrumb
            items={[
              { label: 'Settings' },
              { label: kind.list?.title ?? kind.title, to: kind.list?.to ?? `/settings/${kind.table}` },
              { label: row ? row.name : `New ${kind.singular}` },
            ]}
          />
        </div>
        {row && (
          <span className="inline-flex items-center gap-2 text-[12.5px] text-muted">
            Source <SourceBadge source={row.source} />
          </span>
        )}
      </div>
      <Tabs value={tab} onValueChange={setTab}>
        <TabsList>
          <TabsTrigger value="spec">Spec</TabsTrigger>
          {row && kind.members && <TabsTrigger value="manageTeam">Members</TabsTrigger>}
          {row && <TabsTrigger value="jobHistory">Job History</TabsTrigger>}
        </TabsList>
        <TabsContent value="spec" className="pt-4">
          <SpecEditor kind={kind} row={row} />
        </TabsContent>
        {row && kind.members && (
          <TabsContent value="manageTeam" className="pt-4">
            <TeamMembersTab kind={kind} team={row} />
          </TabsContent>
        )}
        {row && (
          <TabsContent value="jobHistory" className="pt-4">
            <ResourceJobHistory resourceId={row.id} resourceType={kind.jobResourceType} />
          </TabsContent>
        )}
      </Tabs>
    </div>
  );
}

function ResourceJobHistory({ resourceId, resourceType }: { resourceId: string; resourceType?: string }) {
  const list = useListState({ defaultPageSize: 150, defaultSortBy: 'created_at', defaultSortOrder: 'desc' });
  return <JobHistoryTable filters={{ resourceId, resourceType, status: { include: [], exclude: [] } }} list={list} />;
}

function labelsToText(labels: unknown): string {
  if (!labels || typeof labels !== 'object') return '';
  return Object.entries(labels as Record<string, string>)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

function textToLabels(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const line of text.split(/\n|,/)) {
    const t = line.trim();
    if (!t) continue;
    const at = t.indexOf('=');
    if (at > 0) out[t.slice(0, at).trim()] = t.slice(at + 1).trim();
  }
  return Object.keys(out).length ? out : undefined;
}

function SpecEditor({ kind, row }: { kind: SettingsResourceKind; row?: SettingsResourceRow }) {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canWrite = useCan(kind.resource, 'write');
  const editable = canWrite && isLocallyEditable(row);
  const schema = RESOURCE_SCHEMAS[kind.table];
  const has = (f: string) => (kind.fields as readonly string[]).includes(f);
  const store = useMemo(() => storeFor(kind), [kind]);

  const [doc, setDoc] = useState<ResourceDocument>(() => store.initial(row));
  const [mode, setMode] = useState<'form' | 'code'>('form');
  const [language, setLanguage] = useState<DocumentLanguage>('yaml');
  const [code, setCode] = useState('');
  const [specText, setSpecText] = useState(() => formatEditorDocument(doc.spec ?? {}, 'yaml'));
  const [confirmDelete, setConfirmDelete] = useState(false);
  // What the server found wrong with the last document sent; cleared by the next edit.
  const [serverProblems, setServerProblems] = useState<DocumentProblem[]>([]);
  // Specialised check forms (canaries): their invalid entries, and a revision that remounts them.
  const [checkProblems, setCheckProblems] = useState<string[]>([]);
  const [specRevision, setSpecRevision] = useState(0);

  const codeCheck = useMemo(
    () => (mode === 'code' ? parseEditorDocument(code, language, schema) : undefined),
    [mode, code, language, schema],
  );
  const formProblems = useMemo(
    () => (mode === 'form' && schema ? validateJsonSchema(schema, store.toCode(doc)).map(describeSchemaError) : []),
    [mode, schema, doc, store],
  );

  const switchMode = (next: string) => {
    if (next === mode) return;
    if (next === 'code') {
      setCode(formatEditorDocument(store.toCode(doc), language));
      setServerProblems([]);
      setMode('code');
      return;
    }
    const parsed = parseEditorDocument(code, language);
    if (parsed.value === undefined || parsed.problems.length) {
      toast.error('Fix the errors in the code before switching to the form');
      return;
    }
    const value = store.fromCode(parsed.value);
    setDoc(value);
    setServerProblems([]);
    setCheckProblems([]);
    setSpecRevision((r) => r + 1);
    setSpecText(formatEditorDocument(value.spec ?? {}, 'yaml'));
    setMode('form');
  };

  const switchLanguage = (next: DocumentLanguage) => {
    const parsed = parseEditorDocument(code, language);
    if (parsed.value !== undefined && !parsed.problems.length) setCode(formatEditorDocument(parsed.value, next));
    setLanguage(next);
  };

  const save = useMutation({
    mutationFn: (value: ResourceDocument) =>
      store.save({
        doc: value,
        row,
        text: mode === 'code' ? code : undefined,
        language,
        createdBy: session.person.id,
      }),
    onSuccess: (saved) => {
      setServerProblems([]);
      toast.success(`${saved.name} ${saved.created ? 'created' : 'updated'} successfully`);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.resources(kind.table) });
      if (kind.specForm === 'canary') void queryClient.invalidateQueries({ queryKey: healthKeys.all });
      if (saved.id && saved.id !== row?.id) navigate(`/settings/${kind.table}/${saved.id}`, { replace: true });
      else if (!saved.created && kind.returnTo) navigate(kind.returnTo);
    },
    onError: (e) => {
      const located = store.problemsOf(e);
      if (located.length) setServerProblems(located);
      else toast.error(errorMessage(e));
    },
  });

  const remove = useMutation({
    mutationFn: () => store.remove(row!),
    onSuccess: () => {
      toast.success(`${row!.name} deleted successfully`);
      void queryClient.invalidateQueries({ queryKey: settingsKeys.resources(kind.table) });
      navigate(kind.returnTo ?? kind.list?.to ?? `/settings/${kind.table}`, { replace: true });
    },
    onError: (e) => toast.error(errorMessage(e)),
  });

  /** The document to save, or undefined when it is invalid (then nothing is sent). */
  const validDocument = (): ResourceDocument | undefined => {
    if (mode === 'code') {
      if (!codeCheck || codeCheck.value === undefined || codeCheck.problems.length) return undefined;
      return codeCheck.value as ResourceDocument;
    }
    return formProblems.length ? undefined : doc;
  };

  const problems = [
    ...(mode === 'code' ? (codeCheck?.problems.map(describeProblem) ?? []) : [...formProblems, ...checkProblems]),
    // Lines of the server's problems refer to the text sent: the Code tab's, or the form's YAML.
    ...serverProblems.map((p) => (mode === 'code' ? describeProblem(p) : p.message)),
  ];
  const busyLabel = row ? 'Updating' : 'Saving';
  const idleLabel = row ? 'Update' : 'Save';

  const set = (field: string, value: unknown) => {
    setServerProblems([]);
    setDoc((d) => {
      const next = { ...d, [field]: value };
      if (value === undefined || value === '') delete next[field as keyof ResourceDocument];
      return next;
    });
  };

  return (
    <Card>
      {!isLocallyEditable(row) && (
        <Alert tone="info" className="m-5 mb-0">
          This {kind.singular.toLowerCase()} comes from <strong>{row?.source}</strong> and is read-only here; change it
          at its source.
        </Alert>
      )}
      <Tabs value={mode} onValueChange={switchMode}>
        <div className="flex flex-wrap items-center justify-between gap-3 px-5 pt-5">
          <TabsList variant="segmented" aria-label="Editor">
            <TabsTrigger value="form">Form</TabsTrigger>
            <TabsTrigger value="code">Code</TabsTrigger>
          </TabsList>
          {mode === 'code' && (
            <div
              className="inline-flex rounded-md border border-border bg-surface-muted p-0.5 text-[12px]"
              role="radiogroup"
              aria-label="Language"
            >
              {(['yaml', 'json'] as const).map((l) => (
                <button
                  key={l}
                  type="button"
                  role="radio"
                  aria-checked={language === l}
                  onClick={() => switchLanguage(l)}
                  className={`cursor-pointer rounded px-2.5 py-0.5 font-medium uppercase ${language === l ? 'bg-surface shadow-sm' : 'text-muted'}`}
                >
                  {l}
                </button>
              ))}
            </div>
          )}
        </div>

        <TabsContent value="form" className="space-y-4 p-5">
          <div className="grid gap-4 md:grid-cols-2">
            <Field label="Name">
              {(fid) => (
                <Input
                  id={fid}
                  value={String(doc.name ?? '')}
                  disabled={!!row || !editable}
                  onChange={(e) => set('name', e.target.value)}
                />
              )}
            </Field>
            {has('namespace') && (
              <Field label="Namespace">
                {(fid) => (
                  <Input
                    id={fid}
                    value={String(doc.namespace ?? '')}
                    disabled={!!row || !editable}
                    onChange={(e) => set('namespace', e.target.value)}
                  />
                )}
              </Field>
            )}
            {has('icon') && (
              <Field label="Icon" hint="An icon name, for example kubernetes or slack.">
                {(fid, d) => (
                  <Input
                    id={fid}
                    aria-describedby={d}
                    value={String(doc.icon ?? '')}
                    disabled={!editable}
                    onChange={(e) => set('icon', e.target.value)}
                  />
                )}
              </Field>
            )}
            {has('schedule') && (
              <Field label="Schedule">
                {(fid) => (
                  <Select
                    id={fid}
                    value={String(doc.schedule ?? '')}
                    disabled={!editable}
                    onChange={(e) => set('schedule', e.target.value)}
                  >
                    <option value="">No schedule</option>
                    {/* A schedule written in YAML (cron, @every 2m) stays selectable. */}
                    {[
                      ...SCHEDULES,
                      ...(doc.schedule && !SCHEDULES.includes(String(doc.schedule)) ? [String(doc.schedule)] : []),
                    ].map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </Select>
                )}
              </Field>
            )}
            {has('labels') && (
              <Field label="Labels" hint="One key=value per line." className="md:col-span-2">
                {(fid, d) => (
                  <Textarea
                    id={fid}
                    aria-describedby={d}
                    className="font-mono text-[12.5px]"
                    defaultValue={labelsToText(doc.labels)}
                    disabled={!editable}
                    onChange={(e) => set('labels', textToLabels(e.target.value))}
                  />
                )}
              </Field>
            )}
          </div>
          {kind.specForm === 'canary' && (
            <HttpChecksForm
              // Edits in the spec editor (or the Code tab) start the forms over from the new spec.
              key={specRevision}
              spec={(doc.spec ?? {}) as Record<string, unknown>}
              readOnly={!editable}
              onChange={(spec) => {
                set('spec', spec);
                setSpecText(formatEditorDocument(spec, 'yaml'));
              }}
              onProblems={setCheckProblems}
            />
          )}
          {has('spec') && (
            <div className="space-y-1.5">
              <p className="text-[13px] font-medium">Spec</p>
              <CodeEditor
                language="yaml"
                value={specText}
                readOnly={!editable}
                minHeight="220px"
                ariaLabel="Spec editor"
                onChange={(text) => {
                  setSpecText(text);
                  setSpecRevision((r) => r + 1);
                  const parsed = parseEditorDocument(text, 'yaml');
                  // A spec that does not parse is only logged; the last good spec stays (spec/3 §2).
                  if (parsed.value === undefined && parsed.problems.length)
                    console.warn('spec YAML does not parse', parsed.problems);
                  else set('spec', parsed.value ?? {});
                }}
              />
            </div>
          )}
        </TabsContent>

        <TabsContent value="code" className="p-5">
          <CodeEditor
            language={language}
            value={code}
            onChange={(text) => {
              setCode(text);
              setServerProblems([]);
            }}
            schema={schema}
            extraProblems={serverProblems}
            readOnly={!editable}
            minHeight="380px"
            ariaLabel={`${kind.singular} ${language.toUpperCase()}`}
          />
        </TabsContent>
      </Tabs>

      {problems.length > 0 && (
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
            <Button
              disabled={problems.length > 0}
              loading={save.isPending}
              onClick={() => {
                const value = validDocument();
                if (value) save.mutate(value);
              }}
            >
              {!save.isPending && <Save className="size-4" aria-hidden />}
              {save.isPending ? busyLabel : idleLabel}
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
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      )}
    </Card>
  );
}
