// StatusPage resources (opsdeck.dev/v1): the slug is metadata.name (a DNS label), the spec lists
// sections of checks and components by name, id or label selector. Validated with line and column
// when applied from YAML, by field through /api/db (the settings form), and stored as a
// `status_pages` row (spec = the resource's spec, private mirrored in its own column).
import type { FieldProblem } from '@opsdeck/common';
import { z } from 'zod';
import type { Database, Queryable } from '../db/database.js';
import type { AppliedResource } from '../resources/apply.js';
import { resourceHeader, storedResource, type StoredResource } from '../resources/metadata.js';
import { ResourceError, ResourceErrors, validate, type Path, type ResourceDocument } from '../resources/yaml.js';
import { parseLabelSelector } from '../selectors/labelSelector.js';

export const STATUS_PAGE_API_VERSION = 'opsdeck.dev/v1';
export const STATUS_PAGE_KIND = 'StatusPage';

/** A slug is a DNS label: lower-case letters, digits and "-", 1 to 63 characters, no "-" at either end. */
export const SLUG = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
export const SLUG_MESSAGE =
  'a status page name is its address: 1-63 lower-case letters, digits and "-", starting and ending with a letter or digit';

/** How many entries a page may list in all (selectors count once). */
export const MAX_ENTRIES = 2000;

const entrySchema = z
  .strictObject(
    {
      name: z.string().min(1, 'name must not be empty').max(253).optional(),
      id: z.uuid({ error: 'id must be a UUID' }).optional(),
      labelSelector: z.string().min(1, 'labelSelector must not be empty').max(1000).optional(),
    },
    { error: 'an entry is {name}, {id} or {labelSelector}' },
  )
  .refine((e) => [e.name, e.id, e.labelSelector].filter((v) => v !== undefined).length === 1, {
    error: 'give exactly one of name, id or labelSelector',
  });
export type StatusPageEntry = z.infer<typeof entrySchema>;

const textField = (max: number) => z.string().max(max, `at most ${max} characters`).optional();

export const statusPageSpecSchema = z.strictObject(
  {
    title: z.string({ error: 'spec.title is required' }).min(1, 'title must not be empty').max(200),
    description: textField(2000),
    logo: z
      .string()
      .max(2000)
      .regex(/^(https:\/\/|http:\/\/|\/)\S*$/, 'logo is an image URL (https://…, http://… or /path)')
      .optional(),
    footer: textField(2000),
    private: z.boolean({ error: 'private is true or false' }).optional(),
    sections: z
      .array(
        z.strictObject({
          name: z.string({ error: 'a section needs a name' }).min(1, 'a section needs a name').max(200),
          checks: z.array(entrySchema).max(MAX_ENTRIES).optional(),
          components: z.array(entrySchema).max(MAX_ENTRIES).optional(),
        }),
      )
      .max(100, 'at most 100 sections')
      .default([]),
  },
  { error: 'spec must be an object' },
);
export type StatusPageSpec = z.infer<typeof statusPageSpecSchema>;

const resourceSchema = z.looseObject({
  ...resourceHeader(STATUS_PAGE_API_VERSION, STATUS_PAGE_KIND),
  spec: z.unknown(),
});

export interface StatusPageDefinition extends StoredResource {
  spec: StatusPageSpec;
}

/** Problems zod does not see: selectors that do not parse, too many entries, by path below the spec. */
function specProblems(spec: StatusPageSpec): { path: Path; message: string }[] {
  const out: { path: Path; message: string }[] = [];
  let count = 0;
  for (const [s, section] of spec.sections.entries())
    for (const kind of ['checks', 'components'] as const)
      for (const [i, entry] of (section[kind] ?? []).entries()) {
        count++;
        if (entry.labelSelector === undefined) continue;
        try {
          parseLabelSelector(entry.labelSelector);
        } catch (e) {
          out.push({ path: ['sections', s, kind, i, 'labelSelector'], message: (e as Error).message });
        }
      }
  if (count > MAX_ENTRIES) out.push({ path: ['sections'], message: `at most ${MAX_ENTRIES} entries in all` });
  return out;
}

