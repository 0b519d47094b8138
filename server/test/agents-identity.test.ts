// Agents (docs/api.md "Agents"): a pushed row's identity includes its agent — two agents pushing the
// same catalog identity (Kubernetes::Namespace/default in two clusters) each keep their own row, and
// an update from one touches only its own; soft deletes on an agent reach the upstream through a real
// push (AgentPusher from an agent database); Run Now on an agent's check is queued for that agent
// (202), which alone claims and reports it.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentPusher } from '../src/agents/pusher.js';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { parseDocuments } from '../src/resources/yaml.js';
import { parseCanary } from '../src/health/canary.js';
import { checkers } from '../src/health/checkers/index.js';
import { applyCanary, deleteCanary } from '../src/health/store.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

interface Generated {
  id: string;
  access_token: string;
}

const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` });

const namespaceItem = (name = 'default') => ({
  id: crypto.randomUUID(),
  external_id: `namespace/${name}`,
  type: 'Kubernetes::Namespace',
  config_class: 'Namespace',
  name,
  config: { metadata: { name } },
  agent_id: null,
  scraper_id: crypto.randomUUID(),
});

describe.each(databaseKinds())('agent identities and deletions on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let viewer: TestUser;
  // The agent's own embedded database (the deletions test pushes from it with AgentPusher). Opened
  // first: loading it blocks this process for seconds, which would outlast the keep-alive of the
  // connections made around it.
  let agentDb: TestDatabase;

  beforeAll(async () => {
    agentDb = await openTestDatabase('pglite');
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
    viewer = await createTestUser(test.db, 'viewer');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    await agentDb?.close();
  });

  async function generate(name: string): Promise<Generated> {
    const res = await fetch(`${app.url}/api/agent/generate`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(res.status).toBe(201);
    return (await res.json()) as Generated;
  }

  const push = (token: string, body: unknown) =>
    fetch(`${app.url}/api/upstream/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...basic(token) },
      body: JSON.stringify(body),
    });

  it('keeps one row per agent for the same catalog identity; a push updates only its own', async () => {
    const a = await generate(`cluster-a-${kind}`);
    const b = await generate(`cluster-b-${kind}`);
    const itemA = namespaceItem();
    const itemB = namespaceItem();
    const first = await push(a.access_token, { config_items: [itemA] });
    expect(first.status).toBe(200);
    const second = await push(b.access_token, { config_items: [itemB] });
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ accepted: { config_items: 1 }, stored: { config_items: 1 } });

    const rows = async () =>
      (
        await test.db.query<{ id: string; agent_id: string; name: string }>(
          `SELECT id, agent_id, name FROM config_items WHERE type = 'Kubernetes::Namespace'
             AND external_id = 'namespace/default' AND agent_id = ANY($1::uuid[]) ORDER BY name, agent_id`,
          [[a.id, b.id]],
        )
      ).rows;
    expect(await rows()).toEqual(
      [
        { id: itemA.id, agent_id: a.id, name: 'default' },
        { id: itemB.id, agent_id: b.id, name: 'default' },
      ].sort((x, y) => x.agent_id.localeCompare(y.agent_id)),
    );

    // A third push, from a: its row changes, b's stays as it was.
    const third = await push(a.access_token, { config_items: [{ ...itemA, name: 'default (renamed on a)' }] });
    expect(third.status).toBe(200);
    expect(await third.json()).toEqual({ accepted: { config_items: 1 }, stored: { config_items: 1 } });
    const after = await rows();
    expect(after.find((r) => r.agent_id === a.id)).toEqual({
      id: itemA.id,
      agent_id: a.id,
      name: 'default (renamed on a)',
    });
    expect(after.find((r) => r.agent_id === b.id)).toEqual({ id: itemB.id, agent_id: b.id, name: 'default' });

    // Within one agent the identity still holds: a second item of a's with the same identity is a conflict.
    const twin = await push(a.access_token, { config_items: [namespaceItem()] });
    expect(twin.status).toBe(409);
    // And local items keep theirs beside the agents' (scraper_id NULL, agent_id NULL).
    await test.db.query(
      `INSERT INTO config_items (external_id, type, config_class, name) VALUES ('namespace/default', 'Kubernetes::Namespace', 'Namespace', 'local')`,
    );

    // The same holds for the health and topology identities: a canary default/web with a check
    // http/home, and a root component Database/db, from each agent.
    const healthAndTopology = () => {
      const canaryId = crypto.randomUUID();
      return {
        canaries: [{ id: canaryId, name: 'web', namespace: 'default', spec: {} }],
        checks: [{ id: crypto.randomUUID(), canary_id: canaryId, type: 'http', name: 'home' }],
        components: [
          { id: crypto.randomUUID(), name: 'db', type: 'Database', path: '', topology_id: crypto.randomUUID() },
        ],
      };
    };
    for (const agent of [a, b]) expect((await push(agent.access_token, healthAndTopology())).status).toBe(200);
    const owners = await test.db.query<{ what: string; agent_id: string }>(
      `SELECT 'canary' AS what, agent_id::text FROM canaries WHERE name = 'web' AND namespace = 'default' AND deleted_at IS NULL
       UNION ALL SELECT 'check', c.agent_id::text FROM checks c WHERE c.type = 'http' AND c.name = 'home' AND c.deleted_at IS NULL
       UNION ALL SELECT 'component', agent_id::text FROM components WHERE name = 'db' AND type = 'Database' AND deleted_at IS NULL`,
    );
    for (const what of ['canary', 'check', 'component'])
      expect(
        owners.rows
          .filter((r) => r.what === what)
          .map((r) => r.agent_id)
          .sort(),
      ).toEqual([a.id, b.id].sort());
  });

  it('carries soft deletes of canaries, checks, components and catalog items through a real push', async () => {
    const agent = await generate(`deleting-${kind}`);
    const pusher = new AgentPusher(agentDb.db, {
      upstream: app.url,
      token: agent.access_token,
      log: () => undefined,
    });
    const drain = async () => {
      for (let i = 0; i < 20; i++) if (!(await pusher.pushOnce()).more) return;
    };
    const def = parseCanary(
      parseDocuments(`apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: doomed, namespace: default}
spec:
  schedule: "@every 1h"
  http:
    - {name: first, url: "http://127.0.0.1:9/"}
    - {name: second, url: "http://127.0.0.1:9/"}
`)[0]!,
      checkers,
    );
    const canary = await applyCanary(agentDb.db, def, { source: 'UI' });
    const item = await agentDb.db.query<{ id: string }>(
      `INSERT INTO config_items (external_id, type, config_class, name) VALUES ('ns/x', 'Kubernetes::Namespace', 'Namespace', 'x') RETURNING id`,
    );
    const component = await agentDb.db.query<{ id: string }>(
      `INSERT INTO components (name, type) VALUES ('edge-db', 'Database') RETURNING id`,
    );
    const itemId = item.rows[0]!.id;
    const componentId = component.rows[0]!.id;
    await drain();

    const upstream = async () => {
      const q = async (sql: string, id: string) =>
        (await test.db.query<{ agent_id: string | null; deleted: boolean }>(sql, [id])).rows;
      return {
        canary: await q('SELECT agent_id, deleted_at IS NOT NULL AS deleted FROM canaries WHERE id = $1', canary.id),
        checks: await q(
          'SELECT agent_id, deleted_at IS NOT NULL AS deleted FROM checks WHERE canary_id = $1 ORDER BY name',
          canary.id,
        ),
        item: await q('SELECT agent_id, deleted_at IS NOT NULL AS deleted FROM config_items WHERE id = $1', itemId),
        component: await q(
          'SELECT agent_id, deleted_at IS NOT NULL AS deleted FROM components WHERE id = $1',
          componentId,
        ),
      };
    };
    const live = { agent_id: agent.id, deleted: false };
    expect(await upstream()).toEqual({ canary: [live], checks: [live, live], item: [live], component: [live] });

    // Soft deletes on the agent, as its engines and APIs make them.
    expect(await deleteCanary(agentDb.db, canary.id)).toBe(true);
    await agentDb.db.query(
      `UPDATE config_items SET deleted_at = now(), delete_reason = 'stale', updated_at = now() WHERE id = $1`,
      [itemId],
    );
    await agentDb.db.query('UPDATE components SET deleted_at = now(), updated_at = now() WHERE id = $1', [componentId]);
    await drain();
    const gone = { agent_id: agent.id, deleted: true };
    expect(await upstream()).toEqual({ canary: [gone], checks: [gone, gone], item: [gone], component: [gone] });
    const reason = await test.db.query<{ delete_reason: string }>(
      'SELECT delete_reason FROM config_items WHERE id = $1',
      [itemId],
    );
    expect(reason.rows[0]?.delete_reason).toBe('stale');
  });

  it("queues Run Now on an agent's check for that agent (202), which alone claims and reports it", async () => {
    const a = await generate(`runner-a-${kind}`);
    const b = await generate(`runner-b-${kind}`);
    const canaryId = crypto.randomUUID();
    const checkId = crypto.randomUUID();
    const pushed = await push(a.access_token, {
      canaries: [{ id: canaryId, name: `remote-${kind}`, namespace: 'default', spec: {} }],
      checks: [{ id: checkId, canary_id: canaryId, type: 'http', name: 'behind-the-firewall' }],
    });
    expect(pushed.status).toBe(200);

    const runNow = (as: TestUser) =>
      fetch(`${app.url}/api/canary/run/check/${checkId}`, { method: 'POST', headers: as.headers });
    expect((await runNow(viewer)).status).toBe(403);
    const queued = await runNow(admin);
    expect(queued.status).toBe(202);
    const body = (await queued.json()) as { id: string; queued: boolean; message: string; agent: { id: string } };
    expect(body).toMatchObject({
      queued: true,
      checkId,
      agent: { id: a.id },
      message: `queued on agent runner-a-${kind}`,
    });
    // Pressed again while it waits: the same request.
    expect(((await (await runNow(admin)).json()) as { id: string }).id).toBe(body.id);
    // Nothing ran here.
    const here = await test.db.query('SELECT 1 FROM check_statuses WHERE check_id = $1', [checkId]);
    expect(here.rows).toHaveLength(0);

    const call = (token: string, path: string, payload: unknown = {}) =>
      fetch(`${app.url}/api/upstream/check-run${path}`, {
        method: 'POST',
        headers: { ...basic(token), 'content-type': 'application/json' },
        body: JSON.stringify(payload),
      });
    expect((await call(b.access_token, '/claim')).status).toBe(204);
    const claimed = await call(a.access_token, '/claim');
    expect(claimed.status).toBe(200);
    const { runs } = (await claimed.json()) as { runs: { id: string; check_id: string }[] };
    expect(runs).toEqual([{ id: body.id, check_id: checkId, requested_at: expect.any(String) }]);
    expect((await call(a.access_token, '/claim')).status).toBe(204); // claimed once, under its lease
    // A request pressed while the first is claimed is a new one.
    expect(((await (await runNow(admin)).json()) as { id: string }).id).not.toBe(body.id);

    expect((await call(b.access_token, `/${body.id}/report`, { status: 'done' })).status).toBe(403);
    expect((await call(a.access_token, `/${body.id}/report`, { status: 'maybe' })).status).toBe(400);
    expect((await call(a.access_token, `/${crypto.randomUUID()}/report`, { status: 'done' })).status).toBe(404);
    const done = await call(a.access_token, `/${body.id}/report`, { status: 'done' });
    expect(done.status).toBe(200);
    expect(await done.json()).toEqual({ id: body.id, status: 'done' });
    const person = await fetch(`${app.url}/api/upstream/check-run/claim`, { method: 'POST', headers: admin.headers });
    expect(person.status).toBe(403);

    // A local check is still run here (no such check: 404 as before).
    expect((await runNow(admin)).status).toBe(202);
    const missing = await fetch(`${app.url}/api/canary/run/check/${crypto.randomUUID()}`, {
      method: 'POST',
      headers: admin.headers,
    });
    expect(missing.status).toBe(404);
  });
});
