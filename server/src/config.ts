// Runtime configuration, read once from the environment. Every variable is documented in README.md.
// `opsdeck agent` reads its own (OPSDECK_UPSTREAM_URL, OPSDECK_AGENT_TOKEN, OPSDECK_AGENT_NAME,
// OPSDECK_AGENT_CONFIG_DIR) in agents/agentMode.ts agentOptionsFrom, beside its command-line flags.
import path from 'node:path';
import { z } from 'zod';
import { isMode, MODES, type Mode } from '@opsdeck/common/modes';
import { retentionDaysFromEnv, type RetentionDays } from './retention/tables.js';

export interface Config {
  port: number;
  host: string;
  /** Directory of the embedded PGlite database; ignored when databaseUrl is set. */
  dataDir: string;
  /**
   * PGLITE_SHARED_BUFFERS: the embedded database's shared_buffers (e.g. 16MB); PGlite's own default
   * when unset. `opsdeck agent` uses 16MB unless told otherwise, to keep an agent small.
   */
  pgliteSharedBuffers: string | undefined;
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
  /** The address users reach the console at: links in emails, OIDC callbacks, the allowed Origin. */
  publicUrl: string;
  /** Signs sessions; generated once and kept in the database when not given. */
  authSecret: string | undefined;
  /** OPSDECK_ENCRYPTION_KEY: seals connection secrets at rest (default: a key kept in the database). */
  encryptionKey: string | undefined;
  /** The first administrator, created on first start when no admin exists. */
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** 'invite': accounts only through an admin's invite (default); 'open': anyone may register. */
  registration: 'invite' | 'open';
  /** smtp(s)://user:password@host:port for outgoing mail; unset = no mail (links are shown instead). */
  smtpUrl: string | undefined;
  smtpFrom: string;
  /** An OpenID Connect provider for sign-in ("hosted identity provider"). */
  oidc: { issuer: string; clientId: string; clientSecret: string; name: string } | undefined;
  /** Honour X-Forwarded-For for the client address (behind a reverse proxy). */
  trustProxy: boolean;
  /** Sign-in attempts (and second-factor codes) allowed per client address per minute. */
  signInRateLimit: number;
  /**
   * AUTH_CACHE_MS: how long a replica keeps what a session or token resolved to (PostgreSQL; 0 = look up
   * on every request). Changes reach every replica at once anyway (0034: LISTEN opsdeck_auth).
   */
  authCacheMs?: number;
  /**
   * OPSDECK_MODE: `full` (default) or `health` — only the health engine, the /health page, status pages
   * and the settings they need; the other areas' routes and APIs are absent (404). See common/src/modes.ts.
   */
  mode: Mode;
  /** Run the background engines (check scheduler, roll-ups); off for tools and some tests. */
  engines: boolean;
  /** STATUS_PAGE_CACHE_MS: how long a computed public status page is served to other readers (0 = computed per request). */
  statusPageCacheMs: number;
  /** METRICS_TOKEN: when set, /metrics wants `Authorization: Bearer <token>`; unset = open (private network). */
  metricsToken: string | undefined;
  /**
   * LEASE_MS: how long a lease on work (a canary run, a topology build, a scrape, a notification send,
   * a playbook run, the incident pass, a retention run) lasts unless its replica renews it; a killed
   * replica's work is taken over by another within this (plus a poll). Default 30 s.
   */
  leaseMs: number;
  /** LEASE_HEARTBEAT_MS: how often a replica renews all its leases in one statement (default LEASE_MS / 3). */
  leaseHeartbeatMs: number;
  /**
   * HTTP_KEEP_ALIVE_TIMEOUT_MS: how long an idle keep-alive connection stays open (default 65 s). It
   * must be longer than the idle timeout of a proxy or load balancer in front (60 s on most): if the
   * server closes first, a request the proxy sends at that moment gets a reset instead of an answer.
   */
  keepAliveTimeoutMs: number;
  /** SHUTDOWN_TIMEOUT_MS: how long SIGTERM waits for work under way before handing it to other replicas. */
  shutdownTimeoutMs: number;
  /** AGENT_PUSH_PER_SECOND / AGENT_PUSH_BURST: the token bucket each agent's pushes go through (429 beyond it). */
  agentPushRate: { perSecond: number; burst: number };
  /** Days raw check results are kept (hourly and daily roll-ups are kept longer): retentionDays.check_statuses. */
  checkRetentionDays: number;
  /**
   * Days each growing table is kept, by table (RETENTION_<TABLE>_DAYS, CHECK_RETENTION_DAYS as the
   * older name of RETENTION_CHECK_STATUS_DAYS; 0 keeps rows forever): see retention/tables.ts.
   */
  retentionDays: RetentionDays;
}

function intFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return n;
}

function positiveIntFromEnv(name: string, fallback: number): number {
  const n = intFromEnv(name, fallback);
  if (n === 0) throw new Error(`${name} must be at least 1, got "0"`);
  return n;
}

