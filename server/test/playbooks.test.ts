// Playbooks end to end: resources applied from YAML (refusals with positions), discovery for a
// check, component or catalog item, parameters rendered for one, runs executed by real runners —
// exec (a real bash), http (a loopback server), sql (PostgreSQL and MariaDB), notification (a real
// SMTP sink) — with if/delay/timeout/cancel, events, leases shared by two runners, interrupted
// runs, permissions and the /api/db views the screens read.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { createMailer } from '../src/auth/mailer.js';
import { applyFile } from '../src/cliApply.js';
import { INTERRUPTED_ERROR, PlaybookRunner } from '../src/playbooks/runner.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { apiClient } from './helpers/api.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/';

interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server that records requests; /fail answers 500. */
async function startTarget() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      if (req.url === '/fail') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('database is down');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, echo: body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    received,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const playbook = (name: string, spec: string) =>
  `apiVersion: mission-control.flanksource.com/v1\nkind: Playbook\nmetadata:\n  name: ${name}\n  namespace: ops\nspec:\n${spec}`;

interface Action {
  name: string;
  status: string;
  action_index: number;
  result: Record<string, unknown> | null;
  error: string | null;
  start_time: string | null;
  end_time: string | null;
}
interface Run {
  id: string;
  status: string;
  error: string | null;
  parameters: Record<string, string>;
  playbooks: { id: string; name: string; title: string };
  check: { id: string; name: string; type: string } | null;
  config: { id: string; name: string; type: string } | null;
  component: { id: string; name: string; type: string } | null;
  actions: Action[];
  start_time: string | null;
  end_time: string | null;
  created_by: string;
}

