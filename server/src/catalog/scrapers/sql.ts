// The sql scraper: runs `query` on PostgreSQL (pg) or MySQL/MariaDB (mysql2), reached by a
// connection string or a stored connection; each row is one item (with `items`, the rows as one
// list that `items` splits).
import { z } from 'zod';
import { connectionFields, resolveTarget } from '../../connections/resolve.js';
import { describeError } from '../../connections/errors.js';
import { durationMs } from '../../connections/duration.js';
import { baseScraperFields, ScrapeError, type BaseScraperSpec, type RawDocument, type Scraper } from '../scraper.js';

export const DEFAULT_SQL_TIMEOUT_MS = 30_000;
export const MAX_ROWS = 100_000;

export const sqlSchema = z.looseObject({
  ...baseScraperFields,
  ...connectionFields,
  driver: z.enum(['postgres', 'mysql'], { error: 'driver must be postgres or mysql' }).optional(),
  query: z.string({ error: 'query is required' }).min(1, 'query is required'),
});

export type SqlSpec = z.infer<typeof sqlSchema> & BaseScraperSpec;

function driverOf(spec: SqlSpec, url: string, connectionType?: string): 'postgres' | 'mysql' {
  if (spec.driver) return spec.driver;
  const hint = `${connectionType ?? ''} ${url}`.toLowerCase();
  if (/mysql|mariadb/.test(hint)) return 'mysql';
  if (/postgres/.test(hint)) return 'postgres';
  throw new ScrapeError('driver is required (postgres or mysql) when the connection does not say which');
}

/** Rows as plain JSON: dates as ISO text, bigints and buffers as text. */
function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] =
      v instanceof Date
        ? v.toISOString()
        : typeof v === 'bigint'
          ? v.toString()
          : Buffer.isBuffer(v)
            ? v.toString('base64')
            : v;
  }
  return out;
}

async function queryPostgres(url: string, query: string, timeoutMs: number): Promise<Record<string, unknown>[]> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs, query_timeout: timeoutMs });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const r = await client.query(query);
    return r.rows as Record<string, unknown>[];
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function queryMysql(url: string, query: string, timeoutMs: number): Promise<Record<string, unknown>[]> {
  const mysql = await import('mysql2/promise');
  const conn = await mysql.createConnection({ uri: url.replace(/^mariadb:/, 'mysql:'), connectTimeout: timeoutMs });
  try {
    const [rows] = await conn.query({ sql: query, timeout: timeoutMs });
    if (!Array.isArray(rows)) return [];
    return rows as Record<string, unknown>[];
  } finally {
    await conn.end().catch(() => undefined);
  }
}

export const sqlScraper: Scraper<SqlSpec> = {
  type: 'sql',
  schema: sqlSchema as z.ZodType<SqlSpec>,
  async scrape(spec, ctx): Promise<RawDocument[]> {
    let target;
    try {
      target = await resolveTarget(spec, ctx);
    } catch (e) {
      throw new ScrapeError((e as Error).message);
    }
    if (!target.url) throw new ScrapeError('connection is required: a connection string or the name of a connection');
    const driver = driverOf(spec, target.url, target.connection?.type);
    const timeoutMs = spec.timeout === undefined ? DEFAULT_SQL_TIMEOUT_MS : durationMs(spec.timeout);
    let rows: Record<string, unknown>[];
    try {
      rows = await (driver === 'postgres' ? queryPostgres : queryMysql)(target.url, spec.query, timeoutMs);
    } catch (e) {
      throw new ScrapeError(`${driver}: ${describeError(e)}`);
    }
    if (rows.length > MAX_ROWS)
      throw new ScrapeError(`the query returned ${rows.length} rows; the limit is ${MAX_ROWS}`);
    const where = `${driver}: ${spec.query.replace(/\s+/g, ' ').slice(0, 80)}`;
    if (spec.items) return [{ data: rows.map(plainRow), source: where }];
    return rows.map((row, i) => ({ data: plainRow(row), source: `${where}[${i}]` }));
  },
};
