// Which active NotificationSilence holds an event's resource. Active is read by time on every event
// (deleted_at null, from <= now < until), so a silence that expires stops applying without a restart.
// A silence names a check, canary, component or config (recursive: also their descendants, through
// components.path / config_items.path and, for checks, the components they belong to), resource
// `selectors` (any one matching; narrowed by the namespace when no id is named: silenceSelectors.ts),
// a namespace, or a CEL filter over the event environment (ANDed with the resource when both are set).
// A broken filter or selector silences nothing; its error is shown on the silence.
import type { Queryable } from '../db/database.js';
import type { CelFilterEnv } from './celFilter.js';
import type { EventResource } from './context.js';
import { maintenanceSilences } from './maintenanceSilences.js';
import { hasResource, scopeHolds, type SilenceScope } from './silenceSelectors.js';

export interface Silence {
  id: string;
  description: string | null;
  name: string | null;
  until: Date;
  filter: string | null;
  /** A maintenance window in progress (maintenanceSilences.ts): not a notification_silences row. */
  maintenance?: boolean;
}

/** "Silenced by "<description or name or id>" until <until>" (by maintenance window "<name>" for a window). */
export function silenceReason(s: Silence): string {
  if (s.maintenance) return `Silenced by maintenance window "${s.name}" until ${new Date(s.until).toISOString()}`;
  const label = s.description?.trim() || s.name?.trim() || s.id;
  return `Silenced by "${label}" until ${new Date(s.until).toISOString()}`;
}

/** The notification_silences row a silenced decision names (none for a maintenance window). */
export const silencedBy = (s: Silence): string | undefined => (s.maintenance ? undefined : s.id);

/** The first active silence that holds this resource (oldest first), or undefined. */
export async function findSilence(
  tx: Queryable,
  resource: EventResource | undefined,
  cel: CelFilterEnv,
): Promise<Silence | undefined> {
  return matchSilence(tx, await activeSilences(tx), resource, cel);
}

/** Whether the silence holds: its resource part (ids, selectors, namespace), then its filter. */
async function holds(
  tx: Queryable,
  s: Silence & SilenceScope,
  idHolds: boolean,
  r: EventResource | undefined,
  cel: CelFilterEnv,
): Promise<boolean> {
  try {
    if (!scopeHolds(s, idHolds, r)) return false;
    if (!s.filter?.trim()) return hasResource(s);
    return cel.evaluate(s.filter) === true;
  } catch (e) {
    // A broken silence filter or selector silences nothing; its error is shown on the silence.
    await tx.query('UPDATE notification_silences SET error = $2 WHERE id = $1 AND error IS DISTINCT FROM $2', [
      s.id,
      (e as Error).message.slice(0, 2000),
    ]);
    return false;
  }
}

/** An active silence with what it names, for matching in memory (matchSilence). */
export interface ActiveSilence extends Silence {
  check_id: string | null;
  canary_id: string | null;
  component_id: string | null;
  config_id: string | null;
  namespace: string | null;
  recursive: boolean;
  selectors: unknown;
}

/**
 * Every active silence, oldest first: read once per event-router batch. `now()` is the transaction's
 * time, so this is what findSilence reads for every event of the batch.
 */
export async function activeSilences(tx: Queryable): Promise<ActiveSilence[]> {
  const { rows } = await tx.query<ActiveSilence>(
    `SELECT id, description, name, until, filter, check_id::text, canary_id::text, component_id::text,
            config_id::text, nullif(namespace, '') AS namespace, coalesce(recursive, false) AS recursive, selectors
     FROM notification_silences WHERE deleted_at IS NULL AND "from" <= now() AND until > now()
     ORDER BY created_at, id`,
  );
  return [...rows, ...(await maintenanceSilences(tx))];
}

/** findSilence over silences read before (activeSilences): the same answer, queries only for a check's components. */
export async function matchSilence(
  tx: Queryable,
  silences: ActiveSilence[],
  r: EventResource | undefined,
  cel: CelFilterEnv,
): Promise<Silence | undefined> {
  if (!silences.length) return undefined;
  const direct = r?.kind === 'component' ? [r.id] : (r?.componentIds ?? []);
  let ancestors: string[] | undefined = r?.kind === 'component' ? r.ancestors : undefined;
  const configAncestors = r?.kind === 'config' ? r.ancestors : [];
  for (const s of silences) {
    const named = !!(s.check_id || s.canary_id || s.component_id || s.config_id);
    let idHolds = false;
    if (s.check_id) idHolds = r?.kind === 'check' && s.check_id === r.id;
    if (!idHolds && s.canary_id) idHolds = s.canary_id === r?.canaryId;
    if (!idHolds && s.component_id) {
      idHolds = direct.includes(s.component_id);
      if (!idHolds && s.recursive) {
        if (ancestors === undefined) {
          ancestors = [];
          if (r?.kind === 'check' && direct.length) {
            const { rows } = await tx.query<{ path: string }>(
              'SELECT path FROM components WHERE id = ANY($1::uuid[])',
              [direct],
            );
            ancestors = rows.flatMap((row) => row.path.split('.').filter(Boolean));
          }
        }
        idHolds = ancestors.includes(s.component_id);
      }
    }
    if (!idHolds && s.config_id)
      idHolds =
        (r?.kind === 'config' && s.config_id === r.id) || (s.recursive && configAncestors.includes(s.config_id));
    if (await holds(tx, { ...s, named }, idHolds, r, cel)) return s;
  }
  return undefined;
}
