// /api/incidents: the writes /api/db cannot do in one safe step — the composite create
// (incident + root hypothesis + evidence in one transaction), attaching evidence to an existing
// incident (Link to Incident), responders with delivery, a status move, and applying incident
// rules from YAML. Everything else (lists, detail, comments, PATCHes) goes through /api/db.
import { Hono, type Context } from 'hono';
import type { Identity } from '../auth/identity.js';
import type { Mailer } from '../auth/mailer.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import { isPgError, type Database } from '../db/database.js';
import { parseDocuments, ResourceError, ResourceErrors, resourceErrorBody } from '../resources/yaml.js';
import { fromPgError } from '../rest/errors.js';
import { createResponder } from './responders.js';
import { applyIncidentRule, parseIncidentRule } from './rules.js';
import {
  attachEvidence,
  createIncident,
  IncidentInputError,
  isUuid,
  parseAttach,
  parseIncident,
  setIncidentStatus,
} from './service.js';

interface Deps {
  db: Database;
  identity: Identity;
  mailer: Mailer;
  smtpFrom: string;
  publicUrl: string;
}

async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) throw new IncidentInputError('body', 'The request body is empty: send a JSON object');
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new IncidentInputError('body', `The body is not valid JSON: ${(e as Error).message}`);
  }
}

export function incidentRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity } = deps;

  app.onError((err, c) => {
    if (err instanceof IncidentInputError) {
      const code = err.status === 404 ? 'NOT_FOUND' : 'VALIDATION';
      return c.json({ error: err.message, message: err.message, code, field: err.field }, err.status);
    }
    const resource = resourceErrorBody(err);
    if (resource) return c.json(resource, 400);
    if (isPgError(err) && err.code) {
      const api = fromPgError(err as typeof err & { code: string });
      if (api.status < 500) {
        const message = api.hint ? `${api.message}. ${api.hint}` : api.message;
        return c.json({ error: message, message, code: api.code, hint: api.hint }, api.status as 400);
      }
    }
    throw err;
  });

  // Composite create: {title, description?, severity, status, type, commander_id?, communicator_id?, evidence?}.
  app.post('/', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'incident', 'write');
    const input = parseIncident(await jsonBody(c));
    if (input.evidence) await requirePermission(identity, principal, 'evidences', 'write');
    const created = await createIncident(db, input, principal.id);
    return c.json(created, 201);
  });

  // Attach evidence to an existing incident: {hypothesis_id?, hypothesis_title?, type, description, ...}.
  app.post('/:id/evidence', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'incident', 'write');
    await requirePermission(identity, principal, 'evidences', 'write');
    const input = parseAttach(await jsonBody(c));
    return c.json(await attachEvidence(db, c.req.param('id'), input, principal.id), 201);
  });

  // Add a responder and deliver it: {team_id | person_id, properties: {responderType, ...fields}}.
  app.post('/:id/responders', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'responder', 'write');
    const responder = await createResponder(db, c.req.param('id'), await jsonBody(c), principal.id, deps);
    return c.json(responder, 201);
  });

  // Move the status: {status}. Disallowed moves are refused with the allowed ones named.
  app.patch('/:id/status', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'incident', 'write');
    const body = (await jsonBody(c)) as { status?: unknown };
    if (typeof body?.status !== 'string') throw new IncidentInputError('status', 'status is required');
    const id = c.req.param('id');
    if (!isUuid(id) || !(await setIncidentStatus(db, id, body.status, principal.id)))
      throw new HttpError(404, 'NOT_FOUND', 'Incident not found');
    return c.json({ id, status: body.status });
  });

  // Apply IncidentRule resources from YAML or JSON (one or more documents).
  app.post('/rules', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'database', 'write');
    const docs = parseDocuments(await c.req.text());
    if (docs.length === 0)
      throw new ResourceErrors([new ResourceError('the document is empty: paste an IncidentRule resource')]);
    const rules = docs.map(parseIncidentRule);
    const applied = [];
    for (const rule of rules)
      applied.push({ name: rule.name, namespace: 'default', ...(await applyIncidentRule(db, rule, principal.id)) });
    return c.json({ applied }, 201);
  });

  return app;
}
