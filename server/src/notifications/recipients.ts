// Expands a rule's `to` into the destinations the consumer writes one history row for: a person → their
// email; a team → one row per member with an email; an email address; a stored connection; a service
// URL (shown without secrets); a playbook. A recipient that cannot be resolved becomes an `error` row.
import type { Queryable } from '../db/database.js';
import { findConnectionRef, sanitizeUrl } from '../connections/resolve.js';
import type { Rule, ServiceTarget } from './rules.js';

export type RecipientKind = 'email' | 'connection' | 'url' | 'playbook';

export interface Destination {
  kind: RecipientKind;
  /** The raw destination (may hold secrets): body_payload.recipient.value, read by delivery only. */
  value: string;
  /** For history and the console: never a secret. */
  display: string;
  personId: string | null;
  teamId: string | null;
  connectionId: string | null;
  playbookId: string | null;
  properties: Record<string, string>;
}

/** A recipient that could not be resolved: recorded as an `error` row with this text. */
export interface Unresolved {
  error: string;
  display: string;
  personId: string | null;
  teamId: string | null;
}

function base(partial: Partial<Destination> & Pick<Destination, 'kind' | 'value' | 'display'>): Destination {
  return { personId: null, teamId: null, connectionId: null, playbookId: null, properties: {}, ...partial };
}

async function person(
  tx: Queryable,
  ref: string,
): Promise<{ id: string; name: string; email: string | null } | undefined> {
  const { rows } = await tx.query<{ id: string; name: string; email: string | null }>(
    `SELECT id, name, email FROM people WHERE deleted_at IS NULL AND
       (($1::text ~* '^[0-9a-f-]{36}$' AND id::text = $1) OR lower(email) = lower($1) OR name = $1)
     ORDER BY (id::text = $1) DESC LIMIT 1`,
    [ref],
  );
  return rows[0];
}

async function team(tx: Queryable, ref: string): Promise<{ id: string; name: string } | undefined> {
  const { rows } = await tx.query<{ id: string; name: string }>(
    `SELECT id, name FROM teams WHERE deleted_at IS NULL AND (($1::text ~* '^[0-9a-f-]{36}$' AND id::text = $1) OR name = $1) LIMIT 1`,
    [ref],
  );
  return rows[0];
}

/** A connection by id, `connection://Type/name`, `connection://name` or a bare name. */
function connection(tx: Queryable, ref: string): Promise<{ id: string; name: string; type: string } | undefined> {
  return findConnectionRef(tx, ref);
}

async function playbook(
  tx: Queryable,
  ref: string,
  namespace: string,
): Promise<{ id: string; name: string } | undefined> {
  const [ns, name] = ref.includes('/') ? (ref.split('/', 2) as [string, string]) : [namespace, ref];
  const { rows } = await tx.query<{ id: string; name: string }>(
    `SELECT id, name FROM playbooks WHERE deleted_at IS NULL AND
       (($1::text ~* '^[0-9a-f-]{36}$' AND id::text = $1) OR (name = $2 AND namespace = $3) OR name = $1)
     ORDER BY (namespace = $3) DESC LIMIT 1`,
    [ref, name, ns],
  );
  return rows[0];
}

/** Every destination of a rule: the recipient columns, else the stored spec's `to`. */
export async function expandRecipients(tx: Queryable, rule: Rule): Promise<(Destination | Unresolved)[]> {
  const targets: ServiceTarget[] = [];
  if (rule.personId) targets.push({ person: rule.personId });
  if (rule.teamId) targets.push({ team: rule.teamId });
  if (rule.playbookId) targets.push({ playbook: rule.playbookId });
  targets.push(...rule.services);
  if (!targets.length && rule.specTo) targets.push(rule.specTo);
  const out: (Destination | Unresolved)[] = [];
  for (const t of targets) out.push(...(await expandOne(tx, t, rule.namespace)));
  // One message per destination, even when a person is named and also in the team.
  const seen = new Set<string>();
  return out.filter((d) => {
    const key = 'error' in d ? `error:${d.display}` : `${d.kind}:${d.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function expandOne(tx: Queryable, t: ServiceTarget, namespace: string): Promise<(Destination | Unresolved)[]> {
  const properties = t.properties ?? {};
  if (t.person) {
    const p = await person(tx, t.person);
    if (!p) return [{ error: `person "${t.person}" does not exist`, display: t.person, personId: null, teamId: null }];
    if (!p.email) return [{ error: `${p.name} has no email address`, display: p.name, personId: p.id, teamId: null }];
    return [base({ kind: 'email', value: p.email, display: p.email, personId: p.id, properties })];
  }
  if (t.team) {
    const tm = await team(tx, t.team);
    if (!tm) return [{ error: `team "${t.team}" does not exist`, display: t.team, personId: null, teamId: null }];
    const { rows } = await tx.query<{ id: string; email: string }>(
      `SELECT p.id, p.email FROM team_members m JOIN people p ON p.id = m.person_id
       WHERE m.team_id = $1 AND p.deleted_at IS NULL AND coalesce(p.email, '') <> '' ORDER BY p.email`,
      [tm.id],
    );
    if (!rows.length)
      return [
        {
          error: `team ${tm.name} has no members with an email address`,
          display: tm.name,
          personId: null,
          teamId: tm.id,
        },
      ];
    return rows.map((m) =>
      base({ kind: 'email', value: m.email, display: m.email, personId: m.id, teamId: tm.id, properties }),
    );
  }
  if (t.email) return [base({ kind: 'email', value: t.email, display: t.email, properties })];
  if (t.connection) {
    const c = (t.connection_id && (await connection(tx, t.connection_id))) || (await connection(tx, t.connection));
    if (!c)
      return [
        { error: `connection "${t.connection}" does not exist`, display: t.connection, personId: null, teamId: null },
      ];
    return [
      base({
        kind: 'connection',
        value: `connection://${c.type}/${c.name}`,
        display: `connection://${c.type}/${c.name}`,
        connectionId: c.id,
        properties,
      }),
    ];
  }
  if (t.url) return [base({ kind: 'url', value: t.url, display: sanitizeUrl(t.url), properties })];
  if (t.playbook || t.playbook_id) {
    const ref = t.playbook ?? t.playbook_id!;
    const p = (t.playbook_id && (await playbook(tx, t.playbook_id, namespace))) || (await playbook(tx, ref, namespace));
    if (!p) return [{ error: `playbook "${ref}" does not exist`, display: ref, personId: null, teamId: null }];
    return [base({ kind: 'playbook', value: p.id, display: `playbook ${p.name}`, playbookId: p.id, properties })];
  }
  return [];
}
