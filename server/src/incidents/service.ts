// The incident service: validated composite writes shared by /api/incidents and the rule engine —
// an incident with its root hypothesis and optional evidence in one transaction, and evidence
// attached to an existing incident (the Link to Incident dialog). The changelog and events are
// written by the triggers of migration 0011; the caller is set with setActor() so they name them.
import {
  DEFAULT_INCIDENT_SEVERITY,
  DEFAULT_INCIDENT_STATUS,
  DEFAULT_INCIDENT_TYPE,
  INCIDENT_SEVERITIES,
  INCIDENT_STATUSES,
  INCIDENT_TYPES,
  NEW_HYPOTHESIS,
  childHypothesisType,
  normalizeEvidenceType,
  type EvidenceType,
  type HypothesisType,
} from '@opsdeck/common';
import type { Database, Queryable } from '../db/database.js';

/** A refused input: the field and a message a person can act on (400). */
export class IncidentInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID.test(v);

/** The statement that names the caller for this transaction's triggers (fixed text; the id is a parameter). */
export const ACTOR_STATEMENT = `SELECT set_config('request.person_id', $1, true)`;

/** Makes the triggers of this transaction attribute rows and history to the caller. */
export async function setActor(tx: Queryable, personId: string | null | undefined): Promise<void> {
  if (personId && isUuid(personId)) await tx.query(ACTOR_STATEMENT, [personId]);
}

export interface EvidenceInput {
  type: EvidenceType;
  description: string | null;
  evidence: unknown;
  component_id: string | null;
  config_id: string | null;
  check_id: string | null;
  config_change_id: string | null;
  config_analysis_id: string | null;
  definition_of_done: boolean;
  script: string | null;
}

export interface IncidentInput {
  title: string;
  description: string | null;
  severity: string;
  status: string;
  type: string;
  commander_id: string | null;
  communicator_id: string | null;
  evidence: EvidenceInput | null;
  incident_rule_id?: string | null;
  component_id?: string | null;
}

type Body = Record<string, unknown>;

function optionalText(body: Body, field: string, max = 10_000): string | null {
  const v = body[field];
  if (v === undefined || v === null || v === '') return null;
  if (typeof v !== 'string') throw new IncidentInputError(field, `${field} must be text`);
  if (v.length > max) throw new IncidentInputError(field, `${field} is longer than ${max} characters`);
  return v;
}

function optionalId(body: Body, field: string): string | null {
  const v = body[field];
  if (v === undefined || v === null || v === '') return null;
  if (!isUuid(v)) throw new IncidentInputError(field, `${field} must be an id (uuid), got ${JSON.stringify(v)}`);
  return v;
}

function asBody(value: unknown, what: string): Body {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new IncidentInputError(what, `${what} must be a JSON object`);
  return value as Body;
}

/** The id field an evidence type points at (null: none needed). */
const EVIDENCE_TARGET: Partial<Record<EvidenceType, keyof EvidenceInput>> = {
  topology: 'component_id',
  config: 'config_id',
  check: 'check_id',
  config_change: 'config_change_id',
  config_analysis: 'config_analysis_id',
};

export function parseEvidence(value: unknown): EvidenceInput {
  const body = asBody(value, 'evidence');
  const type = normalizeEvidenceType(body.type);
  if (!type)
    throw new IncidentInputError(
      'evidence.type',
      `Evidence type must be one of log, topology, config, check, config_change, config_analysis or comment`,
    );
  const input: EvidenceInput = {
    type,
    description: optionalText(body, 'description'),
    evidence: body.evidence ?? null,
    component_id: optionalId(body, 'component_id'),
    config_id: optionalId(body, 'config_id'),
    check_id: optionalId(body, 'check_id'),
    config_change_id: optionalId(body, 'config_change_id'),
    config_analysis_id: optionalId(body, 'config_analysis_id'),
    definition_of_done: body.definition_of_done === true,
    script: optionalText(body, 'script', 10_240),
  };
  if (input.evidence !== null && typeof input.evidence !== 'object')
    throw new IncidentInputError('evidence.evidence', 'The evidence payload must be a JSON object');
  const target = EVIDENCE_TARGET[type];
  if (target && !input[target])
    throw new IncidentInputError(`evidence.${target}`, `A ${type} evidence needs ${target}`);
  if (type === 'comment' && !input.description?.trim())
    throw new IncidentInputError('evidence.description', 'Please add comment details');
  return input;
}

