// Responders: validation per responder type (spec/2 §3, §5), the row (its history is written by
// the trigger), then delivery — outside the transaction, recorded on the row as delivery_status
// 'sent' | 'recorded' | 'failed' with delivery_error.
//
// Where a responder goes:
//   - the team's spec.responder_clients[type].connection names a connection (`name`,
//     `namespace/name` or `connection://<type>/<name>`, resolved by connections/resolve.ts, secrets
//     decrypted and secret:// / configmap:// references read): smtp(s):// URLs send mail with the
//     connection's username and password, http(s):// URLs receive a JSON POST;
//   - otherwise email uses the server's SMTP (SMTP_URL, SMTP_FROM), and other types the first
//     connection whose type is the responder type (http(s) URL: JSON POST);
//   - with none of these the responder is recorded only ('recorded').
import { RESPONDER_TYPE_LABELS, isResponderType, validateResponderFields, type ResponderType } from '@opsdeck/common';
import { createMailer, type Mailer } from '../auth/mailer.js';
import type { Database, Queryable } from '../db/database.js';
import { connectionResolver, firstConnectionOfType, type ResolvedConnection } from '../connections/resolve.js';
import { IncidentInputError, isUuid, setActor } from './service.js';

export interface ResponderInput {
  team_id: string | null;
  person_id: string | null;
  external_id: string | null;
  properties: Record<string, unknown> & { responderType: ResponderType };
}

export interface DeliveryDeps {
  /** The server's mailer (SMTP_URL); used for email when no connection is named. */
  mailer: Mailer;
  smtpFrom: string;
  publicUrl: string;
  /** Per-attempt time limit for HTTP deliveries. */
  timeoutMs?: number;
}

interface TeamRow {
  id: string;
  name: string;
  spec: { responder_clients?: Record<string, { defaults?: Record<string, unknown>; connection?: string }> } | null;
}

/** Validates the body, fills the team's defaults, and returns the responder to insert. */
export async function parseResponder(
  db: Queryable,
  value: unknown,
): Promise<{ input: ResponderInput; team: TeamRow | null }> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new IncidentInputError('body', 'The body must be a JSON object');
  const body = value as Record<string, unknown>;
  const rawProps = (body.properties ?? {}) as Record<string, unknown>;
  if (typeof rawProps !== 'object' || Array.isArray(rawProps))
    throw new IncidentInputError('properties', 'properties must be a JSON object');
  const teamId = body.team_id ?? null;
  const personId = body.person_id ?? null;
  if (teamId !== null && !isUuid(teamId)) throw new IncidentInputError('team_id', 'Please provide valid value');
  if (personId !== null && !isUuid(personId)) throw new IncidentInputError('person_id', 'Please provide valid value');
  const responderType = rawProps.responderType ?? (personId && !teamId ? 'person' : undefined);
  if (!isResponderType(responderType))
    throw new IncidentInputError('properties.responderType', 'Please provide valid value');

  let team: TeamRow | null = null;
  let props: Record<string, unknown> = { ...rawProps, responderType };
  if (responderType === 'person') {
    const person = personId ?? rawProps.person;
    if (!isUuid(person)) throw new IncidentInputError('person', 'Please provide valid value');
    const { rows } = await db.query('SELECT 1 FROM people WHERE id = $1 AND deleted_at IS NULL', [person]);
    if (!rows[0]) throw new IncidentInputError('person', 'Please provide valid value');
    props = { ...props, person };
    return {
      input: { team_id: null, person_id: person, external_id: null, properties: props as ResponderInput['properties'] },
      team: null,
    };
  }
  if (!teamId) throw new IncidentInputError('team_id', 'Please provide valid value');
  const { rows } = await db.query<TeamRow>('SELECT id, name, spec FROM teams WHERE id = $1 AND deleted_at IS NULL', [
    teamId,
  ]);
  team = rows[0] ?? null;
  if (!team) throw new IncidentInputError('team_id', 'Please provide valid value');
  const clients = team.spec?.responder_clients ?? {};
  if (Object.keys(clients).length === 0)
    throw new IncidentInputError('properties.responderType', 'There were no responders configured for this team');
  const client = clients[responderType];
  if (!client)
    throw new IncidentInputError(
      'properties.responderType',
      `The team ${team.name} has no ${RESPONDER_TYPE_LABELS[responderType]} responder configured`,
    );
  props = { ...(client.defaults ?? {}), ...props };
  const errors = validateResponderFields(responderType, props);
  const first = Object.keys(errors)[0];
  if (first) throw new IncidentInputError(first, errors[first]!);
  const externalId = typeof body.external_id === 'string' && body.external_id ? body.external_id : null;
  return {
    input: {
      team_id: team.id,
      person_id: null,
      external_id: externalId,
      properties: props as ResponderInput['properties'],
    },
    team,
  };
}

export interface ResponderRow {
  id: string;
  incident_id: string;
  type: string;
  team_id: string | null;
  person_id: string | null;
  properties: Record<string, unknown>;
  external_id: string | null;
  delivery_status: string | null;
  delivery_error: string | null;
  created_by: string | null;
  created_at: string;
}

export interface Delivery {
  status: 'sent' | 'recorded' | 'failed';
  error: string | null;
  externalId?: string | null;
}

