// The notification event consumer on a real database, driven through the event router: every event
// becomes one send-history decision per rule and recipient, with the reason it was held.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { EventRouter } from '../src/jobs/eventQueue.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import * as f from './helpers/notificationFixtures.js';

interface HistoryRow {
  id: string;
  notification_id: string;
  status: string;
  source_event: string;
  resource_id: string | null;
  resource_type: string | null;
  resource: Record<string, unknown> | null;
  person_id: string | null;
  team_id: string | null;
  recipient: string | null;
  body_payload: Record<string, unknown> & { recipient?: { kind: string; value: string } };
  not_before: Date | null;
  silenced_by: string | null;
  inhibited_by: string | null;
  group_id: string | null;
  parent_id: string | null;
  reason: string | null;
  dedup_key: string | null;
  error: string | null;
}

const HOOK = { url: 'generic+https://hooks.example.com/T0KEN/path' };

describe.each(databaseKinds())('notification consumer on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;
  let router: EventRouter;

  const drain = () => router.drain();
  const history = async (where = 'true', params: unknown[] = []) =>
    (
      await db.query<HistoryRow>(
        `SELECT * FROM notification_send_history WHERE ${where} ORDER BY created_at, id`,
        params,
      )
    ).rows;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    db = test.db;
  });
  afterAll(async () => {
    await test?.close();
  });
  beforeEach(async () => {
    router = await f.freshConsumer(db);
  });

  it('turns a failing check into exactly one pending row per rule and recipient, with everything delivery needs', async () => {
    const canaryId = await f.canary(db, 'shop');
    const checkId = await f.check(db, canaryId, 'checkout', { status: 'unhealthy' });
    const hook = await f.rule(db, { name: 'hook', events: ['check.failed'], custom_services: [HOOK] });
    const mail = await f.rule(db, {
      name: 'mail',
      events: ['check.failed'],
      custom_services: [{ email: 'ops@example.com' }],
    });
    await f.checkFailed(db, checkId);
    expect(await drain()).toBe(1);
    const rows = await history();
    expect(rows.map((r) => [r.notification_id, r.status]).sort()).toEqual(
      [
        [hook, 'pending'],
        [mail, 'pending'],
      ].sort(),
    );
    const h = rows.find((r) => r.notification_id === hook)!;
    expect(h).toMatchObject({
      source_event: 'check.failed',
      resource_id: checkId,
      resource_type: 'check',
      recipient: 'generic+https://hooks.example.com/T0KEN/path'.replace('T0KEN/', 'T0KEN/'),
      dedup_key: `${hook}:${checkId}`,
    });
    expect(h.resource).toMatchObject({ id: checkId, name: 'checkout', type: 'http', health: 'unhealthy' });
    expect(h.body_payload.recipient).toEqual(expect.objectContaining({ kind: 'url', value: HOOK.url }));
    expect(h.body_payload).toMatchObject({
      check: { id: checkId, name: 'checkout' },
      canary: { id: canaryId, name: 'shop' },
      permalink: `https://opsdeck.example.com/health?checkId=${checkId}`,
      event: { name: 'check.failed' },
    });
    expect(new Date(h.not_before!).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    const m = rows.find((r) => r.notification_id === mail)!;
    expect(m.body_payload.recipient).toEqual(expect.objectContaining({ kind: 'email', value: 'ops@example.com' }));
  });

  it('never shows a URL secret in the recipient column', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    await f.rule(db, {
      name: 'slack',
      events: ['check.failed'],
      custom_services: [{ url: 'slack://xoxb-secret@C123' }],
    });
    await f.checkFailed(db, checkId);
    await drain();
    const [row] = await history();
    expect(row!.recipient).not.toContain('xoxb-secret');
    expect(row!.body_payload.recipient!.value).toBe('slack://xoxb-secret@C123');
  });

  it('records a second failure inside repeatInterval as repeated, naming when it may be sent again', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    await f.rule(db, { name: 'r', events: ['check.failed'], custom_services: [HOOK], repeat_interval_ms: 3600_000 });
    await f.checkFailed(db, checkId);
    await drain();
    const [first] = await history();
    await db.query(`UPDATE notification_send_history SET status = 'sent' WHERE id = $1`, [first!.id]);
    await f.checkPassed(db, checkId);
    await f.checkFailed(db, checkId);
    await drain();
    const rows = await history(`source_event = 'check.failed'`);
    expect(rows.map((r) => r.status)).toEqual(['sent', 'repeated']);
    expect(rows[1]!.parent_id).toBe(first!.id);
    expect(rows[1]!.reason).toMatch(
      /Repeat of the notification sent at .* may be sent again after .*repeatInterval 1h/,
    );
  });

  it('dedupes an identical notification that is still pending', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    await f.rule(db, { name: 'r', events: ['check.failed'], custom_services: [HOOK] });
    await f.checkFailed(db, checkId);
    await f.checkFailed(db, checkId);
    await drain();
    expect((await history()).map((r) => r.status)).toEqual(['pending', 'repeated']);
  });

  it('silences a check with the silence that caught it; an expired silence no longer applies', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    await f.rule(db, { name: 'r', events: ['check.failed', 'check.passed'], custom_services: [HOOK] });
    const s = await f.silence(db, { description: 'maintenance window', check_id: checkId });
    await f.checkFailed(db, checkId);
    await drain();
    const [row] = await history();
    expect(row).toMatchObject({ status: 'silenced', silenced_by: s });
    expect(row!.reason).toMatch(/^Silenced by "maintenance window" until \d{4}-/);
    await db.query(`UPDATE notification_silences SET until = now() - interval '1 second' WHERE id = $1`, [s]);
    await f.checkPassed(db, checkId);
    await drain();
    expect((await history(`source_event = 'check.passed'`)).map((r) => r.status)).toEqual(['pending']);
  });

  it('lets a recursive silence on a parent component silence a child, and a plain one not', async () => {
    const root = await f.component(db, 'datacenter');
    const mid = await f.component(db, 'rack', { parentId: root });
    const leaf = await f.component(db, 'server', { parentId: mid });
    await f.rule(db, { name: 'r', events: ['component.unhealthy'], custom_services: [HOOK] });
    const plain = await f.silence(db, { description: 'plain', component_id: mid });
    await f.emit(db, 'component.unhealthy', { id: leaf, status: 'unhealthy' });
    await drain();
    expect((await history()).map((r) => r.status)).toEqual(['pending']);
    await db.query('DELETE FROM notification_send_history');
    await db.query('UPDATE notification_silences SET deleted_at = now() WHERE id = $1', [plain]);
    const recursive = await f.silence(db, { description: 'rack work', component_id: root, recursive: true });
    await f.emit(db, 'component.unhealthy', { id: leaf, status: 'unhealthy' });
    await drain();
    expect(await history()).toEqual([expect.objectContaining({ status: 'silenced', silenced_by: recursive })]);
  });

  it('silences by a CEL filter', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'noisy');
    await f.rule(db, { name: 'r', events: ['check.failed'], custom_services: [HOOK] });
    const s = await f.silence(db, { description: 'noisy checks', filter: "check.name == 'noisy'" });
    await f.checkFailed(db, checkId);
    await drain();
    expect(await history()).toEqual([expect.objectContaining({ status: 'silenced', silenced_by: s })]);
  });

  it('groups ten failing checks of one component into one leader and nine grouped rows', async () => {
    const canaryId = await f.canary(db);
    const comp = await f.component(db, 'payments');
    const ids: string[] = [];
    for (let i = 0; i < 10; i++)
      ids.push(await f.check(db, canaryId, `check-${i}`, { labels: { service: 'payments' }, componentId: comp }));
    await f.rule(db, { name: 'g', events: ['check.failed'], custom_services: [HOOK], group_by: ['label:service'] });
    for (const id of ids) await f.checkFailed(db, id);
    await drain();
    const rows = await history();
    const leaders = rows.filter((r) => r.status === 'pending');
    expect(leaders).toHaveLength(1);
    const leader = leaders[0]!;
    expect(leader.group_id).toBe(leader.id);
    expect(new Date(leader.not_before!).getTime()).toBeGreaterThan(Date.now() + 20_000);
    const grouped = rows.filter((r) => r.status === 'grouped');
    expect(grouped).toHaveLength(9);
    expect(grouped.every((r) => r.group_id === leader.id)).toBe(true);
    expect(new Set(rows.map((r) => r.resource_id))).toEqual(new Set(ids));
  });

  it('inhibits a component whose parent already has an open notification of the rule', async () => {
    const router1 = await f.component(db, 'core-router', { health: 'unhealthy' });
    const child = await f.component(db, 'edge-switch', { parentId: router1, health: 'unhealthy' });
    await f.rule(db, { name: 'r', events: ['component.unhealthy'], custom_services: [HOOK], filter: 'true' });
    await f.emit(db, 'component.unhealthy', { id: router1, status: 'unhealthy' });
    await drain();
    const [parentRow] = await history();
    await f.emit(db, 'component.unhealthy', { id: child, status: 'unhealthy' });
    await drain();
    const [, childRow] = await history();
    expect(childRow).toMatchObject({ status: 'inhibited', inhibited_by: parentRow!.id, resource_id: child });
    expect(childRow!.reason).toContain('component core-router');
  });

  it('inhibits through inhibitions[] (a check held by its failing component)', async () => {
    const canaryId = await f.canary(db);
    const comp = await f.component(db, 'db-cluster', { type: 'database' });
    const checkId = await f.check(db, canaryId, 'db-ping', { componentId: comp });
    await f.rule(db, {
      name: 'r',
      events: ['component.unhealthy', 'check.failed'],
      custom_services: [HOOK],
      inhibitions: [{ direction: 'incoming', depth: 2, from: ['database'], to: ['check'] }],
    });
    await f.emit(db, 'component.unhealthy', { id: comp, status: 'unhealthy' });
    await f.checkFailed(db, checkId);
    await drain();
    const rows = await history();
    expect(rows.map((r) => [r.resource_id, r.status])).toEqual([
      [comp, 'pending'],
      [checkId, 'inhibited'],
    ]);
    expect(rows[1]!.inhibited_by).toBe(rows[0]!.id);
  });

  it('records a CEL filter error on its rule and still runs the other rules', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    const broken = await f.rule(db, {
      name: 'broken',
      events: ['check.failed'],
      custom_services: [HOOK],
      filter: 'check.nope.deeper == 1',
    });
    const fine = await f.rule(db, { name: 'fine', events: ['check.failed'], custom_services: [HOOK] });
    await f.checkFailed(db, checkId);
    expect(await drain()).toBe(1);
    expect((await history()).map((r) => r.notification_id)).toEqual([fine]);
    const { rows } = await db.query<{ error: string | null; error_at: Date | null }>(
      'SELECT error, error_at FROM notifications WHERE id = $1',
      [broken],
    );
    expect(rows[0]!.error).toMatch(/^filter: /);
    expect(rows[0]!.error_at).not.toBeNull();
    // A later successful evaluation clears it.
    await db.query(`UPDATE notifications SET filter = 'true', updated_at = now() WHERE id = $1`, [broken]);
    await f.checkPassed(db, checkId);
    await f.checkFailed(db, checkId);
    await drain();
    const after = await db.query<{ error: string | null }>('SELECT error FROM notifications WHERE id = $1', [broken]);
    expect(after.rows[0]!.error).toBeNull();
  });

  it('skips a rule whose filter is false', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    await f.rule(db, { name: 'r', events: ['check.failed'], custom_services: [HOOK], filter: "check.name == 'other'" });
    await f.checkFailed(db, checkId);
    await drain();
    expect(await history()).toEqual([]);
  });

  it('consumes unknown and irrelevant events without rows', async () => {
    await f.rule(db, { name: 'r', events: ['check.failed'], custom_services: [HOOK] });
    await f.emit(db, 'something.else', { id: 'x' });
    await f.emit(db, 'config.updated', { id: '00000000-0000-4000-8000-000000000000' });
    expect(await drain()).toBe(2);
    expect(await history()).toEqual([]);
    expect((await db.query('SELECT 1 FROM event_queue')).rows).toEqual([]);
  });

  it('expands a person to their email and a team to one row per member with an email', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    const ann = await f.person(db, 'Ann', 'ann@example.com');
    const bob = await f.person(db, 'Bob', 'bob@example.com');
    const ghost = await f.person(db, 'Ghost', null);
    const ops = await f.team(db, 'ops', [ann, bob, ghost]);
    await f.rule(db, { name: 'p', events: ['check.failed'], person_id: ann });
    await f.rule(db, { name: 't', events: ['check.failed'], team_id: ops });
    await f.checkFailed(db, checkId);
    await drain();
    const rows = await history();
    expect(rows.map((r) => [r.recipient, r.person_id, r.team_id, r.body_payload.recipient?.value]).sort()).toEqual(
      [
        ['ann@example.com', ann, null, 'ann@example.com'],
        ['ann@example.com', ann, ops, 'ann@example.com'],
        ['bob@example.com', bob, ops, 'bob@example.com'],
      ].sort(),
    );
  });

  it('holds a waitFor rule until now + waitFor and says why', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    await f.rule(db, { name: 'w', events: ['check.failed'], custom_services: [HOOK], wait_for_ms: 5 * 60_000 });
    await f.checkFailed(db, checkId);
    await drain();
    const [row] = await history();
    expect(new Date(row!.not_before!).getTime()).toBeGreaterThan(Date.now() + 4 * 60_000);
    expect(row!.body_payload.wait_for).toMatchObject({ state: 'unhealthy' });
    expect(row!.reason).toMatch(/^Waiting 5m: sent only if check api is still unhealthy/);
  });

  it('starts a playbook run for a playbook recipient and records it as sent', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    const { rows: pb } = await db.query<{ id: string }>(
      `INSERT INTO playbooks (name, spec) VALUES ('restart', $1) RETURNING id`,
      [JSON.stringify({ spec: { parameters: [{ name: 'mode', default: 'soft' }], actions: [] } })],
    );
    await f.rule(db, { name: 'pb', events: ['check.failed'], playbook_id: pb[0]!.id });
    await f.checkFailed(db, checkId);
    await drain();
    const [row] = await history();
    const { rows: runs } = await db.query<{ id: string; status: string; check_id: string; parameters: unknown }>(
      'SELECT id, status, check_id, parameters FROM playbook_runs',
    );
    expect(runs).toEqual([
      expect.objectContaining({ status: 'pending', check_id: checkId, parameters: { mode: 'soft' } }),
    ]);
    expect(row).toMatchObject({ status: 'sent' });
    expect(row!.reason).toContain(runs[0]!.id);
  });

  it('writes an error row for a recipient that does not exist', async () => {
    const canaryId = await f.canary(db);
    const checkId = await f.check(db, canaryId, 'api');
    await f.rule(db, {
      name: 'c',
      events: ['check.failed'],
      custom_services: [{ connection: 'connection://Slack/missing' }],
    });
    await f.checkFailed(db, checkId);
    await drain();
    expect(await history()).toEqual([
      expect.objectContaining({ status: 'error', error: 'connection "connection://Slack/missing" does not exist' }),
    ]);
  });
});