/** Validates a new incident (spec/2 §5); throws IncidentInputError with the form's messages. */
export function parseIncident(value: unknown): IncidentInput {
  const body = asBody(value, 'body');
  const title = typeof body.title === 'string' ? body.title.trim() : '';
  if (!title) throw new IncidentInputError('title', 'This field is required');
  if (title.length > 500) throw new IncidentInputError('title', 'The title is longer than 500 characters');
  const severity = body.severity ?? DEFAULT_INCIDENT_SEVERITY;
  if (typeof severity !== 'string' || !(INCIDENT_SEVERITIES as readonly string[]).includes(severity))
    throw new IncidentInputError('severity', 'Please select incident severity');
  const type = body.type ?? DEFAULT_INCIDENT_TYPE;
  if (typeof type !== 'string' || !(INCIDENT_TYPES as readonly string[]).includes(type))
    throw new IncidentInputError('type', 'Please select an incident type');
  const status = body.status ?? DEFAULT_INCIDENT_STATUS;
  if (typeof status !== 'string' || !(INCIDENT_STATUSES as readonly string[]).includes(status))
    throw new IncidentInputError('status', `Status must be one of ${INCIDENT_STATUSES.join(', ')}`);
  return {
    title,
    description: optionalText(body, 'description'),
    severity,
    type,
    status,
    commander_id: optionalId(body, 'commander_id'),
    communicator_id: optionalId(body, 'communicator_id'),
    evidence: body.evidence === undefined || body.evidence === null ? null : parseEvidence(body.evidence),
  };
}

const TARGET_TABLE: Record<string, string> = {
  component_id: 'components',
  config_id: 'config_items',
  check_id: 'checks',
  config_change_id: 'config_changes',
  config_analysis_id: 'config_analysis',
  commander_id: 'people',
  communicator_id: 'people',
};

/** Refuses ids that point at nothing, with the field named (rather than a foreign-key 409). */
async function checkTargets(tx: Queryable, fields: Record<string, string | null | undefined>, prefix = '') {
  for (const [field, id] of Object.entries(fields)) {
    if (!id) continue;
    const table = TARGET_TABLE[field]!;
    const { rows } = await tx.query(`SELECT 1 FROM ${table} WHERE id = $1`, [id]);
    if (!rows[0])
      throw new IncidentInputError(`${prefix}${field}`, `No ${table.replace(/_/g, ' ')} row has the id ${id}`);
  }
}

async function insertEvidence(tx: Queryable, hypothesisId: string, e: EvidenceInput, createdBy: string | null) {
  await checkTargets(
    tx,
    {
      component_id: e.component_id,
      config_id: e.config_id,
      check_id: e.check_id,
      config_change_id: e.config_change_id,
      config_analysis_id: e.config_analysis_id,
    },
    'evidence.',
  );
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO evidences (hypothesis_id, type, description, evidence, component_id, config_id, check_id,
       config_change_id, config_analysis_id, definition_of_done, script, created_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
    [
      hypothesisId,
      e.type,
      e.description,
      e.evidence === null ? null : JSON.stringify(e.evidence),
      e.component_id,
      e.config_id,
      e.check_id,
      e.config_change_id,
      e.config_analysis_id,
      e.definition_of_done,
      e.script,
      createdBy,
    ],
  );
  return rows[0]!.id;
}

export interface CreatedIncident {
  id: string;
  incident_id: string;
  hypothesis_id: string;
  evidence_id: string | null;
}

