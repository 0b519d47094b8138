// Playbook approvals over real HTTP with real sign-ins (invited people with passwords and session
// cookies): a run of a playbook with `approval` waits as pending_approval (the runner leaves it alone,
// playbook.approval.inserted is queued), `any` starts on the first approval (a team member counts),
// `all` waits for each listed person, a rejection fails the run with its reason, a non-approver gets
// 403, the requester cannot approve their own run unless they are the only approver, approvers
// the database does not know are refused at apply with their line, and applying a playbook again
// with another approval emits playbook.spec.approval.updated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { PlaybookRunner } from '../src/playbooks/runner.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const PASSWORD = 'approver password 1';

interface Session {
  id: string;
  name: string;
  email: string;
  cookie: string;
}

interface RunAnswer {
  id: string;
  status: string;
  error: string | null;
  trigger: { type: string };
  actions: { result: { stdout?: string } | null }[];
  approval: {
    type: string;
    approvers: { people: { id: string; name: string }[]; teams: { id: string; name: string }[] };
    approvals: {
      person_id: string;
      person_name: string;
      team_name: string | null;
      status: string;
      reason: string | null;
    }[];
    can_approve: boolean;
    can_reject: boolean;
  } | null;
}

describe.each(databaseKinds())('playbook approvals on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let runner: PlaybookRunner;
  let admin: TestUser;
  let requester: Session;
  let ann: Session;
  let bob: Session;
  let carl: Session;

  async function call(path: string, opts: { method?: string; body?: unknown; as?: Session; text?: string } = {}) {
    const method = opts.method ?? (opts.body !== undefined || opts.text !== undefined ? 'POST' : 'GET');
    const headers: Record<string, string> = opts.as
      ? { cookie: opts.as.cookie, ...(method !== 'GET' ? { origin: app.url } : {}) }
      : admin.headers;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    if (opts.text !== undefined) headers['content-type'] = 'application/yaml';
    const res = await fetch(`${app.url}${path}`, {
      method,
      headers,
      body: opts.text ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body)),
    });
    const text = await res.text();
    return { status: res.status, json: (text ? JSON.parse(text) : null) as Record<string, unknown>, res };
  }

  /** Invites a person (admin API), accepts with a password and signs in: a session cookie. */
  async function person(firstName: string, role: string): Promise<Session> {
    const email = `${firstName.toLowerCase()}.${kind}@approvals.test`;
    const invited = await call('/api/users/invite', { body: { firstName, lastName: 'Tester', email, role } });
    expect(invited.status, JSON.stringify(invited.json)).toBe(201);
    const token = new URL(String(invited.json.link)).searchParams.get('invite')!;
    const accepted = await fetch(`${app.url}/api/auth/invite/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ token, password: PASSWORD }),
    });
    expect(accepted.status).toBe(200);
    const signedIn = await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app.url },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(signedIn.status).toBe(200);
    const cookie = signedIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .filter((c) => !c.endsWith('='))
      .join('; ');
    const who = await fetch(`${app.url}/api/auth/whoami`, { headers: { cookie } });
    const me = ((await who.json()) as { person: { id: string; name: string } }).person;
    return { id: me.id, name: me.name, email, cookie };
  }

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false, signInRateLimit: 1000 });
    runner = new PlaybookRunner(test.db, { pollMs: 50, heartbeatMs: 100 });
    admin = await createTestUser(test.db, 'admin', 'Approvals Admin');
    requester = await person('Rita', 'editor');
    ann = await person('Ann', 'viewer');
    bob = await person('Bob', 'responder');
    carl = await person('Carl', 'editor');
    const team = await test.db.query<{ id: string }>(`INSERT INTO teams (name) VALUES ('oncall') RETURNING id`);
    await test.db.query('INSERT INTO team_members (team_id, person_id) VALUES ($1, $2)', [team.rows[0]!.id, bob.id]);
  }, 120_000);

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await test?.close();
  });

  async function applyPlaybook(name: string, approval: string): Promise<string> {
    const yaml = `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: ${name}, namespace: ops}
spec:
  approval:
${approval}
  actions:
    - name: say
      exec: {script: "echo approved run"}
`;
    const r = await call('/api/playbook', { text: yaml });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return (r.json.applied as { id: string }[])[0]!.id;
  }

  async function requestRun(playbookId: string, as = requester): Promise<string> {
    const r = await call('/api/playbook/run', { body: { id: playbookId }, as });
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    expect(r.json.status).toBe('pending_approval');
    return String(r.json.run_id);
  }

  const getRun = async (id: string, as: Session) =>
    (await call(`/api/playbook/run/${id}`, { as })).json as unknown as RunAnswer;
  const decide = (action: 'approve' | 'reject', id: string, as: Session, body?: unknown) =>
    call(`/api/playbook/run/${action}/${id}`, { method: 'POST', as, ...(body ? { body } : {}) });

  it('any: waits for approval, refuses non-approvers and the requester, then runs on a team member approving', async () => {
    const playbook = await applyPlaybook(
      'approve-any',
      `    type: any\n    approvers: {people: [${ann.email}], teams: [oncall]}`,
    );
    const runId = await requestRun(playbook);
    const event = await test.db.query<{ properties: Record<string, unknown> }>(
      `SELECT properties FROM event_queue WHERE name = 'playbook.approval.inserted' AND properties->>'run_id' = $1`,
      [runId],
    );
    expect(event.rows[0]?.properties).toMatchObject({ playbook_id: playbook, requester: requester.id });

    await runner.drain();
    expect((await getRun(runId, requester)).status).toBe('pending_approval');
    expect((await getRun(runId, requester)).approval).toMatchObject({ type: 'any', can_approve: false });
    expect((await getRun(runId, bob)).approval).toMatchObject({ can_approve: true, can_reject: true });
    const pending = await call('/api/playbook/approvals/pending', { as: bob });
    expect(pending.json.run_ids).toContain(runId);

    const refused = await decide('approve', runId, carl);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe('You are not an approver of this playbook.');
    expect((await decide('approve', runId, requester)).status).toBe(403);

    const approved = await decide('approve', runId, bob);
    expect(approved.status, JSON.stringify(approved.json)).toBe(200);
    expect(approved.json.status).toBe('pending');
    await runner.drain();
    const run = await getRun(runId, ann);
    expect(run.status).toBe('completed');
    expect(run.actions[0]!.result!.stdout).toContain('approved run');
    expect(run.approval!.approvals).toEqual([
      expect.objectContaining({ person_id: bob.id, person_name: bob.name, team_name: 'oncall', status: 'approved' }),
    ]);
    expect(run.approval!.can_approve).toBe(false);
  });

  it('all: one approval is not enough, the same person twice is refused, the second approver starts it', async () => {
    const playbook = await applyPlaybook(
      'approve-all',
      `    type: all\n    approvers: {people: [${ann.email}, ${bob.id}]}`,
    );
    const runId = await requestRun(playbook);
    expect((await decide('approve', runId, ann)).json.status).toBe('pending_approval');
    expect((await decide('approve', runId, ann)).status).toBe(409);
    await runner.drain();
    expect((await getRun(runId, ann)).status).toBe('pending_approval');
    expect((await decide('approve', runId, bob)).json.status).toBe('pending');
    await runner.drain();
    const run = await getRun(runId, bob);
    expect(run.status).toBe('completed');
    expect(run.approval!.approvals.map((a) => a.person_name)).toEqual([ann.name, bob.name]);
  });

  it('a rejection ends the run failed with who rejected it and why', async () => {
    const playbook = await applyPlaybook(
      'approve-reject',
      `    type: all\n    approvers: {people: [${ann.email}, ${bob.email}]}`,
    );
    const runId = await requestRun(playbook);
    const rejected = await decide('reject', runId, ann, { reason: 'too risky on a Friday' });
    expect(rejected.status).toBe(200);
    expect(rejected.json.status).toBe('failed');
    const run = await getRun(runId, requester);
    expect(run).toMatchObject({ status: 'failed', error: `Rejected by ${ann.name}: too risky on a Friday` });
    expect(run.approval!.approvals[0]).toMatchObject({ status: 'rejected', reason: 'too risky on a Friday' });
    expect((await decide('approve', runId, bob)).status).toBe(409);
    const failed = await test.db.query(
      `SELECT 1 FROM event_queue WHERE name = 'playbook.run.failed' AND properties->>'id' = $1`,
      [runId],
    );
    expect(failed.rows).toHaveLength(1);
    await runner.drain();
    expect((await getRun(runId, requester)).actions).toEqual([]);
  });

  it('lets the requester approve their own run when they are the only approver listed', async () => {
    const playbook = await applyPlaybook('approve-self', `    approvers: {people: [${requester.email}]}`);
    const runId = await requestRun(playbook);
    expect((await getRun(runId, requester)).approval!.can_approve).toBe(true);
    expect((await decide('approve', runId, requester)).json.status).toBe('pending');
  });

  it('emits playbook.spec.approval.updated when a playbook is applied again with another approval', async () => {
    const apply = async (approval: string) => {
      const r = await call('/api/playbook', {
        text: `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: approval-edits, namespace: ops}
