// Applied resources (Canary, Topology, ScrapeConfig) written as rows through /api/db, as the original
// console and scripts do: a row's `spec` is the resource, checked by the apply endpoint's own parser
// (a bad one is a 400 with the apply endpoint's message), and its names, labels and schedule come from
// it; a row written with a spec runs at the next pass. Once the write committed, the apply endpoint's
// step follows (a canary's checks, ...); a soft delete (PATCH deleted_at) is the delete endpoint's,
// run before the write marks the row.
import { randomUUID } from 'node:crypto';
import { NO_AGENT } from '../db/agents.js';
import type { Queryable } from '../db/database.js';
import { ApiError } from '../rest/errors.js';
import { refuseReadOnlySource, targetIds, type WriteGuard, type WriteSync } from '../rest/writeGuards.js';
import type { StoredResource } from './metadata.js';
import { UUID } from './routes.js';
import { resourceErrorBody, type ResourceDocument } from './yaml.js';

type Row = Record<string, unknown>;

export interface ResourceTableWrites<Def extends StoredResource> {
  /** The table (goes into SQL). */
  table: 'canaries' | 'topologies' | 'config_scrapers';
  /** What the resource is called in messages ("canary"). */
  noun: string;
  /** The endpoint that applies it (named in messages). */
  endpoint: string;
  /** The apply endpoint's parser: throws ResourceErrors. */
  parse(doc: ResourceDocument): Def | Promise<Def>;
  /** The apply endpoint's store step (matches the row by namespace and name, then its dependents). */
  apply(def: Def): Promise<unknown>;
  /** The delete endpoint's step: false when there was no live row. */
  remove(id: string): Promise<boolean>;
}

/** Columns a row takes from its spec: written only through the spec. */
const DERIVED = ['name', 'namespace', 'labels', 'schedule'];
/** Columns only the server writes. */
const SERVER = ['agent_id', 'next_runtime', 'last_runtime', 'lease_owner', 'lease_until', 'created_at'];

async function parseSpec<Def extends StoredResource>(w: ResourceTableWrites<Def>, spec: unknown): Promise<Def> {
  if (spec === null || typeof spec !== 'object' || Array.isArray(spec))
    throw new ApiError(400, 'INVALID_RESOURCE', `spec: the ${w.noun} resource as ${w.endpoint} takes it (an object)`);
  try {
    return await w.parse({ data: spec, locate: () => undefined });
  } catch (e) {
    const body = resourceErrorBody(e);
    if (body) throw new ApiError(400, body.code, body.message, body.errors);
    throw e;
  }
}

/** The row as the apply endpoint stores it: names, labels and schedule from the spec, due now. */
function appliedRow(row: Row, def: StoredResource): Row {
  return {
    ...row,
    name: def.name,
    namespace: def.namespace,
    labels: def.labels,
    schedule: def.schedule,
    spec: def.resource,
    next_runtime: new Date().toISOString(),
  };
}

function refuseColumns(row: Row) {
  for (const key of DERIVED)
    if (key in row && !('spec' in row))
      throw new ApiError(
        400,
        'INVALID_RESOURCE',
        `${key}: comes from the spec's ${key === 'schedule' ? 'spec' : 'metadata'}; write the spec`,
      );
  for (const key of SERVER)
    if (key in row) throw new ApiError(400, 'INVALID_RESOURCE', `${key}: set by the server, not written here`);
}

const softDelete = (row: Row) =>
  Object.keys(row).length > 0 &&
  Object.keys(row).every((k) => k === 'deleted_at' || k === 'updated_at') &&
  row.deleted_at !== undefined &&
  row.deleted_at !== null;

export function resourceWriteGuard<Def extends StoredResource>(w: ResourceTableWrites<Def>): WriteGuard {
  return async ({ method, rows, query, db, rollback }) => {
    if (method === 'POST') {
      const out: Row[] = [];
      for (const row of rows) {
        refuseColumns(row);
        if (row.id !== undefined && (typeof row.id !== 'string' || !UUID.test(row.id)))
          throw new ApiError(400, 'INVALID_RESOURCE', 'id: a uuid, or leave it out');
        if (row.deleted_at !== undefined && row.deleted_at !== null)
          throw new ApiError(400, 'INVALID_RESOURCE', `deleted_at: a new ${w.noun} is live`);
        const def = await parseSpec(w, row.spec);
        // The id is chosen here so the step after the write finds the row.
        out.push(appliedRow({ ...row, id: row.id ?? randomUUID() }, def));
      }
      return out;
    }
    const ids = targetIds(query);
    if (!ids?.length) throw new ApiError(400, 'INVALID_RESOURCE', `name the ${w.noun} to change: ?id=eq.<id>`);
    // Rows an agent pushed are its own: changed where the agent reads them; so are rows applied from
    // a file or the CLI (source not UI), as for every other resource table.
    for (const stored of await liveSpecs(db, w.table, ids)) {
      if (stored.agent_id !== NO_AGENT)
        throw new ApiError(403, 'READ_ONLY_SOURCE', `this ${w.noun} comes from an agent: change it there`);
      refuseReadOnlySource(stored, w.noun);
    }
    const change = rows[0] ?? {};
    // A soft delete is the delete endpoint's (the row and its dependents, in its transaction); the
    // write then marks a row already marked. A dry run (tx=rollback) only runs the write, rolled back.
    if (softDelete(change)) {
      if (!rollback) for (const id of ids) await w.remove(id);
      return rows;
    }
    if (change.deleted_at !== undefined && change.deleted_at !== null)
      throw new ApiError(400, 'INVALID_RESOURCE', `deleted_at: a soft delete changes nothing else`);
    refuseColumns(change);
    if ('id' in change) throw new ApiError(400, 'INVALID_RESOURCE', `id: a ${w.noun}'s id does not change`);
    if (!('spec' in change)) return rows;
    if (ids.length !== 1)
      throw new ApiError(400, 'INVALID_RESOURCE', `change one ${w.noun}'s spec at a time: ?id=eq.<id>`);
    return [appliedRow(change, await parseSpec(w, change.spec))];
  };
}

async function liveSpecs(db: Queryable, table: string, ids: string[]): Promise<Row[]> {
  const { rows } = await db.query<{ row: Row }>(
    `SELECT to_jsonb(w) AS row FROM ${table} w WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return rows.map((r) => r.row);
}

/** After the write committed: the apply endpoint's step for the rows written with a spec. */
export function resourceWriteSync<Def extends StoredResource>(w: ResourceTableWrites<Def>): WriteSync {
  return async ({ method, rows, query, db }) => {
    const ids =
      method === 'POST'
        ? rows.map((r) => r.id).filter((id): id is string => typeof id === 'string')
        : (targetIds(query) ?? []);
    if (!ids.length) return;
    if (method !== 'POST' && !('spec' in (rows[0] ?? {}))) return;
    for (const row of await liveSpecs(db, w.table, ids)) {
      if (row.deleted_at != null || row.agent_id !== NO_AGENT) continue;
      await w.apply(await parseSpec(w, row.spec));
    }
  };
}
