// The embedded database's VACUUM and ANALYZE (db/embeddedMaintenance.ts) on a real PGlite: a table
// filled after start gets statistics, one with many deleted rows is vacuumed (its dead rows gone),
// one table per pass, each run in job_history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { EmbeddedMaintenance } from '../src/db/embeddedMaintenance.js';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';

describe('embedded database maintenance on PGlite', () => {
  let test: TestDatabase;
  let db: Database;

  beforeAll(async () => {
    test = await openTestDatabase('pglite');
    db = test.db;
  });
  afterAll(async () => {
    await test?.close();
  });

  // A backend reports its change counters at most once a second unless told to (PostgreSQL's pgstat).
  const stats = async (name: string) => {
    await db.query('SELECT pg_stat_force_next_flush()');
    return (
      await db.query<{ reltuples: number; dead: number }>(
        `SELECT c.reltuples::float8 AS reltuples, coalesce(s.n_dead_tup, 0)::float8 AS dead
         FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.relname = $1`,
        [name],
      )
    ).rows[0]!;
  };

  it('analyzes what changed, vacuums what was deleted, one table a pass, and records each run', async () => {
    const maintenance = new EmbeddedMaintenance(db);
    // Whatever the migrations and earlier statements left due goes first.
    while (await maintenance.pass());

    await db.exec(`CREATE TABLE maint_a (id int PRIMARY KEY, v text)`);
    await db.exec(`INSERT INTO maint_a SELECT g, repeat('x', 50) FROM generate_series(1, 5000) g`);
    expect((await stats('maint_a')).reltuples).toBeLessThan(1);
    const first = await maintenance.pass();
    expect(first).toMatchObject({ name: 'maint_a', action: 'ANALYZE' });
    expect((await stats('maint_a')).reltuples).toBe(5000);
    expect(await maintenance.pass()).toBeUndefined();

    await db.exec(`DELETE FROM maint_a WHERE id <= 3000`);
    await db.query('SELECT pg_stat_force_next_flush()');
    expect((await stats('maint_a')).dead).toBe(3000);
    expect(await maintenance.pass()).toMatchObject({ name: 'maint_a', action: 'VACUUM (ANALYZE)' });
    const after = await stats('maint_a');
    expect(after.dead).toBe(0);
    expect(after.reltuples).toBe(2000);
    expect(await maintenance.pass()).toBeUndefined();

    const { rows } = await db.query<{ status: string; details: { action: string } }>(
      `SELECT status, details FROM job_history WHERE name = 'db-maintenance:maint_a' ORDER BY time_start`,
    );
    expect(rows.map((r) => [r.status, r.details.action])).toEqual([
      ['SUCCESS', 'ANALYZE'],
      ['SUCCESS', 'VACUUM (ANALYZE)'],
    ]);
  });

  it('records a failed statement and leaves that table alone, so the others still get theirs', async () => {
    const broken: Database = {
      ...db,
      kind: db.kind,
      query: db.query.bind(db),
      exec: (sql: string) => (sql.includes('maint_b') ? Promise.reject(new Error('disk full')) : db.exec(sql)),
    };
    const maintenance = new EmbeddedMaintenance(broken);
    while (await maintenance.pass());
    await db.exec(`CREATE TABLE maint_b (id int PRIMARY KEY)`);
    await db.exec(`INSERT INTO maint_b SELECT g FROM generate_series(1, 2000) g`);
    await db.exec(`CREATE TABLE maint_c (id int PRIMARY KEY)`);
    await db.exec(`INSERT INTO maint_c SELECT g FROM generate_series(1, 500) g`);
    await db.query('SELECT pg_stat_force_next_flush()');
    await expect(maintenance.pass()).rejects.toThrow('ANALYZE maint_b: disk full');
    expect(await maintenance.pass()).toMatchObject({ name: 'maint_c', action: 'ANALYZE' });
    expect(await maintenance.pass()).toBeUndefined();
    const { rows } = await db.query<{ status: string; details: { errors: string[] } }>(
      `SELECT status, details FROM job_history WHERE name = 'db-maintenance:maint_b'`,
    );
    expect(rows).toEqual([{ status: 'FAILED', details: { action: 'ANALYZE', errors: ['disk full'] } }]);
  });
});
