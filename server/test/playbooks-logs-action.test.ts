// The playbook `logs` action end to end: a file LoggingBackend over a file the test writes, a
// component whose log selector points at it, a playbook run on that component through
// POST /api/playbook/run with its query templated from a parameter → the action's result holds the
// matching lines; an unknown backend, bad fields and a bad limit refused at apply with line and
// column; an unknown component is the action's error in words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { PlaybookRunner } from '../src/playbooks/runner.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { apiClient } from './helpers/api.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { insertComponentWithLogSelectors, writeLogLines } from './helpers/logs.js';

const playbook = (name: string, spec: string) =>
  `apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata:\n  name: ${name}\n  namespace: ops\nspec:\n${spec}`;

interface Run {
  status: string;
  actions: { name: string; status: string; result: Record<string, unknown> | null; error: string | null }[];
}

describe.each(databaseKinds())('playbook logs action (%s)', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let runner: PlaybookRunner;
  let editor: TestUser;
  let component = '';
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-playbook-logs-'));
  const T0 = Date.now() - 60_000;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    runner = new PlaybookRunner(test.db, { pollMs: 50, heartbeatMs: 100 });
    editor = await createTestUser(test.db, 'editor', 'Edna Editor');
    const lines = ['GET /cart 200', 'POST /pay 500 error', 'GET /home 200', 'POST /cart 503 error'];
    writeLogLines(
      path.join(dir, 'shop.log'),
      lines.map((l, n) => [T0 + n * 1000, l]),
    );
    component = await insertComponentWithLogSelectors(test.db, 'checkout', [
      { name: 'app', backend: 'shop-files', selector: { app: 'shop' } },
    ]);
  });

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await test?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const { api, applyYaml, refused } = apiClient(
    () => app.url,
    () => editor,
  );

  async function applyOk(p: string, yaml: string): Promise<string> {
    const res = await applyYaml(p, yaml);
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.applied[0]!.id;
  }

  async function runNow(body: Record<string, unknown>): Promise<Run> {
    const res = await api('/api/playbook/run', { method: 'POST', body: JSON.stringify(body) });
    const json = (await res.json()) as { run_id: string; error?: string };
    expect(res.status, json.error).toBe(201);
    await runner.drain();
    return (await (await api(`/api/playbook/run/${json.run_id}`)).json()) as Run;
  }

  it("fetches a component's matching lines with a query from a parameter", async () => {
    await applyOk(
      '/api/logging_backends',
      `apiVersion: apm-hub.flanksource.com/v1\nkind: LoggingBackend\nmetadata:\n  name: shop-files\nspec:\n  file:\n    - paths: [${dir}/shop.log]\n      labels: {app: shop}\n`,
    );
    const id = await applyOk(
      '/api/playbook',
      playbook(
        'shop-errors',
        `  components:
    - types: [Service]
  parameters:
    - name: pattern
      default: error
  actions:
    - name: fetch
      logs:
        component: '{{.component.id}}'
        query: '{{.params.pattern}}'
        start: 1h
        limit: 10
    - name: by-backend
      logs: {backend: shop-files, query: 'GET', start: now-1d, limit: "1"}
`,
      ),
    );
    const run = await runNow({ id, component_id: component, params: { pattern: 'POST' } });
    expect(run.status, JSON.stringify(run.actions)).toBe('completed');
    const [fetch, byBackend] = run.actions;
    expect(fetch!.result).toMatchObject({ count: 2, backend: { name: 'shop-files', type: 'file' } });
    const lines = fetch!.result!.lines as { timestamp: string; message: string; labels: Record<string, string> }[];
    expect(lines.map((l) => l.message.slice(25))).toEqual(['POST /cart 503 error', 'POST /pay 500 error']);
    expect(lines[0]!.labels).toMatchObject({ app: 'shop' });
    expect(new Date(lines[0]!.timestamp).getTime()).toBe(T0 + 3000);
    expect(byBackend!.result).toMatchObject({ count: 1 });
    expect((byBackend!.result!.lines as { message: string }[])[0]!.message).toContain('GET /home 200');
  });

  it('refuses an unknown backend, unknown fields and a bad limit at apply with line and column', async () => {
    const errors = await refused(
      '/api/playbook',
      playbook(
        'bad-logs',
        `  actions:
    - name: a
      logs: {backend: nowhere, query: x}
    - name: b
      logs:
        loki: {url: http://loki}
        limit: 5000
        pigeon: 1
`,
      ),
    );
    const messages = errors.map((e) => [e.message.replace(/ \(line.*$/, ''), e.line]);
    expect(messages).toEqual(
      expect.arrayContaining([
        [expect.stringContaining('spec.actions[1].logs.loki: loki is not supported here'), 12],
        ['spec.actions[1].logs.limit: limit must be at most 1000', 13],
        [expect.stringContaining('spec.actions[1].logs: pigeon: unknown field'), 12],
      ]),
    );
    const backendErrors = await refused(
      '/api/playbook',
      playbook('bad-backend', '  actions:\n    - name: a\n      logs: {backend: nowhere, query: x}\n'),
    );
    expect(backendErrors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('spec.actions[0].logs.backend: no log backend "nowhere"'),
        line: 9,
      }),
    ]);
    expect(backendErrors[0]!.column).toBeGreaterThan(0);
  });

  it('fails the action in words for an unknown component', async () => {
    const id = await applyOk(
      '/api/playbook',
      playbook(
        'missing-component',
        `  actions:\n    - name: a\n      logs: {component: 00000000-0000-4000-8000-000000000000}\n`,
      ),
    );
    const run = await runNow({ id });
    expect(run.status).toBe('failed');
    expect(run.actions[0]!.error).toBe('no component "00000000-0000-4000-8000-000000000000" (component takes an id)');
  });
});
