// One database interface over the embedded PGlite and a real PostgreSQL server (pg Pool).
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';
import { logger } from '../log.js';
import { copyOutBinary } from './copyOut.js';
import { lockDataDir } from './dataDirLock.js';
import { pgListener, type ListenHandlers, type Listener } from './listener.js';

const log = logger('db');

export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  /** Rows changed by INSERT/UPDATE/DELETE, when the driver reports it. */
  affectedRows?: number;
}

/** Something that runs SQL: the database itself or a transaction. */
export interface QueryOptions {
  /**
   * Prepare the statement once per connection under this name (PostgreSQL): for fixed statements run
   * on every request, where planning costs as much as running. Ignored by PGlite.
   */
  prepare?: string;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<T>>;
  /**
   * PostgreSQL: the data of a `COPY (…) TO STDOUT (FORMAT binary)` statement (db/copyOut.ts), for
   * bulk reads where text and base64 cost more than the query; `expectBytes` sizes its buffer.
   * PGlite has none.
   */
  copyOut?(sql: string, expectBytes?: number): Promise<Buffer>;
  /**
   * PGlite: the same data, by `COPY … TO '/dev/blob'` (the statement written as for copyOut). Used
   * where it pays on PGlite: the summary's items, whose JSON the server writes faster than PGlite
   * builds it (27 against 49 ms at 2,000 checks), the edges' packs, and the usual ranges'
   * precomputed figures (health/summary.ts).
   */
  copyOutBlob?(sql: string): Promise<Buffer>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs fn inside BEGIN/COMMIT; a thrown error rolls everything back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * A node-postgres Pool look-alike for libraries that bring their own query builder (better-auth's
   * Kysely): timestamps come back as Date and int8 as number, BEGIN/COMMIT/ROLLBACK work on both drivers.
   */
  pgPool(): PgPoolLike;
  /** Connections in use now (metrics): the pg pool's counts; PGlite is one connection. */
  poolStats?(): PoolStats;
  /** PostgreSQL: LISTEN on a channel over a connection of its own (db/listener.ts); closed by close(). */
  listen?(channel: string, handlers: ListenHandlers): Listener;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open. */
  total: number;
  idle: number;
  /** Queries (or transactions) waiting for a connection. */
  waiting: number;
  /** The most the pool opens. */
  max: number;
}

export interface PgClientLike {
  query(
    sql: string,
    params?: unknown[],
  ): Promise<{ rows: Record<string, unknown>[]; rowCount: number; command: string }>;
  release(): void;
}

export interface PgPoolLike {
  connect(): Promise<PgClientLike>;
  end(): Promise<void>;
}

const TIMESTAMP_OIDS = new Set([1114, 1184]);
const INT8_OID = 20;

/** Converts timestamp columns to Date and int8 to number, by the result's field types. */
function typedRows(
  rows: Record<string, unknown>[],
  fields: { name: string; dataTypeID: number }[],
): Record<string, unknown>[] {
  const dates = fields.filter((f) => TIMESTAMP_OIDS.has(f.dataTypeID)).map((f) => f.name);
  const ints = fields.filter((f) => f.dataTypeID === INT8_OID).map((f) => f.name);
  if (!dates.length && !ints.length) return rows;
  for (const row of rows) {
    for (const d of dates) if (typeof row[d] === 'string') row[d] = new Date(row[d] as string);
    for (const i of ints) if (row[i] !== null && typeof row[i] !== 'number') row[i] = Number(row[i]);
  }
  return rows;
}

const commandOf = (sql: string) => /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '';

/** The SQLSTATE-carrying error both drivers throw. */
export interface PgError extends Error {
  code?: string;
  detail?: string;
  hint?: string;
}

export function isPgError(e: unknown): e is PgError & { code: string } {
  return e instanceof Error && typeof (e as PgError).code === 'string' && /^[0-9A-Z]{5}$/.test((e as PgError).code!);
}

/**
 * PGlite validates some parameters in JavaScript (booleans) and throws a plain Error; sending them
 * as text lets PostgreSQL judge them, with the same SQLSTATE errors as a real server.
 */
const asText = (v: string) => v;
const PGLITE_QUERY_OPTIONS = {
  serializers: { 16: (v: unknown) => String(v) },
  // Dates, timestamps and int8 come back as text, exactly as from the pg pool (see openPostgres).
  parsers: { 1082: asText, 1114: asText, 1184: asText, 20: asText },
};

