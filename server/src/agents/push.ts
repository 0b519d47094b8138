// The upstream side of a push: validate the batch, refuse rows owned by another agent (or local),
// then upsert every table in one transaction, parents first, stamping the agent's id.
import { isPgError, type Database, type Queryable } from '../db/database.js';

// agent_id of local rows (the all-zero uuid; null in config_items). Kept here while the shared
// constant moves (another change), so this module depends on no engine.
const NO_AGENT = '00000000-0000-0000-0000-000000000000';

/** The tables an agent pushes, in the order they are stored (parents before children). */
export const PUSH_TABLES = [
  'canaries',
  'checks',
  'check_statuses',
  'components',
  'config_items',
  'config_changes',
  'config_analysis',
  'config_relationships',
  'job_history',
] as const;
export type PushTable = (typeof PUSH_TABLES)[number];
export type PushBody = Partial<Record<PushTable, Record<string, unknown>[]>>;

interface TableRule {
  key: readonly string[];
  /** The table carries agent_id: stamped with the pushing agent. */
  stamped: boolean;
  /** Columns not taken from the agent: they point at what is not pushed, or are the upstream's own. */
  dropped: readonly string[];
  /** Columns naming a row of another pushed table: that row must be this agent's (or in the batch). */
  parents: readonly { column: string; table: 'canaries' | 'checks' | 'components' | 'config_items' }[];
  /** For a keyed-by-id row without agent_id: the column whose parent says whose it is. */
  ownedThrough?: { column: string; table: 'config_items' };
}

const RULES: Record<PushTable, TableRule> = {
  canaries: {
    key: ['id'],
    stamped: true,
    // The upstream's scheduler claims canaries by next_runtime: an agent's canary never runs there.
    dropped: ['created_by', 'next_runtime', 'lease_until', 'lease_owner'],
    parents: [],
  },
  checks: {
    key: ['id'],
    stamped: true,
    dropped: [],
    parents: [
      { column: 'canary_id', table: 'canaries' },
      { column: 'transformed_by', table: 'checks' },
    ],
  },
  check_statuses: {
    key: ['check_id', 'time'],
    stamped: false,
    dropped: [],
    parents: [{ column: 'check_id', table: 'checks' }],
  },
  components: {
    key: ['id'],
    stamped: true,
    dropped: ['topology_id'],
    parents: [{ column: 'parent_id', table: 'components' }],
  },
  config_items: {
    key: ['id'],
    stamped: true,
    dropped: ['scraper_id'],
    parents: [{ column: 'parent_id', table: 'config_items' }],
  },
  config_changes: {
    key: ['id'],
    stamped: false,
    dropped: ['created_by'],
    parents: [{ column: 'config_id', table: 'config_items' }],
    ownedThrough: { column: 'config_id', table: 'config_items' },
  },
  config_analysis: {
    key: ['id'],
    stamped: false,
    dropped: ['scraper_id'],
    parents: [{ column: 'config_id', table: 'config_items' }],
    ownedThrough: { column: 'config_id', table: 'config_items' },
  },
  config_relationships: {
    key: ['config_id', 'related_id', 'selector_id'],
    stamped: false,
    dropped: [],
    parents: [
      { column: 'config_id', table: 'config_items' },
      { column: 'related_id', table: 'config_items' },
    ],
  },
  job_history: { key: ['id'], stamped: true, dropped: [], parents: [] },
};

/** Every pushed table's own bookkeeping, never taken from an agent. */
const ALWAYS_DROPPED = ['change_seq'];

export class PushError extends Error {
  constructor(
    readonly status: 400 | 403 | 409,
    readonly code: 'INVALID_PUSH' | 'FOREIGN_ROW' | 'CONFLICT',
    message: string,
  ) {
    super(message);
  }
}

export interface PushResult {
  accepted: Partial<Record<PushTable, number>>;
  stored: Partial<Record<PushTable, number>>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Checks the body's shape: an object of known tables, each an array of objects holding their key. */
export function parsePushBody(body: unknown): PushBody {
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new PushError(400, 'INVALID_PUSH', 'The push body must be a JSON object keyed by table name.');
  }
  const out: PushBody = {};
  for (const [table, rows] of Object.entries(body)) {
    if (!(PUSH_TABLES as readonly string[]).includes(table)) {
      throw new PushError(400, 'INVALID_PUSH', `"${table}" is not a pushed table (${PUSH_TABLES.join(', ')}).`);
    }
    if (!Array.isArray(rows)) throw new PushError(400, 'INVALID_PUSH', `${table} must be an array of rows.`);
    const rule = RULES[table as PushTable];
    rows.forEach((row: unknown, i) => {
      if (!row || typeof row !== 'object' || Array.isArray(row)) {
        throw new PushError(400, 'INVALID_PUSH', `${table}[${i}] must be an object.`);
      }
      for (const k of rule.key) {
        const v = (row as Record<string, unknown>)[k];
        if (v === undefined || v === null || v === '')
          throw new PushError(400, 'INVALID_PUSH', `${table}[${i}] has no ${k}.`);
        if ((k === 'id' || k.endsWith('_id')) && !UUID.test(String(v))) {
          throw new PushError(400, 'INVALID_PUSH', `${table}[${i}].${k} is not a UUID.`);
        }
      }
    });
    out[table as PushTable] = rows as Record<string, unknown>[];
  }
  return out;
}

function keyOf(rule: TableRule, row: Record<string, unknown>): string {
  return rule.key.map((k) => String(row[k])).join('\u0000');
}

/** The last row per key: ON CONFLICT cannot touch one row twice in a statement. */
function dedupe(rule: TableRule, rows: Record<string, unknown>[]): Record<string, unknown>[] {
  const byKey = new Map<string, Record<string, unknown>>();
  for (const row of rows) byKey.set(keyOf(rule, row), row);
  return [...byKey.values()];
}

