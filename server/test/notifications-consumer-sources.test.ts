// The notification consumer fed by the engines themselves: a new check's first failing result (health
// store), an incident opened and resolved (its trigger), a config item's health and a config silence
// that reaches children through the catalog path — each ends as send-history rows linking back to the
// console. Rules applied as YAML (the apply API) are read as stored.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { recordResult } from '../src/health/store.js';
import { EventRouter } from '../src/jobs/eventQueue.js';
import { NotificationConsumer } from '../src/notifications/consumer.js';
import { applyNotification, parseNotification } from '../src/notifications/resource.js';
import { RuleCache } from '../src/notifications/rules.js';
import { parseDocuments } from '../src/resources/yaml.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import * as f from './helpers/notificationFixtures.js';

interface Row {
  status: string;
  source_event: string;
  resource_id: string;
  resource_type: string;
  silenced_by: string | null;
  body_payload: { permalink?: string; incident?: { title?: string }; config?: { name?: string } };
}

const HOOK = { url: 'generic+http://127.0.0.1:9/hook' };
const result = (pass: boolean) => ({
  pass,
  invalid: false,
  durationMs: 5,
  message: null,
  error: pass ? null : 'boom',
  details: null,
});

describe.each(databaseKinds())('notification consumer fed by the engines on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;
  let router: EventRouter;
  const history = async () =>
    (
      await db.query<Row>(
        'SELECT status, source_event, resource_id, resource_type, silenced_by, body_payload FROM notification_send_history ORDER BY created_at',
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
    await db.exec(`DELETE FROM notification_send_history; DELETE FROM notification_silences; DELETE FROM notifications;
      DELETE FROM event_queue`);
    router = new EventRouter(db);
    router.register(new NotificationConsumer({ publicUrl: 'http://console.test', rules: new RuleCache(0) }));
  });

  it("notifies a new check's first failing result, and not a new check's first pass", async () => {
    const canaryId = await f.canary(db);
    const down = await f.check(db, canaryId, 'already-down');
    const up = await f.check(db, canaryId, 'fine');
    await f.rule(db, { name: 'r', events: ['check.failed', 'check.passed'], custom_services: [HOOK] });
    await recordResult(db, down, result(false), new Date());
    await recordResult(db, up, result(true), new Date());
    await router.drain();
    expect((await history()).map((r) => [r.source_event, r.resource_id, r.status])).toEqual([
      ['check.failed', down, 'pending'],
    ]);
  });

  it('reads a rule applied as mission-control YAML: url recipient, inhibit with one from type, groupBy', async () => {
    const yaml = `apiVersion: mission-control.flanksource.com/v1
kind: Notification
metadata: {name: applied, namespace: default}
spec:
  events: [check.failed, component.unhealthy]
  to: {url: "generic+http://user:s3cret@127.0.0.1:9/hook"}
  groupBy: [type]
  inhibit:
    - {direction: incoming, depth: 2, from: database, to: [check]}
`;
    const [doc] = parseDocuments(yaml);
    await applyNotification(db, await parseNotification(db, doc!));
    const canaryId = await f.canary(db);
    const comp = await f.component(db, 'pg', { type: 'database' });
    const held = await f.check(db, canaryId, 'pg-ping', { componentId: comp });
    await f.emit(db, 'component.unhealthy', { id: comp, status: 'unhealthy' });
    await f.checkFailed(db, held);
    await router.drain();
    const rows = await history();
    expect(rows.map((r) => [r.resource_id, r.status])).toEqual([
      [comp, 'pending'],
      [held, 'inhibited'],
    ]);
    const { rows: shown } = await db.query<{ recipient: string }>('SELECT recipient FROM notification_send_history');
    expect(shown.every((r) => !r.recipient.includes('s3cret'))).toBe(true);
  });

  it('notifies incident.created and incident.status.resolved with a link to the incident', async () => {
    await f.rule(db, {
      name: 'inc',
      events: ['incident.created', 'incident.status.resolved'],
      custom_services: [HOOK],
    });
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO incidents (title, severity) VALUES ('Checkout down', 'high') RETURNING id`,
    );
    const id = rows[0]!.id;
    await db.query(`UPDATE incidents SET status = 'resolved' WHERE id = $1`, [id]);
    await router.drain();
    const rowsOut = await history();
    expect(rowsOut.map((r) => [r.source_event, r.resource_type, r.status]).sort()).toEqual(
      [
        ['incident.created', 'incident', 'pending'],
        ['incident.status.resolved', 'incident', 'pending'],
      ].sort(),
    );
    expect(rowsOut[0]!.body_payload.permalink).toBe(`http://console.test/incidents/${id}`);
    expect(rowsOut[0]!.body_payload.incident?.title).toBe('Checkout down');
  });

  it('silences a config item through a recursive silence on its parent (catalog path)', async () => {
    const insert = async (name: string, path: string, parent: string | null) =>
      (
        await db.query<{ id: string }>(
          `INSERT INTO config_items (external_id, type, config_class, name, parent_id, path, health)
           VALUES ($1, 'Kubernetes::Pod', 'Pod', $1, $2, $3, 'unhealthy') RETURNING id`,
          [name, parent, path],
        )
      ).rows[0]!.id;
    const ns = await insert('namespace-a', '', null);
    const pod = await insert('pod-a', ns, ns);
    await f.rule(db, { name: 'cfg', events: ['config.unhealthy'], custom_services: [HOOK] });
    await f.emit(db, 'config.unhealthy', { id: pod, health: 'unhealthy' });
    await router.drain();
    const [sent] = await history();
    expect(sent).toMatchObject({ status: 'pending', resource_type: 'config' });
    expect(sent!.body_payload.permalink).toBe(`http://console.test/catalog/${pod}`);
    await db.query('DELETE FROM notification_send_history');
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO notification_silences (description, config_id, recursive, until) VALUES ('ns work', $1, true, now() + interval '1 hour') RETURNING id`,
      [ns],
    );
    await f.emit(db, 'config.unhealthy', { id: pod, health: 'unhealthy' });
    await router.drain();
    expect(await history()).toEqual([expect.objectContaining({ status: 'silenced', silenced_by: rows[0]!.id })]);
  });
});
