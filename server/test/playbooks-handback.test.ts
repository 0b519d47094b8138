// A run handed back by a graceful stop (PlaybookRunner.stop({ release: true })) on each database:
// the action under way is stopped and marked for retry, the run queued again without a lease, and
// another runner resumes it at that action — the finished action keeps its row and does not run
// again. releaseAll() does the same for runs still held when the shutdown timed out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { RELEASED_NOTE } from '../src/playbooks/handBack.js';
import { PlaybookRunner } from '../src/playbooks/runner.js';
import { apiClient } from './helpers/api.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { until } from './helpers/processes.js';

describe.each(databaseKinds())('playbook runs handed back on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-handback-'));

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
  });
  afterAll(async () => {
    await app?.close();
    await test?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const { api, applyYaml } = apiClient(
    () => app.url,
    () => editor,
  );

  async function queueRun(name: string, trace: string, quick: string): Promise<string> {
    const yaml = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: ${name}, namespace: ops}
spec:
  actions:
    - name: first
      exec: {script: "echo first >> ${trace}"}
    - name: long
      exec: {script: "echo long >> ${trace}; if [ -f ${quick} ]; then echo resumed; else sleep 60; fi"}
    - name: after
      exec: {script: "echo after >> ${trace}"}
`;
    const applied = await applyYaml('/api/playbook', yaml);
    const body = (await applied.json()) as { applied: { id: string }[] };
    expect(applied.status, JSON.stringify(body)).toBe(201);
    const res = await api('/api/playbook/run', { method: 'POST', body: JSON.stringify({ id: body.applied[0]!.id }) });
    expect(res.status).toBe(201);
    return ((await res.json()) as { run_id: string }).run_id;
  }

  const actions = async (runId: string) =>
    (
      await test.db.query<{ id: string; name: string; status: string; error: string | null; stdout: string | null }>(
        `SELECT id, name, status, error, result->>'stdout' AS stdout FROM playbook_run_actions
         WHERE playbook_run_id = $1 ORDER BY action_index`,
        [runId],
      )
    ).rows;
  const run = async (runId: string) =>
    (
      await test.db.query<{ status: string; lease_owner: string | null }>(
        'SELECT status, lease_owner FROM playbook_runs WHERE id = $1',
        [runId],
      )
    ).rows[0]!;

  for (const how of ['stop', 'releaseAll'] as const)
    it(`resumes a run at its interrupted action after ${how === 'stop' ? 'stop({ release: true })' : 'releaseAll()'}`, async () => {
      const trace = path.join(tmp, `${how}.log`);
      const quick = path.join(tmp, `${how}.quick`);
      const runId = await queueRun(`handback-${how.toLowerCase()}`, trace, quick);
      const a = new PlaybookRunner(test.db, { pollMs: 50, heartbeatMs: 100 });
      a.start();
      await until(
        'the long action to run',
        async () =>
          (await actions(runId)).find((x) => x.name === 'long' && x.status === 'running') &&
          fs.existsSync(trace) &&
          fs.readFileSync(trace, 'utf8').includes('long'),
        20_000,
      );
      const firstId = (await actions(runId))[0]!.id;
      const t0 = Date.now();
      if (how === 'stop') await a.stop({ release: true });
      else {
        // The shutdown timed out: the runs still held are handed back as they are.
        expect(await a.releaseAll()).toBe(1);
        expect(await run(runId)).toEqual({ status: 'scheduled', lease_owner: null });
        await a.stop({ release: true });
      }
      expect(Date.now() - t0).toBeLessThan(5_000);
      expect(await run(runId)).toEqual({ status: 'scheduled', lease_owner: null });
      expect((await actions(runId)).map((x) => [x.name, x.status, x.error])).toEqual([
        ['first', 'completed', null],
        ['long', 'scheduled', RELEASED_NOTE],
      ]);

      fs.writeFileSync(quick, '');
      const b = new PlaybookRunner(test.db, { pollMs: 50, heartbeatMs: 100 });
      b.start();
      try {
        await until('the run to complete', async () => (await run(runId)).status === 'completed', 20_000);
      } finally {
        await b.stop();
      }
      const done = await actions(runId);
      expect(done.map((x) => [x.name, x.status, x.error])).toEqual([
        ['first', 'completed', null],
        ['long', 'completed', null],
        ['after', 'completed', null],
      ]);
      expect(done[0]!.id).toBe(firstId);
      expect(done[1]!.stdout?.trim()).toBe('resumed');
      expect(fs.readFileSync(trace, 'utf8').trim().split('\n')).toEqual(['first', 'long', 'long', 'after']);
    });
});
