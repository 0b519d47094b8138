// The upstream's side of playbooks that run on an agent (docs/api.md "Agents"), without an agent
// process: a run of a playbook with runsOn is assigned to the agent and left by the local runner; only
// that agent claims it (once); reports store its action rows and end (another agent's report: 403);
// a cancel upstream is answered to the agent; a run whose agent stops reporting is failed when the
// agent next claims; a run of a playbook whose agent was deleted is queued failed.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { AGENT_LOST_ERROR } from '../src/agents/playbookRelay.js';
import { PlaybookRunner } from '../src/playbooks/runner.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` });

describe.each(databaseKinds())('playbook runs relayed to agents on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let admin: TestUser;

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    admin = await createTestUser(test.db, 'admin');
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  const api = (p: string, init: RequestInit = {}) =>
    fetch(`${app.url}${p}`, {
      ...init,
      headers: { 'content-type': 'application/json', ...admin.headers, ...(init.headers as object) },
    });
  const generate = async (name: string) =>
    (await (await api('/api/agent/generate', { method: 'POST', body: JSON.stringify({ name }) })).json()) as {
      id: string;
      access_token: string;
    };
  const applyOn = async (name: string, agent: string) => {
    const res = await api('/api/playbook', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: `apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata: {name: ${name}}\nspec:\n  runsOn: [${agent}]\n  actions: [{name: a, exec: {script: "echo hi"}}]\n`,
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { applied: { id: string }[] }).applied[0]!.id;
  };
  const run = async (id: string) => {
    const res = await api('/api/playbook/run', { method: 'POST', body: JSON.stringify({ id }) });
    expect(res.status).toBe(201);
    return (await res.json()) as { run_id: string; status: string };
  };
  const relay = (token: string, p: string, body: unknown = {}) =>
    fetch(`${app.url}/api/upstream/playbook-action${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...basic(token) },
      body: JSON.stringify(body),
    });
  const runRow = async (id: string) =>
    (
      await test.db.query<{ status: string; agent_id: string; error: string | null; lease_owner: string | null }>(
        'SELECT status, agent_id, error, lease_owner FROM playbook_runs WHERE id = $1',
        [id],
      )
    ).rows[0]!;

  it('assigns the run to the agent, lets only it claim and report, and stores what it reports', async () => {
    const a = await generate(`relay-a-${kind}`);
    const b = await generate(`relay-b-${kind}`);
    const playbookId = await applyOn(`relay-${kind}`, `relay-a-${kind}`);
    const { run_id: runId } = await run(playbookId);
    expect(await runRow(runId)).toMatchObject({ status: 'pending', agent_id: a.id });

    // This server's runner never claims it.
    await new PlaybookRunner(test.db).drain();
    expect((await runRow(runId)).status).toBe('pending');

    expect((await relay(b.access_token, '/claim')).status).toBe(204);
    const claimed = await relay(a.access_token, '/claim');
    expect(claimed.status).toBe(200);
    const { run: got } = (await claimed.json()) as { run: { id: string; spec: { spec: { runsOn: string[] } } } };
    expect(got.id).toBe(runId);
    expect(got.spec.spec.runsOn).toEqual([`relay-a-${kind}`]);
    expect(await runRow(runId)).toMatchObject({ status: 'running', lease_owner: `agent:${a.id}` });
    expect((await relay(a.access_token, '/claim')).status).toBe(204);

    const actionId = crypto.randomUUID();
    const action = (status: string, result: unknown = null) => ({
      id: actionId,
      name: 'a',
      action_index: 0,
      status,
      start_time: new Date().toISOString(),
      end_time: status === 'running' ? null : new Date().toISOString(),
      result,
    });
    expect((await relay(b.access_token, `/${runId}/report`, { status: 'running', actions: [] })).status).toBe(403);
    expect((await relay(a.access_token, `/${runId}/report`, { status: 'done', actions: [] })).status).toBe(400);
    expect(
      (await relay(a.access_token, `/${crypto.randomUUID()}/report`, { status: 'running', actions: [] })).status,
    ).toBe(404);
    const progress = await relay(a.access_token, `/${runId}/report`, {
      status: 'running',
      actions: [action('running')],
    });
    expect(await progress.json()).toEqual({ id: runId, status: 'running' });
    const end = await relay(a.access_token, `/${runId}/report`, {
      status: 'completed',
      actions: [action('completed', { stdout: 'hi', stderr: '', exitCode: 0 })],
    });
    expect(await end.json()).toEqual({ id: runId, status: 'completed' });
    const page = (await (await api(`/api/playbook/run/${runId}`)).json()) as {
      status: string;
      actions: { id: string; status: string; result: unknown }[];
    };
    expect(page.status).toBe('completed');
    expect(page.actions).toEqual([
      expect.objectContaining({ id: actionId, status: 'completed', result: { stdout: 'hi', stderr: '', exitCode: 0 } }),
    ]);
    const events = await test.db.query(
      `SELECT 1 FROM event_queue WHERE name = 'playbook.run.completed' AND properties->>'id' = $1`,
      [runId],
    );
    expect(events.rows).toHaveLength(1);
  });

  it('answers a cancel to the agent, fails a run its agent stopped reporting, and fails runs of a deleted agent', async () => {
    const a = await generate(`relay-c-${kind}`);
    const playbookId = await applyOn(`relay-c-${kind}`, `relay-c-${kind}`);
    const { run_id: cancelled } = await run(playbookId);
    expect((await relay(a.access_token, '/claim')).status).toBe(200);
    expect((await api(`/api/playbook/run/${cancelled}/cancel`, { method: 'POST' })).status).toBe(200);
    const answer = await relay(a.access_token, `/${cancelled}/report`, { status: 'running', actions: [] });
    expect(await answer.json()).toEqual({ id: cancelled, status: 'cancelled' });

    const { run_id: lost } = await run(playbookId);
    expect((await relay(a.access_token, '/claim')).status).toBe(200);
    await test.db.query(`UPDATE playbook_runs SET lease_until = now() - interval '1 second' WHERE id = $1`, [lost]);
    expect((await relay(a.access_token, '/claim')).status).toBe(204);
    expect(await runRow(lost)).toMatchObject({ status: 'failed', error: AGENT_LOST_ERROR });

    expect((await api(`/api/agent/${a.id}`, { method: 'DELETE' })).status).toBe(200);
    const orphan = await run(playbookId);
    expect(orphan.status).toBe('failed');
    expect((await runRow(orphan.run_id)).error).toBe(`runsOn: the agent "relay-c-${kind}" no longer exists`);
  });
});
