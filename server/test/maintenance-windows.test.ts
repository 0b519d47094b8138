// Maintenance windows on a real database: the migration's constraints and the occurrence queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { activeMaintenance, maintenanceOccurrences } from '../src/maintenance/windows.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds())('maintenance windows on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db;
  });
  afterAll(async () => {
    await test?.close();
  });

  const checkA = '11111111-1111-1111-1111-111111111111';
  const compB = '22222222-2222-2222-2222-222222222222';

  it('rejects windows that are neither one-off nor recurring, and a second live window of the same name', async () => {
    await expect(db.query(`INSERT INTO maintenance_windows (name) VALUES ('nothing')`)).rejects.toThrow();
    await expect(
      db.query(
        `INSERT INTO maintenance_windows (name, starts_at, ends_at) VALUES ('backwards', now(), now() - interval '1h')`,
      ),
    ).rejects.toThrow();
    await expect(
      db.query(`INSERT INTO maintenance_windows (name, schedule) VALUES ('no-duration', '0 2 * * *')`),
    ).rejects.toThrow();
    await db.query(
      `INSERT INTO maintenance_windows (name, starts_at, ends_at, deleted_at) VALUES ('dup', now(), now() + interval '1h', now())`,
    );
    await db.query(
      `INSERT INTO maintenance_windows (name, starts_at, ends_at) VALUES ('dup', now(), now() + interval '1h')`,
    );
    await expect(
      db.query(
        `INSERT INTO maintenance_windows (name, starts_at, ends_at) VALUES ('dup', now(), now() + interval '1h')`,
      ),
    ).rejects.toThrow();
    await db.query(`DELETE FROM maintenance_windows`);
  });

  it('lists occurrences in a range, expanding recurring windows, skipping deleted ones', async () => {
    await db.query(
      `INSERT INTO maintenance_windows (name, message, starts_at, ends_at, check_ids, status_pages)
       VALUES ('db upgrade', 'Upgrading the database', '2026-03-01T10:00:00Z', '2026-03-01T12:00:00Z', $1, '{public}')`,
      [[checkA]],
    );
    await db.query(
      `INSERT INTO maintenance_windows (name, schedule, duration, timezone, component_ids, silence)
       VALUES ('nightly', '0 2 * * *', '1h', 'UTC', $1, false)`,
      [[compB]],
    );
    await db.query(
      `INSERT INTO maintenance_windows (name, starts_at, ends_at, deleted_at)
       VALUES ('gone', '2026-03-01T00:00:00Z', '2026-03-02T00:00:00Z', now())`,
    );
    const occ = await maintenanceOccurrences(db, new Date('2026-03-01T00:00:00Z'), new Date('2026-03-02T23:59:59Z'));
    expect(occ.map((o) => [o.name, o.start.toISOString(), o.end.toISOString()])).toEqual([
      ['nightly', '2026-03-01T02:00:00.000Z', '2026-03-01T03:00:00.000Z'],
      ['db upgrade', '2026-03-01T10:00:00.000Z', '2026-03-01T12:00:00.000Z'],
      ['nightly', '2026-03-02T02:00:00.000Z', '2026-03-02T03:00:00.000Z'],
    ]);
    const up = occ.find((o) => o.name === 'db upgrade')!;
    expect(up).toMatchObject({
      message: 'Upgrading the database',
      checkIds: [checkA],
      componentIds: [],
      statusPages: ['public'],
      silence: true,
    });
    expect(typeof up.id).toBe('string');
    expect(occ.find((o) => o.name === 'nightly')).toMatchObject({ componentIds: [compB], silence: false });

    expect((await activeMaintenance(db, new Date('2026-03-01T11:00:00Z'))).map((o) => o.name)).toEqual(['db upgrade']);
    expect((await activeMaintenance(db, new Date('2026-03-05T02:30:00Z'))).map((o) => o.name)).toEqual(['nightly']);
    expect(await activeMaintenance(db, new Date('2026-03-01T12:00:00Z'))).toEqual([]);
  });
});
