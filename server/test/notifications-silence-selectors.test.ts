// NotificationSilence `selectors` on a real database: applied as YAML (validated with line and column),
// then evaluated by the consumer against each event's resource — check types and labels, a component
// name glob — the same answer on the batch path (silences read once) and the guarded one (one query).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import type { EventRouter, QueuedEvent } from '../src/jobs/eventQueue.js';
import { CelFilterEnv } from '../src/notifications/celFilter.js';
import { buildContext } from '../src/notifications/context.js';
import { applySilence, parseSilence } from '../src/notifications/silenceResource.js';
import { activeSilences, findSilence, matchSilence } from '../src/notifications/silences.js';
import { parseDocuments, ResourceErrors } from '../src/resources/yaml.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import * as f from './helpers/notificationFixtures.js';

const HOOK = { url: 'generic+https://hooks.example.com/T0KEN/path' };

const silenceYaml = (name: string, spec: string) => `apiVersion: mission-control.flanksource.com/v1
kind: NotificationSilence
metadata: {name: ${name}, namespace: default}
spec:
  description: ${name}
  until: now+1h
${spec}`;

describe.each(databaseKinds())('silence selectors on %s', (kind) => {
  let test: TestDatabase;
  let db: Database;
  let router: EventRouter;

  const apply = async (name: string, spec: string) => {
    const [doc] = parseDocuments(silenceYaml(name, spec));
    return (await applySilence(db, await parseSilence(db, doc!))).id;
  };
  const refusal = async (spec: string) => {
    const [doc] = parseDocuments(silenceYaml('bad', spec));
    const err = await parseSilence(db, doc!).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ResourceErrors);
    return (err as ResourceErrors).errors.map((e) => e.toJSON());
  };
  const statuses = async () =>
    (
      await db.query<{ resource_id: string; status: string; silenced_by: string | null }>(
        'SELECT resource_id, status, silenced_by FROM notification_send_history ORDER BY created_at, id',
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

  it("silences a matching check's failure (http, team=payments) and not a non-matching one", async () => {
    const canaryId = await f.canary(db);
    const payments = await f.check(db, canaryId, 'checkout', { labels: { team: 'payments' } });
    const search = await f.check(db, canaryId, 'search', { labels: { team: 'search' } });
    const tcp = await f.check(db, canaryId, 'payments-tcp', { labels: { team: 'payments' } });
    await db.query(`UPDATE checks SET type = 'tcp' WHERE id = $1`, [tcp]);
    await f.rule(db, { name: 'r', events: ['check.failed'], custom_services: [HOOK] });
    const s = await apply('payments', "  selectors:\n    - types: ['http']\n      labelSelector: team=payments\n");
    for (const id of [payments, search, tcp]) await f.checkFailed(db, id);
    await router.drain();
    expect(await statuses()).toEqual([
      { resource_id: payments, status: 'silenced', silenced_by: s },
      { resource_id: search, status: 'pending', silenced_by: null },
      { resource_id: tcp, status: 'pending', silenced_by: null },
    ]);
  });

  it('silences components by a name glob, on the batch and the guarded path alike', async () => {
    const db1 = await f.component(db, 'payments-db', { type: 'database' });
    const db2 = await f.component(db, 'search-db', { type: 'database' });
    await f.rule(db, { name: 'r', events: ['component.unhealthy'], custom_services: [HOOK] });
    const s = await apply('payments-components', '  selectors:\n    - name: payments-*\n      types: [component]\n');
    await f.emit(db, 'component.unhealthy', { id: db1, status: 'unhealthy' });
    await f.emit(db, 'component.unhealthy', { id: db2, status: 'unhealthy' });
    await router.drain();
    expect(await statuses()).toEqual([
      { resource_id: db1, status: 'silenced', silenced_by: s },
      { resource_id: db2, status: 'pending', silenced_by: null },
    ]);
    // The stored row names no id: the selector is what holds.
    const { rows } = await db.query('SELECT component_id FROM notification_silences WHERE id = $1', [s]);
    expect(rows).toEqual([{ component_id: null }]);
    for (const [id, expected] of [
      [db1, s],
      [db2, undefined],
    ] as const) {
      const event: QueuedEvent = {
        id: crypto.randomUUID(),
        name: 'component.unhealthy',
        properties: { id, status: 'unhealthy' },
        attempts: 0,
        created_at: new Date(),
      };
      const { resource, env } = await buildContext(db, event, '');
      const cel = new CelFilterEnv(env);
      expect((await findSilence(db, resource, cel))?.id).toBe(expected);
      expect((await matchSilence(db, await activeSilences(db), resource, cel))?.id).toBe(expected);
    }
  });

  it('refuses unknown selector fields, unreadable label selectors and empty selectors with line and column', async () => {
    const [unknown] = await refusal('  selectors:\n    - name: x\n      fieldSelector: a=b\n');
    expect(unknown).toMatchObject({ path: 'spec.selectors[0]', line: 8, column: 7 });
    expect(unknown!.message).toMatch(/fieldSelector: not supported in a resource selector/);
    const [label] = await refusal("  selectors:\n    - types: [http]\n      labelSelector: 'team=payments,???'\n");
    expect(label).toMatchObject({ path: 'spec.selectors[0].labelSelector', line: 9, column: 22 });
    expect(label!.message).toMatch(/cannot read "\?\?\?"/);
    const [empty] = await refusal('  selectors:\n    - {}\n');
    expect(empty!.message).toMatch(/^spec\.selectors\[0\]: a selector needs at least one field/);
  });
});
