// The gitops action against a real git: a local bare repository seeded with a commit on main, a
// playbook that writes and deletes files and patches a YAML file from templates, commits as the
// requester and pushes a branch; with a github connection whose URL is a loopback stand-in of the
// GitHub API, the pull request (and its labels) are asked for with the token and the right body.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { PlaybookRunner } from '../src/playbooks/runner.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const TOKEN = 'ghp_standin_token_0123456789';

const GIT_ENV = {
  ...process.env,
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'Seed',
  GIT_AUTHOR_EMAIL: 'seed@example.test',
  GIT_COMMITTER_NAME: 'Seed',
  GIT_COMMITTER_EMAIL: 'seed@example.test',
};
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

/** A stand-in of the GitHub REST API: pulls are created (201) unless the title asks for a refusal. */
async function startGithub() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && /^\/repos\/[^/]+\/[^/]+\/pulls$/.test(req.url!)) {
        if (String(body?.title).includes('refuse')) {
          res.writeHead(422);
          res.end(
            JSON.stringify({ message: 'Validation Failed', errors: [{ message: 'No commits between main and x' }] }),
          );
          return;
        }
        res.writeHead(201);
        res.end(JSON.stringify({ number: 7, html_url: 'https://github.example/team/app/pull/7' }));
        return;
      }
      if (req.method === 'POST' && req.url!.endsWith('/issues/7/labels')) {
        res.writeHead(200);
        res.end('[]');
        return;
      }
      res.writeHead(404);
      res.end(JSON.stringify({ message: 'Not Found' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

interface Action {
  name: string;
  status: string;
  result: Record<string, unknown> | null;
  error: string | null;
}

describe.each(databaseKinds())('gitops action on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let runner: PlaybookRunner;
  let github: Awaited<ReturnType<typeof startGithub>>;
  let editor: TestUser;
  let admin: TestUser;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-gitops-test-'));
  const bare = path.join(tmp, 'remote', 'team', 'app.git');

  beforeAll(async () => {
    // The remote: a bare repository whose main holds a YAML file (with a comment) and a file to delete.
    fs.mkdirSync(bare, { recursive: true });
    git(bare, 'init', '--quiet', '--bare', '--initial-branch=main');
    const seed = path.join(tmp, 'seed');
    git(tmp, 'clone', '--quiet', bare, seed);
    fs.mkdirSync(path.join(seed, 'apps'));
    fs.writeFileSync(
      path.join(seed, 'apps', 'web.yaml'),
      '# the web deployment\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2 # scaled by playbooks\n',
    );
    fs.writeFileSync(path.join(seed, 'obsolete.txt'), 'old\n');
    git(seed, 'checkout', '--quiet', '-b', 'main');
    git(seed, 'add', '.');
    git(seed, 'commit', '--quiet', '-m', 'seed');
    git(seed, 'push', '--quiet', 'origin', 'main');

    github = await startGithub();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    runner = new PlaybookRunner(test.db, { pollMs: 50, heartbeatMs: 100 });
    editor = await createTestUser(test.db, 'editor', 'Gita Ops');
    admin = await createTestUser(test.db, 'admin');
    const res = await api('/api/db/connections', {
      method: 'POST',
      as: admin,
      body: JSON.stringify({
        name: 'gh-standin',
        namespace: 'default',
        type: 'github',
        url: github.url,
        password: TOKEN,
      }),
    });
    expect(res.status, await res.text()).toBe(201);
  });

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await test?.close();
    await github?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  function api(p: string, init: RequestInit & { as?: TestUser } = {}) {
    return fetch(`${app.url}${p}`, {
      ...init,
      headers: {
        ...(init.as ?? editor).headers,
        ...(typeof init.body === 'string' && init.body.startsWith('{') ? { 'content-type': 'application/json' } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
  }

  async function applyAndRun(name: string, spec: string, params: Record<string, string> = {}): Promise<Action> {
    const yaml = `apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata: {name: ${name}, namespace: ops}\nspec:\n${spec}`;
    const applied = await api('/api/playbook', {
      method: 'POST',
      body: yaml,
      headers: { 'content-type': 'application/yaml' },
    });
    const body = (await applied.json()) as { applied: { id: string }[] };
    expect([200, 201], JSON.stringify(body)).toContain(applied.status);
    const run = await api('/api/playbook/run', {
      method: 'POST',
      body: JSON.stringify({ id: body.applied[0]!.id, params }),
    });
    const started = (await run.json()) as { run_id: string };
    expect(run.status, JSON.stringify(started)).toBe(201);
    await runner.drain();
    const read = (await (await api(`/api/playbook/run/${started.run_id}`)).json()) as { actions: Action[] };
    return read.actions[0]!;
  }

  const spec = (extra: { repo?: string; pr?: string; branch?: string } = {}) => `  parameters:
    - {name: replicas, default: "3"}
  actions:
    - name: bump
      gitops:
        repo:
          url: ${bare}
          base: main
          branch: ${extra.branch ?? 'scale-web-{{.params.replicas}}'}
${extra.repo ?? ''}        commit:
          author: '{{.user.name}}'
          email: '{{.user.email}}'
          message: 'Scale web to {{.params.replicas}}'
${extra.pr ?? ''}        patches:
          - path: apps/*.yaml
            yq: '.spec.replicas = {{.params.replicas}} | .metadata.labels.scaled = "yes"'
        files:
          - path: 'notes/web-{{.params.replicas}}.md'
            content: 'Scaled by {{.user.name}}'
          - path: obsolete.txt
            content: $delete
`;

  it('commits the rendered change as the requester on a new branch and pushes it', async () => {
    const action = await applyAndRun('scale-web', spec(), { replicas: '5' });
    expect(action.error).toBeNull();
    expect(action.status).toBe('completed');
    const result = action.result!;
    expect(result).toMatchObject({ base: 'main', branch: 'scale-web-5', files: expect.any(Array) });
    expect((result.files as string[]).sort()).toEqual(['apps/web.yaml', 'notes/web-5.md', 'obsolete.txt']);

    // In the remote: the branch, its commit (author and message), the patched and written files.
    expect(git(bare, 'rev-parse', 'refs/heads/scale-web-5')).toBe(result.commit);
    expect(git(bare, 'log', '-1', '--format=%an <%ae>|%s', 'scale-web-5')).toMatch(
      /^Gita Ops <gita\.ops\.[^>]+@example\.test>\|Scale web to 5$/,
    );
    const deployment = git(bare, 'show', 'scale-web-5:apps/web.yaml');
    expect(deployment).toContain('# the web deployment');
    expect(deployment).toContain('replicas: 5 # scaled by playbooks');
    expect(deployment).toContain(`labels:\n    scaled: "yes"`);
    expect(git(bare, 'show', 'scale-web-5:notes/web-5.md')).toBe('Scaled by Gita Ops');
    expect(git(bare, 'ls-tree', '--name-only', 'scale-web-5')).not.toContain('obsolete.txt');
    // main is untouched.
    expect(git(bare, 'show', 'main:apps/web.yaml')).toContain('replicas: 2');
    expect(git(bare, 'log', '--format=%s', 'main')).toBe('seed');
  });

  it('opens a pull request through a github connection pointed at a loopback stand-in of the API', async () => {
    const action = await applyAndRun(
      'scale-web-pr',
      spec({
        repo: '          connection: connection://github/gh-standin\n',
        pr: "        pr:\n          title: 'Scale web to {{.params.replicas}}'\n          tags: [ops, scaling]\n",
      }),
      { replicas: '6' },
    );
    expect(action.error).toBeNull();
    expect(action.result).toMatchObject({
      branch: 'scale-web-6',
      pr_url: 'https://github.example/team/app/pull/7',
      pr_number: 7,
    });
    const pulls = github.received.find((r) => r.url === '/repos/team/app/pulls')!;
    expect(pulls.method).toBe('POST');
    expect(pulls.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(pulls.headers.accept).toBe('application/vnd.github+json');
    expect(pulls.body).toEqual({ title: 'Scale web to 6', head: 'scale-web-6', base: 'main', body: 'Scale web to 6' });
    const labels = github.received.find((r) => r.url === '/repos/team/app/issues/7/labels')!;
    expect(labels.body).toEqual({ labels: ['ops', 'scaling'] });
    expect(git(bare, 'rev-parse', 'refs/heads/scale-web-6')).toBe(action.result!.commit);
    // The token went only into the API's header: not into the action's result or its log.
    expect(JSON.stringify(action)).not.toContain(TOKEN);
  });

  it('fails with the cause: a missing base branch, a pull request the API refuses (the pushed commit kept)', async () => {
    const noBase = await applyAndRun('no-base', spec().replace('base: main', 'base: develop'));
    expect(noBase.status).toBe('failed');
    expect(noBase.error).toMatch(/git clone --branch develop .*app\.git failed: .*develop/);

    const refused = await applyAndRun(
      'refused-pr',
      spec({
        repo: '          connection: connection://github/gh-standin\n',
        pr: "        pr:\n          title: 'please refuse'\n",
        branch: 'refused-{{.params.replicas}}',
      }),
    );
    expect(refused.status).toBe('failed');
    expect(refused.error).toBe(
      'GitHub refused the pull request (HTTP 422): Validation Failed: No commits between main and x',
    );
    expect(refused.result).toMatchObject({ branch: 'refused-3', commit: expect.stringMatching(/^[0-9a-f]{40}$/) });
    expect(git(bare, 'rev-parse', 'refs/heads/refused-3')).toBe(refused.result!.commit);
  });

  it('builds on an existing branch on a re-run and changes nothing when there is nothing to change', async () => {
    const first = await applyAndRun('rerun', spec({ branch: 'rerun-branch' }), { replicas: '8' });
    expect(first.status).toBe('completed');
    const again = await applyAndRun('rerun', spec({ branch: 'rerun-branch' }), { replicas: '8' });
    expect(again.status).toBe('completed');
    expect(again.result).toMatchObject({ commit: null, files: [], message: 'nothing changed: no commit, no push' });
    const third = await applyAndRun('rerun', spec({ branch: 'rerun-branch' }), { replicas: '9' });
    expect(third.status).toBe('completed');
    expect(git(bare, 'log', '--format=%s', 'rerun-branch').split('\n')).toEqual([
      'Scale web to 9',
      'Scale web to 8',
      'seed',
    ]);
  });
});
