// How the edit page reads and saves the documents of a kind: 'rows' through /api/db (the form's
// document is the row's editable part), 'canary' through /api/canary (the Code tab shows the whole
// Canary resource, and the server's line/column problems come back for the editor).
import { formatEditorDocument, type DocumentLanguage, type DocumentProblem } from '../../../ui/code-editor';
import {
  canaryDocumentFromResource,
  canaryDocumentOf,
  canaryProblemsOf,
  canaryResourceOf,
  canaryStore,
  emptyCanaryDocument,
} from './canaryStore';
import type { SettingsResourceKind } from './kinds';
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

const canaryResourceStore: ResourceStore = {
  initial: (row) => (row ? canaryDocumentOf(row) : emptyCanaryDocument()),
  toCode: canaryResourceOf,
  fromCode: canaryDocumentFromResource,
  async save({ doc, text, language }) {
    const body = text ?? formatEditorDocument(canaryResourceOf(doc), 'yaml');
    const applied = await canaryStore.apply(body, text ? language : 'yaml');
    return { id: applied.id, name: applied.name, created: applied.created };
  },
  remove: (row) => canaryStore.remove(row.id),
  problemsOf: canaryProblemsOf,
};

export function storeFor(kind: SettingsResourceKind): ResourceStore {
  return kind.store === 'canary' ? canaryResourceStore : rowsStore(kind);
}
