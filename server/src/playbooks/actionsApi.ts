// Routes and run-request checks for what actions and parameters need beyond a run: the artifacts
// of an action (`GET /api/playbook/run/action/:actionId/artifacts`, and `GET /api/artifacts/download/:id`
// mounted apart), the connections a `connection` parameter can name (`GET /api/playbook/connections`,
// names and types only), and a run request's filters, connection and secret parameters.
import { Hono } from 'hono';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database, Queryable } from '../db/database.js';
import { UUID } from '../resources/routes.js';
import type { SecretBox } from '../secrets.js';
import { listArtifacts, loadArtifact } from './artifacts.js';
import { evaluateFilters } from './filters.js';
import { ParameterError } from './parameters.js';
import type { PlaybookDefinition } from './playbook.js';
import { checkConnectionParams, sealSecretParams, SECRET_MASK, unmaskSecretParams } from './secretParams.js';

interface Deps {
  db: Database;
  identity: Identity;
}

export function addActionRoutes(app: Hono<AuthEnv>, { db, identity }: Deps): void {
  app.get('/run/action/:actionId/artifacts', async (c) => {
    await requirePermission(identity, c.get('principal'), 'playbook_runs', 'read');
    const id = c.req.param('actionId');
    const notFound = new HttpError(404, 'NOT_FOUND', 'No such playbook run action.');
    if (!UUID.test(id)) throw notFound;
    const found = await db.query('SELECT 1 FROM playbook_run_actions WHERE id = $1', [id]);
    if (!found.rows.length) throw notFound;
    return c.json(await listArtifacts(db, id));
  });

  // The connections a `connection` parameter may name, for those who may run playbooks (connections
  // themselves are admin-only): names and types, never a URL or a secret.
  app.get('/connections', async (c) => {
    await requirePermission(identity, c.get('principal'), 'playbooks', 'write');
    const type = c.req.query('type');
    const { rows } = await db.query<{ name: string; namespace: string; type: string }>(
      `SELECT name, namespace, type FROM connections
       WHERE deleted_at IS NULL AND ($1::text IS NULL OR lower(type) = lower($1)) ORDER BY name, namespace LIMIT 500`,
      [type || null],
    );
    return c.json(rows);
  });
}

/** `/api/artifacts`: an artifact's content, as a download (never rendered inline). */
export function artifactRoutes({ db, identity }: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  app.get('/download/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'playbook_runs', 'read');
    const id = c.req.param('id');
    const artifact = UUID.test(id) ? await loadArtifact(db, id) : undefined;
    if (!artifact) throw new HttpError(404, 'NOT_FOUND', 'No such artifact.');
    const ascii = artifact.filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
    return c.body(new Uint8Array(artifact.content), 200, {
      'content-type': artifact.content_type,
      'content-disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(artifact.filename)}`,
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
    });
  });
  return app;
}

const bad = (message: string, field?: string) => new HttpError(400, 'INVALID_REQUEST', message, field);

/** A playbook whose `filters` are not all true for this resource and caller: 400 with the reason. */
export function requireFilters(def: PlaybookDefinition, vars: Record<string, unknown>): void {
  const verdict = evaluateFilters(def.spec.filters, vars);
  if (!verdict.ok) throw bad(`This playbook does not apply here: ${verdict.reason}.`);
}

function asBadRequest(e: unknown): never {
  if (e instanceof ParameterError) throw bad(e.message, `params.${e.parameter}`);
  throw e;
}

/** A re-run's masked secrets replaced by the parent run's values (before the values are checked). */
export async function unmaskRunParams(
  db: Queryable,
  def: PlaybookDefinition,
  given: Record<string, unknown>,
  parentId: string | null,
): Promise<Record<string, unknown>> {
  if (!Object.values(given).includes(SECRET_MASK)) return given;
  const parent =
    parentId && UUID.test(parentId)
      ? (
          await db.query<{ secret_parameters: Record<string, string> | null }>(
            'SELECT secret_parameters FROM playbook_runs WHERE id = $1',
            [parentId],
          )
        ).rows[0]?.secret_parameters
      : null;
  try {
    return unmaskSecretParams(def.spec.parameters, given, parent ?? null);
  } catch (e) {
    return asBadRequest(e);
  }
}

/**
 * A run request's checked parameters made ready to store: connection values checked and normalised,
 * secret values sealed. 400 naming the parameter.
 */
export async function prepareRunParams(
  db: Queryable,
  def: PlaybookDefinition,
  params: Record<string, string>,
  box: SecretBox | undefined,
): Promise<{ params: Record<string, string>; sealed: Record<string, string> | null }> {
  try {
    const checked = await checkConnectionParams(db, def.spec.parameters, params);
    if (!def.spec.parameters.some((p) => p.type === 'secret')) return { params: checked, sealed: null };
    if (!box) throw new Error('secret parameters need the server secret box');
    return sealSecretParams(def.spec.parameters, checked, box);
  } catch (e) {
    return asBadRequest(e);
  }
}

/** Stores the sealed secrets of a run just queued (in the same transaction). */
export async function storeSealedParams(tx: Queryable, runId: string, sealed: Record<string, string> | null) {
  if (sealed)
    await tx.query('UPDATE playbook_runs SET secret_parameters = $2 WHERE id = $1', [runId, JSON.stringify(sealed)]);
}
