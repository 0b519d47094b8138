// The state of a settings resource's Spec editor: the document, the Form / Code mode and the code
// text, the problems found (schema, check forms, server), and the save and delete mutations.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { describeSchemaError, validateJsonSchema } from '@opsdeck/common/jsonSchema';
import { errorMessage } from '../../../api/client';
import { useSession } from '../../../api/session';
import {
  describeProblem,
  formatEditorDocument,
  parseEditorDocument,
  type DocumentLanguage,
  type DocumentProblem,
} from '../../../ui/code-editor';
import { toast } from '../../../ui/toast';
import { healthKeys } from '../../health';
import { settingsKeys } from '../keys';
import { type SettingsResourceKind } from './kinds';
import { type ResourceDocument, type SettingsResourceRow } from './resourcesApi';
import { storeFor } from './resourceStores';
import { RESOURCE_SCHEMAS } from './schemas';

export function useResourceDocument(kind: SettingsResourceKind, row: SettingsResourceRow | undefined) {
  const session = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const schema = RESOURCE_SCHEMAS[kind.table];
  const store = useMemo(() => storeFor(kind), [kind]);

  const [doc, setDoc] = useState<ResourceDocument>(() => store.initial(row));
  const [mode, setMode] = useState<'form' | 'code'>('form');
  const [language, setLanguage] = useState<DocumentLanguage>('yaml');
  const [code, setCode] = useState('');
  const [specText, setSpecText] = useState(() => formatEditorDocument(doc.spec ?? {}, 'yaml'));
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

  const set = (field: string, value: unknown) => {
    setServerProblems([]);
    setDoc((d) => {
      const next = { ...d, [field]: value };
      if (value === undefined || value === '') delete next[field as keyof ResourceDocument];
      return next;
    });
  };

  /** A change in the Code tab. */
  const editCode = (text: string) => {
    setCode(text);
    setServerProblems([]);
  };

  /** A change in the Form tab's spec editor: the check forms start over from the new spec. */
  const editSpecText = (text: string) => {
    setSpecText(text);
    setSpecRevision((r) => r + 1);
    const parsed = parseEditorDocument(text, 'yaml');
    // A spec that does not parse is only logged; the last good spec stays (spec/3 §2).
    if (parsed.value === undefined && parsed.problems.length) console.warn('spec YAML does not parse', parsed.problems);
    else set('spec', parsed.value ?? {});
  };

  /** A change in the specialised check forms, written through to the spec editor. */
  const editCheckSpec = (spec: Record<string, unknown>) => {
    set('spec', spec);
    setSpecText(formatEditorDocument(spec, 'yaml'));
  };

  return {
    schema,
    doc,
    mode,
    language,
    code,
    specText,
    specRevision,
    serverProblems,
    problems,
    switchMode,
    switchLanguage,
    set,
    editCode,
    editSpecText,
    editCheckSpec,
    setCheckProblems,
    validDocument,
    save,
    remove,
  };
}
