// Health checks (canaries) on the generic settings pages: the form edits name, namespace, labels,
// schedule and the check lists; the Code tab edits the whole Canary resource; saving applies the
// resource through POST /api/canary (the server validates every check type and answers with the
// line and column of each problem), deleting goes through DELETE /api/canary/:id.
import { CANARY_API_VERSION } from '@opsdeck/common/specs/canary';
import { ApiError, request } from '../../../api/client';
import type { DocumentProblem } from '../../../ui/code-editor';
import type { ResourceDocument, SettingsResourceRow } from './resourcesApi';

export interface AppliedCanary {
  id: string;
  name: string;
  namespace: string;
  created: boolean;
  checks: unknown;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Top-level keys first in the order people write them (the stored JSON has lost its order). */
function ordered(resource: Json): Json {
  const out: Json = {};
  for (const key of ['apiVersion', 'kind', 'metadata', 'spec']) if (key in resource) out[key] = resource[key];
  for (const [k, v] of Object.entries(resource)) if (!(k in out)) out[k] = v;
  if (isObject(out.metadata)) {
    const m = out.metadata;
    const meta: Json = {};
    for (const key of ['name', 'namespace', 'labels']) if (key in m) meta[key] = m[key];
    out.metadata = { ...meta, ...m };
  }
  if (isObject(out.spec)) {
    const s = out.spec;
    const spec: Json = {};
    for (const key of ['schedule', 'interval']) if (key in s) spec[key] = s[key];
    for (const [k, v] of Object.entries(s)) {
      // Each check starts with its name.
      spec[k] = Array.isArray(v) ? v.map((c) => (isObject(c) && 'name' in c ? { name: c.name, ...c } : c)) : v;
    }
    out.spec = spec;
  }
  return out;
}

/** The form's document of a stored canary (its `spec` column holds the whole resource). */
export function canaryDocumentOf(row: SettingsResourceRow): ResourceDocument {
  const resource = isObject(row.spec) ? row.spec : {};
  const metadata = {
    name: row.name,
    namespace: row.namespace,
    ...(isObject(resource.metadata) ? resource.metadata : {}),
  };
  return canaryDocumentFromResource(ordered({ ...resource, metadata }));
}

/** Resource (as in the Code tab) → the form's document: metadata and schedule lifted out of it. */
export function canaryDocumentFromResource(value: unknown): ResourceDocument {
  const resource = isObject(value) ? value : {};
  const metadata = isObject(resource.metadata) ? resource.metadata : {};
  const { schedule, ...spec } = isObject(resource.spec) ? resource.spec : {};
  const doc: ResourceDocument = { name: typeof metadata.name === 'string' ? metadata.name : '' };
  if (typeof metadata.namespace === 'string') doc.namespace = metadata.namespace;
  if (isObject(metadata.labels) && Object.keys(metadata.labels).length) doc.labels = metadata.labels;
  if (typeof schedule === 'string' && schedule) doc.schedule = schedule;
  doc.spec = spec;
  return doc;
}

/** The form's document → the Canary resource the Code tab shows and the server applies. */
export function canaryResourceOf(doc: ResourceDocument): Json {
  const metadata: Json = { name: doc.name ?? '' };
  if (doc.namespace) metadata.namespace = doc.namespace;
  if (isObject(doc.labels) && Object.keys(doc.labels).length) metadata.labels = doc.labels;
  const spec: Json = {};
  if (doc.schedule) spec.schedule = doc.schedule;
  Object.assign(spec, isObject(doc.spec) ? doc.spec : {});
  return ordered({ apiVersion: CANARY_API_VERSION, kind: 'Canary', metadata, spec });
}

export function emptyCanaryDocument(): ResourceDocument {
  return { name: '', namespace: 'default', schedule: '@every 5m', spec: {} };
}

/**
 * The server's problems with a document, with the line and column it names. The message loses
 * its "(line 6, column 13)" suffix, which the editor shows its own way.
 */
export function canaryProblemsOf(error: unknown): DocumentProblem[] {
  if (!(error instanceof ApiError) || error.status !== 400 || !isObject(error.body)) return [];
  const errors = Array.isArray(error.body.errors) ? error.body.errors : [];
  return errors.filter(isObject).map((e) => ({
    line: typeof e.line === 'number' ? e.line : 1,
    column: typeof e.column === 'number' ? e.column : undefined,
    message: String(e.message ?? '').replace(/\s*\(line \d+, column \d+\)$/, ''),
  }));
}

export const canaryStore = {
  /** Applies one Canary document (YAML or JSON text) and returns what was created or updated. */
  async apply(text: string, language: 'yaml' | 'json'): Promise<AppliedCanary> {
    const res = await request<{ applied: AppliedCanary[] }>('/api/canary', {
      method: 'POST',
      rawBody: text,
      headers: { 'Content-Type': language === 'json' ? 'application/json' : 'application/yaml' },
    });
    const applied = res.data.applied?.[0];
    if (!applied) throw new ApiError('Nothing was applied', res.status);
    return applied;
  },
  async remove(id: string): Promise<void> {
    await request(`/api/canary/${encodeURIComponent(id)}`, { method: 'DELETE' });
  },
};
