// Secret playbook parameters of a run relayed to an agent (docs/api.md "Agents"): the claim answer
// carries their plain values to the agent behind the token (the run page and /api/db show the mask
// only); a run whose secret was sealed with a key this server no longer has is failed at claim time
// with a message saying so, and the agent gets the next run instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`token:${token}`).toString('base64')}` });
const SECRET = 'claim-secret-52e1';

describe.each(databaseKinds())('secret parameters relayed to an agent on %s', (kind) => {
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
  const claim = (token: string) =>
    fetch(`${app.url}/api/upstream/playbook-action/claim`, { method: 'POST', headers: basic(token) });

  it('carries the plain secret in the claim answer only, and fails a run whose secret cannot be opened', async () => {
    const agentRes = await api('/api/agent/generate', {
      method: 'POST',
      body: JSON.stringify({ name: `secret-edge-${kind}` }),
    });
    const agent = (await agentRes.json()) as { id: string; access_token: string };
    const applied = await api('/api/playbook', {
      method: 'POST',
      headers: { 'content-type': 'application/yaml' },
      body: `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: secret-relay-${kind}}
spec:
  runsOn: [secret-edge-${kind}]
  parameters:
    - {name: token, type: secret}
    - {name: who, default: ops}
  actions: [{name: a, exec: {script: "echo {{.params.who}}"}}]
`,
    });
    expect(applied.status).toBe(201);
    const playbookId = ((await applied.json()) as { applied: { id: string }[] }).applied[0]!.id;
    const request = async (params: Record<string, string>) => {
      const res = await api('/api/playbook/run', { method: 'POST', body: JSON.stringify({ id: playbookId, params }) });
      expect(res.status).toBe(201);
      return ((await res.json()) as { run_id: string }).run_id;
    };

    // A run whose sealed secret names a key this server does not have (the key was changed).
    const lost = await request({ token: 'sealed-elsewhere' });
    await test.db.query(`UPDATE playbook_runs SET secret_parameters = $2 WHERE id = $1`, [
      lost,
      JSON.stringify({ token: 'enc:v1:0123456789ab:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }),
    ]);
    const good = await request({ token: SECRET, who: 'edge' });

    const res = await claim(agent.access_token);
    expect(res.status).toBe(200);
    const text = await res.text();
    const { run } = JSON.parse(text) as {
      run: { id: string; parameters: Record<string, string>; secret_parameters: Record<string, string> };
    };
    expect(run.id).toBe(good);
    expect(run.parameters).toEqual({ token: '••••', who: 'edge' });
    expect(run.secret_parameters).toEqual({ token: SECRET });

    const failed = await test.db.query<{ status: string; error: string }>(
      'SELECT status, error FROM playbook_runs WHERE id = $1',
      [lost],
    );
    expect(failed.rows[0]!.status).toBe('failed');
    expect(failed.rows[0]!.error).toMatch(/^secret parameters: a stored secret was sealed with another encryption key/);

    // Reads of the run show the mask only.
    for (const p of [`/api/playbook/run/${good}`, `/api/db/playbook_runs?id=eq.${good}&select=*`]) {
      const page = await api(p);
      expect(page.status).toBe(200);
      expect(await page.text()).not.toContain(SECRET);
    }
    // A run without secrets: an empty object.
    const plain = await request({ who: 'nobody' });
    const next = (await (await claim(agent.access_token)).json()) as {
      run: { id: string; secret_parameters: Record<string, string> };
    };
    expect(next.run).toMatchObject({ id: plain, secret_parameters: {} });
  });
});
