// The `opsdeck` command: start the server, run migrations, print the version.
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { openDatabase } from './app.js';
import { migrate } from './db/migrate.js';
import { applyFile } from './cliApply.js';
import { VERSION } from './version.js';
import { agentOptionsFrom, startAgent, type AgentOptions } from './agents/agentMode.js';
import { prepareDataDir, useSmallFootprint } from './agents/agentProcess.js';

async function runAgent(options: AgentOptions): Promise<void> {
  // Keeps the agent process small (agentProcess.ts): the database created in a child process, V8
  // set for size (baseline WebAssembly compiler, a heap grown in small steps).
  if (process.argv[1]) prepareDataDir(options.dataDir!, process.argv[1]);
  useSmallFootprint();
  const agent = await startAgent(options);
  console.log(
    `Opsdeck agent${options.name ? ` ${options.name}` : ''} ${VERSION} listening on ${agent.opsdeck.ctx.config.publicUrl} (embedded PGlite in ${options.dataDir}); pushing to ${options.upstream}${options.configDir ? `; applying ${options.configDir}` : ''}`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    await agent.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

const USAGE = `Usage: opsdeck <command> [options]

Commands:
  start               Start the server (same as npm start). Configuration comes from the environment.
  apply -f <file>     Apply resources (Canary, Topology, ScrapeConfig, Playbook, Notification,
                      NotificationSilence, ...) from a YAML or JSON file (- for standard input) to a
                      running server: --server URL (or OPSDECK_URL, default http://localhost:8080) and
                      --token TOKEN (or OPSDECK_TOKEN), an access token of a user allowed to write them.
  agent --upstream URL --token T [--name N] [--data-dir D] [--port P] [--config-dir DIR]
                      Run as an agent: this build's engines (health checks, scrapers, topology) on
                      their own embedded database (--data-dir, default ./data-agent[-N]), its API on
                      --port (default 8081; apply resources to it with opsdeck apply --server), and
                      push what they produce to the upstream Opsdeck with the agent's access token
                      (Settings → Agents). --config-dir: every *.yaml/*.yml file of DIR is applied
                      to the agent at start and again when it changes; a file removed deletes what
                      it applied. Environment: OPSDECK_UPSTREAM_URL, OPSDECK_AGENT_TOKEN,
                      OPSDECK_AGENT_NAME, OPSDECK_AGENT_CONFIG_DIR, DATA_DIR, PORT.
  migrate             Apply pending database migrations and exit.
  version             Print the version.
  help                Show this help.

Environment: PORT, HOST, DATA_DIR, DATABASE_URL, DATABASE_POOL_SIZE, STATEMENT_TIMEOUT_MS,
OPSDECK_DEMO, WEB_DIR, LOG_LEVEL (see README.md).`;

export async function runCli(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: false,
    options: {
      file: { type: 'string', short: 'f' },
      server: { type: 'string' },
      token: { type: 'string' },
      upstream: { type: 'string' },
      name: { type: 'string' },
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      'config-dir': { type: 'string' },
    },
  });
  const command = positionals[0] ?? 'help';
  switch (command) {
    case 'apply': {
      const file = typeof values.file === 'string' ? values.file : undefined;
      if (!file) {
        console.error('opsdeck apply: give the file with -f <file> (or -f - for standard input)');
        return 2;
      }
      const server = String(values.server ?? process.env.OPSDECK_URL ?? 'http://localhost:8080');
      const token = typeof values.token === 'string' ? values.token : process.env.OPSDECK_TOKEN;
      return applyFile(file, server, token);
    }
    case 'start':
      await import('./main.js');
      return -1; // keep running
    case 'agent':
      await runAgent(agentOptionsFrom(values));
      return -1; // keep running
    case 'migrate': {
      const db = await openDatabase(loadConfig());
      try {
        const applied = await migrate(db);
        console.log(
          applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date',
        );
      } finally {
        await db.close();
      }
      return 0;
    }
    case 'version':
      console.log(VERSION);
      return 0;
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    default:
      console.error(`opsdeck: unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

try {
  const code = await runCli(process.argv.slice(2));
  if (code >= 0) process.exit(code);
} catch (e) {
  console.error(`opsdeck: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