export interface PgliteOptions {
  /** shared_buffers (e.g. 16MB): smaller keeps the process small (agents), larger caches more. */
  sharedBuffers?: string;
}

/**
 * The error of an embedded database that did not open, with what PostgreSQL said (its PANIC and
 * FATAL lines) and what to do, in place of PGlite's bare "Aborted()".
 */
function openFailure(e: unknown, dir: string | undefined, stderr: readonly string[]): Error {
  const said = stderr
    .map((l) => /\b(PANIC|FATAL):\s+(.*)$/.exec(l))
    .filter((m) => m !== null)
    .map((m) => `${m[1]}: ${m[2]}`);
  if (!said.length) return e instanceof Error ? e : new Error(String(e));
  const where = dir ? ` in ${dir}` : '';
  return new Error(
    `the embedded database${where} could not be opened: ${said.join('; ')}. ` +
      `The directory may be damaged (two processes used it at once, or a copy taken while the server ran): ` +
      `restore it from a backup taken with the server stopped, or move it away to start with an empty database`,
    { cause: e },
  );
}

export async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob,
  options: PgliteOptions = {},
): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const startParams = options.sharedBuffers
    ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`]
    : undefined;
  // A directory on disk is locked first: PGlite has none of its own (db/dataDirLock.ts).
  const dir = dataDir?.startsWith('file://') ? dataDir.slice(7) : dataDir;
  const unlock = dir && !dir.includes('://') ? lockDataDir(dir, (m) => log.warn(m)) : () => undefined;
  // What PostgreSQL writes to its stderr while the database opens: when it cannot (a damaged
  // directory), PGlite throws a bare "Aborted()" and the reason is only there.
  let starting = true;
  const stderr: string[] = [];
  const onStderr = (line: string) => {
    if (starting && stderr.push(line) > 50) stderr.shift();
    return false;
  };
  let db: PGlite;
  try {
    db = await PGlite.create(dataDir, {
      ...(loadDataDir ? { loadDataDir } : {}),
      ...(startParams ? { startParams } : {}),
      onStderr,
    });
  } catch (e) {
    unlock();
    throw openFailure(e, dir, stderr);
  } finally {
    starting = false;
    stderr.length = 0;
  }
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const r = await q.query<T>(sql, params as unknown[], PGLITE_QUERY_OPTIONS);
      return { rows: r.rows, affectedRows: r.affectedRows };
    },
    async copyOutBlob(sql: string) {
      const blob = sql.replace(/TO STDOUT \(FORMAT binary\)$/, "TO '/dev/blob' (FORMAT binary)");
      if (blob === sql) throw new Error('copyOutBlob takes a COPY … TO STDOUT (FORMAT binary) statement');
      const r = await q.query(blob);
      if (!r.blob) throw new Error('COPY to /dev/blob gave no data');
      return Buffer.from(await r.blob.arrayBuffer());
    },
  });
  // Statements and transactions sent and not yet answered: one runs, the others wait (poolStats).
  let pending = 0;
  const counted = async <T>(p: () => Promise<T>): Promise<T> => {
    pending++;
    try {
      return await p();
    } finally {
      pending--;
    }
  };
  const top = wrap(db);
  return {
    kind: 'pglite',
    query<T>(sql: string, params?: unknown[]) {
      return counted(() => top.query<T>(sql, params));
    },
    copyOutBlob(sql: string) {
      return counted(() => top.copyOutBlob!(sql));
    },
    async exec(sql) {
      await db.exec(sql);
    },
    transaction(fn) {
      return counted(() => db.transaction((tx) => fn(wrap(tx))));
    },
    pgPool() {
      return pglitePool(db);
    },
    poolStats: () => ({ total: 1, idle: pending ? 0 : 1, waiting: Math.max(0, pending - 1), max: 1 }),
    async close() {
      try {
        await db.close();
      } finally {
        unlock();
      }
    },
    // Exposed for tests that snapshot a migrated database.
    get pglite() {
      return db;
    },
  } as Database;
}

export async function openPostgres(url: string, poolSize = 10, statementTimeoutMs = 0): Promise<Database> {
  const pg = (await import('pg')).default;
  // Dates, timestamps and int8 stay text: the REST layer builds JSON in SQL, and services
  // that need numbers or Dates convert explicitly.
  const types = pg.types;
  for (const oid of [1082, 1114, 1184, 20]) types.setTypeParser(oid, (v: string) => v);
  // statement_timeout bounds every statement (0 = none); a long job may raise it with SET LOCAL.
  // JIT is off: our statements are short, and JIT compilation made deeply nested ones take seconds.
  const pool: Pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    statement_timeout: statementTimeoutMs || undefined,
    options: '-c jit=off',
  });
  pool.on('error', (err) => log.error(`postgres pool error: ${err.message}`));
  // Fail fast with a clear message when the server is unreachable.
  try {
    const probe = await pool.connect();
    probe.release();
  } catch (e) {
    await pool.end().catch(() => undefined);
    const where = new URL(url);
    throw new Error(
      `cannot connect to PostgreSQL at ${where.hostname}:${where.port || 5432}${where.pathname} (DATABASE_URL): ${(e as Error).message}`,
    );
  }
  const listeners: Listener[] = [];
  const wrap = (c: Pool | PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[], options?: QueryOptions) {
      const r = options?.prepare
        ? await c.query({ name: options.prepare, text: sql, values: params as unknown[] })
        : await c.query(sql, params as unknown[]);
      return { rows: r.rows as T[], affectedRows: r.rowCount ?? undefined };
    },
    async copyOut(sql: string, expectBytes?: number) {
      if (c !== pool) return copyOutBinary(c as PoolClient, sql, expectBytes);
      const client = await pool.connect();
      try {
        return await copyOutBinary(client, sql, expectBytes);
      } finally {
        client.release();
      }
    },
  });
  return {
    kind: 'postgres',
    ...wrap(pool),
    async exec(sql) {
      await pool.query(sql);
    },
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(wrap(client));
        await client.query('COMMIT');
        return result;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      } finally {
        client.release();
      }
    },
    pgPool() {
      return {
        async connect() {
          const client = await pool.connect();
          return {
            async query(sql: string, params?: unknown[]) {
              const r = await client.query(sql, params as unknown[]);
              return { rows: typedRows(r.rows, r.fields), rowCount: r.rowCount ?? 0, command: r.command };
            },
            release: () => client.release(),
          };
        },
        end: async () => undefined,
      };
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize }),
    listen(channel, handlers) {
      const listener = pgListener(
        () => new pg.Client({ connectionString: url, application_name: `opsdeck LISTEN ${channel}` }),
        channel,
        handlers,
        (m) => log.warn(m),
      );
      listeners.push(listener);
      return listener;
    },
    async close() {
      await Promise.all(listeners.map((l) => l.close()));
      await pool.end();
    },
  };
}

/**
 * PGlite has one connection. A client that sends BEGIN gets PGlite's exclusive transaction, held
 * open until COMMIT or ROLLBACK; everyone else's queries wait for it, as they would for a lock.
 */
function pglitePool(db: PGlite): PgPoolLike {
  return {
    async connect() {
      let tx: { query: PGlite['query']; finish: (commit: boolean) => void; done: Promise<unknown> } | undefined;
      const run = async (q: Pick<PGlite, 'query'>, sql: string, params?: unknown[]) => {
        const r = await q.query<Record<string, unknown>>(sql, params as unknown[], PGLITE_QUERY_OPTIONS);
        return {
          rows: typedRows(r.rows, r.fields),
          rowCount: r.affectedRows ?? r.rows.length,
          command: commandOf(sql),
        };
      };
      return {
        async query(sql: string, params?: unknown[]) {
          const command = commandOf(sql);
          if ((command === 'BEGIN' || command === 'START') && !tx) {
            let ready!: () => void;
            const started = new Promise<void>((r) => (ready = r));
            let finish!: (commit: boolean) => void;
            const done = db.transaction(
              (t) =>
                new Promise<void>((resolve, reject) => {
                  finish = (commit) => (commit ? resolve() : reject(new Error('rollback')));
                  tx = { query: t.query.bind(t), finish: (c) => finish(c), done: Promise.resolve() };
                  ready();
                }),
            );
            done.catch(() => undefined); // observed below; this only silences the unhandled warning
            await started;
            tx!.done = done;
            return { rows: [], rowCount: 0, command };
          }
          if ((command === 'COMMIT' || command === 'ROLLBACK') && tx) {
            const current = tx;
            tx = undefined;
            current.finish(command === 'COMMIT');
            if (command === 'COMMIT')
              await current.done; // a failed commit throws here
            else await current.done.catch(() => undefined);
            return { rows: [], rowCount: 0, command };
          }
          return run(tx ?? db, sql, params);
        },
        release() {
          // A client released mid-transaction rolls back, as a dropped connection would.
          if (tx) {
            tx.finish(false);
            tx = undefined;
          }
        },
      };
    },
    end: async () => undefined,
  };
}
