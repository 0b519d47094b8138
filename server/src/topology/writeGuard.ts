// /api/db/topologies writes: a row's spec is a Topology checked as /api/topology checks it; it is
// built at the next pass; a soft delete takes its components with it.
import type { Database } from '../db/database.js';
import type { Checker } from '../health/checker.js';
import { resourceWriteGuard, resourceWriteSync, type ResourceTableWrites } from '../resources/dbWrites.js';
import { applyTopology, deleteTopology } from './store.js';
import { parseTopology, type TopologyDefinition } from './topology.js';

export function topologyDbWrites(db: Database, checkers: ReadonlyMap<string, Checker>) {
  const writes: ResourceTableWrites<TopologyDefinition> = {
    table: 'topologies',
    noun: 'topology',
    endpoint: 'POST /api/topology',
    parse: (doc) => parseTopology(doc, checkers),
    apply: (def) => applyTopology(db, def),
    remove: (id) => deleteTopology(db, id),
  };
  return { guard: resourceWriteGuard(writes), sync: resourceWriteSync(writes) };
}
