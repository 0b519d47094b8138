// Inhibition: a resource's notification is held while a related resource already has an open one of
// the same rule (mission-control `inhibitions`, Alertmanager's source/target inhibition). A rule's
// `inhibitions[]` say which types (`to`) are held by which related types (`from`), in which direction
// (incoming: parents/ancestors, outgoing: children/descendants, all) and how deep. Relations are hard
// (topology parent/child through components.path, catalog parent/child through config_items.path, a
// check ↔ its components) and, with `soft`, also catalog relationships (config_relationships).
// Without an inhibitions entry the plain rule holds: a component whose ancestor is failing is held.
import type { Queryable } from '../db/database.js';
import type { EventResource } from './context.js';
import type { Inhibition, Rule } from './rules.js';

/** Without repeatInterval, a related notification counts as open for this long. */
export const DEFAULT_INHIBITION_WINDOW_MS = 60 * 60_000;

export interface Inhibitor {
  /** The send-history row that holds this one; null when held by the ancestor's state itself. */
  id: string | null;
  reason: string;
}

interface Related {
  id: string;
  kind: string;
  type: string | null;
  name: string;
}

const matches = (types: string[], kind: string, type: string | null): boolean =>
  types.some(
    (t) => t.toLowerCase() === kind.toLowerCase() || (type !== null && t.toLowerCase() === type.toLowerCase()),
  );

/** Resources related to `r` within `depth` in `direction`. */
export async function relatedResources(tx: Queryable, r: EventResource, inh: Inhibition): Promise<Related[]> {
  const incoming = inh.direction !== 'outgoing';
  const outgoing = inh.direction !== 'incoming';
  const out: Related[] = [];
  const add = async (sql: string, params: unknown[]) =>
    out.push(...(await tx.query<Related>(sql, params)).rows.map((x) => ({ ...x, name: x.name ?? x.id })));
  if (r.kind === 'component' || r.kind === 'check') {
    // A check's components are its parents (depth 1); a component's ancestors are in its path.
    const base = r.kind === 'component' ? [r.id] : r.componentIds;
    const offset = r.kind === 'check' ? 1 : 0;
    if (incoming && base.length) {
      if (r.kind === 'check')
        await add(`SELECT id::text, 'component' AS kind, type, name FROM components WHERE id = ANY($1::uuid[])`, [
          base,
        ]);
      await add(
        `SELECT a.id::text, 'component' AS kind, a.type, a.name FROM components c
         CROSS JOIN LATERAL unnest(string_to_array(nullif(c.path, ''), '.')) WITH ORDINALITY AS p(id, n)
         JOIN components a ON a.id::text = p.id
         WHERE c.id = ANY($1::uuid[]) AND cardinality(string_to_array(c.path, '.')) - p.n + 1 + $2 <= $3`,
        [base, offset, inh.depth],
      );
    }
    if (outgoing && r.kind === 'component') {
      await add(
        `SELECT d.id::text, 'component' AS kind, d.type, d.name FROM components d
         WHERE d.deleted_at IS NULL AND ('.' || d.path || '.') LIKE '%.' || $1 || '.%'
           AND cardinality(string_to_array(d.path, '.')) - array_position(string_to_array(d.path, '.'), $1) + 1 <= $2`,
        [r.id, inh.depth],
      );
      await add(
        `SELECT DISTINCT c.id::text, 'check' AS kind, c.type, c.name FROM components d
         JOIN check_component_relationships x ON x.component_id = d.id AND x.deleted_at IS NULL
         JOIN checks c ON c.id = x.check_id
         WHERE d.id = $1 OR (('.' || d.path || '.') LIKE '%.' || $1 || '.%'
           AND cardinality(string_to_array(d.path, '.')) - array_position(string_to_array(d.path, '.'), $1) + 2 <= $2)`,
        [r.id, inh.depth],
      );
    }
  }
  if (r.kind === 'config') {
    if (incoming)
      await add(
        `SELECT a.id::text, 'config' AS kind, a.type, a.name FROM config_items c
         CROSS JOIN LATERAL unnest(string_to_array(nullif(c.path, ''), '.')) WITH ORDINALITY AS p(id, n)
         JOIN config_items a ON a.id::text = p.id
         WHERE c.id = $1 AND cardinality(string_to_array(c.path, '.')) - p.n + 1 <= $2`,
        [r.id, inh.depth],
      );
    if (outgoing)
      await add(
        `SELECT d.id::text, 'config' AS kind, d.type, d.name FROM config_items d
         WHERE d.deleted_at IS NULL AND ('.' || d.path || '.') LIKE '%.' || $1 || '.%'
           AND cardinality(string_to_array(d.path, '.')) - array_position(string_to_array(d.path, '.'), $1) + 1 <= $2`,
        [r.id, inh.depth],
      );
    if (inh.soft) {
      // Catalog relationships: config_id → related_id is outgoing from config_id.
      await add(
        `WITH RECURSIVE walk(id, depth) AS (
           SELECT $1::uuid, 0
           UNION
           SELECT CASE WHEN rel.config_id = w.id THEN rel.related_id ELSE rel.config_id END, w.depth + 1
           FROM walk w JOIN config_relationships rel ON rel.deleted_at IS NULL AND (
             ($2 AND rel.config_id = w.id) OR ($3 AND rel.related_id = w.id))
           WHERE w.depth < $4)
         SELECT DISTINCT i.id::text, 'config' AS kind, i.type, i.name FROM walk w JOIN config_items i ON i.id = w.id
         WHERE w.id <> $1::uuid`,
        [r.id, outgoing, incoming, inh.depth],
      );
    }
  }
  return out;
}

