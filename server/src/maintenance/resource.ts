// MaintenanceWindow resources (opsdeck.dev/v1): metadata.name names the window; the spec gives the
// message, when (start and end, RFC 3339, or a cron `schedule` with a `duration` and a `timezone`) and
// what it covers (checks and components by name, id or label selector — resolved to the live rows'
// ids when applied — and status pages by slug), and whether it silences notifications. Validated with
// line and column, stored as a `maintenance_windows` row. windowProblems() is also what /api/db
// writes are checked with (writeGuard.ts).
import { z } from 'zod';
import type { Database, Queryable } from '../db/database.js';
import type { AppliedResource } from '../resources/apply.js';
import { resourceHeader, storedResource, type StoredResource } from '../resources/metadata.js';
import { UUID } from '../resources/routes.js';
import { errorCollector, ResourceErrors, validate, type ResourceDocument } from '../resources/yaml.js';
import { matchesLabels, parseLabelSelector } from '../selectors/labelSelector.js';
import { validateTimezone, windowCron, windowDurationMs } from './windows.js';

export const MAINTENANCE_API_VERSION = 'opsdeck.dev/v1';
export const MAINTENANCE_KIND = 'MaintenanceWindow';
export const MAX_MESSAGE = 2000;
/** A status page slug (a DNS label), as status pages name themselves. */
export const SLUG = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** An instant with its offset: 2026-03-01T02:00:00Z, 2026-03-01T04:00:00+02:00. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

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
export type MaintenanceEntry = z.infer<typeof entrySchema>;

const instant = z.union([z.string(), z.date()]).transform((v) => (v instanceof Date ? v.toISOString() : v));

export const maintenanceSpecSchema = z.strictObject(
  {
    message: z.string().max(MAX_MESSAGE, `at most ${MAX_MESSAGE} characters`).optional(),
    start: instant.optional(),
    end: instant.optional(),
    schedule: z.string().min(1, 'schedule must not be empty').optional(),
    duration: z.string().min(1, 'duration must not be empty').optional(),
    timezone: z.string().min(1, 'timezone must not be empty').optional(),
    checks: z.array(entrySchema).max(1000).optional(),
    components: z.array(entrySchema).max(1000).optional(),
    statusPages: z.array(z.string().regex(SLUG, 'a status page slug: lower-case letters, digits and "-"')).optional(),
    silence: z.boolean({ error: 'silence is true or false' }).optional(),
  },
  { error: 'spec must be an object' },
);
export type MaintenanceSpec = z.infer<typeof maintenanceSpecSchema>;

const resourceSchema = z.looseObject({
  ...resourceHeader(MAINTENANCE_API_VERSION, MAINTENANCE_KIND),
  spec: z.unknown(),
});

/** The columns that say when a window is, as stored or as written in a form. */
export interface WindowTiming {
  starts_at?: unknown;
  ends_at?: unknown;
  schedule?: unknown;
  duration?: unknown;
  timezone?: unknown;
}

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

function instantOf(v: unknown): Date | undefined {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? undefined : v;
  if (typeof v !== 'string' || !RFC3339.test(v.trim())) return undefined;
  const d = new Date(v.trim());
  return Number.isNaN(d.getTime()) ? undefined : d;
}

