// POST /api/playbook/webhook/{path}: the `on.webhook` trigger. No session (the middleware lets these
// through, auth/middleware.ts): the playbook's own authentication decides (webhookAuth.ts, 401 when it
// refuses); an unknown path is 404. The run is queued with trigger {type: webhook, path} and the request
// as templates see it: .request {headers, content, json?, params} (credentials headers left out).
import type { Hono } from 'hono';
import { HttpError, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import { ParameterError } from './parameters.js';
import { parseStoredPlaybook } from './playbook.js';
import { queueTriggeredRun, triggeredParams } from './triggeredRun.js';
import { verifyWebhook } from './webhookAuth.js';
import { logger } from '../log.js';

const log = logger('playbooks');

/** Never stored with the run: they are the caller's credentials. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);
const MAX_BODY_BYTES = 1024 * 1024;

function requestVars(headers: Headers, body: Buffer, query: Record<string, string>): Record<string, unknown> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) kept[name.toLowerCase()] = value;
  });
  const content = body.toString('utf8');
  let json: unknown;
  if (content.trim()) {
    try {
      json = JSON.parse(content);
    } catch {
      json = undefined;
    }
  }
  return { headers: kept, content, ...(json !== undefined ? { json } : {}), params: query };
}

export function addWebhookRoute(app: Hono<AuthEnv>, db: Database): void {
  app.post('/webhook/:path{.+}', async (c) => {
    const path = c.req.param('path');
    const { rows } = await db.query<{ id: string; name: string; spec: Record<string, unknown> }>(
      'SELECT id, name, spec FROM playbooks WHERE webhook_path = $1 AND deleted_at IS NULL',
      [path],
    );
    const row = rows[0];
    if (!row) throw new HttpError(404, 'NOT_FOUND', 'No playbook webhook at this path.');
    const tooLarge = new HttpError(400, 'INVALID_REQUEST', 'The body is larger than 1 MiB.');
    // A declared size over the limit is refused before the body is read into memory.
    if (Number(c.req.header('content-length') ?? 0) > MAX_BODY_BYTES) throw tooLarge;
    const body = Buffer.from(await c.req.arrayBuffer());
    if (body.length > MAX_BODY_BYTES) throw tooLarge;
    const def = parseStoredPlaybook(row.spec);
    let refused: string | null;
    try {
      refused = await verifyWebhook(def.spec.on?.webhook?.authentication, { headers: c.req.raw.headers, body });
    } catch (e) {
      log.error(`playbook ${row.name}: webhook authentication could not be checked: ${(e as Error).message}`);
      refused = 'authentication could not be checked';
    }
    if (refused) throw new HttpError(401, 'UNAUTHENTICATED', 'The webhook request is not authenticated.');
    const request = requestVars(c.req.raw.headers, body, c.req.query());
    const playbook = { id: row.id, name: row.name, resource: row.spec, def };
    let params: Record<string, string>;
    try {
      params = triggeredParams(playbook, null, request);
    } catch (e) {
      if (e instanceof ParameterError) throw new HttpError(400, 'INVALID_REQUEST', e.message, `params.${e.parameter}`);
      throw e;
    }
    const run = await db.transaction((tx) =>
      queueTriggeredRun(tx, playbook, null, { type: 'webhook', path }, params, request),
    );
    return c.json({ run_id: run.id, status: run.status }, 201);
  });
}
