// Agents on the upstream (docs/api.md "Agents"): generate shows the token once and needs write on
// agents; a push stamps agent_id and is idempotent; rows of another agent or local rows are refused
// (403) with nothing stored; a revoked token or a deleted agent gets 401 at once; a runaway agent is
// rate-limited alone; delete with and without cleanup.
import crypto from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const NO_AGENT = '00000000-0000-0000-0000-000000000000';

interface Generated {
  id: string;
  username: string;
  access_token: string;
}

const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` });

/** An agent-side canary with one check and `statuses` results, as the agent's to_jsonb rows look. */
function healthBatch(statuses = 3) {
  const canaryId = crypto.randomUUID();
  const checkId = crypto.randomUUID();
  const now = Date.now();
  return {
    canaryId,
    checkId,
    body: {
      canaries: [
        {
          id: canaryId,
          name: `c-${canaryId.slice(0, 6)}`,
          namespace: 'default',
          spec: { tcp: [] },
          agent_id: NO_AGENT,
          next_runtime: new Date().toISOString(),
        },
      ],
      checks: [{ id: checkId, canary_id: canaryId, type: 'tcp', name: 'port', agent_id: NO_AGENT, status: 'healthy' }],
      check_statuses: Array.from({ length: statuses }, (_, i) => ({
        check_id: checkId,
        time: new Date(now - i * 1000).toISOString().replace(/Z$/, '123+00:00'), // microseconds, as to_jsonb writes them
        status: true,
        duration: 3,
      })),
    },
  };
}

describe.each(databaseKinds())('agents on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;
  let editor: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    // A slow refill, so the runaway test sees 429s however slowly a loaded machine serves its pushes.
    app = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      engines: false,
      agentPushRate: { perSecond: 1, burst: 10 },
    });
    admin = await createTestUser(test.db, 'admin');
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const api = (p: string, init: RequestInit & { as?: TestUser } = {}) =>
    fetch(`${app.url}${p}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...(init.as ?? admin).headers, ...(init.headers as object) },
    });

  async function generate(name: string, as: TestUser = admin): Promise<Generated> {
    const res = await api('/api/agent/generate', {
      method: 'POST',
      body: JSON.stringify({ name, properties: { site: 'a' } }),
      as,
    });
    expect(res.status).toBe(201);
    return (await res.json()) as Generated;
  }

  const push = (token: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/upstream/push`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...basic(token), ...headers },
      body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
    });

  it('generates an agent with a person and a token shown once; admin and editor may, a viewer may not', async () => {
    const agent = await generate(`site-${kind}-1`);
    expect(agent.username).toBe(`agent-site-${kind}-1`);
    expect(agent.access_token).toMatch(/^odk_/);
    const { rows } = await test.db.query<{ type: string; value: string; properties: unknown }>(
      `SELECT p.type, t.value, a.properties FROM agents a JOIN people p ON p.id = a.person_id
       JOIN access_tokens t ON t.id = a.access_token_id WHERE a.id = $1`,
      [agent.id],
    );
    expect(rows[0]?.type).toBe('agent');
    expect(rows[0]?.value).not.toContain(agent.access_token); // only the hash is stored
    expect(rows[0]?.properties).toEqual({ site: 'a' });

    const read = await api(`/api/db/agents_summary?id=eq.${agent.id}`, { as: viewer });
    const [summary] = (await read.json()) as Record<string, unknown>[];
    expect(summary).toMatchObject({ name: `site-${kind}-1`, online: false, checks_count: 0 });
    expect(JSON.stringify(summary)).not.toContain(agent.access_token);

    expect((await generate(`site-${kind}-editor`, editor)).id).toBeTruthy();
    const refused = await api('/api/agent/generate', {
      method: 'POST',
      body: JSON.stringify({ name: 'x' }),
      as: viewer,
    });
    expect(refused.status).toBe(403);
    const duplicate = await api('/api/agent/generate', {
      method: 'POST',
      body: JSON.stringify({ name: `site-${kind}-1` }),
    });
    expect(duplicate.status).toBe(400);
    expect(((await duplicate.json()) as { error: string }).error).toContain('already exists');
    const noName = await api('/api/agent/generate', { method: 'POST', body: JSON.stringify({}) });
    expect(noName.status).toBe(400);
  });

  it('ping sets last_seen: the agent shows online', async () => {
    const agent = await generate(`site-${kind}-ping`);
    const res = await fetch(`${app.url}/api/upstream/ping`, { headers: basic(agent.access_token) });
    expect(res.status).toBe(200);
    const { rows } = await test.db.query<{ online: boolean }>('SELECT online FROM agents_summary WHERE id = $1', [
      agent.id,
    ]);
    expect(rows[0]?.online).toBe(true);
    const person = await fetch(`${app.url}/api/upstream/ping`, { headers: editor.headers });
    expect(person.status).toBe(403);
  });

  it('stamps agent_id on pushed rows, and a repeated push changes nothing', async () => {
    const agent = await generate(`site-${kind}-push`);
    const batch = healthBatch(3);
    const first = await push(agent.access_token, batch.body);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      accepted: { canaries: 1, checks: 1, check_statuses: 3 },
      stored: { canaries: 1, checks: 1, check_statuses: 3 },
    });
    const again = await push(agent.access_token, gzipSync(JSON.stringify(batch.body)), { 'content-encoding': 'gzip' });
    expect(again.status).toBe(200);
    expect(((await again.json()) as { stored: unknown }).stored).toEqual({ canaries: 0, checks: 0, check_statuses: 0 });

    const { rows } = await test.db.query<{ agent_id: string; next_runtime: string | null; statuses: number }>(
      `SELECT c.agent_id, k.next_runtime, (SELECT count(*)::int FROM check_statuses s WHERE s.check_id = c.id) AS statuses
       FROM checks c JOIN canaries k ON k.id = c.canary_id WHERE c.id = $1`,
      [batch.checkId],
    );
    expect(rows[0]).toEqual({ agent_id: agent.id, next_runtime: null, statuses: 3 });
    const summary = await test.db.query<{ checks_count: number; last_received: string | null }>(
      'SELECT checks_count, last_received FROM agents_summary WHERE id = $1',
      [agent.id],
    );
    expect(summary.rows[0]?.checks_count).toBe(1);
    expect(summary.rows[0]?.last_received).not.toBeNull();

    // A changed row is stored again; the rest stays.
    const changed = { checks: [{ ...batch.body.checks[0], status: 'unhealthy' }] };
    const third = await push(agent.access_token, changed);
    expect(((await third.json()) as { stored: unknown }).stored).toEqual({ checks: 1 });
  });

  it("refuses a push that claims another agent's or a local row, storing nothing of it", async () => {
    const a = await generate(`site-${kind}-a`);
    const b = await generate(`site-${kind}-b`);
    const owned = healthBatch(1);
    expect((await push(a.access_token, owned.body)).status).toBe(200);

    // b re-pushes a's check (same id) together with a new canary of its own.
    const mine = healthBatch(1);
    const res = await push(b.access_token, { canaries: mine.body.canaries, checks: owned.body.checks });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain(`checks ${owned.checkId}`);
    const stored = await test.db.query('SELECT 1 FROM canaries WHERE id = $1', [mine.canaryId]);
    expect(stored.rows).toHaveLength(0);

    // Statuses for a's check from b: the parent is a's.
    const statuses = await push(b.access_token, { check_statuses: owned.body.check_statuses });
    expect(statuses.status).toBe(403);

    // A local (upstream) canary.
    const local = await test.db.query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('local-${kind}', '{}') RETURNING id`,
    );
    const claim = await push(b.access_token, { canaries: [{ id: local.rows[0]!.id, name: 'mine now', spec: {} }] });
    expect(claim.status).toBe(403);
  });

  it('refuses bad bodies and oversized ones', async () => {
    const agent = await generate(`site-${kind}-bad`);
    expect((await push(agent.access_token, '[1]')).status).toBe(400);
    expect((await push(agent.access_token, { users: [] })).status).toBe(400);
    expect((await push(agent.access_token, { checks: [{ name: 'no id' }] })).status).toBe(400);
    const orphan = await push(agent.access_token, {
      check_statuses: [{ check_id: crypto.randomUUID(), time: new Date().toISOString(), status: true }],
    });
    expect(orphan.status).toBe(400);
    const huge = gzipSync(Buffer.alloc(70 * 1024 * 1024, 32));
    const tooLarge = await push(agent.access_token, huge, { 'content-encoding': 'gzip' });
    expect(tooLarge.status).toBe(413);
  });

  it('rate-limits a runaway agent with 429 and Retry-After while another is served', async () => {
    const runaway = await generate(`site-${kind}-runaway`);
    const calm = await generate(`site-${kind}-calm`);
    const answers = await Promise.all(Array.from({ length: 80 }, () => push(runaway.access_token, {})));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await push(calm.access_token, {})).status).toBe(200);
  });

  it('a rotated token replaces the old one; a deleted agent gets 401 at once and keeps its data without cleanup', async () => {
    const agent = await generate(`site-${kind}-keep`);
    const batch = healthBatch(1);
    expect((await push(agent.access_token, batch.body)).status).toBe(200);

    const rotated = await api(`/api/agent/${agent.id}/token`, { method: 'POST' });
    const { access_token: fresh } = (await rotated.json()) as Generated;
    expect((await push(agent.access_token, {})).status).toBe(401);
    expect((await push(fresh, {})).status).toBe(200);

    expect((await api(`/api/agent/${agent.id}?cleanup=false`, { method: 'DELETE', as: viewer })).status).toBe(403);
    const del = await api(`/api/agent/${agent.id}?cleanup=false`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect((await push(fresh, batch.body)).status).toBe(401);
    const ping = await fetch(`${app.url}/api/upstream/ping`, { headers: basic(fresh) });
    expect(ping.status).toBe(401);
    const { rows } = await test.db.query<{ deleted_at: string | null; agent_deleted: string | null }>(
      'SELECT c.deleted_at, a.deleted_at AS agent_deleted FROM checks c JOIN agents a ON a.id = c.agent_id WHERE c.id = $1',
      [batch.checkId],
    );
    expect(rows[0]?.deleted_at).toBeNull();
    expect(rows[0]?.agent_deleted).not.toBeNull();
    // The name is free again.
    expect((await generate(`site-${kind}-keep`)).id).not.toBe(agent.id);
  });

  it('delete with cleanup soft-deletes what the agent pushed, also through PATCH /api/db/agents', async () => {
    for (const via of ['delete', 'patch'] as const) {
      const agent = await generate(`site-${kind}-clean-${via}`);
      const batch = healthBatch(1);
      const item = {
        id: crypto.randomUUID(),
        external_id: `x-${via}-${kind}`,
        type: 'App',
        config_class: 'App',
        name: 'cart',
      };
      expect((await push(agent.access_token, { ...batch.body, config_items: [item] })).status).toBe(200);
      const res =
        via === 'delete'
          ? await api(`/api/agent/${agent.id}?cleanup=true`, { method: 'DELETE' })
          : await api(`/api/db/agents?id=eq.${agent.id}`, {
              method: 'PATCH',
              headers: { origin: app.url },
              body: JSON.stringify({ deleted_at: new Date().toISOString(), cleanup: true }),
            });
      expect(res.status).toBeLessThan(300);
      const { rows } = await test.db.query<{ check_deleted: string | null; item_deleted: string | null }>(
        `SELECT (SELECT deleted_at FROM checks WHERE id = $1) AS check_deleted,
                (SELECT deleted_at FROM config_items WHERE id = $2) AS item_deleted`,
        [batch.checkId, item.id],
      );
      expect(rows[0]?.check_deleted).not.toBeNull();
      expect(rows[0]?.item_deleted).not.toBeNull();
      expect((await push(agent.access_token, {})).status).toBe(401);
    }
  });
});
