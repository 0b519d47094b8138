// NotificationSilence resources (mission-control.flanksource.com/v1): validated with positions — the
// window (RFC3339, now+2h, durations), the CEL filter, and the resources named by id or by selector
// (fields and label selectors checked; one naming a single resource exactly is resolved to its id,
// so `recursive` reaches its descendants) — then stored as a `notification_silences` row.
import { silenceSpecSchema, silenceWindow, SILENCE_RESOURCE_FIELDS, type SilenceSpec } from '@opsdeck/common';
import type { Database, Queryable } from '../db/database.js';
import type { AppliedResource } from '../resources/apply.js';
import { storedResource, type StoredResource } from '../resources/metadata.js';
import { UUID } from '../resources/routes.js';
import { errorCollector, ResourceErrors, validate, type ResourceDocument } from '../resources/yaml.js';
import { stringList } from '../selectors/labelSelector.js';
import type { ResourceSelector } from '../selectors/resourceSelector.js';
import { expressionProblem, notificationResourceSchema, softDeleteRow } from './resource.js';
import { selectorsProblems } from './silenceSelectors.js';

export type SilenceResourceField = (typeof SILENCE_RESOURCE_FIELDS)[number];

/** The table each id column points at (the names go into SQL). */
export const SILENCE_TABLES: Record<SilenceResourceField, string> = {
  check_id: 'checks',
  canary_id: 'canaries',
  component_id: 'components',
  config_id: 'config_items',
};
const KIND_OF: Record<string, SilenceResourceField> = {
  check: 'check_id',
  canary: 'canary_id',
  component: 'component_id',
  config: 'config_id',
};
const NOUN: Record<SilenceResourceField, string> = {
  check_id: 'check',
  canary_id: 'canary',
  component_id: 'component',
  config_id: 'catalog item',
};

export interface SilenceDefinition extends StoredResource {
  spec: SilenceSpec;
  from: Date;
  until: Date;
  /** The one resource silenced, when one is named (an id column and its value). */
  target: { field: SilenceResourceField; id: string } | null;
}

/** Whether a live row with this id is in the column's table. */
export async function silenceTargetExists(db: Queryable, field: SilenceResourceField, id: string): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const { rows } = await db.query(`SELECT 1 FROM ${SILENCE_TABLES[field]} WHERE id = $1 AND deleted_at IS NULL`, [id]);
  return rows.length > 0;
}

const EXACT_FIELDS = new Set(['id', 'name', 'namespace', 'type', 'types']);

/** A selector that names one resource exactly: an id or a name, no glob, list or "!", nothing but types and namespace. */
function namesOne(s: ResourceSelector): boolean {
  if (!s.id && !s.name) return false;
  if (Object.keys(s).some((k) => !EXACT_FIELDS.has(k))) return false;
  const values = [s.id, s.name, s.namespace, ...stringList(s.types), ...stringList(s.type)];
  return values.every((v) => v === undefined || !/[*,!]/.test(v));
}

