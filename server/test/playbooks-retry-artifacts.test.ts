// Playbook runs with retries (a real bash failing twice, then succeeding; backoff seen in the
// attempts' own timestamps), exec artifacts saved and downloaded, `secret` parameters that no answer
// or log ever shows, `connection` parameters checked against stored connections, and `filters`
// hiding a playbook from a resource and refusing its runs.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { log, setLogLevel, type LogLevel } from '../src/log.js';
import { MAX_ARTIFACT_BYTES } from '../src/playbooks/artifacts.js';
import { PlaybookRunner } from '../src/playbooks/runner.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

interface Action {
  id: string;
  name: string;
  status: string;
  retry_count: number;
  result: Record<string, unknown> | null;
  error: string | null;
}
interface Run {
  id: string;
  status: string;
  parameters: Record<string, string>;
  actions: Action[];
}

const SECRET = 's3cr3t-Value-42';
/** What the playbook compares the token with: its spec must not hold the secret itself. */
const SECRET_HASH = crypto.createHash('sha256').update(SECRET).digest('hex').slice(0, 16);

describe.each(databaseKinds())('playbook retries, artifacts, parameters and filters on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let runner: PlaybookRunner;
  let editor: TestUser;
  let viewer: TestUser;
  let admin: TestUser;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-retry-'));
  /** Every response body the test read, to look for the secret in. */
  const bodies: string[] = [];

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    runner = new PlaybookRunner(test.db, { pollMs: 50, heartbeatMs: 100 });
    editor = await createTestUser(test.db, 'editor');
    viewer = await createTestUser(test.db, 'viewer');
    admin = await createTestUser(test.db, 'admin');
  });

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await test?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function call(
    p: string,
    init: RequestInit & { as?: TestUser } = {},
  ): Promise<{ status: number; body: string }> {
    const res = await fetch(`${app.url}${p}`, {
      ...init,
      headers: {
        ...(init.as ?? editor).headers,
        ...(typeof init.body === 'string' && /^[[{]/.test(init.body) ? { 'content-type': 'application/json' } : {}),
        ...(init.headers as Record<string, string>),
      },
    });
    const body = await res.text();
    bodies.push(body);
    return { status: res.status, body };
  }
  const json = <T>(r: { body: string }) => JSON.parse(r.body) as T;

  async function apply(name: string, spec: string): Promise<string> {
    const yaml = `apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata: {name: ${name}, namespace: ops}\nspec:\n${spec}`;
    const r = await call('/api/playbook', {
      method: 'POST',
      body: yaml,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(r.status, r.body).toBe(201);
    return json<{ applied: { id: string }[] }>(r).applied[0]!.id;
  }
  const requestRun = (body: Record<string, unknown>) =>
    call('/api/playbook/run', { method: 'POST', body: JSON.stringify(body) });
  async function run(body: Record<string, unknown>): Promise<Run> {
    const r = await requestRun(body);
    expect(r.status, r.body).toBe(201);
    await runner.drain();
    return json<Run>(await call(`/api/playbook/run/${json<{ run_id: string }>(r).run_id}`));
  }

  it('retries a failing action with backoff until it succeeds, counting the retries on its row', async () => {
    const dir = path.join(tmp, 'flaky');
    fs.mkdirSync(dir);
    const id = await apply(
      'flaky',
      `  actions:
    - name: flaky
      retry: {limit: 3, duration: 300ms, exponent: {multiplier: 2}}
      exec:
        script: |
          n=$(( $(cat ${dir}/count 2>/dev/null || echo 0) + 1 )); echo $n > ${dir}/count
          date +%s%3N >> ${dir}/times
          if [ $n -lt 3 ]; then echo "attempt $n failed" >&2; exit 1; fi
          echo "attempt $n worked"
`,
    );
    const started = await requestRun({ id });
    expect(started.status).toBe(201);
    const draining = runner.drain();
    // Between attempts the row sleeps, with the count so far and the error that caused the retry.
    const sleeping = await waitFor(
      async () => {
        const { rows } = await test.db.query<Action>(
          `SELECT a.status, a.retry_count, a.error FROM playbook_run_actions a
         WHERE a.playbook_run_id = $1`,
          [json<{ run_id: string }>(started).run_id],
        );
        return rows[0];
      },
      (a) => a?.status === 'sleeping',
    );
    expect(sleeping).toMatchObject({ retry_count: 1, error: 'exit code 1: attempt 1 failed' });
    await draining;
    const done = json<Run>(await call(`/api/playbook/run/${json<{ run_id: string }>(started).run_id}`));
    expect(done.status).toBe('completed');
    expect(done.actions[0]).toMatchObject({ status: 'completed', retry_count: 2, error: null });
    expect(done.actions[0]!.result).toMatchObject({ stdout: 'attempt 3 worked' });
    const times = fs.readFileSync(path.join(dir, 'times'), 'utf8').trim().split('\n').map(Number);
    expect(times).toHaveLength(3);
    // 300 ms before the first retry, 600 ms (× 2) before the second.
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(300);
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(600);
  });

  it('fails the action with its last error once the retries are used up', async () => {
    const dir = path.join(tmp, 'broken');
    fs.mkdirSync(dir);
    const id = await apply(
      'broken',
      `  actions:
    - name: broken
      retry: {limit: 2, duration: 50ms}
      exec:
        script: |
          n=$(( $(cat ${dir}/count 2>/dev/null || echo 0) + 1 )); echo $n > ${dir}/count
          echo "attempt $n failed" >&2; exit 3
    - name: after
      exec: {script: echo never}
`,
    );
    const done = await run({ id });
    expect(done.status).toBe('failed');
    expect(done.actions.map((a) => [a.name, a.status, a.retry_count, a.error])).toEqual([
      ['broken', 'failed', 2, 'exit code 3: attempt 3 failed'],
      ['after', 'skipped', 0, null],
    ]);
    expect(fs.readFileSync(path.join(dir, 'count'), 'utf8').trim()).toBe('3');
  });

  it('saves the files an exec action names as artifacts, downloadable, skipping those over the size cap', async () => {
    const id = await apply(
      'report',
      `  actions:
    - name: report
      exec:
        script: |
          echo "disk usage: 42%" > report.txt
          mkdir -p out && echo '{"ok":true}' > out/data.json && echo '{}' > out/empty.json
          head -c ${MAX_ARTIFACT_BYTES + 1} /dev/zero > big.bin
        artifacts: [{path: report.txt}, {path: "out/*.json"}, {path: big.bin}, {path: missing.txt}]
`,
    );
    const done = await run({ id });
    expect(done.status).toBe('completed');
    const action = done.actions[0]!;
    expect(action.result!.artifacts).toEqual([
      expect.objectContaining({
        path: 'report.txt',
        filename: 'report.txt',
        size: 16,
        content_type: 'text/plain; charset=utf-8',
      }),
      expect.objectContaining({ path: 'out/data.json', size: 12, content_type: 'application/json' }),
      expect.objectContaining({ path: 'out/empty.json', size: 3 }),
    ]);
    expect(action.result!.artifactsSkipped).toEqual([
      { path: 'big.bin', reason: `larger than 10 MB (${MAX_ARTIFACT_BYTES + 1} bytes)` },
      { path: 'missing.txt', reason: 'no file matched' },
    ]);

    const list = await call(`/api/playbook/run/action/${action.id}/artifacts`, { as: viewer });
    expect(list.status).toBe(200);
    const artifacts = json<{ id: string; path: string; checksum: string }[]>(list);
    expect(artifacts.map((a) => a.path)).toEqual(['report.txt', 'out/data.json', 'out/empty.json']);
    const report = artifacts.find((a) => a.path === 'report.txt')!;
    const res = await fetch(`${app.url}/api/artifacts/download/${report.id}`, { headers: viewer.headers });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="report.txt"; filename*=UTF-8''report.txt`,
    );
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toBe('disk usage: 42%\n');
    expect(report.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect((await fetch(`${app.url}/api/artifacts/download/${report.id}`)).status).toBe(401);
    expect((await call('/api/artifacts/download/00000000-0000-0000-0000-000000000000')).status).toBe(404);
    expect((await call('/api/playbook/run/action/00000000-0000-0000-0000-000000000000/artifacts')).status).toBe(404);
  });

  it('never shows a secret parameter in an answer or a log, while the action gets its value', async () => {
    // Everything the server logs meanwhile, at its most verbose: its JSON lines (stdout) and console.
    const logged: string[] = [];
    const spies = [
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
        vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' '))),
      ),
      vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        logged.push(String(chunk));
        return true;
      }),
    ];
    const level = log.level;
    setLogLevel('debug');
    try {
      const id = await apply(
        'with-secret',
        `  parameters:
    - {name: token, type: secret, required: true, properties: {minLength: 8}}
    - {name: who, default: ops}
  actions:
    - name: use
      exec:
        env: [{name: TOKEN, value: "{{.params.token}}"}]
        script: |
          test "$(printf %s "$TOKEN" | sha256sum | cut -c1-16)" = "${SECRET_HASH}" || { echo "wrong token: $TOKEN" >&2; exit 1; }
          echo "token is $TOKEN for {{.params.who}}"
    - name: fail-loudly
      if: always()
      exec: {script: 'echo "{{.params.token}}" >&2; exit 1'}
`,
      );
      const short = await requestRun({ id, params: { token: 'short' } });
      expect(short.status).toBe(400);
      expect(json<{ field: string }>(short).field).toBe('params.token');
      const done = await run({ id, params: { token: SECRET } });
      expect(done.actions[0]).toMatchObject({ status: 'completed' });
      expect(done.actions[0]!.result!.stdout).toBe('token is •••• for ops');
      expect(done.actions[1]).toMatchObject({ status: 'failed', error: 'exit code 1: ••••' });
      expect(done.parameters).toEqual({ token: '••••', who: 'ops' });
      // A re-run of the masked form (parent_id) uses the parent's secret.
      const rerun = await run({ id, params: { token: '••••', who: 'ops' }, parent_id: done.id });
      expect(rerun.actions[0]).toMatchObject({ status: 'completed' });
      const noParent = await requestRun({ id, params: { token: '••••' } });
      expect(noParent.status).toBe(400);
      expect(json<{ message: string }>(noParent).message).toMatch(/give the secret again/);

      await call(`/api/db/playbook_runs?id=eq.${done.id}&select=*`);
      await call(`/api/db/playbook_runs?id=eq.${done.id}&select=secret_parameters`);
      await call(`/api/db/playbook_run_list?id=eq.${done.id}`);
      await call(`/api/db/playbook_run_actions?playbook_run_id=eq.${done.id}`);
      const stored = await test.db.query<{
        parameters: Record<string, string>;
        secret_parameters: Record<string, string>;
      }>('SELECT parameters, secret_parameters FROM playbook_runs WHERE id = $1', [done.id]);
      expect(stored.rows[0]!.parameters.token).toBe('••••');
      expect(stored.rows[0]!.secret_parameters.token).toMatch(/^enc:v1:/);
      expect(bodies.length).toBeGreaterThan(5);
      for (const body of bodies) expect(body).not.toContain(SECRET);
      expect(logged.length).toBeGreaterThan(5); // the access log of the calls above, at least
      for (const line of logged) expect(line).not.toContain(SECRET);
    } finally {
      setLogLevel(level as LogLevel);
      for (const s of spies) s.mockRestore();
    }
  });

  it('checks a connection parameter against the stored connections and lists them by name only', async () => {
    const created = await call('/api/db/connections', {
      method: 'POST',
      as: admin,
      body: JSON.stringify({
        name: 'status-api',
        namespace: 'default',
        type: 'http',
        url: 'https://status.example',
        password: 'pw-123456',
      }),
    });
    expect(created.status, created.body).toBe(201);
    const id = await apply(
      'with-connection',
      `  parameters:
    - {name: target, type: connection, required: true}
  actions:
    - name: show
      exec: {script: 'echo "{{.params.target}}"'}
`,
    );
    const missing = await requestRun({ id, params: { target: 'nope' } });
    expect(missing.status).toBe(400);
    expect(json<{ message: string; field: string }>(missing)).toMatchObject({
      field: 'params.target',
      message: 'parameter "target": there is no connection "nope"',
    });
    const done = await run({ id, params: { target: 'status-api' } });
    expect(done.parameters.target).toBe('connection://http/status-api');
    expect(done.actions[0]!.result!.stdout).toBe('connection://http/status-api');

    const listed = await call('/api/playbook/connections?type=http');
    expect(listed.status).toBe(200);
    expect(json<unknown[]>(listed)).toEqual([{ name: 'status-api', namespace: 'default', type: 'http' }]);
    expect(listed.body).not.toContain('status.example');
    expect((await call('/api/playbook/connections', { as: viewer })).status).toBe(403);
  });

  it('hides a playbook whose filters are false for a resource and refuses to run it there', async () => {
    const insert = async (name: string, cluster: string) =>
      (
        await test.db.query<{ id: string }>(
          `INSERT INTO config_items (external_id, type, config_class, name, tags, config)
           VALUES ($1, 'Kubernetes::Pod', 'Pod', $1, $2, '{}') RETURNING id`,
          [name, JSON.stringify({ cluster })],
        )
      ).rows[0]!.id;
    const eu = await insert('pod-eu', 'eu');
    const us = await insert('pod-us', 'us');
    const id = await apply(
      'eu-only',
      `  configs: [{types: [Kubernetes::Pod]}]
  filters: ["config.tags.cluster == 'eu'", "user.name != ''"]
  actions:
    - name: a
      exec: {script: "true"}
`,
    );
    const listed = async (configId: string) =>
      json<{ id: string }[]>(await call(`/api/playbook/list?config_id=${configId}`)).map((p) => p.id);
    expect(await listed(eu)).toContain(id);
    expect(await listed(us)).not.toContain(id);
    const refused = await requestRun({ id, config_id: us });
    expect(refused.status).toBe(400);
    expect(json<{ message: string }>(refused).message).toBe(
      `This playbook does not apply here: the filter "config.tags.cluster == 'eu'" is false.`,
    );
    expect(
      (await call(`/api/playbook/${id}/params`, { method: 'POST', body: JSON.stringify({ config_id: us }) })).status,
    ).toBe(400);
    expect((await run({ id, config_id: eu })).status).toBe('completed');
  });
});

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`timed out waiting: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
