// Databases for integration tests: every database test runs on PGlite and, when
// TEST_DATABASE_URL is set (CI sets it), on a real PostgreSQL server too.
//
// PGlite: creating a cluster (initdb) takes seconds, loading a snapshot well under one. The
// migrated snapshot is built once, cached in memory and on disk under .test-cache/ (keyed by
// the migrations and the PGlite version, so later test files in other worker processes reuse
// it), and every openTestDatabase('pglite') loads a fresh copy of it.
// PostgreSQL: each call creates an empty database with a unique name, migrates it, and drops
// it on close().
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import pg from 'pg';
import { openPglite, openPostgres, type Database } from '../../src/db/database.js';
import { loadMigrations, migrate } from '../../src/db/migrate.js';

export type DatabaseKind = 'pglite' | 'postgres';

export interface TestDatabase {
  db: Database;
  /** The connection URL (PostgreSQL only). */
  url?: string;
  close(): Promise<void>;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const cacheDir = path.join(repoRoot, '.test-cache');
const SNAPSHOT_PREFIX = 'pglite-migrated-';

/** The kinds every database test runs on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function databaseKinds(): DatabaseKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export async function openTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const db = await openPglite(undefined, await migratedPgliteSnapshot());
    return { db, close: () => db.close() };
  }
  const created = await createPostgresDatabase();
  let db: Database | undefined;
  try {
    db = await openPostgres(created.url, 5);
    await migrate(db);
  } catch (e) {
    await db?.close().catch(() => undefined);
    await created.drop().catch(() => undefined);
    throw e;
  }
  const opened = db;
  return {
    db: opened,
    url: created.url,
    async close() {
      await opened.close();
      await created.drop();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL

function testDatabaseUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set');
  return url;
}

async function withAdminClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database (opsdeck_t_<random>) on the TEST_DATABASE_URL server. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `opsdeck_t_${crypto.randomBytes(6).toString('hex')}`;
  await withAdminClient(async (client) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name}`);
        return;
      } catch (e) {
        // 55006: "source database template1 is being accessed by other users" — another
        // process is creating a database at the same moment; it passes quickly.
        if ((e as { code?: string }).code !== '55006' || attempt >= 10) throw e;
        await new Promise((r) => setTimeout(r, 100 * attempt));
      }
    }
  });
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    async drop() {
      if (dropped) return;
      dropped = true;
      await withAdminClient(async (client) => {
        await client.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [name],
        );
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------
// PGlite snapshot

let snapshot: Promise<Blob> | undefined;

/** An uncompressed tarball of a freshly migrated PGlite data directory, for loadDataDir. */
export function migratedPgliteSnapshot(): Promise<Blob> {
  snapshot ??= loadOrBuildSnapshot().catch((e: unknown) => {
    snapshot = undefined;
    throw e;
  });
  return snapshot;
}

function snapshotKey(): string {
  const hash = crypto.createHash('sha256');
  // A snapshot is only loadable by the PGlite (PostgreSQL) version that wrote it.
  hash.update(`pglite ${pgliteVersion()}\n`);
  for (const m of loadMigrations()) hash.update(`${m.name}\n${m.sql}\n`);
  return hash.digest('hex').slice(0, 16);
}

function pgliteVersion(): string {
  // The package does not export its package.json: walk up from its entry point.
  let dir = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return 'unknown';
    dir = parent;
  }
}

async function loadOrBuildSnapshot(): Promise<Blob> {
  const file = path.join(cacheDir, `${SNAPSHOT_PREFIX}${snapshotKey()}.tar.gz`);
  try {
    const tar = zlib.gunzipSync(fs.readFileSync(file));
    return new Blob([tar], { type: 'application/x-tar' });
  } catch {
    // Not cached yet (or unreadable): build it below.
  }

  const db = await openPglite(undefined);
  try {
    await migrate(db);
    const pglite = (db as Database & { pglite: { dumpDataDir(c: 'none'): Promise<Blob> } }).pglite;
    const tar = Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer());
    writeSnapshot(file, zlib.gzipSync(tar, { level: 1 }));
    return new Blob([tar], { type: 'application/x-tar' });
  } finally {
    await db.close();
  }
}

/** Writes atomically (several worker processes may race) and removes snapshots of older schemas. */
function writeSnapshot(file: string, gz: Buffer): void {
  try {
    fs.mkdirSync(cacheDir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, gz);
    fs.renameSync(tmp, file);
    for (const f of fs.readdirSync(cacheDir)) {
      if (f.startsWith(SNAPSHOT_PREFIX) && path.join(cacheDir, f) !== file && !f.endsWith('.tmp')) {
        fs.rmSync(path.join(cacheDir, f), { force: true });
      }
    }
  } catch (e) {
    // The cache only saves time; a read-only checkout still runs the tests.
    console.warn(`could not write the PGlite snapshot cache: ${(e as Error).message}`);
  }
}
