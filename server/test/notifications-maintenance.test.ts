// Maintenance windows silence notifications: a failing check covered by a window in progress (named,
// through its component, or listed on a status page in maintenance) gets a `silenced` send-history row
// naming the window, while a check outside it is delivered for real to a loopback HTTP receiver.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { EventRouter } from '../src/jobs/eventQueue.js';
import { NotificationDelivery } from '../src/notifications/delivery.js';
import { serverChannels } from '../src/notifications/deliveryTargets.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startHttpReceiver, type HttpReceiver } from './helpers/http-receiver.js';
import * as f from './helpers/notificationFixtures.js';

interface Row {
  resource_id: string;
  status: string;
  reason: string | null;
  silenced_by: string | null;
}

describe.each(databaseKinds())('maintenance windows silence notifications on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;
  let router: EventRouter;
  let receiver: HttpReceiver;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db;
    receiver = await startHttpReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await test?.close();
  });
  beforeEach(async () => {
    router = await f.freshConsumer(db);
    await db.query('DELETE FROM maintenance_windows');
    receiver.requests.length = 0;
  });

  const hook = () => ({ url: `generic+${receiver.url}/hook` });
  const history = async () =>
    (await db.query<Row>('SELECT resource_id::text, status, reason, silenced_by FROM notification_send_history')).rows;
  const deliver = () =>
    new NotificationDelivery(db, {
      channels: serverChannels,
      smtp: { url: undefined, from: 'Opsdeck <opsdeck@test>' },
      retryBaseMs: 20,
    }).drain();
  const window = (fields: string, values: string, params: unknown[]) =>
    db.query(`INSERT INTO maintenance_windows (name, message, ${fields}) VALUES ($1, 'Upgrading', ${values})`, params);

  it('silences a check in an active window with the window as the reason, and delivers one outside it', async () => {
    const canaryId = await f.canary(db);
    const inside = await f.check(db, canaryId, 'in-window', { status: 'unhealthy' });
    const outside = await f.check(db, canaryId, 'outside', { status: 'unhealthy' });
    await f.rule(db, { name: 'hook', events: ['check.failed'], custom_services: [hook()] });
    await window('starts_at, ends_at, check_ids', `now() - interval '5 minutes', now() + interval '1 hour', $2`, [
      'db upgrade',
      [inside],
    ]);
    // A window that is over, and one that does not silence, hold nothing.
    await window('starts_at, ends_at, check_ids', `now() - interval '2 hours', now() - interval '1 hour', $2`, [
      'last night',
      [outside],
    ]);
    await window(
      'starts_at, ends_at, check_ids, silence',
      `now() - interval '1 hour', now() + interval '1 hour', $2, false`,
      ['announce only', [outside]],
    );
    await f.checkFailed(db, inside);
    await f.checkFailed(db, outside);
    expect(await router.drain()).toBe(2);

    const rows = await history();
    const held = rows.find((r) => r.resource_id === inside)!;
    expect(held.status).toBe('silenced');
    expect(held.reason).toMatch(/^Silenced by maintenance window "db upgrade" until \d{4}-/);
    expect(held.silenced_by).toBeNull();
    expect(rows.find((r) => r.resource_id === outside)!.status).toBe('pending');

    expect(await deliver()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.last().path).toBe('/hook');
    expect(JSON.stringify(receiver.last().json)).toContain('outside');
    expect((await history()).find((r) => r.resource_id === outside)!.status).toBe('sent');
  });

  it('silences the checks of a component in maintenance and of a recurring window in progress', async () => {
    const canaryId = await f.canary(db);
    const parent = await f.component(db, 'payments');
    const child = await f.component(db, 'payments-db', { parentId: parent });
    const ofChild = await f.check(db, canaryId, 'db-ping', { status: 'unhealthy', componentId: child });
    const byCron = await f.check(db, canaryId, 'cron-covered', { status: 'unhealthy' });
    const free = await f.check(db, canaryId, 'free', { status: 'unhealthy' });
    await f.rule(db, { name: 'hook', events: ['check.failed'], custom_services: [hook()] });
    await window('starts_at, ends_at, component_ids', `now() - interval '1 minute', now() + interval '1 hour', $2`, [
      'payments move',
      [parent],
    ]);
    // Every minute for 2 minutes: always in progress.
    await window('schedule, duration, check_ids', `'* * * * *', '2m', $2`, ['always', [byCron]]);
    for (const id of [ofChild, byCron, free]) await f.checkFailed(db, id);
    await router.drain();
    const rows = await history();
    expect(rows.find((r) => r.resource_id === ofChild)).toMatchObject({
      status: 'silenced',
      reason: expect.stringContaining('maintenance window "payments move"'),
    });
    expect(rows.find((r) => r.resource_id === byCron)).toMatchObject({
      status: 'silenced',
      reason: expect.stringContaining('maintenance window "always"'),
    });
    expect(rows.find((r) => r.resource_id === free)!.status).toBe('pending');
  });

  it('silences the entries of a status page in maintenance (when status pages exist)', async () => {
    const { rows: exists } = await db.query<{ ok: boolean }>(`SELECT to_regclass('status_pages') IS NOT NULL AS ok`);
    if (!exists[0]!.ok) return; // status pages are not in this build
    const canaryId = await f.canary(db);
    const byName = await f.check(db, canaryId, 'shop-front', { status: 'unhealthy' });
    const byLabel = await f.check(db, canaryId, 'shop-api', { status: 'unhealthy', labels: { tier: 'public' } });
    const notOnPage = await f.check(db, canaryId, 'internal', { status: 'unhealthy', labels: { tier: 'private' } });
    await db.query(`DELETE FROM status_pages`);
    await db.query(`INSERT INTO status_pages (slug, spec) VALUES ('shop', $1)`, [
      JSON.stringify({
        title: 'Shop',
        sections: [{ name: 'Web', checks: [{ name: 'shop-front' }, { labelSelector: 'tier=public' }] }],
      }),
    ]);
    await f.rule(db, { name: 'hook', events: ['check.failed'], custom_services: [hook()] });
    await window('starts_at, ends_at, status_pages', `now() - interval '1 minute', now() + interval '1 hour', $2`, [
      'shop maintenance',
      ['shop'],
    ]);
    for (const id of [byName, byLabel, notOnPage]) await f.checkFailed(db, id);
    await router.drain();
    const rows = await history();
    for (const id of [byName, byLabel])
      expect(rows.find((r) => r.resource_id === id)).toMatchObject({
        status: 'silenced',
        reason: expect.stringContaining('maintenance window "shop maintenance"'),
      });
    expect(rows.find((r) => r.resource_id === notOnPage)!.status).toBe('pending');
  });
});
