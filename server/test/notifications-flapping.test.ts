// Flap damping in the notification consumer: a resource flipping more than `flaps` times within the
// window gets one "flapping" message, further flips are held (cancelled, reason flapping), and one
// "settled" message follows when it has been calm for the window: on its next change, or swept when it
// settles quietly.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { EventRouter } from '../src/jobs/eventQueue.js';
import { NotificationConsumer } from '../src/notifications/consumer.js';
import { RuleCache } from '../src/notifications/rules.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import * as f from './helpers/notificationFixtures.js';

interface HistoryRow {
  id: string;
  status: string;
  source_event: string;
  resource_id: string | null;
  reason: string | null;
  body_payload: Record<string, unknown>;
}

const HOOK = { url: 'generic+https://hooks.example.com/path' };

describe.each(databaseKinds())('flap damping on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;
  let router: EventRouter;
  let consumer: NotificationConsumer;
  const drain = () => router.drain();
  const history = async () =>
    (await db.query<HistoryRow>('SELECT * FROM notification_send_history ORDER BY created_at, id')).rows;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db;
  });
  afterAll(async () => {
    await test?.close();
  });
  beforeEach(async () => {
    await db.exec(`DELETE FROM notification_send_history; DELETE FROM notification_flap_notices;
      DELETE FROM notification_resource_flips; DELETE FROM notifications; DELETE FROM event_queue`);
    router = new EventRouter(db);
    consumer = new NotificationConsumer({ publicUrl: 'https://opsdeck.example.com', rules: new RuleCache(0) });
    router.register(consumer);
  });

  it('sends one "flapping" message, holds further flips, and one "settled" message after a calm window', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'wobbly');
    await f.rule(db, { name: 'r', events: ['check.failed', 'check.passed'], custom_services: [HOOK] });
    for (let i = 0; i < 4; i++) {
      await f.checkFailed(db, checkId);
      await f.checkPassed(db, checkId);
    }
    await drain();
    const rows = await history();
    const flapping = rows.filter((r) => r.body_payload.flapping === 'flapping');
    expect(flapping).toHaveLength(1);
    expect(flapping[0]!.status).toBe('pending');
    const after = rows.slice(rows.indexOf(flapping[0]!) + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((r) => r.status === 'cancelled' && /^flapping/.test(r.reason ?? ''))).toBe(true);
    // Calm for the window: the next change sends one "settled" message.
    await db.query(
      `UPDATE notification_resource_flips SET changes = ARRAY(SELECT t - interval '11 minutes' FROM unnest(changes) t)`,
    );
    await f.checkFailed(db, checkId);
    await drain();
    const last = (await history()).at(-1)!;
    expect(last).toMatchObject({ status: 'pending' });
    expect(last.body_payload.flapping).toBe('settled');
  });

  it('sends the "settled" message when a flapping resource goes quiet without another event', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'wobbly');
    await f.rule(db, { name: 'r', events: ['check.failed', 'check.passed'], custom_services: [HOOK] });
    for (let i = 0; i < 3; i++) {
      await f.checkFailed(db, checkId);
      await f.checkPassed(db, checkId);
    }
    await drain();
    expect((await history()).filter((r) => r.body_payload.flapping === 'flapping')).toHaveLength(1);
    expect(await db.transaction((tx) => consumer.settleQuiet(tx))).toBe(0);
    await db.query(
      `UPDATE notification_resource_flips SET changes = ARRAY(SELECT t - interval '11 minutes' FROM unnest(changes) t)`,
    );
    expect(await db.transaction((tx) => consumer.settleQuiet(tx))).toBe(1);
    const last = (await history()).at(-1)!;
    expect(last).toMatchObject({ status: 'pending', source_event: 'check.passed', resource_id: checkId });
    expect(last.body_payload.flapping).toBe('settled');
    expect(last.reason).toMatch(/settled: no state change for 10m/);
    // Once only.
    expect(await db.transaction((tx) => consumer.settleQuiet(tx))).toBe(0);
  });
});
