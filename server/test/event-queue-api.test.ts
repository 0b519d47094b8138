// /api/event-queue over real sockets: an admin retries or discards the failed events of one name
// (200 {name, count}, a job history row each), everyone else gets 403, a missing name 400; the
// summary at /api/db/event_queue_summary is never cached and raw writes to event_queue are an admin's.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds())('event queue API on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let editor: TestUser;
  let viewer: TestUser;

  const call = (path: string, user: TestUser, init: { method?: string; body?: string } = {}) =>
    fetch(`${app.url}${path}`, {
      method: init.method ?? 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: init.body,
    });
  const failEvents = async (name: string, count: number) => {
    await test.db.query(
      `INSERT INTO event_queue (name, attempts, error, last_attempt, first_failure)
       SELECT $1, 5, 'smtp: connection refused', now(), now() FROM generate_series(1, $2::int)`,
      [name, count],
    );
  };
  const countOf = async (sql: string, params: unknown[]) =>
    (await test.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
  });
  beforeEach(async () => {
    await test.db.query('DELETE FROM event_queue');
  });

  it('lets an admin put the failed events of one name back in the queue, recorded in job history', async () => {
    await failEvents('check.failed', 3);
    await failEvents('component.unhealthy', 1);
    await test.db.query(`INSERT INTO event_queue (name) VALUES ('check.failed')`);

    const res = await call('/api/event-queue/retry', admin, { body: JSON.stringify({ name: 'check.failed' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'check.failed', count: 3 });
    expect(await countOf(`event_queue WHERE name = 'check.failed' AND attempts = 0 AND error IS NULL`, [])).toBe(4);
    expect(await countOf(`event_queue WHERE name = 'component.unhealthy' AND error IS NOT NULL`, [])).toBe(1);

    const { rows } = await test.db.query<{ status: string; success_count: number; details: Record<string, unknown> }>(
      `SELECT status, success_count, details FROM job_history
       WHERE name = 'Event Queue' AND resource_type = 'event_queue' AND resource_id = 'check.failed'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'SUCCESS',
      success_count: 3,
      details: { action: 'retry', name: 'check.failed', count: 3, by: admin.id },
    });
  });

  it('lets an admin discard the failed events of one name, and answers 0 when there are none', async () => {
    await failEvents('check.failed', 2);
    await test.db.query(`INSERT INTO event_queue (name) VALUES ('check.failed')`);

    const res = await call('/api/event-queue/discard', admin, { body: JSON.stringify({ name: 'check.failed' }) });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'check.failed', count: 2 });
    // The pending one stays.
    expect(await countOf(`event_queue WHERE name = 'check.failed'`, [])).toBe(1);

    const again = await call('/api/event-queue/discard', admin, { body: JSON.stringify({ name: 'check.failed' }) });
    expect(await again.json()).toEqual({ name: 'check.failed', count: 0 });
    expect(
      await countOf(`job_history WHERE name = 'Event Queue' AND details->>'action' = 'discard'`, []),
    ).toBeGreaterThanOrEqual(2);
  });

  it('answers 400 without a name', async () => {
    for (const body of [undefined, '{}', '{"name": ""}', '{"name": 3}', 'not json']) {
      const res = await call('/api/event-queue/retry', admin, { body });
      expect(res.status, String(body)).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/name|JSON/);
    }
  });

  it('refuses retry and discard to editors and viewers (403) and changes nothing', async () => {
    await failEvents('check.failed', 1);
    for (const user of [editor, viewer]) {
      for (const action of ['retry', 'discard']) {
        const res = await call(`/api/event-queue/${action}`, user, { body: JSON.stringify({ name: 'check.failed' }) });
        expect(res.status, action).toBe(403);
      }
      // Nor around the API, through /api/db.
      const raw = await call('/api/db/event_queue?name=eq.check.failed', user, { method: 'DELETE' });
      expect(raw.status).toBe(403);
      const patch = await call('/api/db/event_queue?name=eq.check.failed', user, {
        method: 'PATCH',
        body: JSON.stringify({ attempts: 0, error: null }),
      });
      expect(patch.status).toBe(403);
    }
    expect(await countOf(`event_queue WHERE error IS NOT NULL`, [])).toBe(1);
    expect(await countOf(`job_history WHERE name = 'Event Queue' AND details->>'by' <> $1`, [admin.id])).toBe(0);
  });

  it('serves the summary to every role, never from a cache, sorted and filtered on the server', async () => {
    await failEvents('check.failed', 2);
    await failEvents('component.unhealthy', 1);
    await test.db.query(`INSERT INTO event_queue (name) VALUES ('component.unhealthy'), ('config.updated')`);
    for (const user of [admin, editor, viewer]) {
      const res = await call('/api/db/event_queue_summary?name=ilike.*c*&order=failed.desc', user, {
        method: 'GET',
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const rows = (await res.json()) as { name: string; pending: number; failed: number }[];
      expect(rows.map((r) => [r.name, r.pending, r.failed])).toEqual([
        ['check.failed', 0, 2],
        ['component.unhealthy', 1, 1],
        ['config.updated', 1, 0],
      ]);
    }
    // Other reads keep their usual headers.
    const jobs = await call('/api/db/job_history?limit=1', admin, { method: 'GET' });
    expect(jobs.headers.get('cache-control')).toBeNull();
  });
});