describe.each(databaseKinds())('playbooks on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let runner: PlaybookRunner;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let smtp: SmtpSink;
  let editor: TestUser;
  let viewer: TestUser;
  let responder: TestUser;
  let admin: TestUser;
  const ids = { check: '', tcpCheck: '', component: '', config: '' };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'opsdeck-playbooks-'));

  beforeAll(async () => {
    target = await startTarget();
    smtp = await startSmtpSink();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    runner = new PlaybookRunner(test.db, {
      pollMs: 50,
      heartbeatMs: 100,
      mailer: createMailer(`${smtp.url}?tls=off`, 'opsdeck@example.test'),
      smtpFrom: 'opsdeck@example.test',
    });
    editor = await createTestUser(test.db, 'editor', 'Edna Editor');
    viewer = await createTestUser(test.db, 'viewer');
    responder = await createTestUser(test.db, 'responder');
    admin = await createTestUser(test.db, 'admin');
    const q = async (sql: string, params: unknown[]) => (await test.db.query<{ id: string }>(sql, params)).rows[0]!.id;
    const canary = await q(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('web', 'shop', '{}') RETURNING id`,
      [],
    );
    ids.check = await q(
      `INSERT INTO checks (canary_id, type, name, namespace, endpoint, labels, status) VALUES ($1, 'http', 'web-home', 'shop', $2, '{"app":"web"}', 'healthy') RETURNING id`,
      [canary, `${target.url}/home`],
    );
    ids.tcpCheck = await q(
      `INSERT INTO checks (canary_id, type, name, namespace, endpoint) VALUES ($1, 'tcp', 'web-port', 'shop', '127.0.0.1:1') RETURNING id`,
      [canary],
    );
    const topology = await q(
      `INSERT INTO topologies (name, namespace, spec) VALUES ('shop', 'shop', '{}') RETURNING id`,
      [],
    );
    ids.component = await q(
      `INSERT INTO components (topology_id, name, type, labels, health) VALUES ($1, 'cart', 'Service', '{"tier":"backend"}', 'healthy') RETURNING id`,
      [topology],
    );
    ids.config = await q(
      `INSERT INTO config_items (external_id, type, config_class, name, tags, config)
       VALUES ('pod/cart', 'Kubernetes::Pod', 'Pod', 'cart-7d9f', '{"namespace":"shop","cluster":"eu"}', '{"spec":{"replicas":2}}') RETURNING id`,
      [],
    );
  });

  afterAll(async () => {
    await runner?.stop();
    await app?.close();
    await test?.close();
    await target?.close();
    await smtp?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const {
    api,
    applyYaml,
    refused: refusedResource,
  } = apiClient(
    () => app.url,
    () => editor,
  );
  const apply = (yaml: string, as = editor) => applyYaml('/api/playbook', yaml, as);

  async function applyOk(yaml: string): Promise<string> {
    const res = await apply(yaml);
    const body = (await res.json()) as { applied: { id: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body.applied[0]!.id;
  }

  const requestRun = (body: Record<string, unknown>, as = editor) =>
    api('/api/playbook/run', { method: 'POST', body: JSON.stringify(body), as });

  async function startRun(body: Record<string, unknown>): Promise<string> {
    const res = await requestRun(body);
    const json = (await res.json()) as { run_id: string; starts_at: string; error?: string };
    expect(res.status, json.error).toBe(201);
    expect(new Date(json.starts_at).getTime()).toBeGreaterThan(0);
    return json.run_id;
  }

  async function getRun(id: string, as = editor): Promise<Run> {
    const res = await api(`/api/playbook/run/${id}`, { as });
    expect(res.status).toBe(200);
    return (await res.json()) as Run;
  }

  /** Runs what is due with the test's runner and returns the run. */
  async function runNow(body: Record<string, unknown>): Promise<Run> {
    const id = await startRun(body);
    await runner.drain();
    return getRun(id);
  }

  async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 10_000): Promise<T> {
    const until = Date.now() + ms;
    for (;;) {
      const v = await fn();
      if (ok(v)) return v;
      if (Date.now() > until) throw new Error(`timed out waiting: ${JSON.stringify(v)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const events = async (runId: string) =>
    (
      await test.db.query<{ name: string }>(`SELECT name FROM event_queue WHERE properties->>'id' = $1`, [runId])
    ).rows.map((r) => r.name);

  it('applies a playbook from YAML, reads it back, updates it in place, deletes it, and refuses bad ones with positions', async () => {
    const yaml = playbook('hello', '  actions:\n    - name: greet\n      exec:\n        script: echo hello\n');
    const res = await apply(yaml);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { applied: { id: string; name: string; namespace: string; created: boolean }[] };
    expect(body.applied).toEqual([{ id: expect.any(String), name: 'hello', namespace: 'ops', created: true }]);
    const id = body.applied[0]!.id;
    const { rows } = await test.db.query('SELECT title, category, created_by FROM playbooks WHERE id = $1', [id]);
    expect(rows[0]).toEqual({ title: 'hello', category: null, created_by: editor.id });

    const spec = await api(`/api/playbook/${id}/spec`, { as: viewer });
    expect(spec.status).toBe(200);
    expect(await spec.text()).toMatch(/^apiVersion: mission-control.flanksource.com\/v1\nkind: Playbook\n/);

    const again = await apply(yaml.replace('spec:\n', 'spec:\n  title: Say hello\n  category: Greetings\n'));
    expect(((await again.json()) as { applied: { id: string; created: boolean }[] }).applied[0]).toEqual(
      expect.objectContaining({ id, created: false }),
    );
    const updated = await test.db.query('SELECT title, category FROM playbooks WHERE id = $1', [id]);
    expect(updated.rows[0]).toEqual({ title: 'Say hello', category: 'Greetings' });

    const errors = await refusedResource(
      '/api/playbook',
      `${playbook('ok-one', '  actions:\n    - name: a\n      exec: {script: "true"}\n')}---\n${playbook(
        'bad',
        '  runsOn: [agent-1]\n  actions:\n    - name: a\n      exec: {script: "true"}\n',
      )}`,
    );
    // Positions are in the text as sent (the second document starts on line 12).
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'spec.runsOn[0]: no agent "agent-1" (runsOn takes agent names, or local) (line 17, column 12)',
        line: 17,
        column: 12,
      }),
    ]);
    // Nothing of a refused file is stored, not even its valid documents.
    expect((await test.db.query(`SELECT 1 FROM playbooks WHERE name = 'ok-one'`)).rows).toHaveLength(0);
    const yamlError = await apply('apiVersion: x\n  bad: [indent\n');
    expect(yamlError.status).toBe(400);
    expect(((await yamlError.json()) as { errors: { line: number }[] }).errors[0]!.line).toBeGreaterThan(0);

    expect((await api(`/api/playbook/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await api(`/api/playbook/${id}`, { method: 'DELETE' })).status).toBe(404);
    expect((await api(`/api/playbook/${id}/spec`)).status).toBe(404);
    const deleted = await test.db.query('SELECT deleted_at FROM playbooks WHERE id = $1', [id]);
    expect(deleted.rows[0]!.deleted_at).not.toBeNull();
  });

  it('applies a Playbook with the CLI', async () => {
    const file = path.join(tmp, 'cli.yaml');
    fs.writeFileSync(file, playbook('from-cli', '  actions:\n    - name: a\n      exec: {script: "true"}\n'));
    expect(await applyFile(file, app.url, editor.token)).toBe(0);
    expect(
      (await test.db.query(`SELECT 1 FROM playbooks WHERE name = 'from-cli' AND deleted_at IS NULL`)).rows,
    ).toHaveLength(1);
  });

  it('lists the playbooks that run on a check, a component or a catalog item, and renders parameters for one', async () => {
    const onCheck = await applyOk(
      playbook(
        'on-http-checks',
        `  title: Probe
  icon: http
  category: Diagnostics
  checks:
    - types: [http]
      labelSelector: app=web
  parameters:
    - name: url
      default: "{{.check.endpoint}}"
    - name: who
      default: "{{.user.name}}"
    - name: count
      type: text
      default: 3
      properties: {format: number, min: 1, max: 10}
  actions:
    - name: a
      exec: {script: "true"}
`,
      ),
    );
    const onComponent = await applyOk(
      playbook(
        'on-components',
        '  components:\n    - types: [Service]\n      namespace: shop\n  actions:\n    - name: a\n      exec: {script: "true"}\n',
      ),
    );
    const onConfig = await applyOk(
      playbook(
        'on-pods',
        '  configs:\n    - types: ["Kubernetes::*"]\n      tagSelector: cluster=eu\n  actions:\n    - name: a\n      exec: {script: "true"}\n',
      ),
    );
    const list = async (q: string, as = viewer) => {
      const res = await api(`/api/playbook/list${q}`, { as });
      expect(res.status).toBe(200);
      return (await res.json()) as {
        id: string;
        name: string;
        title: string;
        icon: string;
        category: string;
        parameters: unknown[];
        checks?: unknown;
      }[];
    };
    const forCheck = await list(`?check_id=${ids.check}`);
    expect(forCheck.map((p) => p.id)).toEqual([onCheck]);
    expect(forCheck[0]).toMatchObject({
      name: 'on-http-checks',
      title: 'Probe',
      icon: 'http',
      category: 'Diagnostics',
      checks: [{ types: ['http'], labelSelector: 'app=web' }],
    });
    expect(forCheck[0]!.parameters).toHaveLength(3);
    expect(await list(`?check_id=${ids.tcpCheck}`)).toEqual([]);
    expect((await list(`?component_id=${ids.component}`)).map((p) => p.id)).toEqual([onComponent]);
    expect((await list(`?config_id=${ids.config}`)).map((p) => p.id)).toEqual([onConfig]);
    expect((await list('')).map((p) => p.id)).toEqual(expect.arrayContaining([onCheck, onComponent, onConfig]));
    expect((await api('/api/playbook/list?check_id=nope')).status).toBe(400);
    expect((await api(`/api/playbook/list?check_id=${ids.check}&config_id=${ids.config}`)).status).toBe(400);
    const unknown = await api('/api/playbook/list?config_id=00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: string }).error).toBe('No such catalog item.');

    const params = async (id: string, body: unknown) =>
      api(`/api/playbook/${id}/params`, { method: 'POST', body: JSON.stringify(body), as: viewer });
    const ok = await params(onCheck, { check_id: ids.check });
    expect(ok.status).toBe(200);
    const rendered = (await ok.json()) as { params: { name: string; default: string }[]; resource: unknown };
    expect(rendered.params.map((p) => [p.name, p.default])).toEqual([
      ['url', `${target.url}/home`],
      ['who', expect.stringContaining('Test viewer')],
      ['count', '3'],
    ]);
    expect(rendered.resource).toEqual({ type: 'check', id: ids.check, name: 'web-home' });
    const none = await params(onCheck, {});
    expect(none.status).toBe(400);
    expect(((await none.json()) as { error: string }).error).toBe('This playbook runs on a health check: choose one.');
    const wrongKind = await params(onCheck, { config_id: ids.config });
    expect(((await wrongKind.json()) as { error: string }).error).toBe(
      'This playbook runs on a health check, not on a catalog item.',
    );
    const noMatch = await params(onCheck, { check_id: ids.tcpCheck });
    expect(noMatch.status).toBe(400);
    expect(((await noMatch.json()) as { error: string }).error).toBe(
      `The health check "web-port" does not match this playbook's checks selectors.`,
    );
    expect((await params('00000000-0000-4000-8000-000000000000', {})).status).toBe(404);
    for (const id of [onCheck, onComponent, onConfig]) await api(`/api/playbook/${id}`, { method: 'DELETE' });
  });

  it('runs an exec action: stdout and env captured, parameters and the resource templated, events emitted', async () => {
    const id = await applyOk(
      playbook(
        'exec-ok',
        `  title: Exec
  configs:
    - types: ["Kubernetes::Pod"]
  parameters:
    - name: greeting
      default: hello
  actions:
    - name: first
      exec:
        script: |
          echo "{{.params.greeting}} {{.config.name}} from $WHO by {{.user.name}} in run {{.run.id}}"
          pwd
        env:
          - name: WHO
            value: "{{.playbook.title}}"
    - name: second
      if: "last_result.exitCode == 0 && actions.first.status == 'completed'"
      exec:
        script: echo "replicas {{.config.config.spec.replicas}}"
`,
      ),
    );
    const run = await runNow({ id, config_id: ids.config, params: { greeting: 'hi' } });
    expect(run.status).toBe('completed');
    expect(run.error).toBeNull();
    expect(run.parameters).toEqual({ greeting: 'hi' });
    expect(run.playbooks).toMatchObject({ id, name: 'exec-ok', title: 'Exec' });
    expect(run.config).toEqual({ id: ids.config, name: 'cart-7d9f', type: 'Kubernetes::Pod' });
    expect(run.created_by).toBe(editor.id);
    expect(run.start_time).not.toBeNull();
    expect(run.end_time).not.toBeNull();
    expect(run.actions.map((a) => [a.name, a.status])).toEqual([
      ['first', 'completed'],
      ['second', 'completed'],
    ]);
    const [first, second] = run.actions as [Action, Action];
    const lines = String(first.result!.stdout).split('\n');
    expect(lines[0]).toBe(`hi cart-7d9f from Exec by Edna Editor in run ${run.id}`);
    // A fresh temporary directory, removed afterwards.
    expect(lines[1]).toMatch(/opsdeck-exec-/);
    expect(fs.existsSync(lines[1]!)).toBe(false);
    expect(first.result!.exitCode).toBe(0);
    expect(second.result!.stdout).toBe('replicas 2');
    expect(await events(run.id)).toEqual(['playbook.run.completed']);
  });

  it('fails on a non-zero exit with stderr, skips later actions unless if: always() or failure()', async () => {
    const id = await applyOk(
      playbook(
        'exec-fail',
        `  actions:
    - name: break
      exec:
        script: "echo partial; echo 'disk full' >&2; exit 3"
    - name: next
      exec: {script: echo never}
    - name: cleanup
      if: always()
      exec: {script: echo cleaned}
    - name: alert
      if: failure
      exec: {script: echo alerted}
    - name: happy
      if: success()
      exec: {script: echo nope}
`,
      ),
    );
    const run = await runNow({ id });
    expect(run.status).toBe('failed');
    // The action carries the error; the run's own error is for failures outside actions.
    expect(run.error).toBeNull();
    expect(run.actions.map((a) => [a.name, a.status])).toEqual([
      ['break', 'failed'],
      ['next', 'skipped'],
      ['cleanup', 'completed'],
      ['alert', 'completed'],
      ['happy', 'skipped'],
    ]);
    expect(run.actions[0]!.result).toMatchObject({ stdout: 'partial', stderr: 'disk full', exitCode: 3 });
    expect(run.actions[0]!.error).toBe('exit code 3: disk full');
    expect(run.actions[2]!.result!.stdout).toBe('cleaned');
    expect(await events(run.id)).toEqual(['playbook.run.failed']);
  });

  it('runs an http action against a loopback server with a templated body; a 500 fails it', async () => {
    const id = await applyOk(
      playbook(
        'http-call',
        `  checks:
    - name: web-*
  parameters:
    - name: reason
      required: true
  actions:
    - name: notify
      http:
        url: "{{.check.endpoint}}"
        method: POST
        headers:
          - name: X-Reason
            value: "{{.params.reason}}"
        templateBody: true
        body: '{"check": "{{.check.name}}", "reason": "{{.params.reason}}"}'
    - name: broken
      http:
        url: "${target.url}/fail"
`,
      ),
    );
    const run = await runNow({ id, check_id: ids.check, params: { reason: 'deploy' } });
    const received = target.received.find((r) => r.url === '/home' && r.method === 'POST')!;
    expect(received.headers['x-reason']).toBe('deploy');
    expect(JSON.parse(received.body)).toEqual({ check: 'web-home', reason: 'deploy' });
    expect(received.headers['content-type']).toBe('application/json');
    const [notify, broken] = run.actions as [Action, Action];
    expect(notify.status).toBe('completed');
    expect(notify.result).toMatchObject({ code: 200, json: { ok: true } });
    expect(broken.status).toBe('failed');
    expect(broken.error).toBe('HTTP 500: database is down');
    expect(broken.result).toMatchObject({ code: 500, content: 'database is down' });
    expect(run.status).toBe('failed');
    expect(run.error).toBeNull();
  });

  it('runs sql actions against PostgreSQL and MariaDB', async () => {
    const id = await applyOk(
      playbook(
        'sql-both',
        `  parameters:
    - name: n
      default: "41"
  actions:
    - name: pg
      sql:
        driver: postgres
        url: ${PG_URL}
        query: "SELECT {{.params.n}} + 1 AS answer, current_database() AS db"
    - name: maria
      sql:
        driver: mysql
        url: ${MYSQL_URL}
        query: "SELECT {{.params.n}} + 2 AS answer, VERSION() AS version"
    - name: bad
      if: always()
      sql:
        driver: postgres
        url: ${PG_URL}
        query: "SELECT * FROM no_such_table"
`,
      ),
    );
    const run = await runNow({ id });
    const [pgAction, maria, bad] = run.actions as [Action, Action, Action];
    expect(pgAction.status, pgAction.error ?? '').toBe('completed');
    expect(pgAction.result).toEqual({ rows: [{ answer: '42', db: expect.any(String) }], count: 1 });
    expect(maria.status, maria.error ?? '').toBe('completed');
    expect(maria.result).toMatchObject({
      rows: [{ answer: '43', version: expect.stringMatching(/MariaDB|\d/) }],
      count: 1,
    });
    expect(bad.status).toBe('failed');
    expect(bad.error).toMatch(/no_such_table/);
  });

  it('sends a notification by email over SMTP, to an address and through an smtp connection', async () => {
    await test.db.query(
      `INSERT INTO connections (name, type, url, properties) VALUES ('mail-ops', 'smtp', $1, '{"to": "ops@example.test", "from": "bot@example.test"}')`,
      [`${smtp.url}?tls=off`],
    );
    const id = await applyOk(
      playbook(
        'notify',
        `  actions:
    - name: direct
      notification:
        to: oncall@example.test
        title: "Run {{.run.id}}"
        message: "Started by {{.user.name}}"
    - name: via-connection
      notification:
        to: connection://smtp/mail-ops
        title: "Playbook {{.playbook.name}}"
        message: done
`,
      ),
    );
    const run = await runNow({ id });
    expect(run.actions.map((a) => [a.name, a.status, a.error])).toEqual([
      ['direct', 'completed', null],
      ['via-connection', 'completed', null],
    ]);
    const direct = await smtp.waitFor('oncall@example.test');
    expect(direct.subject).toBe(`Run ${run.id}`);
    expect(direct.raw).toContain('Started by Edna Editor');
    const viaConnection = await smtp.waitFor('ops@example.test');
    expect(viaConnection.from).toBe('bot@example.test');
    expect(viaConnection.subject).toBe('Playbook notify');
  });

  it('sleeps through a delay, kills a script on timeout, and fails a template error', async () => {
    const id = await applyOk(
      playbook(
        'slow',
        `  actions:
    - name: wait
      delay: 1s
      exec: {script: echo awake}
    - name: hang
      timeout: 1s
      exec:
        script: "sleep 30 & sleep 30; echo never"
    - name: bad-template
      if: always()
      exec:
        script: "echo {{.params.missing | nosuchfunc}}"
`,
      ),
    );
    const runId = await startRun({ id });
    runner.start();
    try {
      const sleeping = await waitFor(
        () => getRun(runId),
        (r) => r.actions[0]?.status === 'sleeping',
      );
      expect(sleeping.status).toBe('running');
      expect(sleeping.actions[0]!.start_time).toBeNull();
      const started = Date.now();
      const done = await waitFor(
        () => getRun(runId),
        (r) => r.status === 'failed',
      );
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(done.actions.map((a) => [a.name, a.status])).toEqual([
        ['wait', 'completed'],
        ['hang', 'failed'],
        ['bad-template', 'failed'],
      ]);
      expect(done.actions[0]!.result!.stdout).toBe('awake');
      expect(done.actions[1]!.error).toMatch(/timed out after 1 s; the script was killed/);
      expect(done.actions[2]!.error).toMatch(/^template: .*nosuchfunc/);
      expect(done.status).toBe('failed');
      expect(done.error).toBeNull();
    } finally {
      await runner.stop();
    }
  });

  it('cancels a pending run at once and a running one after stopping its action; a finished run answers 409', async () => {
    const id = await applyOk(
      playbook(
        'long',
        '  actions:\n    - name: hang\n      exec: {script: "sleep 30"}\n    - name: after\n      exec: {script: "true"}\n',
      ),
    );
    const pending = await startRun({ id });
    const cancelPending = await api(`/api/playbook/run/${pending}/cancel`, { method: 'POST' });
    expect(cancelPending.status).toBe(200);
    expect((await getRun(pending)).status).toBe('cancelled');
    expect((await api(`/api/playbook/run/${pending}/cancel`, { method: 'POST' })).status).toBe(409);

    const running = await startRun({ id });
    runner.start();
    try {
      await waitFor(
        () => getRun(running),
        (r) => r.actions[0]?.status === 'running',
      );
      expect((await api(`/api/playbook/run/${running}/cancel`, { method: 'POST', as: viewer })).status).toBe(403);
      const started = Date.now();
      const res = await api(`/api/playbook/run/${running}/cancel`, { method: 'POST' });
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(5_000);
      const run = await waitFor(
        () => getRun(running),
        (r) => r.actions[0]?.status === 'failed',
      );
      expect(run.status).toBe('cancelled');
      expect(run.error).toBe('cancelled by Edna Editor');
      expect(run.actions.map((a) => a.name)).toEqual(['hang']);
      expect(run.actions[0]!.error).toBe('the run was cancelled');
      expect(await events(running)).toEqual([]);
    } finally {
      await runner.stop();
    }
  });

  it('runs each run once with two runners on one database', async () => {
    const log = path.join(tmp, 'runs.log');
    const id = await applyOk(
      playbook('count', `  actions:\n    - name: append\n      exec: {script: "echo {{.run.id}} >> ${log}"}\n`),
    );
    const runIds: string[] = [];
    for (let i = 0; i < 8; i++) runIds.push(await startRun({ id }));
    const a = new PlaybookRunner(test.db, { pollMs: 20, maxConcurrent: 3 });
    const b = new PlaybookRunner(test.db, { pollMs: 20, maxConcurrent: 3 });
    a.start();
    b.start();
    try {
      await waitFor(
        async () =>
          (
            await test.db.query<{ n: number }>(
              `SELECT count(*)::int AS n FROM playbook_runs WHERE id = ANY($1) AND status = 'completed'`,
              [runIds],
            )
          ).rows[0]!.n,
        (n) => n === runIds.length,
        20_000,
      );
    } finally {
      await a.stop();
      await b.stop();
    }
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
    expect(lines.sort()).toEqual([...runIds].sort());
  });

  it('marks a run cut off by a restart as failed instead of running it again, and a run that cannot start as failed', async () => {
    const id = await applyOk(playbook('cut-off', '  actions:\n    - name: a\n      exec: {script: "true"}\n'));
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO playbook_runs (playbook_id, status, spec, start_time, lease_owner, lease_until)
       SELECT id, 'running', spec, now() - interval '1 minute', 'gone', now() - interval '1 second' FROM playbooks WHERE id = $1
       RETURNING id`,
      [id],
    );
    const cutOff = rows[0]!.id;
    await test.db.query(
      `INSERT INTO playbook_run_actions (playbook_run_id, name, action_index, status, start_time) VALUES ($1, 'a', 0, 'running', now())`,
      [cutOff],
    );
    await runner.drain();
    const run = await getRun(cutOff);
    expect(run.status).toBe('failed');
    expect(run.error).toBe(INTERRUPTED_ERROR);
    expect(run.actions.map((a) => [a.status, a.error])).toEqual([['failed', INTERRUPTED_ERROR]]);
    expect(await events(cutOff)).toEqual(['playbook.run.failed']);

    const broken = await startRun({ id });
    await test.db.query(`UPDATE playbook_runs SET spec = '{"kind": "Playbook"}' WHERE id = $1`, [broken]);
    await runner.drain();
    const failed = await getRun(broken);
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/^the run could not start: /);
    expect(failed.actions).toEqual([]);
  });

  it('refuses bad run requests with messages naming the problem', async () => {
    const id = await applyOk(
      playbook(
        'strict',
        `  parameters:
    - name: env
      type: list
      required: true
      properties:
        options: [{label: Production, value: prod}, {label: Staging, value: staging}]
    - name: dry
      type: checkbox
    - name: manifest
      type: code
      properties: {language: json}
  actions:
    - name: a
      exec: {script: "true"}
`,
      ),
    );
    const refused = async (body: Record<string, unknown> | string, status = 400) => {
      const res = await api('/api/playbook/run', {
        method: 'POST',
        body: typeof body === 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      });
      const json = (await res.json()) as { error: string };
      expect(res.status, json.error).toBe(status);
      return json.error;
    };
    expect(await refused({ id })).toBe('parameter "env" is required');
    expect(await refused({ id, params: { env: 'dev' } })).toBe('parameter "env" must be one of "prod", "staging"');
    expect(await refused({ id, params: { env: 'prod', dry: 'maybe' } })).toBe('parameter "dry" must be true or false');
    expect(await refused({ id, params: { env: 'prod', manifest: '{nope' } })).toMatch(
      /^parameter "manifest" is not valid JSON/,
    );
    expect(await refused({ id, params: { env: 'prod', extra: 1 } })).toBe(
      'unknown parameter "extra" (this playbook takes env, dry, manifest)',
    );
    expect(await refused({ id, params: { env: 'prod' }, config_id: ids.config })).toBe(
      'This playbook does not run on a resource: leave out config_id.',
    );
    expect(await refused({ id, params: 'x' })).toMatch(/^params: /);
    expect(await refused('{not json')).toMatch(/^The body is not valid JSON/);
    expect(await refused({})).toMatch(/id \(the playbook id\) is required/);
    expect(await refused({ id: '00000000-0000-4000-8000-000000000000' }, 404)).toBe('No such playbook.');
    expect(await refused({ id, params: { env: 'prod' }, parent_id: '00000000-0000-4000-8000-000000000000' })).toBe(
      'parent_id: no such run.',
    );
    const run = await runNow({ id, params: { env: 'prod', dry: true } });
    expect(run.parameters).toEqual({ env: 'prod', dry: 'true', manifest: '' });
    expect(run.status).toBe('completed');
  });

  it('lets editors and admins apply and run, not viewers or responders; viewers read runs', async () => {
    const yaml = playbook('rbac', '  actions:\n    - name: a\n      exec: {script: "true"}\n');
    for (const who of [viewer, responder]) {
      expect((await apply(yaml, who)).status).toBe(403);
    }
    const id = await applyOk(yaml);
    expect((await apply(yaml, admin)).status).toBe(201);
    for (const who of [viewer, responder]) {
      const res = await requestRun({ id }, who);
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe('Your role cannot write playbooks.');
      expect((await api(`/api/playbook/${id}`, { method: 'DELETE', as: who })).status).toBe(403);
    }
    expect((await requestRun({ id }, admin)).status).toBe(201);
    const runId = await startRun({ id });
    expect((await api(`/api/playbook/run/${runId}`, { as: viewer })).status).toBe(200);
    expect((await api('/api/playbook/list', { as: responder })).status).toBe(200);
    expect((await api('/api/playbook/run/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    // Runs are the runner's: /api/db refuses writes.
    const write = await api('/api/db/playbook_runs', {
      method: 'POST',
      body: JSON.stringify({ playbook_id: id, spec: {} }),
      as: admin,
    });
    expect(write.status).toBe(405);
    await runner.drain();
  });

  it('serves runs through /api/db: playbook_run_list filtered by resource, playbook_runs embedding playbooks', async () => {
    const id = await applyOk(
      playbook('on-cart', '  components:\n    - name: cart\n  actions:\n    - name: a\n      exec: {script: "true"}\n'),
    );
    const first = await runNow({ id, component_id: ids.component });
    const second = await runNow({ id, component_id: ids.component });
    const res = await api(`/api/db/playbook_run_list?component_id=eq.${ids.component}&order=created_at.desc&limit=50`, {
      as: viewer,
    });
    expect(res.status).toBe(200);
    const rows = (await res.json()) as {
      id: string;
      status: string;
      playbooks: { name: string };
      duration_ms: number;
    }[];
    expect(rows.map((r) => r.id)).toEqual([second.id, first.id]);
    expect(rows[0]).toMatchObject({ status: 'completed', playbooks: { name: 'on-cart' } });
    expect(rows[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    const embedded = await api(`/api/db/playbook_runs?select=id,playbooks(name,title)&id=eq.${first.id}`, {
      as: viewer,
    });
    expect(await embedded.json()).toEqual([{ id: first.id, playbooks: { name: 'on-cart', title: 'on-cart' } }]);
    const actions = await api(`/api/db/playbook_run_actions?playbook_run_id=eq.${first.id}&select=name,status`, {
      as: viewer,
    });
    expect(await actions.json()).toEqual([{ name: 'a', status: 'completed' }]);
  });
});
