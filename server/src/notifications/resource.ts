// Notification resources (mission-control.flanksource.com/v1, kind Notification): validated as users
// write them — schema, CEL filter, Go templates, and the people, teams, connections and playbooks
// they name, with line and column — then stored as a `notifications` row (durations in ns).
import {
  fallbackRecipient,
  notificationSpecSchema,
  parseDurationNs,
  recipientKinds,
  type NotificationSpec,
  type Recipient,
} from '@opsdeck/common';
import { z } from 'zod';
import { findConnectionRef } from '../connections/resolve.js';
import type { Database, Queryable } from '../db/database.js';
import { findPerson, findTeam } from '../db/people.js';
import { checkCel, parseTemplate } from '../expr/index.js';
import type { AppliedResource } from '../resources/apply.js';
import { resourceHeader, storedResource, type StoredResource } from '../resources/metadata.js';
import { UUID } from '../resources/routes.js';
import { senderForUrl } from './senders/index.js';
import { errorCollector, ResourceErrors, validate, type Path, type ResourceDocument } from '../resources/yaml.js';

export const NOTIFICATION_API_VERSION = 'mission-control.flanksource.com/v1';

/** One entry of custom_services: where a message goes when it is not a person or a team. */
export interface CustomService {
  email?: string;
  url?: string;
  connection?: string;
  connection_id?: string;
  playbook?: string;
  playbook_id?: string;
  properties?: Record<string, string>;
}

/** A recipient as stored: exactly one of person_id, team_id, custom_services (playbook_id with its entry). */
export interface StoredRecipient {
  person_id: string | null;
  team_id: string | null;
  playbook_id: string | null;
  custom_services: CustomService[] | null;
}

