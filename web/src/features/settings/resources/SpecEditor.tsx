// The Spec tab of a settings resource: a Form tab (common fields, the canary check forms, the spec
// as YAML) and a Code tab (the whole resource as YAML or JSON), the problems found, and the
// footer actions. Its state is in useResourceDocument.
import { useCan } from '../../../api/session';
import { Alert } from '../../../ui/alert';
import { Card } from '../../../ui/card';
import { CodeEditor } from '../../../ui/code-editor';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../ui/tabs';
import { HttpChecksForm } from './canary/HttpChecksForm';
import { type SettingsResourceKind } from './kinds';
import { LanguageToggle } from './LanguageToggle';
import { ResourceFields } from './ResourceFields';
import { isLocallyEditable, type SettingsResourceRow } from './resourcesApi';
import { SpecEditorActions } from './SpecEditorActions';
import { useResourceDocument } from './useResourceDocument';

export function SpecEditor({ kind, row }: { kind: SettingsResourceKind; row?: SettingsResourceRow }) {
  const canWrite = useCan(kind.resource, 'write');
  const editable = canWrite && isLocallyEditable(row);
  const has = (f: string) => (kind.fields as readonly string[]).includes(f);
  const editor = useResourceDocument(kind, row);
  const { doc, mode, language, problems, save, remove } = editor;

  return (
    <Card>
      {!isLocallyEditable(row) && (
        <Alert tone="info" className="m-5 mb-0">
          This {kind.singular.toLowerCase()} comes from <strong>{row?.source}</strong> and is read-only here; change it
          at its source.
        </Alert>
      )}
      <Tabs value={mode} onValueChange={editor.switchMode}>
        <div className="flex flex-wrap items-center justify-between gap-3 px-5 pt-5">
          <TabsList variant="segmented" aria-label="Editor">
            <TabsTrigger value="form">Form</TabsTrigger>
            <TabsTrigger value="code">Code</TabsTrigger>
          </TabsList>
          {mode === 'code' && <LanguageToggle language={language} onChange={editor.switchLanguage} />}
        </div>

        <TabsContent value="form" className="space-y-4 p-5">
          <ResourceFields kind={kind} doc={doc} isNew={!row} editable={editable} set={editor.set} />
          {kind.specForm === 'canary' && (
            <HttpChecksForm
              // Edits in the spec editor (or the Code tab) start the forms over from the new spec.
              key={editor.specRevision}
              spec={(doc.spec ?? {}) as Record<string, unknown>}
              readOnly={!editable}
              onChange={editor.editCheckSpec}
              onProblems={editor.setCheckProblems}
            />
          )}
          {has('spec') && (
            <div className="space-y-1.5">
              <p className="text-[13px] font-medium">Spec</p>
              <CodeEditor
                language="yaml"
                value={editor.specText}
                readOnly={!editable}
                minHeight="220px"
                ariaLabel="Spec editor"
                onChange={editor.editSpecText}
              />
            </div>
          )}
        </TabsContent>

        <TabsContent value="code" className="p-5">
          <CodeEditor
            language={language}
            value={editor.code}
            onChange={editor.editCode}
            schema={editor.schema}
            extraProblems={editor.serverProblems}
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

      <SpecEditorActions
        kind={kind}
        row={row}
        editable={editable}
        canSave={problems.length === 0}
        saving={save.isPending}
        onSave={() => {
          const value = editor.validDocument();
          if (value) save.mutate(value);
        }}
        deleting={remove.isPending}
        onDelete={() => remove.mutate()}
      />
    </Card>
  );
}
