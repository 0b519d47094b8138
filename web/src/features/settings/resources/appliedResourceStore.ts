// Resources applied through a service API rather than written as rows (health checks, topologies,
// and later scrapers and incident rules): the form edits name, namespace, labels, schedule and the
// spec; the Code tab edits the whole Kubernetes-style resource (apiVersion, kind, metadata, spec).
// Saving POSTs the document to the kind's endpoint as written (the server validates it and answers
// with the line and column of each problem); deleting goes through DELETE <api>/:id. Every such
// endpoint has the shapes of /api/canary: POST → 201 {applied: [{id, name, namespace, created}]}.
import { ApiError, request } from '../../../api/client';
import type { DocumentProblem } from '../../../ui/code-editor';
import type { AppliedResourceApi } from './kinds';
import type { ResourceDocument, SettingsResourceRow } from './resourcesApi';

export interface AppliedResource {
  id: string;
  name: string;
  namespace: string;
  created: boolean;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Top-level keys first in the order people write them (the stored JSON has lost its order). */
export function orderedResource(resource: Json): Json {
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
      // Each entry of a list (checks, components) starts with its name.
      spec[k] = Array.isArray(v) ? v.map((c) => (isObject(c) && 'name' in c ? { name: c.name, ...c } : c)) : v;
    }
    out.spec = spec;
  }
  return out;
}

/** Resource (as in the Code tab) → the form's document: metadata and schedule lifted out of it. */
export function documentFromResource(value: unknown): ResourceDocument {
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

/** The form's document of a stored resource (its `spec` column holds the whole resource). */
export function documentOfStored(api: AppliedResourceApi, row: SettingsResourceRow): ResourceDocument {
  const resource = isObject(row.spec) ? row.spec : {};
  const metadata = {
    name: row.name,
    namespace: row.namespace,
    ...(isObject(resource.metadata) ? resource.metadata : {}),
  };
  return documentFromResource(orderedResource({ apiVersion: api.apiVersion, kind: api.kind, ...resource, metadata }));
}

/** The form's document → the resource the Code tab shows and the server applies. */
export function resourceOf(api: AppliedResourceApi, doc: ResourceDocument): Json {
  const metadata: Json = { name: doc.name ?? '' };
  if (doc.namespace) metadata.namespace = doc.namespace;
  if (isObject(doc.labels) && Object.keys(doc.labels).length) metadata.labels = doc.labels;
  const spec: Json = {};
  if (doc.schedule) spec.schedule = doc.schedule;
  Object.assign(spec, isObject(doc.spec) ? doc.spec : {});
  return orderedResource({ apiVersion: api.apiVersion, kind: api.kind, metadata, spec });
}

export function emptyAppliedDocument(api: AppliedResourceApi): ResourceDocument {
  const doc: ResourceDocument = { name: '', namespace: 'default', spec: {} };
  if (api.defaultSchedule) doc.schedule = api.defaultSchedule;
  return doc;
}

/**
 * The server's problems with a document, with the line and column it names. The message loses
 * its "(line 6, column 13)" suffix, which the editor shows its own way.
 */
export function appliedProblemsOf(error: unknown): DocumentProblem[] {
  if (!(error instanceof ApiError) || error.status !== 400 || !isObject(error.body)) return [];
  const errors = Array.isArray(error.body.errors) ? error.body.errors : [];
  return errors.filter(isObject).map((e) => ({
    line: typeof e.line === 'number' ? e.line : 1,
    column: typeof e.column === 'number' ? e.column : undefined,
    message: String(e.message ?? '').replace(/\s*\(line \d+, column \d+\)$/, ''),
  }));
}

export const appliedResourceApi = {
  /** Applies one document (YAML or JSON text) and returns what was created or updated. */
  async apply(api: AppliedResourceApi, text: string, language: 'yaml' | 'json'): Promise<AppliedResource> {
    const res = await request<{ applied: AppliedResource[] }>(api.api, {
      method: 'POST',
      rawBody: text,
      headers: { 'Content-Type': language === 'json' ? 'application/json' : 'application/yaml' },
    });
    const applied = res.data.applied?.[0];
    if (!applied) throw new ApiError('Nothing was applied', res.status);
    return applied;
  },
  async remove(api: AppliedResourceApi, id: string): Promise<void> {
    await request(`${api.api}/${encodeURIComponent(id)}`, { method: 'DELETE' });
  },
};
