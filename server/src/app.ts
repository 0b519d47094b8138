// Builds a running Opsdeck: config → database → migrations → schema cache → HTTP server.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { loadConfig, type Config } from './config.js';
import { openPglite, openPostgres, type Database } from './db/database.js';
import { migrate } from './db/migrate.js';
import { introspect, type SchemaCache } from './db/introspect.js';
import { registry as defaultRegistry, type ExposureRegistry } from './rest/registry.js';
import { createHttpApp } from './http/app.js';
import { VERSION } from './version.js';

export interface AppContext {
  config: Config;
  db: Database;
  registry: ExposureRegistry;
  /** Current schema cache; replaced by reloadSchema() after migrations. */
  schema: SchemaCache;
  reloadSchema(): Promise<void>;
  version: string;
}

export interface Opsdeck {
  url: string;
  port: number;
  ctx: AppContext;
  close(): Promise<void>;
}

export interface StartOptions extends Partial<Config> {
  /** Replaces the built-in exposure registry (tests that expose fixture tables). */
  registry?: ExposureRegistry;
  /** Use this already-open database instead of opening one from the config. */
  database?: Database;
  /** Skip listening (the caller uses ctx with createHttpApp directly). */
  listen?: boolean;
}

export async function openDatabase(config: Config): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl, config.databasePoolSize, config.statementTimeoutMs);
  return openPglite(config.dataDir);
}

export async function createContext(options: StartOptions = {}): Promise<AppContext> {
  const { registry, database, listen: _listen, ...overrides } = options;
  const config = loadConfig(overrides);
  const db = database ?? (await openDatabase(config));
  await migrate(db);
  const ctx: AppContext = {
    config,
    db,
    registry: registry ?? defaultRegistry,
    schema: await introspect(db),
    version: VERSION,
    async reloadSchema() {
      ctx.schema = await introspect(db);
    },
  };
  return ctx;
}

export async function startOpsdeck(options: StartOptions = {}): Promise<Opsdeck> {
  const ctx = await createContext(options);
  const app = createHttpApp(ctx);
  const server: ServerType = await new Promise((resolve) => {
    const s = serve({ fetch: app.fetch, port: ctx.config.port, hostname: ctx.config.host }, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  const host = ctx.config.host === '0.0.0.0' ? '127.0.0.1' : ctx.config.host;
  return {
    url: `http://${host}:${port}`,
    port,
    ctx,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!options.database) await ctx.db.close();
    },
  };
}
