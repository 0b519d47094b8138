// `opsdeck agent --config-dir DIR` as a real child process (the built CLI) pushing to an upstream:
// a Canary file written into the directory is applied to the agent, its check runs and its results
// arrive upstream with the agent's id; editing the file changes the check (a new one runs, the one
// the file no longer has is deleted); a file with an error is reported with file, line and column
// and the other files still apply; removing the file soft-deletes its canary in the agent's database.
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

const ADMIN = { ADMIN_EMAIL: 'config-dir-admin@example.test', ADMIN_PASSWORD: 'config dir test password' };

describe('an agent watching a directory of YAML', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-agent-config-dir-'));
  const configDir = path.join(dir, 'resources');
  let upstream: Opsdeck | undefined;
  let admin: TestUser;
  let agentChild: ChildProcess | undefined;
  let output = () => '';
  let target: http.Server;
  let targetUrl: string;

  beforeAll(async () => {
    fs.mkdirSync(configDir);
    target = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    targetUrl = `http://127.0.0.1:${(target.address() as net.AddressInfo).port}/`;
    upstream = await startOpsdeck({
      dataDir: path.join(dir, 'upstream'),
      port: 0,
      host: '127.0.0.1',
      demo: false,
      engines: false,
    });
    admin = await createTestUser(upstream.ctx.db, 'admin');
  });

  afterAll(async () => {
    if (agentChild) await stopProcess(agentChild, 10_000);
    await upstream?.close();
    target.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const canary = (checks: string[]) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: dir-web, namespace: edge}
spec:
  schedule: "@every 5s"
  http:
${checks.map((name) => `    - name: ${name}\n      url: ${targetUrl}\n`).join('')}`;

  /** Checks upstream with results from this agent, by name. */
  const upstreamChecks = async (agentId: string) => {
    const { rows } = await upstream!.ctx.db.query<{ name: string; deleted: boolean }>(
      `SELECT c.name, c.deleted_at IS NOT NULL AS deleted FROM checks c
       WHERE c.agent_id = $1 AND EXISTS (SELECT 1 FROM check_statuses s WHERE s.check_id = c.id)`,
      [agentId],
    );
    return rows;
  };

  it('applies files at start and on change, reports errors with their position, and deletes what a removed file applied', async () => {
    const gen = await fetch(`${upstream!.url}/api/agent/generate`, {
      method: 'POST',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'dir-agent' }),
    });
    expect(gen.status).toBe(201);
    const agent = (await gen.json()) as { id: string; access_token: string };

    // A file there before the agent starts is applied at start.
    fs.writeFileSync(path.join(configDir, 'web.yaml'), canary(['dir-first']));
    const agentPort = await freePort();
    const spawned = spawnNode(
      [cli, 'agent', '--upstream', upstream!.url, '--data-dir', path.join(dir, 'agent'), '--port', String(agentPort)],
      {
        ...ADMIN,
        OPSDECK_DEMO: 'false',
        HOST: '127.0.0.1',
        OPSDECK_AGENT_TOKEN: agent.access_token,
        OPSDECK_AGENT_NAME: 'dir-agent',
        // The environment's name for --config-dir.
        OPSDECK_AGENT_CONFIG_DIR: configDir,
      },
    );
    agentChild = spawned.child;
    output = spawned.output;
    const agentUrl = `http://127.0.0.1:${agentPort}`;
    await until(
      'the agent to listen',
      async () => {
        if (agentChild!.exitCode !== null) throw new Error(`agent exited: ${output()}`);
        return (await fetch(`${agentUrl}/api/about`)).ok;
      },
      120_000,
    );
    // Applied before the agent says it is running.
    await until('the start-up line', async () => output().includes(`applying ${configDir}`));
    expect(output()).toContain('canary/edge/dir-web created (1 check)');

    // Its check runs on the agent and its results arrive upstream, stamped with the agent's id.
    await until('the first check upstream', async () =>
      (await upstreamChecks(agent.id)).some((c) => c.name === 'dir-first' && !c.deleted),
    );

    // Editing the file: the new check runs, and arrives upstream too.
    fs.writeFileSync(path.join(configDir, 'web.yaml'), canary(['dir-second']));
    await until('the edit applied', async () => output().includes('canary/edge/dir-web configured (1 check)'));
    await until('the second check upstream', async () =>
      (await upstreamChecks(agent.id)).some((c) => c.name === 'dir-second'),
    );

    // A file with an error: reported with file, line and column; the others still apply.
    const broken = path.join(configDir, 'broken.yml');
    fs.writeFileSync(
      broken,
      'apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata: {name: broken}\nspec:\n  http:\n    - name: no-url\n      timeout: soon\n',
    );
    fs.writeFileSync(
      path.join(configDir, 'tcp.yaml'),
      `apiVersion: canaries.flanksource.com/v1\nkind: Canary\nmetadata: {name: dir-tcp, namespace: edge}\nspec:\n  schedule: "@every 5s"\n  tcp:\n    - name: dir-tcp-check\n      endpoint: ${new URL(targetUrl).host}\n`,
    );
    await until('the error reported', async () => output().match(new RegExp(`${broken}:\\d+:\\d+: `)));
    await until('the other file applied', async () => output().includes('canary/edge/dir-tcp created (1 check)'));
    await until('the tcp check upstream', async () =>
      (await upstreamChecks(agent.id)).some((c) => c.name === 'dir-tcp-check'),
    );

    // Removing a file soft-deletes the canary it applied, in the agent's own database.
    fs.rmSync(path.join(configDir, 'web.yaml'));
    await until('the removal', async () =>
      output().includes('canary/edge/dir-web deleted (web.yaml no longer has it)'),
    );
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
    const local = await fetch(`${agentUrl}/api/db/canaries?namespace=eq.edge&select=name,deleted_at&order=name`, {
      headers: { cookie },
    });
    expect(local.status).toBe(200);
    const rows = (await local.json()) as { name: string; deleted_at: string | null }[];
    expect(rows.find((r) => r.name === 'dir-web')?.deleted_at).toBeTruthy();
    expect(rows.find((r) => r.name === 'dir-tcp')?.deleted_at).toBeNull();
    expect(rows.some((r) => r.name === 'broken')).toBe(false);

    // The agent goes on running the file that is still there.
    expect(agentChild!.exitCode).toBeNull();
  }, 240_000);
});
