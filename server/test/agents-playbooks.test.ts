// A playbook with `runsOn` an agent, run from the upstream: the upstream's own runner never takes it;
// a real agent child process (`opsdeck agent`, the built CLI) claims it, runs its exec action in its
// own process (the script prints its parent's pid: the agent process's, not this one's), and reports
// the action's output, which the upstream's run page (GET /api/playbook/run/:id) shows; a cancel
// upstream stops the agent's script.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { cli, freePort, sleep, spawnNode, stopProcess, until } from './helpers/processes.js';

const ADMIN = { ADMIN_EMAIL: 'agent-pb-admin@example.test', ADMIN_PASSWORD: 'agent playbook test password' };

interface RunPage {
  status: string;
  agent_id: string;
  error: string | null;
  actions: {
    name: string;
    status: string;
    error: string | null;
    result: { stdout?: string; exitCode?: number } | null;
  }[];
}

describe('a playbook that runs on an agent', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-agent-playbooks-'));
  let upstream: Opsdeck;
  let admin: TestUser;
  let agentChild: ChildProcess | undefined;
  let output = () => '';

  beforeAll(async () => {
    // With its engines: the upstream's own playbook runner is polling all along.
    upstream = await startOpsdeck({
      dataDir: path.join(dir, 'upstream'),
      port: await freePort(),
      host: '127.0.0.1',
      demo: false,
      engines: true,
    });
    admin = await createTestUser(upstream.ctx.db, 'admin');
  });

  afterAll(async () => {
    if (agentChild) await stopProcess(agentChild, 10_000);
    await upstream?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${upstream.url}${p}`, { ...init, headers: { ...admin.headers, ...(init.headers ?? {}) } });
  const apply = (yaml: string) =>
    api('/api/playbook', { method: 'POST', headers: { 'content-type': 'application/yaml' }, body: yaml });
  const playbook = (name: string, runsOn: string) => `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: ${name}}
spec:
  runsOn: [${runsOn}]
  actions:
    - name: where
      exec:
        script: echo "ran on $(hostname) under pid $PPID"
`;
  const run = async (id: string) => {
    const res = await api('/api/playbook/run', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { run_id: string }).run_id;
  };
  const runPage = async (id: string) => (await (await api(`/api/playbook/run/${id}`)).json()) as RunPage;

  it('is claimed and executed by the agent process, and its output shows upstream', async () => {
    const gen = await api('/api/agent/generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'edge-pb' }),
    });
    expect(gen.status).toBe(201);
    const agent = (await gen.json()) as { id: string; access_token: string };

    // An unknown agent is refused at its line; `local` stays this server's.
    const unknown = await apply(playbook('nowhere', 'edge-missing'));
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      errors: [{ message: expect.stringContaining('spec.runsOn[0]: no agent "edge-missing"'), line: 5 }],
    });
    const applied = await apply(`${playbook('on-edge', 'edge-pb')}---\n${playbook('at-home', 'local')}`);
    expect(applied.status).toBe(201);
    const [onEdge, atHome] = ((await applied.json()) as { applied: { id: string }[] }).applied;

    // Queued before the agent exists as a process: assigned to it, and the upstream's runner leaves it.
    const runId = await run(onEdge!.id);
    const localRunId = await run(atHome!.id);
    const local = await until('the local run to end', async () => {
      const page = await runPage(localRunId);
      return page.status === 'completed' && page;
    });
    expect(local.agent_id).toBe('00000000-0000-0000-0000-000000000000');
    expect(local.actions[0]?.result?.stdout?.trim()).toBe(`ran on ${os.hostname()} under pid ${process.pid}`);
    await sleep(1_500);
    const waiting = await runPage(runId);
    expect(waiting).toMatchObject({ status: 'pending', agent_id: agent.id, actions: [] });

    // The agent may report only its own runs.
    const auth = { authorization: `Basic ${Buffer.from(`token:${agent.access_token}`).toString('base64')}` };
    const foreign = await fetch(`${upstream.url}/api/upstream/playbook-action/${localRunId}/report`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'completed', actions: [] }),
    });
    expect(foreign.status).toBe(403);

    const agentPort = await freePort();
    const agentProcess = spawnNode(
      [cli, 'agent', '--upstream', upstream.url, '--name', 'edge-pb', '--data-dir', path.join(dir, 'agent')],
      {
        ...ADMIN,
        OPSDECK_DEMO: 'false',
        HOST: '127.0.0.1',
        PORT: String(agentPort),
        OPSDECK_AGENT_TOKEN: agent.access_token,
      },
    );
    agentChild = agentProcess.child;
    output = agentProcess.output;

    const done = await until(
      'the run to complete upstream',
      async () => {
        if (agentChild!.exitCode !== null) throw new Error(`agent exited: ${output()}`);
        const page = await runPage(runId);
        return ['completed', 'failed'].includes(page.status) && page;
      },
      90_000,
    ).catch((e: Error) => {
      throw new Error(`${e.message}\nagent output:\n${output()}`);
    });
    expect(done).toMatchObject({ status: 'completed', agent_id: agent.id, error: null });
    expect(done.actions).toHaveLength(1);
    expect(done.actions[0]).toMatchObject({ name: 'where', status: 'completed' });
    expect(done.actions[0]!.result).toMatchObject({ exitCode: 0 });
    expect(agentChild.pid).not.toBe(process.pid);
    expect(done.actions[0]!.result!.stdout!.trim()).toBe(`ran on ${os.hostname()} under pid ${agentChild.pid}`);
    expect(output()).toMatch(/agent playbooks: running default\/on-edge/);

    // A cancel upstream reaches the agent: its script is stopped and the upstream shows the action's end.
    const slow = await apply(
      playbook('slow-edge', 'edge-pb').replace(
        'echo "ran on $(hostname) under pid $PPID"',
        'echo started; sleep 60; echo "not reached"',
      ),
    );
    expect(slow.status).toBe(201);
    const slowRunId = await run(((await slow.json()) as { applied: { id: string }[] }).applied[0]!.id);
    await until(
      'the slow action to run on the agent',
      async () => (await runPage(slowRunId)).actions[0]?.status === 'running',
    );
    expect((await api(`/api/playbook/run/${slowRunId}/cancel`, { method: 'POST' })).status).toBe(200);
    const cancelled = await until('the cancelled action to end upstream', async () => {
      const page = await runPage(slowRunId);
      return page.actions[0]?.status === 'failed' && page;
    });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.actions[0]!.error).toBe('the run was cancelled');
    expect(cancelled.actions[0]!.result?.stdout ?? '').not.toContain('not reached');
  }, 150_000);
});
