// The demo playbooks: seeded with the demo data on the first start with an embedded database, each
// runnable on the demo resources and run by the real runner the server starts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';

describe('demo playbooks', () => {
  let dir: string;
  let app: Opsdeck;
  let editor: TestUser;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-demo-playbooks-'));
    app = await startOpsdeck({ dataDir: dir, port: 0, host: '127.0.0.1', demo: true, engines: true });
    editor = await createTestUser(app.ctx.db, 'editor');
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const api = async <T>(p: string, body?: unknown): Promise<{ status: number; json: T }> => {
    const res = await fetch(`${app.url}${p}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { ...editor.headers, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as T };
  };
  /** The id the query finds once the engines have written it. */
  async function waitForId(sql: string): Promise<string> {
    let id: string | undefined;
    await expect
      .poll(async () => (id = (await app.ctx.db.query<{ id: string }>(sql)).rows[0]?.id), {
        timeout: 60_000,
        interval: 500,
      })
      .toBeTruthy();
    return id!;
  }

  async function runToEnd(body: Record<string, unknown>) {
    const started = await api<{ run_id: string; error?: string }>('/api/playbook/run', body);
    expect(started.status, started.json.error).toBe(201);
    let run: { status: string; actions: { result: { stdout?: string } | null; error: string | null }[] } | undefined;
    await expect
      .poll(
        async () => {
          run = (await api<typeof run>(`/api/playbook/run/${started.json.run_id}`)).json;
          return run!.status;
        },
        { timeout: 30_000, interval: 300 },
      )
      .toMatch(/completed|failed/);
    return run!;
  }

  it('seeds labelled demo playbooks that run on checks, catalog items and components', async () => {
    const { rows } = await app.ctx.db.query<{ name: string; description: string; source: string }>(
      `SELECT name, description, source FROM playbooks WHERE deleted_at IS NULL ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(['demo-component-report', 'demo-probe-endpoint', 'demo-show-config']);
    for (const r of rows) {
      expect(r.description).toContain('(demo data)');
      expect(r.source).toBe('demo');
    }
  });

  it("probes a demo check's URL with curl as many times as asked", async () => {
    const checkId = await waitForId(`SELECT id FROM checks WHERE name = 'opsdeck-api-about' AND deleted_at IS NULL`);
    const list = await api<{ name: string; id: string }[]>(`/api/playbook/list?check_id=${checkId}`);
    const probe = list.json.find((p) => p.name === 'demo-probe-endpoint')!;
    expect(probe).toBeDefined();
    const run = await runToEnd({ id: probe.id, check_id: checkId, params: { count: '2' } });
    expect(run.status, run.actions[0]?.error ?? '').toBe('completed');
    const lines = run.actions[0]!.result!.stdout!.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^request 1: HTTP 200 in [\d.]+s$/);
  }, 90_000);

  it('reports on a demo component', async () => {
    const componentId = await waitForId(`SELECT id FROM components WHERE name = 'Web console' AND deleted_at IS NULL`);
    const list = await api<{ name: string; id: string }[]>(`/api/playbook/list?component_id=${componentId}`);
    const report = list.json.find((p) => p.name === 'demo-component-report')!;
    const run = await runToEnd({ id: report.id, component_id: componentId });
    expect(run.status, run.actions[0]?.error ?? '').toBe('completed');
    expect(run.actions[0]!.result!.stdout).toMatch(/^Report requested by .*\ncomponent: Web console \(WebApp\)/);
  }, 90_000);
});
