// /api/topology: apply topologies from YAML, read them back, delete them, run one now, and the card
// query of the topology page (spec/2 §2.6, §7).
import { Hono } from 'hono';
import type { Identity } from '../auth/identity.js';
import { requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import type { Checker } from '../health/checker.js';
import { addResourceRoutes } from '../resources/routes.js';
import type { TopologyEngine } from './engine.js';
import { loadTopology, parseTopologyQuery, shapeTopology } from './query.js';
import { applyTopology, deleteTopology } from './store.js';
import { parseTopology } from './topology.js';

interface Deps {
  db: Database;
  identity: Identity;
  checkers: ReadonlyMap<string, Checker>;
  engine: TopologyEngine;
}

export function topologyRoutes(deps: Deps): Hono<AuthEnv> {
  const app = new Hono<AuthEnv>();
  const { db, identity, checkers, engine } = deps;

  // The card query: roots (no id) or a component and its children, with filter options.
  app.get('/', async (c) => {
    await requirePermission(identity, c.get('principal'), 'topologies', 'read');
    const q = parseTopologyQuery(c.req.query());
    return c.json(shapeTopology(await loadTopology(db, q), q));
  });

  addResourceRoutes(app, {
    db,
    identity,
    table: 'topologies',
    permission: 'topologies',
    kind: 'Topology',
    noun: 'topology',
    parse: (doc) => parseTopology(doc, checkers),
    apply: (def, opts) => applyTopology(db, def, opts),
    remove: (id) => deleteTopology(db, id),
    runNow: (id) => engine.runNow(id),
    runPath: '/:id/run',
  });
  return app;
}
