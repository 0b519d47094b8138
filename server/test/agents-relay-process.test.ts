// What the upstream relays to a real agent child process (`opsdeck agent`, the built CLI):
// - Run Now on the agent's check, pressed upstream, answers 202 "queued on agent <name>" and is run
//   at once by the agent in its own engine (the upstream runs nothing); its result arrives upstream
//   with the agent's next push;
// - a playbook run with a `secret` parameter, relayed to the agent: its action sees the secret's
//   value, while the upstream's run page, the action's output and the agent's log show only the mask.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { cli, freePort, spawnNode, stopProcess, until } from './helpers/processes.js';

const ADMIN = { ADMIN_EMAIL: 'agent-relay-admin@example.test', ADMIN_PASSWORD: 'agent relay test password' };
const SECRET = 'relay-secret-7f3a9c';

describe('Run Now and secret parameters relayed to an agent process', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-agent-relay-'));
  let upstream: Opsdeck;
  let admin: TestUser;
  let agentChild: ChildProcess | undefined;
  let output = () => '';
  let target: http.Server;
  let hits = 0;
  let agent: { id: string; access_token: string };
  let agentUrl: string;
  let cookie: string;

  beforeAll(async () => {
    target = http.createServer((_req, res) => {
      hits++;
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    // Without engines: nothing upstream could run a check or a playbook by itself.
    upstream = await startOpsdeck({
      dataDir: path.join(dir, 'upstream'),
      port: await freePort(),
      host: '127.0.0.1',
      demo: false,
      engines: false,
    });
    admin = await createTestUser(upstream.ctx.db, 'admin');
    const gen = await api('/api/agent/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'edge-relay' }),
    });
    expect(gen.status).toBe(201);
    agent = (await gen.json()) as typeof agent;

    const agentPort = await freePort();
    agentUrl = `http://127.0.0.1:${agentPort}`;
    const spawned = spawnNode(
      [cli, 'agent', '--upstream', upstream.url, '--name', 'edge-relay', '--data-dir', path.join(dir, 'agent')],
      {
        ...ADMIN,
        OPSDECK_DEMO: 'false',
        HOST: '127.0.0.1',
        PORT: String(agentPort),
        OPSDECK_AGENT_TOKEN: agent.access_token,
      },
    );
    agentChild = spawned.child;
    output = spawned.output;
    await until('the agent to listen', async () => {
      if (agentChild!.exitCode !== null) throw new Error(`agent exited: ${output()}`);
      return (await fetch(`${agentUrl}/api/about`)).ok;
    });
    const signIn = await fetch(`${agentUrl}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: agentUrl },
      body: JSON.stringify({ email: ADMIN.ADMIN_EMAIL, password: ADMIN.ADMIN_PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  });

  afterAll(async () => {
    if (agentChild) await stopProcess(agentChild, 10_000);
    await upstream?.close();
    target?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  function api(p: string, init: RequestInit = {}) {
    return fetch(`${upstream.url}${p}`, { ...init, headers: { ...admin.headers, ...(init.headers ?? {}) } });
  }
  const statusesUpstream = async (checkId: string) =>
    Number(
      (
        await upstream.ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM check_statuses WHERE check_id = $1', [
          checkId,
        ])
      ).rows[0]!.n,
    );

  it("runs the agent's check on the agent when Run Now is pressed upstream", async () => {
    // A canary applied to the agent, scheduled hourly: after its first run, only Run Now runs it.
    const applied = await fetch(`${agentUrl}/api/canary`, {
      method: 'POST',
      headers: { cookie, origin: agentUrl, 'content-type': 'application/yaml' },
      body: `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: edge-hourly}
spec:
  schedule: "@every 1h"
  http:
    - name: behind-firewall
      url: http://127.0.0.1:${(target.address() as net.AddressInfo).port}/
`,
    });
    expect(applied.status).toBe(201);
    const checkId = await until('the check and its first result upstream', async () => {
      const { rows } = await upstream.ctx.db.query<{ id: string }>(
        `SELECT c.id FROM checks c WHERE c.name = 'behind-firewall' AND c.agent_id = $1
           AND EXISTS (SELECT 1 FROM check_statuses s WHERE s.check_id = c.id)`,
        [agent.id],
      );
      return rows[0]?.id;
    });
    const before = await statusesUpstream(checkId);
    const hitsBefore = hits;

    const pressedAt = Date.now();
    const pressed = await api(`/api/canary/run/check/${checkId}`, { method: 'POST' });
    expect(pressed.status).toBe(202);
    expect(await pressed.json()).toMatchObject({
      queued: true,
      checkId,
      agent: { id: agent.id, name: 'edge-relay' },
      message: 'queued on agent edge-relay',
    });

    // The agent runs it (its target is hit again) and its result arrives with the next push.
    await until(
      'the relayed run to reach the upstream',
      async () => (await statusesUpstream(checkId)) === before + 1,
      30_000,
    );
    console.log(`Run Now relayed to the agent: its result upstream after ${Date.now() - pressedAt} ms`);
    expect(hits).toBe(hitsBefore + 1);
    const request = await upstream.ctx.db.query<{ status: string; attempts: number; error: string | null }>(
      'SELECT status, attempts, error FROM agent_check_runs WHERE check_id = $1',
      [checkId],
    );
    expect(request.rows).toEqual([{ status: 'done', attempts: 1, error: null }]);
    expect(output()).toMatch(new RegExp(`agent check runs: ran check ${checkId} on request`));
  }, 120_000);

  it('hands secret parameters to the agent, whose action sees the value while every page shows the mask', async () => {
    const seen = path.join(dir, 'seen-secret.txt');
    const applied = await api('/api/playbook', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: secret-on-edge}
spec:
  runsOn: [edge-relay]
  parameters:
    - {name: token, type: secret, required: true}
  actions:
    - name: use-token
      exec:
        env: [{name: TOKEN, value: "{{.params.token}}"}]
        script: |
          printf %s "$TOKEN" > ${JSON.stringify(seen)}
          echo "token is $TOKEN"
`,
    });
    expect(applied.status).toBe(201);
    const playbookId = ((await applied.json()) as { applied: { id: string }[] }).applied[0]!.id;
    const requested = await api('/api/playbook/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: playbookId, params: { token: SECRET } }),
    });
    expect(requested.status).toBe(201);
    const runId = ((await requested.json()) as { run_id: string }).run_id;

    const page = await until(
      'the relayed run to end upstream',
      async () => {
        const res = await api(`/api/playbook/run/${runId}`);
        const text = await res.text();
        const run = JSON.parse(text) as {
          status: string;
          agent_id: string;
          parameters: Record<string, string>;
          actions: { status: string; result: { stdout?: string } | null }[];
        };
        return ['completed', 'failed'].includes(run.status) && { run, text };
      },
      60_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\nagent output:\n${output()}`);
    });
    // The action on the agent had the value itself.
    expect(fs.readFileSync(seen, 'utf8')).toBe(SECRET);
    expect(page.run).toMatchObject({ status: 'completed', agent_id: agent.id, parameters: { token: '••••' } });
    expect(page.run.actions[0]!.result!.stdout!.trim()).toBe('token is ••••');
    expect(page.text).not.toContain(SECRET);
    expect(output()).not.toContain(SECRET);
    // Sealed at rest on the upstream, as any run's.
    const stored = await upstream.ctx.db.query<{ secret_parameters: Record<string, string> }>(
      'SELECT secret_parameters FROM playbook_runs WHERE id = $1',
      [runId],
    );
    expect(stored.rows[0]!.secret_parameters.token).toMatch(/^enc:v1:/);
  }, 120_000);
});