const columnCache = new Map<string, Promise<Set<string>>>();

/** The table's writable columns (generated ones excluded); read once per process. */
function tableColumns(db: Queryable, table: string): Promise<Set<string>> {
  let cols = columnCache.get(table);
  if (!cols) {
    cols = db
      .query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'`,
        [table],
      )
      .then((r) => new Set(r.rows.map((c) => c.column_name)));
    cols.catch(() => columnCache.delete(table));
    columnCache.set(table, cols);
  }
  return cols;
}

function distinctIds(rows: Record<string, unknown>[], column: string): string[] {
  const ids = new Set<string>();
  for (const r of rows) {
    const v = r[column];
    if (typeof v === 'string' && UUID.test(v)) ids.add(v);
  }
  return [...ids];
}

/** 403 when any row's own key, or a parent it names, is upstream under another agent or local. */
async function refuseForeignRows(tx: Queryable, agentId: string, body: PushBody): Promise<void> {
  const foreign = async (table: string, ids: string[], what: string, sql?: string) => {
    if (!ids.length) return;
    const { rows } = await tx.query<{ id: string }>(
      sql ??
        `SELECT id::text AS id FROM ${table} WHERE id = ANY($1::uuid[])
           AND coalesce(agent_id, '${NO_AGENT}'::uuid) <> $2::uuid LIMIT 1`,
      [ids, agentId],
    );
    if (rows[0])
      throw new PushError(
        403,
        'FOREIGN_ROW',
        `${what} ${rows[0].id}: the row belongs to another agent or to the upstream itself.`,
      );
  };
  for (const table of PUSH_TABLES) {
    const rows = body[table];
    if (!rows?.length) continue;
    const rule = RULES[table];
    if (rule.key.length === 1 && rule.stamped) await foreign(table, distinctIds(rows, 'id'), table);
    if (rule.ownedThrough) {
      const { column, table: parent } = rule.ownedThrough;
      await foreign(
        table,
        distinctIds(rows, 'id'),
        table,
        `SELECT x.id::text AS id FROM ${table} x JOIN ${parent} p ON p.id = x.${column}
         WHERE x.id = ANY($1::uuid[]) AND coalesce(p.agent_id, '${NO_AGENT}'::uuid) <> $2::uuid LIMIT 1`,
      );
    }
    for (const { column, table: parent } of rule.parents) {
      await foreign(parent, distinctIds(rows, column), `${table}.${column} →`);
    }
  }
}

function describeDbError(table: string, e: unknown): PushError | null {
  if (!isPgError(e)) return null;
  const detail = e.message;
  if (e.code === '23503')
    return new PushError(
      400,
      'INVALID_PUSH',
      `${table}: a row points at a row that is neither upstream nor in this push (${detail}).`,
    );
  if (e.code === '23505')
    return new PushError(409, 'CONFLICT', `${table}: a row collides with another's identity (${detail}).`);
  if (e.code.startsWith('22') || e.code.startsWith('23'))
    return new PushError(400, 'INVALID_PUSH', `${table}: ${detail}`);
  return null;
}

async function upsertTable(
  tx: Queryable,
  agentId: string,
  table: PushTable,
  rows: Record<string, unknown>[],
): Promise<number> {
  const rule = RULES[table];
  const writable = await tableColumns(tx, table);
  const present = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) present.add(k);
  const skip = new Set([...rule.dropped, ...ALWAYS_DROPPED]);
  const columns = [...writable].filter((c) => present.has(c) && !skip.has(c) && !(rule.stamped && c === 'agent_id'));
  if (rule.stamped) columns.push('agent_id');
  const q = (c: string) => `"${c}"`;
  const select = columns.map((c) => (rule.stamped && c === 'agent_id' ? '$2::uuid' : `r.${q(c)}`));
  const updated = columns.filter((c) => !rule.key.includes(c));
  const conflict = updated.length
    ? `DO UPDATE SET ${updated.map((c) => `${q(c)} = EXCLUDED.${q(c)}`).join(', ')}
       WHERE (${updated.map((c) => `t.${q(c)}`).join(', ')}) IS DISTINCT FROM (${updated.map((c) => `EXCLUDED.${q(c)}`).join(', ')})`
    : 'DO NOTHING';
  const sql = `INSERT INTO ${table} AS t (${columns.map(q).join(', ')})
    SELECT ${select.join(', ')} FROM jsonb_populate_recordset(NULL::${table}, $1::jsonb) r
    ON CONFLICT (${rule.key.map(q).join(', ')}) ${conflict}
    RETURNING 1`;
  try {
    const { rows: stored } = await tx.query(
      sql,
      rule.stamped ? [JSON.stringify(rows), agentId] : [JSON.stringify(rows)],
    );
    return stored.length;
  } catch (e) {
    throw describeDbError(table, e) ?? e;
  }
}

/** Stores one agent's batch: all of it or nothing. */
export async function receivePush(db: Database, agentId: string, body: PushBody): Promise<PushResult> {
  const result: PushResult = { accepted: {}, stored: {} };
  await db.transaction(async (tx) => {
    await refuseForeignRows(tx, agentId, body);
    for (const table of PUSH_TABLES) {
      const rows = body[table];
      if (!rows) continue;
      result.accepted[table] = rows.length;
      result.stored[table] = rows.length ? await upsertTable(tx, agentId, table, dedupe(RULES[table], rows)) : 0;
    }
    await tx.query('UPDATE agents SET last_received = now(), last_seen = now() WHERE id = $1', [agentId]);
  });
  return result;
}
