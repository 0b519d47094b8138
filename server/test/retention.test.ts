// Retention on a real database: for every table in RETENTION_TABLES, rows older than the table's days
// go and newer ones (and the rows kept whatever their age: pending sends, runs under way, open
// insights, events not given up on) stay; each run is one job_history row `retention:<table>` with
// its count; deletes happen in bounded batches; a table's lease lets only one of two concurrent
// runners delete (two pg pools on PostgreSQL); the days come from RETENTION_*_DAYS with
// CHECK_RETENTION_DAYS as the older name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/database.js';
import { runRetention } from '../src/retention/run.js';
import { RetentionRunner } from '../src/retention/runner.js';
import { RETENTION_TABLES, retentionDaysFromEnv, retentionTable } from '../src/retention/tables.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const count = async (db: Database, sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) q`, params)).rows[0]!.n);

describe('retention days from the environment', () => {
  it('reads each table’s variable, falls back to CHECK_RETENTION_DAYS, then the default', () => {
    const days = retentionDaysFromEnv({ CHECK_RETENTION_DAYS: '12', RETENTION_AUDIT_DAYS: '0' });
    expect(days.check_statuses).toBe(12);
    expect(days.notification_send_history).toBe(12);
    expect(days.audit_log).toBe(0);
    expect(days.job_history).toBe(30);
    const explicit = retentionDaysFromEnv({ CHECK_RETENTION_DAYS: '12', RETENTION_CHECK_STATUS_DAYS: '7' });
    expect(explicit.check_statuses).toBe(7);
  });

  it('refuses a value that is not a whole number of days, naming the variable', () => {
    expect(() => retentionDaysFromEnv({ RETENTION_JOB_HISTORY_DAYS: 'ten' })).toThrow(
      'RETENTION_JOB_HISTORY_DAYS must be a whole number of days (0 keeps rows forever), got "ten"',
    );
  });
});

