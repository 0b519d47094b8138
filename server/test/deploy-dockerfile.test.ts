// The Dockerfile's steps run without a Docker engine: each stage is a temporary directory standing
// for the image's `/`, COPY steps copy from the build context (filtered by .dockerignore) or from an
// earlier stage's directory, RUN steps run as shell commands in the stage's WORKDIR. The `deps`
// stage's `npm ci --omit=dev …` really runs (from the npm cache), the build stage runs
// `npm run build` on exactly the files it copied (its `npm ci` is stood in for by links to this
// checkout's node_modules, installed from the same lockfile), and the runtime stage is the copied
// files only: the server starts from them on the embedded database, serves the console, applies the
// migrations and passes the image's own HEALTHCHECK command. apt-get and chown need root and a
// Debian image, so they are checked as text.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  applyCopy,
  commandArgv,
  dockerignore,
  parseCopy,
  parseDockerfile,
  parseEnv,
  type Stage,
} from './helpers/dockerfile.js';
import { root, startServerProcess, stopProcess, type RunningServer } from './helpers/processes.js';

const dockerfile = parseDockerfile(fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
const ignored = dockerignore(fs.readFileSync(path.join(root, '.dockerignore'), 'utf8'));
const stage = (name: string): Stage => {
  const s = dockerfile.stages.find((x) => x.name === name);
  if (!s) throw new Error(`no stage ${name}`);
  return s;
};
const stepsOf = (s: Stage, op: string) => s.steps.filter((i) => i.op === op);
const workdirOf = (s: Stage) => stepsOf(s, 'WORKDIR').at(-1)?.args ?? '/';

/** Runs a stage's COPY and RUN steps in `dir` (standing for `/`); `runStep` decides what a RUN does. */
async function runStage(
  s: Stage,
  dir: string,
  stageDirs: Map<string, string>,
  runStep: (cmd: string, cwd: string) => Promise<void>,
): Promise<void> {
  let workdir = '/';
  for (const step of s.steps) {
    if (step.op === 'WORKDIR') {
      workdir = step.args;
      fs.mkdirSync(path.join(dir, workdir), { recursive: true });
    } else if (step.op === 'COPY') {
      const copy = parseCopy(step.args);
      const from = copy.from ? stageDirs.get(copy.from) : root;
      if (!from) throw new Error(`COPY --from=${copy.from}: no such stage run`);
      applyCopy(copy, from, dir, workdir, copy.from ? undefined : ignored);
    } else if (step.op === 'RUN') {
      await runStep(step.args, path.join(dir, workdir));
    }
  }
}

/** A RUN step: `/bin/sh -c cmd`, rejected with its output when it fails. */
function sh(cmd: string, cwd: string, env: NodeJS.ProcessEnv = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', cmd], {
      cwd,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`RUN ${cmd} failed (${code}):\n${output}`))));
  });
}

/** Every file under dir, relative, sorted (node_modules counted as one entry). */
function tree(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const abs = path.join(dir, e.name);
    const rel = path.relative(base, abs);
    if (e.name === 'node_modules') return [rel + '/'];
    return e.isDirectory() ? tree(abs, base) : [rel];
  });
}

