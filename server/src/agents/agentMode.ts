// `opsdeck agent`: the same build on its own embedded database with its engines (health, catalog,
// topology), plus the pusher that sends what they produce to the upstream, and the poller that runs
// the playbook runs the upstream assigned to this agent (runsOn).
import fs from 'node:fs';
import path from 'node:path';
import { startOpsdeck, type Opsdeck } from '../app.js';
import { CheckRunPoller } from './checkRunPoller.js';
import { PlaybookPoller } from './playbookPoller.js';
import { AgentPusher, type PusherOptions } from './pusher.js';
import { ConfigDirWatcher, configDirToken } from './watchDir.js';

export interface AgentOptions {
  upstream: string;
  token: string;
  name?: string;
  dataDir?: string;
  port?: number;
  host?: string;
  /** A directory of YAML resources applied to this agent and watched (watchDir.ts). */
  configDir?: string;
  pusher?: Partial<PusherOptions>;
}

export interface RunningAgent {
  opsdeck: Opsdeck;
  pusher: AgentPusher;
  playbooks: PlaybookPoller;
  checkRuns: CheckRunPoller;
  configDir?: ConfigDirWatcher;
  close(): Promise<void>;
}

export function agentOptionsFrom(
  values: Record<string, string | boolean | undefined>,
  env: NodeJS.ProcessEnv = process.env,
): AgentOptions {
  const str = (v: string | boolean | undefined) => (typeof v === 'string' && v !== '' ? v : undefined);
  const upstream = str(values.upstream) ?? env.OPSDECK_UPSTREAM_URL;
  const token = str(values.token) ?? env.OPSDECK_AGENT_TOKEN;
  if (!upstream) throw new Error('opsdeck agent: give the upstream with --upstream URL (or OPSDECK_UPSTREAM_URL)');
  try {
    new URL(upstream);
  } catch {
    throw new Error(`opsdeck agent: --upstream must be a URL such as https://opsdeck.example.com, got "${upstream}"`);
  }
  if (!token) throw new Error('opsdeck agent: give the access token with --token T (or OPSDECK_AGENT_TOKEN)');
  const port = str(values.port) ?? env.PORT;
  if (port !== undefined && !/^\d+$/.test(port))
    throw new Error(`opsdeck agent: --port must be a number, got "${port}"`);
  const name = str(values.name) ?? env.OPSDECK_AGENT_NAME;
  const configDir = str(values['config-dir']) ?? (env.OPSDECK_AGENT_CONFIG_DIR || undefined);
  return {
    upstream,
    token,
    name,
    dataDir: path.resolve(str(values['data-dir']) ?? env.DATA_DIR ?? `data-agent${name ? `-${name}` : ''}`),
    port: port === undefined ? 8081 : Number(port),
    ...(configDir ? { configDir: path.resolve(configDir) } : {}),
  };
}

/** The agent's own API as this process reaches it (any-address listeners through loopback). */
function ownUrl(opsdeck: Opsdeck): string {
  const host = opsdeck.ctx.config.host;
  const local = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${local.includes(':') ? `[${local}]` : local}:${opsdeck.port}`;
}

export async function startAgent(options: AgentOptions): Promise<RunningAgent> {
  if (options.configDir && !fs.statSync(options.configDir, { throwIfNoEntry: false })?.isDirectory())
    throw new Error(`opsdeck agent: --config-dir ${options.configDir} is not a directory`);
  // Always the embedded database: the push cursors rely on its one-transaction-at-a-time commits.
  const opsdeck = await startOpsdeck({
    databaseUrl: undefined,
    dataDir: options.dataDir,
    // A small buffer cache keeps an agent's embedded database (most of its memory) small.
    pgliteSharedBuffers: process.env.PGLITE_SHARED_BUFFERS?.trim() || '16MB',
    port: options.port,
    ...(options.host ? { host: options.host } : {}),
    demo: false,
    engines: true,
  });
  const pusher = new AgentPusher(opsdeck.ctx.db, {
    upstream: options.upstream,
    token: options.token,
    name: options.name,
    version: opsdeck.ctx.version,
    ...options.pusher,
  });
  pusher.start();
  const playbooks = new PlaybookPoller(opsdeck.ctx.db, {
    upstream: options.upstream,
    token: options.token,
    version: opsdeck.ctx.version,
    secrets: opsdeck.ctx.secrets,
  });
  playbooks.start();
  // Run Now pressed upstream on this agent's checks: run here at once (checkRunPoller.ts).
  const checkRuns = new CheckRunPoller(opsdeck.ctx.health, {
    upstream: options.upstream,
    token: options.token,
    version: opsdeck.ctx.version,
  });
  checkRuns.start();
  let configDir: ConfigDirWatcher | undefined;
  const close = async () => {
    await configDir?.stop();
    await checkRuns.stop();
    await playbooks.stop();
    await pusher.stop();
    await opsdeck.close();
  };
  // The directory of YAML applied to this agent: once now, then on every change (watchDir.ts).
  if (options.configDir) {
    try {
      configDir = new ConfigDirWatcher({
        dir: options.configDir,
        server: ownUrl(opsdeck),
        token: await configDirToken(opsdeck.ctx.db),
        statePath: path.join(opsdeck.ctx.config.dataDir, 'config-dir-state.json'),
      });
      await configDir.start();
    } catch (e) {
      await close();
      throw e;
    }
  }
  return {
    opsdeck,
    pusher,
    playbooks,
    checkRuns,
    configDir,
    close,
  };
}
