// LoggingBackend resources (apm-hub.flanksource.com/v1): a spec with entries per backend type (file,
// loki, opensearch, kubernetes), checked with each backend's own rules (globs, URLs, connections,
// kubeconfigs) — with line and column when applied from YAML, by field through /api/db — and
// stored as a `logging_backends` row (spec = the resource's spec).
import {
  LOG_BACKEND_TYPES,
  LOGGING_BACKEND_API_VERSION,
  LOGGING_BACKEND_KIND,
  loggingBackendSpecSchema,
  type FieldProblem,
  type LoggingBackendSpec,
} from '@opsdeck/common';
import { z } from 'zod';
import { connectionResolver } from '../connections/index.js';
import type { Database, Queryable } from '../db/database.js';
import type { AppliedResource } from '../resources/apply.js';
import { resourceHeader, storedResource, type StoredResource } from '../resources/metadata.js';
import {
  formatPath,
  ResourceError,
  ResourceErrors,
  validate,
  type Path,
  type ResourceDocument,
} from '../resources/yaml.js';
import { logBackends } from './backends/index.js';

export interface LoggingBackendDefinition extends StoredResource {
  spec: LoggingBackendSpec;
}

type Row = Record<string, unknown>;
const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The spec in Opsdeck's shape: apm-hub's `backends: [{file: [...]}, {loki: {...}}]` read as lists per
 * type, `path` read as `paths` and `address` as `url`. Anything else is left for validation to name.
 */
export function normalizeBackendSpec(spec: unknown): unknown {
  if (!isObject(spec)) return spec;
  const out: Row = { ...spec };
  if (Array.isArray(spec.backends)) {
    delete out.backends;
    for (const item of spec.backends)
      for (const [type, value] of Object.entries(isObject(item) ? item : {})) {
        const list = Array.isArray(out[type]) ? (out[type] as unknown[]) : [];
        out[type] = [...list, ...(Array.isArray(value) ? value : [value])];
      }
  }
  for (const type of LOG_BACKEND_TYPES) {
    if (!Array.isArray(out[type])) continue;
    out[type] = (out[type] as unknown[]).map((e) => {
      if (!isObject(e)) return e;
      const { path, address, ...rest } = e;
      return {
        ...rest,
        ...(path !== undefined && rest.paths === undefined ? { paths: typeof path === 'string' ? [path] : path } : {}),
        ...(address !== undefined && rest.url === undefined ? { url: address } : {}),
      };
    });
  }
  return out;
}

/** Every problem of a spec (already normalised), by path below the spec: schema, types, entries. */
export async function backendSpecProblems(
  db: Queryable,
  raw: unknown,
): Promise<{ spec?: LoggingBackendSpec; problems: { path: Path; message: string }[] }> {
  const problems: { path: Path; message: string }[] = [];
  if (!isObject(raw)) return { problems: [{ path: [], message: 'spec must be an object of backend types' }] };
  for (const key of Object.keys(raw))
    if (!(LOG_BACKEND_TYPES as readonly string[]).includes(key))
      problems.push({ path: [key], message: `unknown log backend type (supported: ${LOG_BACKEND_TYPES.join(', ')})` });
  const parsed = loggingBackendSpecSchema.safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 20))
      problems.push({ path: issue.path as Path, message: issue.message });
    return { problems };
  }
  const spec = parsed.data;
  if (!LOG_BACKEND_TYPES.some((t) => (spec[t]?.length ?? 0) > 0))
    problems.push({ path: [], message: `list entries of at least one type: ${LOG_BACKEND_TYPES.join(', ')}` });
  const connection = connectionResolver(db);
  for (const type of LOG_BACKEND_TYPES) {
    const backend = logBackends[type];
    for (const [i, entry] of (spec[type] ?? []).entries())
      for (const p of (await backend.problems?.(entry as never, { connection })) ?? [])
        problems.push({ path: [type, i, ...p.path], message: p.message });
  }
  return { spec, problems };
}

const resourceSchema = z.looseObject({
  ...resourceHeader(LOGGING_BACKEND_API_VERSION, LOGGING_BACKEND_KIND),
  spec: z.looseObject({}, { error: 'spec is required' }),
});

/** Validates a LoggingBackend document; ResourceErrors with positions. */
export async function parseLoggingBackend(db: Queryable, doc: ResourceDocument): Promise<LoggingBackendDefinition> {
  const resource = validate(doc, resourceSchema);
  const { spec, problems } = await backendSpecProblems(db, normalizeBackendSpec(resource.spec));
  if (problems.length || !spec)
    throw new ResourceErrors(
      problems.map((p) => {
        const where = formatPath(['spec', ...p.path]);
        return new ResourceError(`${where}: ${p.message}`, doc.locate(['spec', ...p.path]), where);
      }),
    );
  return { ...storedResource(doc, resource.metadata, ''), spec };
}

/** The same checks as field problems, for /api/db writes (fields like `spec.loki[0].url`). */
export async function backendRowProblems(db: Queryable, row: Row): Promise<FieldProblem[]> {
  const out: FieldProblem[] = [];
  const name = row.name;
  if (typeof name !== 'string' || !/^[a-z0-9]([-a-z0-9_.]*[a-z0-9])?$/i.test(name))
    out.push({
      field: 'name',
      message: 'use letters, digits, "-", "_" and "." (starting and ending with a letter or digit)',
    });
  const { problems } = await backendSpecProblems(db, row.spec);
  for (const p of problems) out.push({ field: formatPath(['spec', ...p.path]), message: p.message });
  return out;
}

export async function applyLoggingBackend(
  db: Database,
  def: LoggingBackendDefinition,
  opts: { source: string; createdBy: string },
): Promise<AppliedResource> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `UPDATE logging_backends SET labels = $3, spec = $4, source = $5, updated_at = now()
       WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL RETURNING id`,
      [def.namespace, def.name, JSON.stringify(def.labels), JSON.stringify(def.spec), opts.source],
    );
    if (rows[0]) return { id: rows[0].id, created: false };
    const created = await tx.query<{ id: string }>(
      `INSERT INTO logging_backends (name, namespace, labels, spec, source, created_by)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [def.name, def.namespace, JSON.stringify(def.labels), JSON.stringify(def.spec), opts.source, opts.createdBy],
    );
    return { id: created.rows[0]!.id, created: true };
  });
}

export async function deleteLoggingBackend(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE logging_backends SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

/** A row as the LoggingBackend resource it is (GET /api/logging_backends/:id/spec). */
export function backendResource(row: { name: string; namespace: string; labels: unknown; spec: unknown }): Row {
  const labels = isObject(row.labels) && Object.keys(row.labels).length ? { labels: row.labels } : {};
  return {
    apiVersion: LOGGING_BACKEND_API_VERSION,
    kind: LOGGING_BACKEND_KIND,
    metadata: { name: row.name, namespace: row.namespace, ...labels },
    spec: row.spec,
  };
}
