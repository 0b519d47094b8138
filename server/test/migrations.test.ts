import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, type Database } from '../src/db/database.js';
import { loadMigrations, migrate } from '../src/db/migrate.js';
import { createPostgresDatabase, databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const CORE_TABLES = [
  'people',
  'teams',
  'team_members',
  'properties',
  'agents',
  'access_tokens',
  'job_history',
  'event_queue',
  'connections',
];

async function tableExists(db: Database, name: string): Promise<boolean> {
  const { rows } = await db.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [
    `public.${name}`,
  ]);
  return rows[0]?.found != null;
}

describe.each(databaseKinds())('migrations on %s', (kind) => {
  let test: TestDatabase;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
  });
  afterAll(async () => {
    await test?.close();
  });

  it('applies every migration to an empty database, in order', async () => {
    let db: Database;
    let drop = async () => {};
    if (kind === 'pglite') {
      db = await openPglite(undefined);
    } else {
      const created = await createPostgresDatabase();
      drop = created.drop;
      db = await openPostgres(created.url, 2);
    }
    try {
      const applied = await migrate(db);
      expect(applied).toEqual(loadMigrations().map((m) => m.name));
      const { rows } = await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.name)).toEqual(applied);
    } finally {
      await db.close();
      await drop();
    }
  });

  it('applies nothing when run again', async () => {
    expect(await migrate(test.db)).toEqual([]);
    expect(await migrate(test.db)).toEqual([]);
  });

  it('creates the core tables', async () => {
    for (const table of CORE_TABLES) expect(await tableExists(test.db, table), table).toBe(true);
  });

  it('rolls back a failing migration completely', async () => {
    const bad = {
      version: 9001,
      name: '9001_broken',
      sql: `CREATE TABLE half_applied (id integer PRIMARY KEY);
            INSERT INTO half_applied VALUES (1);
            SELECT * FROM no_such_table;`,
    };
    await expect(migrate(test.db, [...loadMigrations(), bad])).rejects.toThrow(/no_such_table/);

    expect(await tableExists(test.db, 'half_applied')).toBe(false);
    const { rows } = await test.db.query('SELECT 1 FROM schema_migrations WHERE version = $1', [bad.version]);
    expect(rows).toHaveLength(0);
    // The database is still usable and the earlier migrations are intact.
    expect(await migrate(test.db)).toEqual([]);
  });
});