/** Finds the connection a responder goes through: the team's named one, else one of the type. */
async function findConnection(
  db: Queryable,
  type: string,
  named: string | undefined,
): Promise<ResolvedConnection | undefined> {
  if (named) {
    const conn = await connectionResolver(db)(named);
    if (!conn) throw new Error(`the connection "${named}" named by the team does not exist`);
    return conn;
  }
  return firstConnectionOfType(db, type === 'email' ? ['smtp', 'email'] : [type]);
}

interface IncidentRef {
  id: string;
  incident_id: string;
  title: string;
  severity: string;
  status: string;
}

function smtpUrlOf(conn: ResolvedConnection): string {
  const url = new URL(conn.url!);
  if (conn.username) url.username = encodeURIComponent(conn.username);
  const password = conn.password;
  if (password) url.password = encodeURIComponent(password);
  return url.toString();
}

async function postJson(conn: ResolvedConnection, payload: unknown, timeoutMs: number): Promise<Delivery> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  const password = conn.password;
  if (conn.username || password)
    headers.authorization = `Basic ${Buffer.from(`${conn.username ?? ''}:${password ?? ''}`).toString('base64')}`;
  const res = await fetch(conn.url!, {
    method: 'POST',
    headers,
    body: JSON.stringify(payload),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text().catch(() => '');
  if (!res.ok)
    return { status: 'failed', error: `HTTP ${res.status} from the ${conn.name} connection: ${text.slice(0, 200)}` };
  let externalId: string | null = null;
  try {
    const body = JSON.parse(text) as Record<string, unknown>;
    const id = body.key ?? body.id ?? body.number;
    if (typeof id === 'string' || typeof id === 'number') externalId = String(id);
  } catch {
    // Any 2xx answer counts as delivered; an id in a JSON answer becomes the external id.
  }
  return { status: 'sent', error: null, externalId };
}

/** Sends the responder's request; never throws — failures become a 'failed' delivery. */
export async function deliver(
  db: Queryable,
  responder: ResponderRow,
  incident: IncidentRef,
  team: TeamRow | null,
  deps: DeliveryDeps,
): Promise<Delivery> {
  const props = responder.properties;
  const type = String(props.responderType ?? responder.type);
  if (type === 'person') return { status: 'recorded', error: null };
  const link = `${deps.publicUrl.replace(/\/$/, '')}/incidents/${incident.id}`;
  try {
    const conn = await findConnection(db, type, team?.spec?.responder_clients?.[type]?.connection);
    if (type === 'email') {
      const mail = {
        to: String(props.to),
        subject: String(props.subject),
        text: `${String(props.body)}\n\nIncident ${incident.incident_id}: ${incident.title} (${incident.severity}, ${incident.status})\n${link}\n`,
      };
      if (conn?.url && /^smtps?:/i.test(conn.url)) {
        const from = typeof conn.properties?.from === 'string' ? conn.properties.from : deps.smtpFrom;
        await createMailer(smtpUrlOf(conn), from).send(mail);
        return { status: 'sent', error: null };
      }
      if (deps.mailer.enabled) {
        await deps.mailer.send(mail);
        return { status: 'sent', error: null };
      }
      return { status: 'recorded', error: 'No SMTP server is configured (SMTP_URL) and no smtp connection exists' };
    }
    if (!conn) return { status: 'recorded', error: null };
    if (!conn.url || !/^https?:/i.test(conn.url))
      return { status: 'recorded', error: `The ${conn.name} connection has no http(s) URL to deliver to` };
    const { responderType, ...fields } = props;
    return await postJson(
      conn,
      { responderType, fields, incident: { ...incident, url: link }, responder_id: responder.id },
      deps.timeoutMs ?? 15_000,
    );
  } catch (e) {
    return { status: 'failed', error: (e as Error).message.slice(0, 500) };
  }
}

/** Creates the responder (history via trigger), delivers it and records the outcome. */
export async function createResponder(
  db: Database,
  incidentId: string,
  body: unknown,
  actor: string | null,
  deps: DeliveryDeps,
): Promise<ResponderRow> {
  if (!isUuid(incidentId)) throw new IncidentInputError('id', 'Incident not found', 404);
  const { rows: incidents } = await db.query<IncidentRef>(
    'SELECT id, incident_id, title, severity, status FROM incidents WHERE id = $1',
    [incidentId],
  );
  const incident = incidents[0];
  if (!incident) throw new IncidentInputError('id', 'Incident not found', 404);
  const { input, team } = await parseResponder(db, body);
  const responder = await db.transaction(async (tx) => {
    await setActor(tx, actor);
    const { rows } = await tx.query<ResponderRow>(
      `INSERT INTO responders (incident_id, type, team_id, person_id, properties, external_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING *`,
      [
        incidentId,
        input.properties.responderType === 'person' ? 'person' : 'system',
        input.team_id,
        input.person_id,
        JSON.stringify(input.properties),
        input.external_id,
        actor,
      ],
    );
    return rows[0]!;
  });
  const delivery = await deliver(db, responder, incident, team, deps);
  const { rows } = await db.query<ResponderRow>(
    `UPDATE responders SET delivery_status = $2, delivery_error = $3, external_id = coalesce(external_id, $4)
     WHERE id = $1 RETURNING *`,
    [responder.id, delivery.status, delivery.error, delivery.externalId ?? null],
  );
  return rows[0]!;
}