function boolFromEnv(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false, got "${raw}"`);
}

function modeFromEnv(): Mode {
  const raw = (process.env.OPSDECK_MODE ?? '').trim().toLowerCase();
  if (raw === '') return 'full';
  if (!isMode(raw)) {
    throw new Error(`OPSDECK_MODE must be one of ${MODES.join(', ')}, got "${process.env.OPSDECK_MODE}"`);
  }
  return raw;
}

export function loadConfig(overrides: Partial<Config> = {}): Config {
  const logLevel = (process.env.LOG_LEVEL ?? 'info') as Config['logLevel'];
  if (!['debug', 'info', 'warn', 'error'].includes(logLevel)) {
    throw new Error(`LOG_LEVEL must be one of debug, info, warn, error, got "${logLevel}"`);
  }
  const port = overrides.port ?? intFromEnv('PORT', 8080);
  const registration = process.env.REGISTRATION ?? 'invite';
  if (registration !== 'invite' && registration !== 'open') {
    throw new Error(`REGISTRATION must be invite or open, got "${registration}"`);
  }
  const adminEmail = process.env.ADMIN_EMAIL;
  // The same rule sign-in applies: an address it refuses would leave the first admin locked out.
  if (adminEmail && !z.email().safeParse(adminEmail).success) {
    throw new Error(`ADMIN_EMAIL must be a valid email address (like admin@example.com), got "${adminEmail}"`);
  }
  const oidcIssuer = process.env.OIDC_ISSUER;
  if (oidcIssuer && (!process.env.OIDC_CLIENT_ID || !process.env.OIDC_CLIENT_SECRET)) {
    throw new Error('OIDC_ISSUER is set: OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are required too');
  }
  const retentionDays = retentionDaysFromEnv();
  const publicUrl = (process.env.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new Error(`PUBLIC_URL must be a URL such as https://opsdeck.example.com, got "${publicUrl}"`);
  }
  return {
    port,
    host: process.env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(process.env.DATA_DIR ?? 'data'),
    pgliteSharedBuffers: sharedBuffersFromEnv(),
    databaseUrl: process.env.DATABASE_URL || undefined,
    databasePoolSize: intFromEnv('DATABASE_POOL_SIZE', 10),
    statementTimeoutMs: intFromEnv('STATEMENT_TIMEOUT_MS', 30_000),
    demo: boolFromEnv('OPSDECK_DEMO', true),
    webDir: path.resolve(process.env.WEB_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    logLevel,
    publicUrl,
    authSecret: process.env.AUTH_SECRET || undefined,
    encryptionKey: process.env.OPSDECK_ENCRYPTION_KEY || undefined,
    adminEmail: process.env.ADMIN_EMAIL || undefined,
    adminPassword: process.env.ADMIN_PASSWORD || undefined,
    registration,
    smtpUrl: process.env.SMTP_URL || undefined,
    smtpFrom: process.env.SMTP_FROM ?? 'Opsdeck <opsdeck@localhost>',
    oidc: oidcIssuer
      ? {
          issuer: oidcIssuer.replace(/\/+$/, ''),
          clientId: process.env.OIDC_CLIENT_ID!,
          clientSecret: process.env.OIDC_CLIENT_SECRET!,
          name: process.env.OIDC_NAME ?? 'Single sign-on',
        }
      : undefined,
    trustProxy: boolFromEnv('TRUST_PROXY', false),
    signInRateLimit: intFromEnv('SIGN_IN_RATE_LIMIT', 10),
    authCacheMs: intFromEnv('AUTH_CACHE_MS', 30_000),
    engines: boolFromEnv('OPSDECK_ENGINES', true),
    statusPageCacheMs: intFromEnv('STATUS_PAGE_CACHE_MS', 5_000),
    mode: modeFromEnv(),
    metricsToken: process.env.METRICS_TOKEN || undefined,
    shutdownTimeoutMs: intFromEnv('SHUTDOWN_TIMEOUT_MS', 25_000),
    keepAliveTimeoutMs: positiveIntFromEnv('HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000),
    ...leasesFromEnv(),
    agentPushRate: {
      perSecond: positiveIntFromEnv('AGENT_PUSH_PER_SECOND', 20),
      burst: positiveIntFromEnv('AGENT_PUSH_BURST', 40),
    },
    checkRetentionDays: retentionDays.check_statuses!,
    retentionDays,
    ...overrides,
  };
}

/** LEASE_MS and LEASE_HEARTBEAT_MS: the heartbeat renews at most every half lease, so one late beat loses nothing. */
function leasesFromEnv(): { leaseMs: number; leaseHeartbeatMs: number } {
  const leaseMs = intFromEnv('LEASE_MS', 30_000);
  if (leaseMs < 2_000) throw new Error(`LEASE_MS must be at least 2000 (2 s), got "${leaseMs}"`);
  const leaseHeartbeatMs = intFromEnv('LEASE_HEARTBEAT_MS', Math.floor(leaseMs / 3));
  if (leaseHeartbeatMs < 100 || leaseHeartbeatMs * 2 > leaseMs) {
    throw new Error(
      `LEASE_HEARTBEAT_MS must be between 100 and half of LEASE_MS (${Math.floor(leaseMs / 2)}), got "${leaseHeartbeatMs}"`,
    );
  }
  return { leaseMs, leaseHeartbeatMs };
}

/** PGLITE_SHARED_BUFFERS: a size PostgreSQL reads (128kB, 16MB, 1GB); refused otherwise. */
function sharedBuffersFromEnv(): string | undefined {
  const v = process.env.PGLITE_SHARED_BUFFERS?.trim();
  if (!v) return undefined;
  if (!/^\d+(kB|MB|GB)$/.test(v)) throw new Error(`PGLITE_SHARED_BUFFERS must be a size such as 16MB, got "${v}"`);
  return v;
}