describe.each(databaseKinds())('retention on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;

  /** Inserts `old` rows 40 days old and `fresh` rows of today into every table, plus rows that must stay. */
  async function seed(old: number, fresh: number) {
    const { rows: canary } = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('retention-' || gen_random_uuid(), '{}') RETURNING id`,
    );
    const { rows: check } = await db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', 'c') RETURNING id`,
      [canary[0]!.id],
    );
    const checkId = check[0]!.id;
    const { rows: item } = await db.query<{ id: string }>(
      `INSERT INTO config_items (external_id, type, config_class, name) VALUES (gen_random_uuid()::text, 'T', 'C', 'i') RETURNING id`,
    );
    const configId = item[0]!.id;
    const { rows: rule } = await db.query<{ id: string }>(
      `INSERT INTO notifications (name, events) VALUES ('retention-' || gen_random_uuid(), '{check.failed}') RETURNING id`,
    );
    const { rows: playbook } = await db.query<{ id: string }>(
      `INSERT INTO playbooks (name, spec) VALUES ('retention-' || gen_random_uuid(), '{}') RETURNING id`,
    );
    const ages: [string, number][] = [
      ['40 days', old],
      ['1 hour', fresh],
    ];
    for (const [age, n] of ages) {
      const at = `now() - interval '${age}'`;
      const g = `generate_series(1, ${n}) g`;
      await db.query(
        `INSERT INTO check_statuses (check_id, time, status) SELECT $1, ${at} - g * interval '1 second', true FROM ${g}`,
        [checkId],
      );
      await db.query(`INSERT INTO job_history (name, created_at) SELECT 'x', ${at} FROM ${g}`);
      await db.query(`INSERT INTO event_queue (name, attempts, created_at) SELECT 'x', 5, ${at} FROM ${g}`);
      await db.query(
        `INSERT INTO config_changes (config_id, change_type, created_at) SELECT $1, 'diff', ${at} FROM ${g}`,
        [configId],
      );
      await db.query(
        `INSERT INTO config_analysis (config_id, analyzer, status, last_observed)
         SELECT $1, 'a-${age}-' || g, 'resolved', ${at} FROM ${g}`,
        [configId],
      );
      await db.query(
        `INSERT INTO notification_send_history (notification_id, status, source_event, created_at)
         SELECT $1, 'sent', 'check.failed', ${at} FROM ${g}`,
        [rule[0]!.id],
      );
      await db.query(
        `INSERT INTO playbook_runs (playbook_id, status, spec, created_at) SELECT $1, 'completed', '{}', ${at} FROM ${g}`,
        [playbook[0]!.id],
      );
      await db.query(
        `INSERT INTO audit_log (actor_kind, action, resource_type, at) SELECT 'system', 'x', 'y', ${at} FROM ${g}`,
      );
      for (const t of ['check_statuses_1h', 'check_statuses_1d'])
        await db.query(
          `INSERT INTO ${t} (check_id, created_at, total, passed, failed, duration_avg, duration_max)
           SELECT $1, date_trunc('hour', ${at}) - g * interval '1 hour', 1, 1, 0, 5, 5 FROM ${g}`,
          [checkId],
        );
    }
    // Old rows that stay: an event still being retried, a pending send, a run under way, an open insight.
    await db.query(`INSERT INTO event_queue (name, attempts, created_at) VALUES ('x', 1, now() - interval '400 days')`);
    await db.query(
      `INSERT INTO notification_send_history (notification_id, status, source_event, created_at)
       VALUES ($1, 'pending', 'check.failed', now() - interval '400 days')`,
      [rule[0]!.id],
    );
    await db.query(
      `INSERT INTO playbook_runs (playbook_id, status, spec, created_at) VALUES ($1, 'running', '{}', now() - interval '400 days')`,
      [playbook[0]!.id],
    );
    await db.query(
      `INSERT INTO config_analysis (config_id, analyzer, status, last_observed) VALUES ($1, 'open', 'open', now() - interval '400 days')`,
      [configId],
    );
    return { checkId };
  }

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db;
  });
  afterAll(async () => {
    await test?.close();
  });

  it('deletes what is past each table’s days in batches, keeps the rest, and records each run', async () => {
    await seed(7, 3);
    const kept: Record<string, number> = {};
    for (const t of RETENTION_TABLES) kept[t.table] = await count(db, `SELECT 1 FROM ${t.table}`);
    for (const t of RETENTION_TABLES) {
      const r = await runRetention(db, t, { owner: 'test', days: 30, batch: 3 });
      expect(r, t.table).toMatchObject({ ran: true, deleted: 7, batches: 3 });
      // (job_history also gains the runs recorded so far.)
      if (t.table !== 'job_history')
        expect(await count(db, `SELECT 1 FROM ${t.table}`), t.table).toBe(kept[t.table]! - 7);
    }
    const { rows } = await db.query<{ name: string; success_count: number; status: string; details: unknown }>(
      `SELECT name, success_count, status, details FROM job_history WHERE name LIKE 'retention:%' ORDER BY name`,
    );
    expect(rows.map((r) => r.name).sort()).toEqual(RETENTION_TABLES.map((t) => `retention:${t.table}`).sort());
    for (const r of rows) {
      expect(r.success_count).toBe(7);
      expect(r.status).toBe('SUCCESS');
      expect(r.details).toMatchObject({ days: 30, deleted: 7, batches: 3 });
    }
    // What must stay whatever its age.
    expect(await count(db, `SELECT 1 FROM event_queue WHERE attempts < 5`)).toBe(1);
    expect(await count(db, `SELECT 1 FROM notification_send_history WHERE status = 'pending'`)).toBe(1);
    expect(await count(db, `SELECT 1 FROM playbook_runs WHERE status = 'running'`)).toBe(1);
    expect(await count(db, `SELECT 1 FROM config_analysis WHERE status = 'open'`)).toBe(1);
    // Nothing fresh went.
    expect(await count(db, `SELECT 1 FROM check_statuses WHERE time > now() - interval '1 day'`)).toBe(3);
    expect(await count(db, `SELECT 1 FROM audit_log WHERE at > now() - interval '1 day'`)).toBe(3);
  });

  it('keeps rows forever when a table’s days are 0', async () => {
    await db.query(
      `INSERT INTO audit_log (actor_kind, action, resource_type, at) VALUES ('system', 'x', 'y', now() - interval '9 years')`,
    );
    const r = await runRetention(db, retentionTable('audit_log'), { owner: 'test', days: 0 });
    expect(r.ran).toBe(false);
    expect(await count(db, `SELECT 1 FROM audit_log WHERE at < now() - interval '8 years'`)).toBe(1);
    await db.query(`DELETE FROM audit_log`);
  });

  it('lets one of two concurrent runners prune a table; the other finds it leased or done', async () => {
    await db.query(`DELETE FROM retention_leases`);
    await db.query(`DELETE FROM job_history`);
    await db.query(
      `INSERT INTO job_history (name, created_at) SELECT 'old', now() - interval '40 days' FROM generate_series(1, 2000)`,
    );
    // On PostgreSQL the second runner is another replica: a pool of its own.
    const other = kind === 'postgres' ? await openPostgres(test.url!, 3) : db;
    try {
      const t = retentionTable('job_history');
      const options = { days: 30, batch: 100, minIntervalMs: 3_600_000 };
      const [a, b] = await Promise.all([
        runRetention(db, t, { ...options, owner: 'replica-a' }),
        runRetention(other, t, { ...options, owner: 'replica-b' }),
      ]);
      expect([a.ran, b.ran].filter(Boolean)).toHaveLength(1);
      expect(a.deleted + b.deleted).toBe(2000);
      expect(await count(db, `SELECT 1 FROM job_history WHERE name = 'retention:job_history'`)).toBe(1);
      // Within the interval nobody runs it again; the lease is free and the last run recorded.
      const again = await runRetention(other, t, { ...options, owner: 'replica-b' });
      expect(again.ran).toBe(false);
      const { rows } = await db.query<{ owner: string | null; last_run_at: string | null }>(
        `SELECT owner, last_run_at FROM retention_leases WHERE name = 'job_history'`,
      );
      expect(rows[0]).toMatchObject({ owner: null });
      expect(rows[0]!.last_run_at).not.toBeNull();
    } finally {
      if (other !== db) await other.close();
    }
  });

  it('waits while another replica holds a table’s lease, and takes it over once expired', async () => {
    await db.query(`DELETE FROM retention_leases`);
    await db.query(
      `INSERT INTO retention_leases (name, owner, lease_until) VALUES ('event_queue', 'dead-replica', now() + interval '1 minute')`,
    );
    const t = retentionTable('event_queue');
    expect((await runRetention(db, t, { owner: 'me', days: 30 })).ran).toBe(false);
    await db.query(`UPDATE retention_leases SET lease_until = now() - interval '1 second' WHERE name = 'event_queue'`);
    expect((await runRetention(db, t, { owner: 'me', days: 30 })).ran).toBe(true);
  });

  it('runs every table once per pass of the runner, and not again within the interval', async () => {
    await db.query(`DELETE FROM retention_leases`);
    const days = Object.fromEntries(RETENTION_TABLES.map((t) => [t.table, 30]));
    const runner = new RetentionRunner(db, { days, everyMs: 3_600_000 });
    const first = await runner.pass();
    expect(first.map((r) => r.table).sort()).toEqual(RETENTION_TABLES.map((t) => t.table).sort());
    expect(await runner.pass()).toEqual([]);
  });
});