spec:
${approval}  actions: [{name: a, exec: {script: "true"}}]
`,
      });
      expect(r.status, JSON.stringify(r.json)).toBe(201);
      return (r.json.applied as { id: string }[])[0]!.id;
    };
    const id = await apply('');
    const events = async () =>
      (
        await test.db.query<{ properties: Record<string, unknown> }>(
          `SELECT properties FROM event_queue WHERE name = 'playbook.spec.approval.updated' AND properties->>'id' = $1
           ORDER BY created_at, id`,
          [id],
        )
      ).rows.map((r) => r.properties);
    const people = (list: string[]) => `  approval: {approvers: {people: [${list.join(', ')}]}}\n`;
    await apply('');
    expect(await events()).toEqual([]); // created, then unchanged: nothing
    await apply(people([ann.email]));
    await apply(people([ann.email])); // the same again
    await apply(people([ann.email, bob.email]));
    await apply(people([bob.email, ann.email])); // only the order differs
    await apply('');
    expect(await events()).toEqual([
      { id, name: 'approval-edits', approval: { type: 'any', approvers: { people: [ann.email], teams: [] } } },
      {
        id,
        name: 'approval-edits',
        approval: { type: 'any', approvers: { people: [ann.email, bob.email], teams: [] } },
      },
      { id, name: 'approval-edits', approval: null },
    ]);
  });

  it('refuses approvers that do not exist at apply, with their line', async () => {
    const r = await call('/api/playbook', {
      text: `apiVersion: mission-control.flanksource.com/v1
kind: Playbook
metadata: {name: approve-nobody, namespace: ops}
spec:
  approval:
    approvers:
      people: [nobody@approvals.test]
      teams: [no-such-team]
  actions:
    - name: a
      exec: {script: "true"}
`,
    });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([
      expect.objectContaining({ path: 'spec.approval.approvers.people[0]', line: 7 }),
      expect.objectContaining({ path: 'spec.approval.approvers.teams[0]', line: 8 }),
    ]);
  });
});
