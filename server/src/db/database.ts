// One database interface over the embedded PGlite and a real PostgreSQL server (pg Pool).
import type { PGlite } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

export interface QueryResult<T = Record<string, unknown>> {
  rows: T[];
  /** Rows changed by INSERT/UPDATE/DELETE, when the driver reports it. */
  affectedRows?: number;
}

/** Something that runs SQL: the database itself or a transaction. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements separated by semicolons, without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs fn inside BEGIN/COMMIT; a thrown error rolls everything back. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The SQLSTATE-carrying error both drivers throw. */
export interface PgError extends Error {
  code?: string;
  detail?: string;
  hint?: string;
}

export function isPgError(e: unknown): e is PgError & { code: string } {
  return e instanceof Error && typeof (e as PgError).code === 'string' && /^[0-9A-Z]{5}$/.test((e as PgError).code!);
}

export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db: PGlite = await PGlite.create(dataDir, loadDataDir ? { loadDataDir } : {});
  const wrap = (q: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const r = await q.query<T>(sql, params as unknown[]);
      return { rows: r.rows, affectedRows: r.affectedRows };
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    async exec(sql) {
      await db.exec(sql);
    },
    transaction(fn) {
      return db.transaction((tx) => fn(wrap(tx)));
    },
    async close() {
      await db.close();
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
  const pool: Pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    statement_timeout: statementTimeoutMs || undefined,
  });
  pool.on('error', (err) => console.error('postgres pool error:', err.message));
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
  const wrap = (c: Pool | PoolClient): Queryable => ({
    async query<T>(sql: string, params?: unknown[]) {
      const r = await c.query(sql, params as unknown[]);
      return { rows: r.rows as T[], affectedRows: r.rowCount ?? undefined };
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
    async close() {
      await pool.end();
    },
  };
}
