// /api/db/canaries writes: a row's spec is a Canary checked as /api/canary checks it; its checks are
// made by the apply step once the row is stored; a soft delete takes its checks with it.
import type { Database } from '../db/database.js';
import { resourceWriteGuard, resourceWriteSync, type ResourceTableWrites } from '../resources/dbWrites.js';
import { parseCanaryChecked, type CanaryDefinition } from './canary.js';
import type { Checker } from './checker.js';
import { applyCanary, deleteCanary } from './store.js';

export function canaryDbWrites(db: Database, checkers: ReadonlyMap<string, Checker>) {
  const writes: ResourceTableWrites<CanaryDefinition> = {
    table: 'canaries',
    noun: 'canary',
    endpoint: 'POST /api/canary',
    parse: (doc) => parseCanaryChecked(doc, checkers),
    apply: (def) => applyCanary(db, def),
    remove: (id) => deleteCanary(db, id),
  };
  return { guard: resourceWriteGuard(writes), sync: resourceWriteSync(writes) };
}
