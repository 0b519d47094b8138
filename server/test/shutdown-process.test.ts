// The real server process (server/dist/main.js) on PostgreSQL: JSON log lines carrying the request
// id, with credentials kept out; and a graceful shutdown during a long playbook action — SIGTERM
// ends the process within SHUTDOWN_TIMEOUT_MS with exit 0, the run is handed back (lease released,
// the action marked for retry), and a second process on the same database resumes it at that
// action without running the finished one again.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, type Database } from '../src/db/database.js';
import { RELEASED_NOTE } from '../src/playbooks/handBack.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { createPostgresDatabase } from './helpers/databases.js';
import { root, startServerProcess, stopProcess, until, type RunningServer } from './helpers/processes.js';

const main = path.join(root, 'server/dist/main.js');
const SHUTDOWN_TIMEOUT_MS = 8_000;

/** The JSON lines a process wrote (anything else it wrote is left out). */
function jsonLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe.runIf(!!process.env.TEST_DATABASE_URL)('the server process on PostgreSQL', () => {
  let pg: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let db: Database;
  let editor: TestUser;
  const servers: RunningServer[] = [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-shutdown-'));

  const start = async () => {
    const s = await startServerProcess([main], {
      DATABASE_URL: pg.url,
      OPSDECK_DEMO: 'false',
      LOG_LEVEL: 'debug',
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      HOST: '127.0.0.1',
    });
    servers.push(s);
    return s;
  };

  beforeAll(async () => {
    pg = await createPostgresDatabase();
    await start(); // migrates the database
    db = await openPostgres(pg.url, 2);
    editor = await createTestUser(db, 'editor');
  });

  afterAll(async () => {
    for (const s of servers) await stopProcess(s.child, 5_000);
    await db?.close();
    await pg?.drop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('writes JSON lines with the request id on the request’s lines, and no credentials', async () => {
    const server = servers[0]!;
    const res = await fetch(`${server.url}/api/playbook/list`, {
      headers: { ...editor.headers, 'X-Request-Id': 'log-probe-1', cookie: 'session=very-secret-cookie' },
    });
    expect(res.headers.get('x-request-id')).toBe('log-probe-1');
    const line = await until(
      'the access line',
      async () => jsonLines(server.output()).find((l) => l.request_id === 'log-probe-1'),
      10_000,
    );
    expect(line).toMatchObject({
      level: 'info',
      component: 'http',
      msg: 'request',
      method: 'GET',
      path: '/api/playbook/list',
      request_id: 'log-probe-1',
    });
    expect(typeof line.status).toBe('number');
    expect(typeof line.ms).toBe('number');
    expect(typeof line.route).toBe('string');
    // Every line written while serving it carries the id: nothing of that request without it.
    const unmarked = jsonLines(server.output()).filter(
      (l) => l.path === '/api/playbook/list' && l.request_id !== 'log-probe-1',
    );
    expect(unmarked).toEqual([]);
    // Probes log at debug (LOG_LEVEL=debug here), with an id made up for them.
    await fetch(`${server.url}/healthz`);
    const probe = await until(
      'the probe line',
      async () => jsonLines(server.output()).find((l) => l.route === '/healthz'),
      10_000,
    );
    expect(probe.level).toBe('debug');
    expect(probe.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(server.output()).not.toContain(editor.token);
    expect(server.output()).not.toContain('very-secret-cookie');
    expect(jsonLines(server.output()).find((l) => String(l.msg).startsWith('Opsdeck '))?.msg).toMatch(
      /listening on .* \(database: PostgreSQL/,
    );
  });

  it('hands a running playbook action to the next server on SIGTERM, within the shutdown timeout', async () => {
    const first = servers[0]!;
    const trace = path.join(tmp, 'trace.log');
    const quick = path.join(tmp, 'quick');
    const yaml = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: long-haul, namespace: ops}
spec:
  actions:
    - name: first
      exec: {script: "echo first >> ${trace}"}
    - name: long
      exec: {script: "echo long >> ${trace}; if [ -f ${quick} ]; then echo resumed; else sleep 120; fi"}
    - name: after
      exec: {script: "echo after >> ${trace}"}
`;
    const applied = await fetch(`${first.url}/api/playbook`, {
      method: 'POST',
      body: yaml,
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
    });
    const appliedBody = (await applied.json()) as { applied: { id: string }[] };
    expect(applied.status, JSON.stringify(appliedBody)).toBe(201);
    const requested = await fetch(`${first.url}/api/playbook/run`, {
      method: 'POST',
      body: JSON.stringify({ id: appliedBody.applied[0]!.id }),
      headers: { ...editor.headers, 'content-type': 'application/json' },
    });
    const { run_id: runId } = (await requested.json()) as { run_id: string };
    expect(requested.status).toBe(201);

    const actions = async () =>
      (
        await db.query<{ id: string; name: string; status: string; error: string | null; stdout: string | null }>(
          `SELECT id, name, status, error, result->>'stdout' AS stdout FROM playbook_run_actions
           WHERE playbook_run_id = $1 ORDER BY action_index`,
          [runId],
        )
      ).rows;
    const run = async () =>
      (
        await db.query<{
          status: string;
          lease_owner: string | null;
          lease_until: string | null;
          error: string | null;
        }>('SELECT status, lease_owner, lease_until, error FROM playbook_runs WHERE id = $1', [runId])
      ).rows[0]!;
    await until(
      'the long action to run',
      async () =>
        (await actions()).find((a) => a.name === 'long' && a.status === 'running') &&
        fs.existsSync(trace) &&
        fs.readFileSync(trace, 'utf8').includes('long'),
      30_000,
    );
    const firstRow = (await actions())[0]!;

    const t0 = Date.now();
    const code = await stopProcess(first.child, SHUTDOWN_TIMEOUT_MS + 10_000);
    const took = Date.now() - t0;
    console.info(`SIGTERM during a running action: the process exited in ${took} ms`);
    expect(code).toBe(0);
    expect(took).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1_000);
    const said = jsonLines(first.output()).map((l) => String(l.msg));
    expect(said.some((m) => m.startsWith('SIGTERM received, shutting down'))).toBe(true);
    expect(said.some((m) => m.startsWith('stopped in'))).toBe(true);

    // Handed back: the run queued again without a lease, the long action marked for retry.
    expect(await run()).toMatchObject({ status: 'scheduled', lease_owner: null, lease_until: null, error: null });
    expect((await actions()).map((a) => [a.name, a.status, a.error])).toEqual([
      ['first', 'completed', null],
      ['long', 'scheduled', RELEASED_NOTE],
    ]);

    fs.writeFileSync(quick, '');
    const second = await start();
    await until('the run to complete on the second server', async () => (await run()).status === 'completed', 60_000);
    const done = await actions();
    expect(done.map((a) => [a.name, a.status])).toEqual([
      ['first', 'completed'],
      ['long', 'completed'],
      ['after', 'completed'],
    ]);
    // The finished action kept its row and did not run again; the long one ran again in its row.
    expect(done[0]!.id).toBe(firstRow.id);
    expect(done[1]!.stdout?.trim()).toBe('resumed');
    expect(fs.readFileSync(trace, 'utf8').trim().split('\n')).toEqual(['first', 'long', 'long', 'after']);
    expect(await stopProcess(second.child, 20_000)).toBe(0);
  });
});
