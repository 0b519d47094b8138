// An upstream and a real agent child process (`opsdeck agent`, the built CLI) on loopback: the agent's
// canary results arrive upstream with its agent_id; the upstream goes away for ~25 s and comes back on
// the same port and database: every check status arrives, each exactly once; deleting the agent
// revokes its token: pushes get 401 and the agent says so.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { cli, freePort, sleep, spawnNode, stopProcess, until } from './helpers/processes.js';

const ADMIN = { ADMIN_EMAIL: 'agent-admin@example.test', ADMIN_PASSWORD: 'agent process test password' };

describe('an agent process pushing to an upstream', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-agents-'));
  const upstreamDir = path.join(dir, 'upstream');
  let upstreamPort: number;
  let upstream: Opsdeck | undefined;
  let admin: TestUser;
  let agentChild: ChildProcess | undefined;
  let output = () => '';
  let target: http.Server;

  const startUpstream = () =>
    startOpsdeck({ dataDir: upstreamDir, port: upstreamPort, host: '127.0.0.1', demo: false, engines: false });

  beforeAll(async () => {
    target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    upstreamPort = await freePort();
    upstream = await startUpstream();
    admin = await createTestUser(upstream.ctx.db, 'admin');
  });

  afterAll(async () => {
    if (agentChild) await stopProcess(agentChild, 10_000);
    await upstream?.close();
    target.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const upstreamCount = async (sql: string, params: unknown[]) =>
    Number((await upstream!.ctx.db.query<{ n: string }>(sql, params)).rows[0]!.n);

  it('pushes check results, survives an upstream outage without loss or doubles, and stops on revocation', async () => {
    const gen = await fetch(`${upstream!.url}/api/agent/generate`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'edge-1' }),
    });
    expect(gen.status).toBe(201);
    const agent = (await gen.json()) as { id: string; access_token: string };

    const agentPort = await freePort();
    const agentProcess = spawnNode(
      [
        cli,
        'agent',
        '--upstream',
        upstream!.url,
        '--name',
        'edge-1',
        '--data-dir',
        path.join(dir, 'agent'),
        '--port',
        String(agentPort),
      ],
      {
        ...ADMIN,
        OPSDECK_DEMO: 'false',
        HOST: '127.0.0.1',
        OPSDECK_AGENT_TOKEN: agent.access_token,
      },
    );
    agentChild = agentProcess.child;
    output = agentProcess.output;
    const agentUrl = `http://127.0.0.1:${agentPort}`;
    // A first start creates and migrates the database in a child process first (agentProcess.ts).
    await until(
      'the agent to listen',
      async () => {
        if (agentChild!.exitCode !== null) throw new Error(`agent exited: ${output()}`);
        return (await fetch(`${agentUrl}/api/about`)).ok;
      },
      180_000,
    );

    // Apply a canary to the agent's own API, signed in as its first administrator.
    const signIn = await fetch(`${agentUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: agentUrl },
      body: JSON.stringify({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const applied = await fetch(`${agentUrl}/api/canary`, {
      method: 'POST',
      headers: { cookie, origin: agentUrl, 'content-type': 'application/yaml' },
      body: `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: edge-web}
spec:
  schedule: "@every 5s"
  http:
    - name: edge-target
      url: http://127.0.0.1:${(target.address() as net.AddressInfo).port}/
`,
    });
    expect(applied.status).toBe(201);

    // Results arrive upstream, stamped with the agent's id; the agent is online.
    const checkId = await until('the check upstream', async () => {
      const { rows } = await upstream!.ctx.db.query<{ id: string; agent_id: string }>(
        `SELECT c.id, c.agent_id FROM checks c WHERE c.name = 'edge-target'
           AND EXISTS (SELECT 1 FROM check_statuses s WHERE s.check_id = c.id)`,
      );
      return rows[0] && rows[0].agent_id === agent.id ? rows[0].id : undefined;
    });
    const online = await upstream!.ctx.db.query<{ online: boolean }>(
      'SELECT online FROM agents_summary WHERE id = $1',
      [agent.id],
    );
    expect(online.rows[0]?.online).toBe(true);

    // The upstream goes away; the agent keeps checking.
    await upstream!.close();
    upstream = undefined;
    await sleep(25_000);
    upstream = await startUpstream();

    // Every status the agent holds arrives, each once ((check_id, time) is the key; count both sides).
    const agentStatuses = async () => {
      const res = await fetch(`${agentUrl}/api/db/check_statuses?check_id=eq.${checkId}&select=time&order=time.desc`, {
        headers: { cookie },
      });
      return (await res.json()) as { time: string }[];
    };
    const before = await agentStatuses();
    expect(before.length).toBeGreaterThanOrEqual(5);
    const newest = before[0]!.time;
    await until(
      'the statuses made during the outage',
      async () =>
        (await upstreamCount('SELECT count(*) AS n FROM check_statuses WHERE check_id = $1 AND time <= $2', [
          checkId,
          newest,
        ])) === before.length,
    );
    expect(
      await upstreamCount(
        'SELECT count(DISTINCT (check_id, time)) AS n FROM check_statuses WHERE check_id = $1 AND time <= $2',
        [checkId, newest],
      ),
    ).toBe(before.length);
    expect(output()).toMatch(/push failed: upstream unreachable/);
    // The agent logs the recovery after the push it made; its output reaches us through a pipe.
    await until('the agent to log the recovery', async () => /upstream is back/.test(output()));
    expect(output()).toMatch(/upstream is back/);

    // Deleting the agent revokes its token: the next push is refused and the agent logs it.
    const del = await fetch(`${upstream!.url}/api/agent/${agent.id}?cleanup=false`, {
      method: 'DELETE',
      headers: admin.headers,
    });
    expect(del.status).toBe(200);
    await until('the agent to log the 401', async () => /refused the token \(401\)/.test(output()), 30_000);
    const afterDelete = await upstreamCount(
      'SELECT count(*) AS n FROM checks WHERE agent_id = $1 AND deleted_at IS NULL',
      [agent.id],
    );
    expect(afterDelete).toBe(1);
  }, 360_000);
});
