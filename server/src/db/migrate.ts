// Runs the numbered SQL files in db/migrations once each, in order, each in its own transaction.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Finds the migrations folder both from src/ (tsx, tests) and from the bundled dist/. */
export function migrationsDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'migrations'), path.join(here, '../src/db/migrations')];
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`migrations folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

export function loadMigrations(dir = migrationsDir()): Migration[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
    .sort()
    .map((f) => ({
      version: Number(f.slice(0, 4)),
      name: f.replace(/\.sql$/, ''),
      sql: fs.readFileSync(path.join(dir, f), 'utf8'),
    }));
}

/** Applies pending migrations; returns the names applied. Safe to run from several replicas at once. */
export async function migrate(db: Database, migrations = loadMigrations()): Promise<string[]> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  // The usual start: everything is applied already, found with one query and no locks.
  const { rows: done } = await db.query<{ version: number }>('SELECT version FROM schema_migrations');
  const known = new Set(done.map((r) => Number(r.version)));
  const applied: string[] = [];
  for (const m of migrations) {
    if (known.has(m.version)) continue;
    const done = await db.transaction(async (tx) => {
      // Serialise replicas starting together; the lock ends with the transaction.
      await tx.query('SELECT pg_advisory_xact_lock(7253001)');
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [m.version]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(m.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
      return true;
    });
    if (done) applied.push(m.name);
  }
  return applied;
}

/**
 * Splits a migration into statements so each runs through the transaction's query().
 * Understands comments, quoted strings and $tag$ bodies; enough for our own migration files.
 */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let current = '';
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i]!;
    const rest = sql.slice(i);
    if (rest.startsWith('--')) {
      const end = sql.indexOf('\n', i);
      i = end === -1 ? sql.length : end + 1;
      current += '\n';
      continue;
    }
    if (rest.startsWith('/*')) {
      const end = sql.indexOf('*/', i + 2);
      i = end === -1 ? sql.length : end + 2;
      continue;
    }
    const dollar = /^\$[A-Za-z_]*\$/.exec(rest);
    if (dollar) {
      const end = sql.indexOf(dollar[0], i + dollar[0].length);
      const stop = end === -1 ? sql.length : end + dollar[0].length;
      current += sql.slice(i, stop);
      i = stop;
      continue;
    }
    if (ch === "'" || ch === '"') {
      let j = i + 1;
      while (j < sql.length) {
        if (sql[j] === ch) {
          if (sql[j + 1] === ch) j += 2;
          else break;
        } else j++;
      }
      current += sql.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    if (ch === ';') {
      if (current.trim()) out.push(current.trim());
      current = '';
      i++;
      continue;
    }
    current += ch;
    i++;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
