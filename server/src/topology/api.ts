// /api/topology: apply topologies from YAML, read them back, delete them, run one now, and the card
// query of the topology page (spec/2 §2.6, §7).
import { Hono } from 'hono';
import { stringify } from 'yaml';
import type { Identity } from '../auth/identity.js';
import { HttpError, requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import type { Checker } from '../health/checker.js';
import { parseDocuments, ResourceError, ResourceErrors, resourceErrorBody } from '../resources/yaml.js';
import type { TopologyEngine } from './engine.js';
import { loadTopology, parseTopologyQuery, shapeTopology } from './query.js';
import { applyTopology, deleteTopology } from './store.js';
import { parseTopology, type TopologyDefinition } from './topology.js';

interface Deps {
  db: Database;
  identity: Identity;
  checkers: ReadonlyMap<string, Checker>;
  engine: TopologyEngine;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function topologyId(id: string): string {
  if (!UUID.test(id)) throw new HttpError(404, 'NOT_FOUND', 'No such topology.');
  return id;
}

/** Reads the body as text and applies every Topology in it (all validated before any is stored). */
async function applyText(text: string, deps: Deps, createdBy: string) {
  const docs = parseDocuments(text);
  if (docs.length === 0)
    throw new ResourceErrors([new ResourceError('the document is empty: paste a Topology resource')]);
  const defs: TopologyDefinition[] = docs.map((d) => parseTopology(d, deps.checkers));
  const applied = [];
  for (const def of defs) {
    const r = await applyTopology(deps.db, def, { source: 'UI', createdBy });
    applied.push({ id: r.id, name: def.name, namespace: def.namespace, created: r.created });
  }
  return { applied };
}

export function topologyRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity, engine } = deps;

  app.onError((err, c) => {
    const body = resourceErrorBody(err);
    if (body) return c.json(body, 400);
    throw err;
  });

  // The card query: roots (no id) or a component and its children, with filter options.
  app.get('/', async (c) => {
    await requirePermission(identity, c.get('principal'), 'topologies', 'read');
    const q = parseTopologyQuery(c.req.query());
    return c.json(shapeTopology(await loadTopology(db, q), q));
  });

  // Apply topologies: YAML or JSON text (one or more documents).
  app.post('/', async (c) => {
    const principal = c.get('principal');
    await requirePermission(identity, principal, 'topologies', 'write');
    return c.json(await applyText(await c.req.text(), deps, principal.id), 201);
  });

  app.get('/:id/spec', async (c) => {
    await requirePermission(identity, c.get('principal'), 'topologies', 'read');
    const { rows } = await db.query<{ spec: unknown }>(
      'SELECT spec FROM topologies WHERE id = $1 AND deleted_at IS NULL',
      [topologyId(c.req.param('id'))],
    );
    if (!rows[0]) throw new HttpError(404, 'NOT_FOUND', 'No such topology.');
    return c.body(stringify(rows[0].spec), 200, { 'content-type': 'application/yaml; charset=utf-8' });
  });

  app.delete('/:id', async (c) => {
    await requirePermission(identity, c.get('principal'), 'topologies', 'write');
    if (!(await deleteTopology(db, topologyId(c.req.param('id')))))
      throw new HttpError(404, 'NOT_FOUND', 'No such topology.');
    return c.body(null, 204);
  });

  // Run now: builds the components and answers with what the run did.
  app.post('/:id/run', async (c) => {
    await requirePermission(identity, c.get('principal'), 'topologies', 'write');
    const result = await engine.runNow(topologyId(c.req.param('id')));
    if (result === 'not-found') throw new HttpError(404, 'NOT_FOUND', 'No such topology.');
    if (result === 'busy')
      throw new HttpError(409, 'BUSY', 'This topology is running right now; try again in a moment.');
    return c.json(result);
  });

  return app;
}