/** Creates the incident, its root hypothesis (the incident's title, Possible) and the evidence in one transaction. */
export async function createIncident(
  db: Database,
  input: IncidentInput,
  actor: string | null,
): Promise<CreatedIncident> {
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    await checkTargets(tx, { commander_id: input.commander_id, communicator_id: input.communicator_id });
    const { rows } = await tx.query<{ id: string; incident_id: string }>(
      `INSERT INTO incidents (title, description, severity, status, type, commander_id, communicator_id,
         incident_rule_id, component_id, created_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id, incident_id`,
      [
        input.title,
        input.description,
        input.severity,
        input.status,
        input.type,
        input.commander_id,
        input.communicator_id,
        input.incident_rule_id ?? null,
        input.component_id ?? null,
        actor,
      ],
    );
    const incident = rows[0]!;
    const { rows: h } = await tx.query<{ id: string }>(
      `INSERT INTO hypotheses (incident_id, title, type, status, created_by) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [incident.id, input.title, NEW_HYPOTHESIS.type, NEW_HYPOTHESIS.status, actor],
    );
    const hypothesisId = h[0]!.id;
    const evidenceId = input.evidence ? await insertEvidence(tx, hypothesisId, input.evidence, actor) : null;
    return { id: incident.id, incident_id: incident.incident_id, hypothesis_id: hypothesisId, evidence_id: evidenceId };
  });
}

export interface AttachInput {
  hypothesis_id: string | null;
  /** Creates a new hypothesis (under hypothesis_id, or under the root) with this title. */
  hypothesis_title: string | null;
  evidence: EvidenceInput;
}

export function parseAttach(value: unknown): AttachInput {
  const body = asBody(value, 'body');
  const hypothesisTitle = optionalText(body, 'hypothesis_title', 500);
  return {
    hypothesis_id: optionalId(body, 'hypothesis_id'),
    hypothesis_title: hypothesisTitle?.trim() || null,
    // The evidence may be nested ({evidence: {...}}) or be the body itself.
    evidence: parseEvidence(body.type !== undefined ? body : body.evidence),
  };
}

/** Attaches evidence to an incident: to the given hypothesis, a new one, or the root. */
export async function attachEvidence(
  db: Database,
  incidentId: string,
  input: AttachInput,
  actor: string | null,
): Promise<{ incident_id: string; hypothesis_id: string; evidence_id: string }> {
  if (!isUuid(incidentId)) throw new IncidentInputError('id', 'Incident not found', 404);
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const { rows: inc } = await tx.query<{ id: string }>('SELECT id FROM incidents WHERE id = $1', [incidentId]);
    if (!inc[0]) throw new IncidentInputError('id', 'Incident not found', 404);
    let parent: { id: string; type: HypothesisType } | undefined;
    if (input.hypothesis_id) {
      const { rows } = await tx.query<{ id: string; type: HypothesisType }>(
        'SELECT id, type FROM hypotheses WHERE id = $1 AND incident_id = $2',
        [input.hypothesis_id, incidentId],
      );
      if (!rows[0]) throw new IncidentInputError('hypothesis_id', 'Please select any hypothesis');
      parent = rows[0];
    } else {
      const { rows } = await tx.query<{ id: string; type: HypothesisType }>(
        `SELECT id, type FROM hypotheses WHERE incident_id = $1 AND parent_id IS NULL ORDER BY (type = 'root') DESC, created_at LIMIT 1`,
        [incidentId],
      );
      parent = rows[0];
      if (!parent) {
        // An incident written without the composite API may have no hypothesis yet: give it its root.
        const { rows: created } = await tx.query<{ id: string; type: HypothesisType }>(
          `INSERT INTO hypotheses (incident_id, title, type, status, created_by)
           SELECT id, title, 'root', 'Possible', $2 FROM incidents WHERE id = $1 RETURNING id, type`,
          [incidentId, actor],
        );
        parent = created[0]!;
      }
    }
    let hypothesisId = parent.id;
    if (input.hypothesis_title) {
      const childType = childHypothesisType(parent.type);
      if (!childType)
        throw new IncidentInputError('hypothesis_id', 'A solution hypothesis cannot have child hypotheses');
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO hypotheses (incident_id, parent_id, title, type, status, created_by)
         VALUES ($1, $2, $3, $4, 'Possible', $5) RETURNING id`,
        [incidentId, parent.id, input.hypothesis_title, childType, actor],
      );
      hypothesisId = rows[0]!.id;
    }
    const evidenceId = await insertEvidence(tx, hypothesisId, input.evidence, actor);
    return { incident_id: incidentId, hypothesis_id: hypothesisId, evidence_id: evidenceId };
  });
}

/** Moves an incident's status (the trigger refuses disallowed moves); false when there is no such incident. */
export async function setIncidentStatus(
  db: Database,
  incidentId: string,
  status: string,
  actor: string | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await setActor(tx, actor);
    const { rows } = await tx.query('UPDATE incidents SET status = $2 WHERE id = $1 RETURNING id', [
      incidentId,
      status,
    ]);
    return rows.length > 0;
  });
}