/** What is wrong with when a window is (by column), or nothing: one-off (start < end) or recurring (schedule + duration). */
export function windowProblems(w: WindowTiming): { field: keyof WindowTiming; message: string }[] {
  const out: { field: keyof WindowTiming; message: string }[] = [];
  const oneOff = given(w.starts_at) || given(w.ends_at);
  const recurring = given(w.schedule) || given(w.duration);
  if (oneOff && recurring)
    return [{ field: 'schedule', message: 'give either a start and an end, or a schedule and a duration, not both' }];
  if (!oneOff && !recurring)
    return [
      {
        field: 'starts_at',
        message: 'give a start and an end (a one-off window) or a schedule and a duration (recurring)',
      },
    ];
  if (given(w.timezone)) {
    if (typeof w.timezone !== 'string') out.push({ field: 'timezone', message: 'timezone is a time zone name' });
    else
      try {
        validateTimezone(w.timezone);
      } catch (e) {
        out.push({ field: 'timezone', message: (e as Error).message });
      }
  }
  if (oneOff) {
    const start = instantOf(w.starts_at);
    const end = instantOf(w.ends_at);
    const how = 'an instant with its offset, e.g. 2026-03-01T02:00:00Z';
    if (!start) out.push({ field: 'starts_at', message: given(w.starts_at) ? `start: ${how}` : 'a start is required' });
    if (!end) out.push({ field: 'ends_at', message: given(w.ends_at) ? `end: ${how}` : 'an end is required' });
    if (start && end && end.getTime() <= start.getTime())
      out.push({ field: 'ends_at', message: 'the end must be after the start' });
    return out;
  }
  if (!given(w.schedule) || typeof w.schedule !== 'string')
    out.push({ field: 'schedule', message: 'a schedule (cron, e.g. "0 2 * * 0") is required with a duration' });
  else
    try {
      windowCron(w.schedule, typeof w.timezone === 'string' ? w.timezone : undefined);
    } catch (e) {
      if (!out.some((p) => p.field === 'timezone')) out.push({ field: 'schedule', message: (e as Error).message });
    }
  if (!given(w.duration) || typeof w.duration !== 'string')
    out.push({ field: 'duration', message: 'a duration (e.g. 2h) is required with a schedule' });
  else
    try {
      windowDurationMs(w.duration);
    } catch (e) {
      out.push({ field: 'duration', message: (e as Error).message });
    }
  return out;
}

export interface MaintenanceDefinition extends StoredResource {
  spec: MaintenanceSpec;
  startsAt: Date | null;
  endsAt: Date | null;
  checkIds: string[];
  componentIds: string[];
}

const TABLES = { checks: 'checks', components: 'components' } as const;
const NOUNS = { checks: 'check', components: 'component' } as const;

/** The live rows an entry names: by id, by exact name, or by label selector. */
async function resolveEntry(
  db: Queryable,
  list: 'checks' | 'components',
  e: MaintenanceEntry,
): Promise<string[] | string> {
  const table = TABLES[list];
  if (e.id !== undefined) {
    const { rows } = await db.query(`SELECT 1 FROM ${table} WHERE id = $1 AND deleted_at IS NULL`, [e.id]);
    return rows.length ? [e.id.toLowerCase()] : `no ${NOUNS[list]} with id "${e.id}"`;
  }
  if (e.name !== undefined) {
    const { rows } = await db.query<{ id: string }>(
      `SELECT id::text FROM ${table} WHERE name = $1 AND deleted_at IS NULL`,
      [e.name],
    );
    return rows.length ? rows.map((r) => r.id) : `no ${NOUNS[list]} named "${e.name}"`;
  }
  let selector;
  try {
    selector = parseLabelSelector(e.labelSelector!);
  } catch (err) {
    return `labelSelector: ${(err as Error).message}`;
  }
  const { rows } = await db.query<{ id: string; labels: Record<string, string> | null }>(
    `SELECT id::text, labels FROM ${table} WHERE deleted_at IS NULL`,
  );
  const ids = rows.filter((r) => matchesLabels(r.labels ?? {}, selector)).map((r) => r.id);
  return ids.length ? ids : `labelSelector "${e.labelSelector}" matches no ${NOUNS[list]}`;
}

const SPEC_FIELD: Record<keyof WindowTiming, string> = {
  starts_at: 'start',
  ends_at: 'end',
  schedule: 'schedule',
  duration: 'duration',
  timezone: 'timezone',
};

