// The card query's cache (topology/cache.ts, migration 0030): a change to a component, to a check's
// status (through the roll-up), to a relationship or a team shows in the very next answer, even when
// the change is written by another replica or by hand; ETag and 304; a caller who may not read
// topologies gets nothing out of a warm cache; two replicas name the same answer with the same ETag.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { authenticate, errorBody, HttpError, type AuthEnv } from '../src/auth/middleware.js';
import { checkers } from '../src/health/checkers/index.js';
import { topologyRoutes } from '../src/topology/api.js';
import { TopologyEngine } from '../src/topology/engine.js';
import type { CardComponent, TopologyResponse } from '../src/topology/query.js';
import { recomputeHealth } from '../src/topology/healthRecompute.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds())('topology card cache on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let engine: TopologyEngine;
  const servers: ServerType[] = [];
  /** Two replicas' topology routes: each has its own cache. */
  const urls: string[] = [];
  let editor: TestUser;
  let viewer: TestUser;
  let rootId: string;
  let childId: string;

  async function replica(): Promise<string> {
    const api = new Hono<AuthEnv>();
    api.use('/api/*', authenticate(app.ctx.identity, app.ctx.config.publicUrl, false));
    api.route('/api/topology', topologyRoutes({ db: app.ctx.db, identity: app.ctx.identity, checkers, engine }));
    api.onError((err, c) => {
      if (err instanceof HttpError) return c.json(errorBody(err), err.status);
      console.error(err);
      return c.json({ error: 'Internal server error' }, 500);
    });
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: api.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    engine = new TopologyEngine(app.ctx.db, checkers, { recomputeMs: 0 });
    urls.push(await replica(), await replica());
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO components (name, type, health, is_leaf) VALUES ('cache-root', 'Service', 'healthy', false) RETURNING id`,
    );
    rootId = rows[0]!.id;
    const child = await test.db.query<{ id: string }>(
      `INSERT INTO components (name, parent_id, path, health) VALUES ('cache-child', $1, $2, 'healthy') RETURNING id`,
      [rootId, rootId],
    );
    childId = child.rows[0]!.id;
  });

  afterAll(async () => {
    await engine?.stop();
    for (const s of servers) await new Promise<void>((r) => s.close(() => r()));
    await app?.close();
    await test?.close();
  });

  const QUERY = '/api/topology?sortBy=name&sortOrder=asc';
  const get = (replicaIndex = 0, headers: Record<string, string> = {}, as = editor) =>
    fetch(`${urls[replicaIndex]}${QUERY}`, { headers: { ...as.headers, 'accept-encoding': 'identity', ...headers } });

  async function cards(replicaIndex = 0): Promise<{ body: TopologyResponse; etag: string }> {
    const res = await get(replicaIndex);
    expect(res.status).toBe(200);
    return { body: (await res.json()) as TopologyResponse, etag: res.headers.get('etag')! };
  }
  const root = (body: TopologyResponse): CardComponent => body.components.find((c) => c.id === rootId)!;

  it('answers with an ETag, and 304 with no body to If-None-Match of the current answer', async () => {
    const first = await cards();
    expect(first.etag).toMatch(/^"t[\w-]+"$/);
    expect(root(first.body).components.map((c) => c.name)).toEqual(['cache-child']);
    const again = await get(0, { 'if-none-match': first.etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(first.etag);
    expect(await again.text()).toBe('');
    // Weak comparison, and one of several tags.
    expect((await get(0, { 'if-none-match': `"other", W/${first.etag}` })).status).toBe(304);
    expect((await get(0, { 'if-none-match': '"other"' })).status).toBe(200);
    // The other replica (its own cache) names the same answer with the same tag: a reader moving
    // between replicas without a balancer still gets 304s.
    expect((await get(1, { 'if-none-match': first.etag })).status).toBe(304);
  });

  it('serves gzip as another representation of the same answer', async () => {
    const plain = await cards();
    const res = await get(0, { 'accept-encoding': 'gzip' });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('etag')).toBe(plain.etag.replace(/"$/, '-gz"'));
    const raw = Buffer.from(await res.arrayBuffer());
    // fetch may have decoded it already; either way it is the same JSON.
    const text = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw).toString() : raw.toString();
    expect(JSON.parse(text)).toEqual(plain.body);
    expect((await get(0, { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });

  it('shows a component changed by hand in the next answer, on every replica, and the old ETag no longer matches', async () => {
    const before = await cards(0);
    await cards(1);
    await test.db.query(`UPDATE components SET name = 'cache-child-renamed' WHERE id = $1`, [childId]);
    for (const i of [0, 1]) {
      const after = await cards(i);
      expect(root(after.body).components.map((c) => c.name)).toEqual(['cache-child-renamed']);
      expect(after.etag).not.toBe(before.etag);
      expect((await get(i, { 'if-none-match': before.etag })).status).toBe(200);
    }
    // A change only to the summary (the roll-up leaves updated_at alone then) counts too.
    await test.db.query(`UPDATE components SET summary = jsonb_set(summary, '{incidents}', '7') WHERE id = $1`, [
      rootId,
    ]);
    expect(root((await cards()).body).summary.incidents).toBe(7);
    // A soft delete takes it out; a new component appears.
    await test.db.query(`UPDATE components SET deleted_at = now() WHERE id = $1`, [childId]);
    expect(root((await cards()).body).components).toEqual([]);
    await test.db.query(`UPDATE components SET deleted_at = NULL WHERE id = $1`, [childId]);
    await test.db.query(`INSERT INTO components (name, type) VALUES ('cache-second-root', 'Service')`);
    expect((await cards()).body.components.map((c) => c.name)).toContain('cache-second-root');
  });

  it('shows a check status change in the next answer once the roll-up wrote it', async () => {
    const canary = await test.db.query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('cache-canary', '{}') RETURNING id`,
    );
    const check = await test.db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name, status) VALUES ($1, 'http', 'cache-check', 'healthy') RETURNING id`,
      [canary.rows[0]!.id],
    );
    await test.db.query(
      `INSERT INTO check_component_relationships (check_id, component_id, canary_id, selector_id) VALUES ($1, $2, $3, 'cache')`,
      [check.rows[0]!.id, childId, canary.rows[0]!.id],
    );
    await recomputeHealth(app.ctx.db, { wait: true });
    expect(root((await cards()).body).health).toBe('healthy');
    await test.db.query(`UPDATE checks SET status = 'unhealthy' WHERE id = $1`, [check.rows[0]!.id]);
    await recomputeHealth(app.ctx.db, { wait: true });
    const after = root((await cards()).body);
    expect(after.health).toBe('unhealthy');
    expect(after.summary.checks.unhealthy).toBe(1);
    expect(after.components.find((c) => c.id === childId)!.health).toBe('unhealthy');
  });

  it('shows team links and team renames in the next answer', async () => {
    const team = await test.db.query<{ id: string }>(`INSERT INTO teams (name) VALUES ('cache-team') RETURNING id`);
    await cards();
    await test.db.query(`INSERT INTO team_components (team_id, component_id) VALUES ($1, $2)`, [
      team.rows[0]!.id,
      rootId,
    ]);
    expect(root((await cards()).body).teams.map((t) => t.name)).toEqual(['cache-team']);
    await test.db.query(`UPDATE teams SET name = 'cache-team-renamed' WHERE id = $1`, [team.rows[0]!.id]);
    const body = (await cards()).body;
    expect(root(body).teams.map((t) => t.name)).toEqual(['cache-team-renamed']);
    expect(body.teams).toContain('cache-team-renamed');
    await test.db.query(`DELETE FROM team_components WHERE team_id = $1`, [team.rows[0]!.id]);
    expect(root((await cards()).body).teams).toEqual([]);
  });

  it('counts a change once it is committed, and not at all when rolled back', async () => {
    const { rows: v0 } = await test.db.query<{ version: string }>('SELECT version::text FROM topology_version');
    await test.db.transaction(async (tx) => {
      await tx.query(`UPDATE components SET text = 'one' WHERE id = $1`, [rootId]);
      await tx.query(`UPDATE components SET text = 'two' WHERE id = $1`, [childId]);
    });
    const { rows: v1 } = await test.db.query<{ version: string }>('SELECT version::text FROM topology_version');
    expect(BigInt(v1[0]!.version) - BigInt(v0[0]!.version)).toBe(1n);
    await expect(
      test.db.transaction(async (tx) => {
        await tx.query(`UPDATE components SET text = 'three' WHERE id = $1`, [rootId]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const { rows: v2 } = await test.db.query<{ version: string }>('SELECT version::text FROM topology_version');
    expect(v2[0]!.version).toBe(v1[0]!.version);
    expect(root((await cards()).body).text).toBe('one');
  });

  it('gives a caller who may not read topologies nothing of a warm cache: no body, no ETag, no 304', async () => {
    // Every role reads topologies (spec/1 §6); what refuses is no sign-in, or the topology feature off.
    const warm = await cards();
    const asks: Record<string, string>[] = [{}, { 'if-none-match': warm.etag }];
    for (const headers of asks) {
      const res = await fetch(`${urls[0]}${QUERY}`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('etag')).toBeNull();
      expect(await res.text()).not.toContain('cache-root');
    }
    await test.db.query(`INSERT INTO properties (name, value) VALUES ('topology.disable', 'true')`);
    app.ctx.identity.featuresChanged();
    try {
      for (const headers of asks) {
        const res = await get(0, headers, viewer);
        expect(res.status).toBe(403);
        expect(res.headers.get('etag')).toBeNull();
        expect(await res.text()).not.toContain('cache-root');
      }
    } finally {
      await test.db.query(`DELETE FROM properties WHERE name = 'topology.disable'`);
      app.ctx.identity.featuresChanged();
    }
    expect((await get(0, { 'if-none-match': warm.etag }, viewer)).status).toBe(304);
  });

  it('keys answers by the query: a filtered query does not get the unfiltered answer', async () => {
    await test.db.query(`UPDATE components SET hidden = true WHERE name = 'cache-second-root'`);
    const all = await cards();
    expect(all.body.components.map((c) => c.name)).toContain('cache-second-root');
    const res = await fetch(`${urls[0]}/api/topology?sortOrder=asc&hidden=false&sortBy=name`, {
      headers: { ...editor.headers },
    });
    const visible = (await res.json()) as TopologyResponse;
    expect(visible.components.map((c) => c.name)).not.toContain('cache-second-root');
    expect(res.headers.get('etag')).not.toBe(all.etag);
  });
});