/** The open notification of this rule that holds `r`, if any. */
export async function findInhibitor(
  tx: Queryable,
  rule: Rule,
  r: EventResource | undefined,
  eventName: string,
): Promise<Inhibitor | undefined> {
  if (!r) return undefined;
  const windowMs = rule.repeatIntervalMs ?? DEFAULT_INHIBITION_WINDOW_MS;
  const candidates: Related[] = [];
  for (const inh of rule.inhibitions) {
    if (!matches(inh.to, r.kind, r.type)) continue;
    const related = await relatedResources(tx, r, inh);
    candidates.push(...related.filter((x) => matches(inh.from, x.kind, x.type)));
  }
  const plain = r.kind === 'component' && rule.inhibitions.length === 0;
  if (plain && r.ancestors.length)
    candidates.push(
      ...(
        await tx.query<Related>(
          `SELECT id::text, 'component' AS kind, type, name FROM components WHERE id = ANY($1::uuid[])`,
          [r.ancestors],
        )
      ).rows,
    );
  if (!candidates.length) return undefined;
  const names = new Map(candidates.map((c) => [c.id, `${c.kind} ${c.name}`]));
  const { rows } = await tx.query<{ id: string; resource_id: string; status: string; created_at: Date }>(
    `SELECT id, resource_id::text, status, created_at FROM notification_send_history
     WHERE notification_id = $1 AND resource_id = ANY($2::uuid[]) AND status IN ('pending', 'sent', 'grouped')
       AND created_at > now() - make_interval(secs => $3::double precision / 1000)
     ORDER BY created_at DESC LIMIT 1`,
    [rule.id, [...names.keys()], windowMs],
  );
  const hit = rows[0];
  if (hit)
    return {
      id: hit.id,
      reason: `Inhibited: ${names.get(hit.resource_id)} already has a ${hit.status} notification of this rule (${new Date(hit.created_at).toISOString()})`,
    };
  // The plain rule: an ancestor already in the state this event announces stands for its subtree,
  // when this rule would notify about it (same event, no filter that might leave the ancestor out).
  const health = eventName.startsWith('component.') ? eventName.slice('component.'.length) : null;
  if (plain && health && health !== 'healthy' && !rule.filter && r.ancestors.length) {
    const { rows: failing } = await tx.query<{ name: string }>(
      `SELECT name FROM components WHERE id = ANY($1::uuid[]) AND health = $2 AND deleted_at IS NULL
       ORDER BY length(path) LIMIT 1`,
      [r.ancestors, health],
    );
    if (failing[0]) return { id: null, reason: `Inhibited: parent component ${failing[0].name} is ${health} too` };
  }
  return undefined;
}
