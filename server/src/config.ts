// Runtime configuration, read once from the environment. Every variable is documented in README.md.
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  /** Directory of the embedded PGlite database; ignored when databaseUrl is set. */
  dataDir: string;
  /** postgres://... to run on a real PostgreSQL server instead of the embedded database. */
  databaseUrl: string | undefined;
  /** Size of the pg connection pool (PostgreSQL only). */
  databasePoolSize: number;
  /** Statement timeout on PostgreSQL, in milliseconds (0 = none). PGlite cannot interrupt a statement. */
  statementTimeoutMs: number;
  /** Seed labelled demo data on first start with the embedded database. */
  demo: boolean;
  /** Directory holding the built web console (index.html). */
  webDir: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function boolFromEnv(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const logLevel = (process.env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of debug, info, warn, error, got "${logLevel}"`);
  }
  return {
    port: intFromEnv('PORT', 8080),
    host: process.env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(process.env.DATA_DIR ?? 'data'),
    databaseUrl: process.env.DATABASE_URL || undefined,
    databasePoolSize: intFromEnv('DATABASE_POOL_SIZE', 10),
    statementTimeoutMs: intFromEnv('STATEMENT_TIMEOUT_MS', 30_000),
    demo: boolFromEnv('OPSDECK_DEMO', true),
    webDir: path.resolve(process.env.WEB_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    logLevel,
    ...overrides,
  };
}
