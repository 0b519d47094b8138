// How the edit page reads and saves the documents of a kind: 'rows' through /api/db (the form's
// document is the row's editable part), or applied through the kind's service API (/api/canary,
// /api/topology...: the Code tab shows the whole resource, and the server's line/column problems
// come back for the editor).
import { formatEditorDocument, type DocumentLanguage, type DocumentProblem } from '../../../ui/code-editor';
import {
  appliedProblemsOf,
  appliedResourceApi,
  documentFromResource,
  documentOfStored,
  emptyAppliedDocument,
  resourceOf,
} from './appliedResourceStore';
import type { AppliedResourceApi, SettingsResourceKind } from './kinds';
import {
  documentOf,
  emptyDocument,
  resourcesApi,
  type ResourceDocument,
  type SettingsResourceRow,
} from './resourcesApi';

export interface SaveRequest {
  doc: ResourceDocument;
  row: SettingsResourceRow | undefined;
  /** The Code tab's text when saving from it (sent as written, so the server's lines match). */
  text?: string;
  language: DocumentLanguage;
  createdBy: string;
}

export interface Saved {
  id: string | undefined;
  name: string;
  created: boolean;
}

export interface ResourceStore {
  initial(row: SettingsResourceRow | undefined): ResourceDocument;
  /** The value the Code tab shows and the JSON Schema checks. */
  toCode(doc: ResourceDocument): unknown;
  fromCode(value: unknown): ResourceDocument;
  save(request: SaveRequest): Promise<Saved>;
  remove(row: SettingsResourceRow): Promise<void>;
  /** Problems the server found in a saved document, located in its text; [] for other errors. */
  problemsOf(error: unknown): DocumentProblem[];
}

function rowsStore(kind: SettingsResourceKind): ResourceStore {
  return {
    initial: (row) => (row ? documentOf(kind, row) : emptyDocument(kind)),
    toCode: (doc) => doc,
    fromCode: (value) => (value ?? {}) as ResourceDocument,
    async save({ doc, row, createdBy }) {
      const saved = row
        ? await resourcesApi.update(kind, row.id, doc)
        : await resourcesApi.create(kind, doc, createdBy);
      return { id: saved?.id, name: String(doc.name ?? ''), created: !row };
    },
    remove: async (row) => {
      await resourcesApi.remove(kind, row.id);
    },
    problemsOf: () => [],
  };
}

function appliedStore(api: AppliedResourceApi): ResourceStore {
  return {
    initial: (row) => (row ? documentOfStored(api, row) : emptyAppliedDocument(api)),
    toCode: (doc) => resourceOf(api, doc),
    fromCode: documentFromResource,
    async save({ doc, text, language }) {
      // The Code tab's text is sent as written, so the server's lines and columns match it.
      const body = text ?? formatEditorDocument(resourceOf(api, doc), 'yaml');
      const applied = await appliedResourceApi.apply(api, body, text ? language : 'yaml');
      return { id: applied.id, name: applied.name, created: applied.created };
    },
    remove: (row) => appliedResourceApi.remove(api, row.id),
    problemsOf: appliedProblemsOf,
  };
}

export function storeFor(kind: SettingsResourceKind): ResourceStore {
  return kind.store && kind.store !== 'rows' ? appliedStore(kind.store) : rowsStore(kind);
}
