// `opsdeck agent` as a child process for e2e files: this build's agent mode (server/src/cli.ts run
// through tsx, so the current source) on its own embedded database and port, pushing to an upstream,
// with a first administrator so resources can be applied to it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const AGENT_ADMIN = { email: 'agent-admin@e2e.test', password: 'agent-admin-password-1' };

export interface AgentProcess {
  child: ChildProcess;
  /** The agent's own API. */
  url: string;
  output(): string;
  /** Applies a resource (YAML) to the agent's own API as its administrator; answers the status. */
  apply(endpoint: string, yaml: string): Promise<number>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** Starts an agent and waits until its API answers (its embedded database takes a few seconds). */
export async function startAgent(options: { upstream: string; token: string; name: string }): Promise<AgentProcess> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-agent-e2e-'));
  const port = await freePort();
  let output = '';
  const args = ['--import', 'tsx', 'server/src/cli.ts', 'agent', '--upstream', options.upstream];
  args.push('--token', options.token, '--name', options.name, '--data-dir', dataDir, '--port', String(port));
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: {
      ...process.env,
      LOG_LEVEL: 'warn',
      OPSDECK_DEMO: 'false',
      HOST: '127.0.0.1',
      ADMIN_EMAIL: AGENT_ADMIN.email,
      ADMIN_PASSWORD: AGENT_ADMIN.password,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the agent exited with ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the agent did not answer within 120 s: ${output.slice(-2000)}`);
    }
    try {
      if ((await fetch(`${url}/api/about`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  const apply = async (endpoint: string, yaml: string) => {
    const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify(AGENT_ADMIN),
    });
    if (!signIn.ok) throw new Error(`signing in to the agent failed: ${signIn.status} ${await signIn.text()}`);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const res = await fetch(`${url}${endpoint}`, {
      method: 'POST',
      headers: { cookie, origin: url, 'content-type': 'application/yaml' },
      body: yaml,
    });
    return res.status;
  };

  return { child, url, output: () => output, apply, stop };
}