/** The resources such a selector finds: up to two, to tell one from many. */
async function selectorMatches(
  db: Queryable,
  s: ResourceSelector,
): Promise<{ field: SilenceResourceField; id: string }[]> {
  const types = [...stringList(s.types), ...stringList(s.type)];
  const kinds = types.flatMap((t) => KIND_OF[t.toLowerCase()] ?? []);
  const others = types.filter((t) => !KIND_OF[t.toLowerCase()]);
  const fields: readonly SilenceResourceField[] = kinds.length
    ? kinds
    : others.length
      ? ['check_id', 'component_id', 'config_id']
      : SILENCE_RESOURCE_FIELDS;
  const found: { field: SilenceResourceField; id: string }[] = [];
  for (const field of new Set(fields)) {
    const params: unknown[] = [s.id ?? null, s.name ?? null];
    let where = '($1::text IS NULL OR id::text = $1) AND ($2::text IS NULL OR name = $2)';
    if (s.namespace) {
      params.push(s.namespace);
      const n = `$${params.length}`;
      where +=
        field === 'config_id'
          ? ` AND tags->>'namespace' = ${n}`
          : field === 'component_id'
            ? ` AND topology_id IN (SELECT id FROM topologies WHERE namespace = ${n})`
            : ` AND namespace = ${n}`;
    }
    if (others.length && field !== 'canary_id') {
      params.push(others);
      where += ` AND type = ANY($${params.length}::text[])`;
    }
    where += ' AND deleted_at IS NULL';
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM ${SILENCE_TABLES[field]} WHERE ${where} LIMIT 2`,
      params,
    );
    found.push(...rows.map((r) => ({ field, id: r.id })));
  }
  return found;
}

const resourceSchema = notificationResourceSchema('NotificationSilence');

/** Validates a NotificationSilence document; resolves the resource it names. */
export async function parseSilence(db: Queryable, doc: ResourceDocument, now = new Date()): Promise<SilenceDefinition> {
  const resource = validate(doc, resourceSchema);
  const spec = validate({ data: resource.spec, locate: doc.locate }, silenceSpecSchema, ['spec']);
  const { errors, error } = errorCollector(doc);
  const wrong = expressionProblem('cel', spec.filter);
  if (wrong) error(['spec', 'filter'], wrong);
  let target: SilenceDefinition['target'] = null;
  for (const field of SILENCE_RESOURCE_FIELDS) {
    const id = spec[field];
    if (id === undefined || id === '') continue;
    if (await silenceTargetExists(db, field, id)) target = { field, id };
    else error(['spec', field], `no ${NOUN[field]} with id "${id}"`);
  }
  const selectors = (spec.selectors ?? []) as ResourceSelector[];
  const problems = selectorsProblems(selectors);
  for (const p of problems) error(['spec', 'selectors', ...p.path], p.message);
  for (const [i, s] of selectors.entries()) {
    if (problems.some((p) => p.path[0] === i) || !namesOne(s)) continue; // matched by the engine (globs, labels...)
    const found = await selectorMatches(db, s);
    if (!found.length)
      error(
        ['spec', 'selectors', i],
        `no check, canary, component or catalog item ${s.name ? `named "${s.name}"` : `with id "${s.id}"`}`,
      );
    else if (selectors.length === 1 && found.length === 1 && !target) target = found[0]!;
  }
  const window = silenceWindow(spec, now);
  if (errors.length || !window) throw new ResourceErrors(errors.slice(0, 50));
  return { ...storedResource(doc, resource.metadata, ''), spec, ...window, target };
}

/** Inserts or updates (by metadata namespace and name) the live silence. */
export async function applySilence(
  db: Database,
  def: SilenceDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedResource> {
  const ids = Object.fromEntries(
    SILENCE_RESOURCE_FIELDS.map((f) => [f, def.target?.field === f ? def.target.id : null]),
  );
  const values = [
    def.name,
    def.spec.namespace ?? null,
    def.spec.description ?? null,
    def.spec.filter?.trim() ? def.spec.filter : null,
    def.spec.selectors?.length ? JSON.stringify(def.spec.selectors) : null,
    def.from.toISOString(),
    def.until.toISOString(),
    def.spec.recursive ?? false,
    ids.check_id,
    ids.canary_id,
    ids.component_id,
    ids.config_id,
    JSON.stringify(def.resource),
  ];
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>(
      `SELECT id FROM notification_silences WHERE name = $1 AND coalesce(spec->'metadata'->>'namespace', 'default') = $2
         AND deleted_at IS NULL ORDER BY created_at LIMIT 1 FOR UPDATE`,
      [def.name, def.namespace],
    );
    const id = existing.rows[0]?.id;
    if (id) {
      await tx.query(
        `UPDATE notification_silences SET name = $2, namespace = $3, description = $4, filter = $5, selectors = $6,
           "from" = $7, until = $8, recursive = $9, check_id = $10, canary_id = $11, component_id = $12,
           config_id = $13, spec = $14, source = $15, error = NULL, updated_at = now() WHERE id = $1`,
        [id, ...values, opts.source ?? 'UI'],
      );
      return { id, created: false };
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO notification_silences (name, namespace, description, filter, selectors, "from", until, recursive,
         check_id, canary_id, component_id, config_id, spec, source, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) RETURNING id`,
      [...values, opts.source ?? 'UI', opts.createdBy ?? null],
    );
    return { id: rows[0]!.id, created: true };
  });
}

export const deleteSilence = (db: Queryable, id: string) => softDeleteRow(db, 'notification_silences', id);
