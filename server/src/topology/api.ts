// /api/topology: apply topologies from YAML, read them back, delete them, run one now, and the card
// query of the topology page (spec/2 §2.6, §7).
import { Hono } from 'hono';
import type { Identity } from '../auth/identity.js';
import { requirePermission, type AuthEnv } from '../auth/middleware.js';
import type { Database } from '../db/database.js';
import type { Checker } from '../health/checker.js';
import { addResourceRoutes } from '../resources/routes.js';
import type { TopologyEngine } from './engine.js';
import { acceptsGzip } from '../http/encoding.js';
import { gzipEtag, notModified, TopologyCache } from './cache.js';
import { parseTopologyQuery } from './query.js';
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
  const cache = new TopologyCache(db);

  // The card query: roots (no id) or a component and its children, with filter options. Answered
  // from this replica's cache while the rows are unchanged (cache.ts), with an ETag: the console
  // revalidates (no-cache) and an unchanged answer is a 304 with no body.
  app.get('/', async (c) => {
    // Before the cache: a caller who may not read topologies learns nothing from it, not even an ETag.
    await requirePermission(identity, c.get('principal'), 'topologies', 'read');
    const q = parseTopologyQuery(c.req.query());
    const answer = await cache.get(q);
    const gz = acceptsGzip(c.req.header('accept-encoding'));
    const etag = gz ? gzipEtag(answer.etag) : answer.etag;
    const headers: Record<string, string> = { etag, 'cache-control': 'no-cache', vary: 'Accept-Encoding' };
    if (notModified(c.req.header('if-none-match'), answer.etag)) return c.body(null, 304, headers);
    headers['content-type'] = 'application/json; charset=UTF-8';
    if (!gz) return c.body(answer.body, 200, headers);
    headers['content-encoding'] = 'gzip';
    return c.body(await cache.gzipped(answer), 200, headers);
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