export interface NotificationDefinition extends StoredResource {
  spec: NotificationSpec;
  recipient: StoredRecipient;
  /** The fallback recipient as written (person, team, email, ...) with what it resolved to, and delay in ns. */
  fallback: (Recipient & Partial<StoredRecipient> & { delay: number | null }) | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What is wrong with a recipient URL (no channel reads it, or its channel cannot); undefined when fine. */
export function urlProblem(url: string): string | undefined {
  try {
    senderForUrl(url).fromUrl(url.trim());
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** A CEL filter or a Go template that does not compile: its message (with the place in the text). */
export function expressionProblem(kind: 'cel' | 'template', text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    if (kind === 'cel') checkCel(text);
    else parseTemplate(text);
    return undefined;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

// Lookups of what a rule names (people and teams: ../db/people.ts); each answers an id or undefined.

/** The id of the stored connection a reference names (connections/resolve.ts: the one reading every engine uses). */
export async function findConnection(db: Queryable, ref: string): Promise<string | undefined> {
  return (await findConnectionRef(db, ref))?.id;
}

/** `[namespace/]name` or an id. */
export async function findPlaybook(db: Queryable, ref: string): Promise<string | undefined> {
  const [a, b] = ref.trim().split('/', 2);
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM playbooks WHERE deleted_at IS NULL
       AND (id::text = $1 OR (CASE WHEN $2::text IS NULL THEN name = $1 ELSE namespace = $1 AND name = $2 END))
     LIMIT 1`,
    [a, b ?? null],
  );
  return rows[0]?.id;
}

/** Resolves a recipient; `problem(field, message)` is called for each name that finds nothing. */
export async function resolveRecipient(
  db: Queryable,
  to: Recipient,
  problem: (field: string, message: string) => void,
): Promise<StoredRecipient> {
  const out: StoredRecipient = { person_id: null, team_id: null, playbook_id: null, custom_services: null };
  const [kind] = recipientKinds(to);
  const properties = to.properties && Object.keys(to.properties).length ? { properties: to.properties } : {};
  const ref = kind ? String(to[kind]) : '';
  switch (kind) {
    case 'person':
      out.person_id = (await findPerson(db, ref)) ?? null;
      if (!out.person_id) problem('person', `no person "${ref}"`);
      break;
    case 'team':
      out.team_id = (await findTeam(db, ref)) ?? null;
      if (!out.team_id) problem('team', `no team "${ref}"`);
      break;
    case 'email':
      if (!EMAIL.test(ref)) problem('email', `"${ref}" is not an email address`);
      out.custom_services = [{ email: ref, ...properties }];
      break;
    case 'connection': {
      const id = await findConnection(db, ref);
      if (!id) problem('connection', `no connection "${ref}"`);
      out.custom_services = [{ connection: ref, connection_id: id, ...properties }];
      break;
    }
    case 'url': {
      const wrong = urlProblem(ref);
      if (wrong) problem('url', wrong);
      out.custom_services = [{ url: ref, ...properties }];
      break;
    }
    case 'playbook':
      out.playbook_id = (await findPlaybook(db, ref)) ?? null;
      if (!out.playbook_id) problem('playbook', `no playbook "${ref}"`);
      out.custom_services = [{ playbook: ref, playbook_id: out.playbook_id ?? undefined, ...properties }];
      break;
  }
  return out;
}

/** The header and a spec object of a mission-control notifications resource (Notification, NotificationSilence). */
export function notificationResourceSchema<K extends string>(kind: K) {
  return z.looseObject({
    ...resourceHeader(NOTIFICATION_API_VERSION, kind),
    spec: z.looseObject({}, { error: 'spec is required' }),
  });
}

const resourceSchema = notificationResourceSchema('Notification');

const ns = (text: string | undefined) => (text === undefined ? null : (parseDurationNs(text) ?? null));

/** Validates a Notification document and resolves what it names; ResourceErrors with positions. */
export async function parseNotification(db: Queryable, doc: ResourceDocument): Promise<NotificationDefinition> {
  const resource = validate(doc, resourceSchema);
  const spec = validate({ data: resource.spec, locate: doc.locate }, notificationSpecSchema, ['spec']);
  const { errors, error } = errorCollector(doc);
  for (const [field, kind] of [
    ['filter', 'cel'],
    ['title', 'template'],
    ['template', 'template'],
  ] as const) {
    const wrong = expressionProblem(kind, spec[field]);
    if (wrong) error(['spec', field], wrong);
  }
  const recipient = await resolveRecipient(db, spec.to, (f, m) => error(['spec', 'to', f], m));
  let fallback: NotificationDefinition['fallback'] = null;
  if (spec.fallback) {
    const at: Path = spec.fallback.to ? ['spec', 'fallback', 'to'] : ['spec', 'fallback'];
    const written = fallbackRecipient(spec.fallback);
    const resolved = await resolveRecipient(db, written, (f, m) => error([...at, f], m));
    const ids = Object.fromEntries(Object.entries(resolved).filter(([, v]) => v !== null));
    fallback = { ...written, ...ids, delay: ns(spec.fallback.delay) };
  }
  if (errors.length) throw new ResourceErrors(errors.slice(0, 50));
  return { ...storedResource(doc, resource.metadata, ''), spec, recipient, fallback };
}

/** The row columns of a parsed rule (durations in nanoseconds; `inhibit` stored as inhibitions). */
export function notificationColumns(def: NotificationDefinition): Record<string, unknown> {
  const { spec } = def;
  const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));
  return {
    name: def.name,
    namespace: def.namespace,
    labels: JSON.stringify(def.labels),
    events: spec.events,
    title: spec.title ?? null,
    template: spec.template ?? null,
    filter: spec.filter?.trim() ? spec.filter : null,
    person_id: def.recipient.person_id,
    team_id: def.recipient.team_id,
    playbook_id: def.recipient.playbook_id,
    custom_services: json(def.recipient.custom_services),
    properties: json(spec.to.properties),
    repeat_interval: ns(spec.repeatInterval),
    wait_for: ns(spec.waitFor),
    wait_for_eval_period: ns(spec.waitForEvalPeriod),
    group_by: spec.groupBy ?? null,
    group_by_interval: ns(spec.groupByInterval),
    inhibitions: json(spec.inhibit ?? spec.inhibitions),
    fallback: json(def.fallback),
    spec: JSON.stringify(def.resource),
  };
}

/** Inserts or updates (by namespace and name) the live rule; a changed rule clears its last error. */
export async function applyNotification(
  db: Database,
  def: NotificationDefinition,
  opts: { source?: string; createdBy?: string | null } = {},
): Promise<AppliedResource> {
  const cols = notificationColumns(def);
  const names = Object.keys(cols);
  const values = Object.values(cols);
  return db.transaction(async (tx) => {
    const existing = await tx.query<{ id: string }>(
      'SELECT id FROM notifications WHERE namespace = $1 AND name = $2 AND deleted_at IS NULL FOR UPDATE',
      [def.namespace, def.name],
    );
    const id = existing.rows[0]?.id;
    if (id) {
      const sets = names.map((n, i) => `${n} = $${i + 2}`).join(', ');
      await tx.query(
        `UPDATE notifications SET ${sets}, source = $${names.length + 2}, error = NULL, error_at = NULL, updated_at = now()
         WHERE id = $1`,
        [id, ...values, opts.source ?? 'UI'],
      );
      return { id, created: false };
    }
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO notifications (${names.join(', ')}, source, created_by)
       VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}, $${names.length + 1}, $${names.length + 2}) RETURNING id`,
      [...values, opts.source ?? 'UI', opts.createdBy ?? null],
    );
    return { id: rows[0]!.id, created: true };
  });
}

/** Marks a live row of `table` deleted; false when there is none with this id. */
export async function softDeleteRow(
  db: Queryable,
  table: 'notifications' | 'notification_silences',
  id: string,
): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const { rows } = await db.query(
    `UPDATE ${table} SET deleted_at = now() WHERE id = $1 AND deleted_at IS NULL RETURNING id`,
    [id],
  );
  return rows.length > 0;
}

export const deleteNotification = (db: Queryable, id: string) => softDeleteRow(db, 'notifications', id);