describe('the Dockerfile', () => {
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-docker-'));
  let server: RunningServer | undefined;
  afterAll(async () => {
    if (server) await stopProcess(server.child, 10_000);
    await fs.promises.rm(temp, { recursive: true, force: true });
  }, 300_000);

  it('is multi-stage, slim, non-root, with a health check on /healthz, port 8080 and a data volume', () => {
    expect(dockerfile.stages.map((s) => s.name)).toEqual(['build', 'deps', 'runtime']);
    for (const s of dockerfile.stages) expect(s.image).toBe('node:20-bookworm-slim');
    const runtime = stage('runtime');
    const user = stepsOf(runtime, 'USER').at(-1)?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    expect(stepsOf(runtime, 'EXPOSE').map((i) => i.args)).toEqual(['8080']);
    const env = Object.assign({}, ...stepsOf(runtime, 'ENV').map((i) => parseEnv(i.args))) as Record<string, string>;
    expect(env).toMatchObject({ PORT: '8080', DATA_DIR: '/data', NODE_ENV: 'production' });
    expect(stepsOf(runtime, 'VOLUME').map((i) => JSON.parse(i.args) as string[])).toEqual([[env.DATA_DIR]]);
    const health = stepsOf(runtime, 'HEALTHCHECK')[0]!.args;
    expect(health).toMatch(/\bCMD\b.*\/healthz/);
    expect(commandArgv(stepsOf(runtime, 'CMD')[0]!.args)).toEqual(['node', 'server/dist/main.js']);
    // What the checks and actions run: ping (ICMP check), git and ssh (gitops actions, git connections).
    const apt = stepsOf(runtime, 'RUN').find((i) => i.args.includes('apt-get install'))!.args;
    for (const pkg of ['iputils-ping', 'git', 'openssh-client', 'ca-certificates'])
      expect(apt.split(/\s+/)).toContain(pkg);
    expect(apt).toContain('rm -rf /var/lib/apt/lists/*');
    // The runtime stage takes only built output and production dependencies from the other stages.
    const fromHost = stepsOf(runtime, 'COPY').filter((i) => !parseCopy(i.args).from);
    expect(fromHost).toEqual([]);
    // The build stage runs what `npm run build` is in package.json, after `npm ci`.
    expect(stepsOf(stage('build'), 'RUN').map((i) => i.args)).toEqual(['npm ci --no-audit --no-fund', 'npm run build']);
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.build).toBe('npm run build -w web && npm run build -w server');
  });

  it(
    'builds from the copied sources, installs production dependencies, and the runtime files alone start Opsdeck',
    { timeout: 420_000 },
    async () => {
      const dirs = new Map<string, string>();
      for (const s of dockerfile.stages) {
        dirs.set(s.name, path.join(temp, s.name));
        fs.mkdirSync(path.join(temp, s.name));
      }

      // build: `npm ci` (all dependencies, from the lockfile) is this checkout's node_modules.
      const build = stage('build');
      const buildRun = async (cmd: string, cwd: string) => {
        if (!cmd.startsWith('npm ci')) return sh(cmd, cwd);
        for (const ws of ['', 'web', 'server', 'common']) {
          const nm = path.join(root, ws, 'node_modules');
          if (fs.existsSync(nm)) fs.symlinkSync(nm, path.join(cwd, ws, 'node_modules'));
        }
      };
      // deps: the real install, from the npm cache when it has the packages.
      const deps = stage('deps');
      const depsRun = (cmd: string, cwd: string) => sh(cmd, cwd, { npm_config_prefer_offline: 'true' });
      // The two stages are independent (as in BuildKit): run them side by side.
      const started = Date.now();
      await Promise.all([
        runStage(build, dirs.get('build')!, dirs, buildRun),
        runStage(deps, dirs.get('deps')!, dirs, depsRun),
      ]);
      console.log(`build and deps stages: ${((Date.now() - started) / 1000).toFixed(1)} s`);

      const depsModules = path.join(dirs.get('deps')!, 'app/node_modules');
      // Production only: no dev tools, no web console libraries.
      for (const devOnly of ['vitest', 'esbuild', 'typescript', 'vite', 'tsx', 'lucide-react'])
        expect(fs.existsSync(path.join(depsModules, devOnly)), devOnly).toBe(false);
      for (const needed of ['pg', '@electric-sql/pglite', 'hono', 'better-auth'])
        expect(fs.existsSync(path.join(depsModules, needed)), needed).toBe(true);

      // runtime: the copies only (apt-get and chown are root's, checked above).
      const runtime = stage('runtime');
      const rt = dirs.get('runtime')!;
      await runStage(runtime, rt, dirs, async () => undefined);
      const app = path.join(rt, workdirOf(runtime));
      const files = tree(app);
      expect(files).toContain('server/dist/main.js');
      expect(files).toContain('web/dist/index.html');
      expect(files).toContain('node_modules/');
      expect(files.filter((f) => f.startsWith('server/src/') && !f.startsWith('server/src/db/migrations/'))).toEqual(
        [],
      );
      // The workspace links point at the copied folders: only server/ is needed.
      const serverLink = path.join(app, 'node_modules/@opsdeck/server');
      expect(fs.realpathSync(serverLink)).toBe(fs.realpathSync(path.join(app, 'server')));

      const env = Object.assign({}, ...stepsOf(runtime, 'ENV').map((i) => parseEnv(i.args))) as Record<string, string>;
      const dataDir = path.join(rt, 'data');
      fs.mkdirSync(dataDir);
      // Only the image's environment (plus the test's port and data folder), not this process's.
      const clean = Object.fromEntries(Object.keys(process.env).map((k) => [k, undefined]));
      server = await startServerProcess(
        commandArgv(stepsOf(runtime, 'CMD')[0]!.args).slice(1),
        {
          ...clean,
          PATH: process.env.PATH,
          HOME: rt,
          ...env,
          DATA_DIR: dataDir,
          HOST: '127.0.0.1',
          OPSDECK_DEMO: 'false',
          ADMIN_EMAIL: 'admin@example.test',
          ADMIN_PASSWORD: 'dockerfile test password',
        },
        { cwd: app, timeoutMs: 120_000, pollMs: 250 },
      );
      expect(await (await fetch(`${server.url}/api/about`)).json()).toMatchObject({ database: 'pglite' });
      const index = await fetch(`${server.url}/`);
      expect(index.status).toBe(200);
      expect(await index.text()).toContain('<div id="root">');
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      // The image's HEALTHCHECK command, as Docker runs it inside the container.
      const check = stepsOf(runtime, 'HEALTHCHECK')[0]!.args.replace(/^.*?\bCMD\s+/, '');
      const port = new URL(server.url).port;
      const argv = commandArgv(check);
      const r = spawnSync(argv[0] === 'node' ? process.execPath : argv[0]!, argv.slice(1), {
        cwd: app,
        env: { PATH: process.env.PATH, PORT: port },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(r.status, r.stderr).toBe(0);
      // The migrations ran from the copied folder, and the data lives in DATA_DIR.
      expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(await stopProcess(server.child, 30_000)).toBe(0);
      server = undefined;
    },
  );
});