/** Validates a MaintenanceWindow document and resolves what it covers to ids. */
export async function parseMaintenanceWindow(db: Queryable, doc: ResourceDocument): Promise<MaintenanceDefinition> {
  const resource = validate(doc, resourceSchema);
  const spec = validate({ data: resource.spec ?? null, locate: doc.locate }, maintenanceSpecSchema, ['spec']);
  const { errors, error } = errorCollector(doc);
  for (const p of windowProblems({
    starts_at: spec.start,
    ends_at: spec.end,
    schedule: spec.schedule,
    duration: spec.duration,
    timezone: spec.timezone,
  }))
    error(['spec', SPEC_FIELD[p.field]], p.message);
  const ids = { checks: new Set<string>(), components: new Set<string>() };
  for (const list of ['checks', 'components'] as const)
    for (const [i, entry] of (spec[list] ?? []).entries()) {
      const found = await resolveEntry(db, list, entry);
      if (typeof found === 'string') error(['spec', list, i], found);
      else for (const id of found) ids[list].add(id);
    }
  if (!spec.checks?.length && !spec.components?.length && !spec.statusPages?.length)
    error(['spec'], 'name what is in maintenance: checks, components or statusPages');
  if (errors.length) throw new ResourceErrors(errors.slice(0, 50));
  return {
    ...storedResource(doc, resource.metadata, spec.schedule ?? ''),
    spec,
    startsAt: spec.start ? instantOf(spec.start)! : null,
    endsAt: spec.end ? instantOf(spec.end)! : null,
    checkIds: [...ids.checks],
    componentIds: [...ids.components],
  };
}

/** Inserts or updates (by name) the live window. */
export async function applyMaintenanceWindow(
  db: Database,
  def: MaintenanceDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedResource> {
  const values = [
    def.name,
    def.spec.message ?? '',
    def.startsAt?.toISOString() ?? null,
    def.endsAt?.toISOString() ?? null,
    def.spec.schedule ?? null,
    def.spec.duration ?? null,
    def.spec.timezone ?? null,
    def.checkIds,
    def.componentIds,
    def.spec.statusPages ?? [],
    def.spec.silence ?? true,
    JSON.stringify(def.resource),
    opts.source ?? 'UI',
  ];
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>(
      'SELECT id FROM maintenance_windows WHERE name = $1 AND deleted_at IS NULL FOR UPDATE',
      [def.name],
    );
    const id = existing.rows[0]?.id;
    if (id) {
      await tx.query(
        `UPDATE maintenance_windows SET message = $3, starts_at = $4, ends_at = $5, schedule = $6, duration = $7,
           timezone = $8, check_ids = $9, component_ids = $10, status_pages = $11, silence = $12, spec = $13,
           source = $14, updated_at = now() WHERE id = $1 AND name = $2`,
        [id, ...values],
      );
      return { id, created: false };
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO maintenance_windows (name, message, starts_at, ends_at, schedule, duration, timezone, check_ids,
         component_ids, status_pages, silence, spec, source, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [...values, opts.createdBy ?? null],
    );
    return { id: rows[0]!.id, created: true };
  });
}

/** Soft-deletes a live window; whether there was one. */
export async function deleteMaintenanceWindow(db: Queryable, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const { rows } = await db.query(
    'UPDATE maintenance_windows SET deleted_at = now(), updated_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING id',
    [id],
  );
  return rows.length > 0;
}

/** A window made in the form (no stored resource) read back as a resource, from its columns. */
export function maintenanceResourceOf(row: {
  name: string;
  message: string;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  schedule: string | null;
  duration: string | null;
  timezone: string | null;
  check_ids: string[];
  component_ids: string[];
  status_pages: string[];
  silence: boolean;
}): Record<string, unknown> {
  const spec: Record<string, unknown> = { message: row.message };
  if (row.starts_at) spec.start = new Date(row.starts_at).toISOString();
  if (row.ends_at) spec.end = new Date(row.ends_at).toISOString();
  if (row.schedule) spec.schedule = row.schedule;
  if (row.duration) spec.duration = row.duration;
  if (row.timezone) spec.timezone = row.timezone;
  if (row.check_ids.length) spec.checks = row.check_ids.map((id) => ({ id }));
  if (row.component_ids.length) spec.components = row.component_ids.map((id) => ({ id }));
  if (row.status_pages.length) spec.statusPages = row.status_pages;
  spec.silence = row.silence;
  return { apiVersion: MAINTENANCE_API_VERSION, kind: MAINTENANCE_KIND, metadata: { name: row.name }, spec };
}