/** Validates a StatusPage document; ResourceErrors with positions. */
export function parseStatusPage(doc: ResourceDocument): StatusPageDefinition {
  const resource = validate(doc, resourceSchema);
  const errors: ResourceError[] = [];
  if (!SLUG.test(resource.metadata.name))
    errors.push(new ResourceError(`metadata.name: ${SLUG_MESSAGE}`, doc.locate(['metadata', 'name']), 'metadata.name'));
  if (resource.metadata.namespace !== undefined && resource.metadata.namespace !== 'default')
    errors.push(
      new ResourceError(
        'metadata.namespace: status pages have no namespace (their name is their address)',
        doc.locate(['metadata', 'namespace']),
        'metadata.namespace',
      ),
    );
  if (errors.length) throw new ResourceErrors(errors);
  const spec = validate({ data: resource.spec ?? null, locate: doc.locate }, statusPageSpecSchema, ['spec']);
  const problems = specProblems(spec);
  if (problems.length)
    throw new ResourceErrors(
      problems.map((p) => {
        const path = ['spec', ...p.path];
        const where = path.reduce<string>((o, k) => (typeof k === 'number' ? `${o}[${k}]` : `${o}.${k}`), '').slice(1);
        return new ResourceError(`${where}: ${p.message}`, doc.locate(path), where);
      }),
    );
  return { ...storedResource(doc, resource.metadata, ''), spec };
}

/** Stores a page: the live row of its slug updated in place, or a new one. */
export async function applyStatusPage(
  db: Database,
  def: StatusPageDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedResource> {
  const isPrivate = def.spec.private ?? false;
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>(
      'SELECT id FROM status_pages WHERE slug = $1 AND deleted_at IS NULL FOR UPDATE',
      [def.name],
    );
    if (existing.rows[0]) {
      await tx.query('UPDATE status_pages SET spec = $2, private = $3, source = $4, updated_at = now() WHERE id = $1', [
        existing.rows[0].id,
        JSON.stringify(def.spec),
        isPrivate,
        opts.source ?? 'UI',
      ]);
      return { id: existing.rows[0].id, created: false };
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO status_pages (slug, spec, private, source, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [def.name, JSON.stringify(def.spec), isPrivate, opts.source ?? 'UI', opts.createdBy ?? null],
    );
    return { id: rows[0]!.id, created: true };
  });
}

export async function deleteStatusPage(db: Queryable, id: string): Promise<boolean> {
  const { rows } = await db.query(
    'UPDATE status_pages SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING id',
    [id],
  );
  return rows.length > 0;
}

/** The resource as it is read back (YAML in the editor): apiVersion, kind, metadata.name, spec. */
export function statusPageResource(row: { slug: string; spec: unknown; private?: boolean }) {
  const spec = { ...(row.spec as Record<string, unknown>) };
  if (row.private !== undefined) spec.private = row.private;
  return { apiVersion: STATUS_PAGE_API_VERSION, kind: STATUS_PAGE_KIND, metadata: { name: row.slug }, spec };
}

/** A /api/db row's problems by field (`slug`, `spec.sections[0].checks[1].labelSelector`). */
export function statusPageRowProblems(row: Record<string, unknown>): FieldProblem[] {
  const out: FieldProblem[] = [];
  if (typeof row.slug !== 'string' || !SLUG.test(row.slug)) out.push({ field: 'slug', message: SLUG_MESSAGE });
  if (row.private !== undefined && row.private !== null && typeof row.private !== 'boolean')
    out.push({ field: 'private', message: 'private is true or false' });
  const parsed = statusPageSpecSchema.safeParse(row.spec);
  const field = (path: Path) =>
    ['spec', ...path].reduce<string>((o, k) => (typeof k === 'number' ? `${o}[${k}]` : `${o}.${k}`), '').slice(1);
  if (!parsed.success) {
    for (const issue of parsed.error.issues.slice(0, 20))
      out.push({ field: field(issue.path as Path), message: issue.message });
    return out;
  }
  for (const p of specProblems(parsed.data)) out.push({ field: field(p.path), message: p.message });
  return out;
}
