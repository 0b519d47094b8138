// Incidents end to end over real HTTP and a real database: the composite create, the changelog
// and events the triggers write for every kind of write, refused status moves, roles, responders
// delivered by real SMTP and HTTP, definition-of-done scripts over a real check, and incident
// rules opening and auto-resolving an incident from a topology component fed by a failing check.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { IncidentEngine } from '../src/incidents/engine.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';

/** A service whose health endpoint answers with the status the test sets, and a ticketing webhook. */
async function startTarget() {
  const state = { healthStatus: 200, tickets: [] as unknown[] };
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith('/health')) {
      res.writeHead(state.healthStatus, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: state.healthStatus === 200 }));
      return;
    }
    if (req.url === '/tickets' && req.method === 'POST') {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        state.tickets.push({ body: JSON.parse(body) as unknown, authorization: req.headers.authorization });
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ key: `OPS-${state.tickets.length}` }));
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

interface Created {
  id: string;
  incident_id: string;
  hypothesis_id: string;
  evidence_id: string | null;
}

describe.each(databaseKinds())('incidents on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let smtp: SmtpSink;
  let target: Awaited<ReturnType<typeof startTarget>>;
  let engine: IncidentEngine;
  let editor: TestUser;
  let commander: TestUser;
  let responder: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    target = await startTarget();
    smtp = await startSmtpSink();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({
      database: test.db,
      port: 0,
      host: '127.0.0.1',
      engines: false,
      smtpUrl: smtp.url,
      smtpFrom: 'Opsdeck <opsdeck@example.test>',
    });
    engine = new IncidentEngine(app.ctx.db);
    editor = await createTestUser(test.db, 'editor');
    commander = await createTestUser(test.db, 'commander');
    responder = await createTestUser(test.db, 'responder');
    viewer = await createTestUser(test.db, 'viewer');
  });

  afterAll(async () => {
    await engine?.stop();
    await app?.close();
    await test?.close();
    await smtp?.close();
    await target?.close();
  });

  const call = (
    path: string,
    init: Omit<RequestInit, 'body'> & { as?: TestUser; json?: unknown; body?: string } = {},
  ) =>
    fetch(`${app.url}${path}`, {
      ...init,
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      headers: {
        ...(init.as ?? commander).headers,
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
        prefer: 'return=representation',
        ...(init.headers as Record<string, string>),
      },
    });

  async function createIncident(body: Record<string, unknown>, as = commander): Promise<Created> {
    const res = await call('/api/incidents', { method: 'POST', json: body, as });
    const out = (await res.json()) as Created;
    expect(res.status, JSON.stringify(out)).toBe(201);
    return out;
  }

  async function history(incidentId: string) {
    const res = await call(`/api/db/incident_histories?incident_id=eq.${incidentId}&order=created_at.asc,id.asc`, {
      as: viewer,
    });
    expect(res.status).toBe(200);
    return (await res.json()) as { type: string; description: string; created_by: string | null }[];
  }

  it('creates an incident with its root hypothesis and evidence in one call', async () => {
    // A config evidence needs the catalog item it points at.
    const res = await call('/api/incidents', {
      method: 'POST',
      json: { title: 'x', severity: 'high', type: 'performance', evidence: { type: 'config' } },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      field: 'evidence.config_id',
      message: 'A config evidence needs config_id',
    });

    const ok = await createIncident({
      title: 'Checkout is slow',
      description: 'p95 over 2 s',
      severity: 'high',
      status: 'open',
      type: 'performance',
      commander_id: commander.id,
      evidence: { type: 'comment', description: 'users report timeouts', definition_of_done: true },
    });
    expect(ok.incident_id).toMatch(/^INC\d{7}$/);
    const detail = await call(
      `/api/db/incidents?id=eq.${ok.id}&select=*,commander:commander_id(id,name),hypotheses(*,evidences(*),comments(*))`,
      { as: viewer },
    );
    const [incident] = (await detail.json()) as {
      title: string;
      severity: string;
      created_by: string;
      commander: { id: string };
      hypotheses: { id: string; title: string; type: string; status: string; evidences: { type: string }[] }[];
    }[];
    expect(incident).toMatchObject({ title: 'Checkout is slow', severity: 'high', created_by: commander.id });
    expect(incident!.commander.id).toBe(commander.id);
    expect(incident!.hypotheses).toEqual([
      expect.objectContaining({
        id: ok.hypothesis_id,
        title: 'Checkout is slow',
        type: 'root',
        status: 'Possible',
        evidences: [expect.objectContaining({ type: 'comment', definition_of_done: true })],
      }),
    ]);
  });

  it('refuses an invalid new incident with the form messages, and leaves nothing behind', async () => {
    const { rows: before } = await test.db.query<{ n: number }>('SELECT count(*)::int AS n FROM incidents');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ severity: 'low', type: 'cost' }, 'title', 'This field is required'],
      [{ title: 'a', severity: 'huge', type: 'cost' }, 'severity', 'Please select incident severity'],
      [{ title: 'a', severity: 'low', type: 'weather' }, 'type', 'Please select an incident type'],
      [
        { title: 'a', status: 'sleeping' },
        'status',
        'Status must be one of new, open, investigating, mitigated, resolved, closed',
      ],
      [
        { title: 'a', evidence: { type: 'topology', component_id: '00000000-0000-4000-8000-000000000000' } },
        'evidence.component_id',
        'No components row has the id 00000000-0000-4000-8000-000000000000',
      ],
    ];
    for (const [body, field, message] of cases) {
      const res = await call('/api/incidents', { method: 'POST', json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(await res.json()).toMatchObject({ field, message });
    }
    const broken = await call('/api/incidents', {
      method: 'POST',
      body: '{"title":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.status).toBe(400);
    const { rows: after } = await test.db.query<{ n: number }>('SELECT count(*)::int AS n FROM incidents');
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it('records every history event type and emits the incident events, attributed to the caller', async () => {
    const created = await createIncident({ title: 'Queue backlog', severity: 'medium', type: 'reliability' });
    // Writes through /api/db: a forged created_by is replaced with the caller.
    const hyp = await call('/api/db/hypotheses', {
      method: 'POST',
      as: responder,
      json: {
        incident_id: created.id,
        parent_id: created.hypothesis_id,
        title: 'Consumer crashed',
        type: 'factor',
        status: 'Possible',
        created_by: commander.id,
      },
    });
    expect(hyp.status).toBe(201);
    const [factor] = (await hyp.json()) as { id: string; created_by: string }[];
    expect(factor!.created_by).toBe(responder.id);
    expect(
      (
        await call(`/api/db/hypotheses?id=eq.${factor!.id}`, {
          method: 'PATCH',
          as: responder,
          json: { status: 'Likely' },
        })
      ).status,
    ).toBe(200);
    const ev = await call('/api/db/evidences', {
      method: 'POST',
      as: responder,
      json: {
        hypothesis_id: factor!.id,
        type: 'log',
        description: 'OOM killed',
        evidence: { lines: ['OOM'], selected_lines: { 0: true } },
      },
    });
    expect(ev.status).toBe(201);
    const [evidence] = (await ev.json()) as { id: string }[];
    expect(
      (
        await call(`/api/db/evidences?id=eq.${evidence!.id}`, {
          method: 'PATCH',
          as: responder,
          json: { definition_of_done: true },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await call('/api/db/comments', {
          method: 'POST',
          as: responder,
          json: { incident_id: created.id, hypothesis_id: factor!.id, comment: 'restarted the consumer' },
        })
      ).status,
    ).toBe(201);
    const { rows: team } = await test.db.query<{ id: string }>(
      `INSERT INTO teams (name, spec) VALUES ('history-team', '{"responder_clients": {"jira": {}}}') RETURNING id`,
    );
    const r = await call(`/api/incidents/${created.id}/responders`, {
      method: 'POST',
      json: {
        team_id: team[0]!.id,
        properties: {
          responderType: 'jira',
          project: 'OPS',
          issueType: 'Bug',
          priority: 'P2',
          summary: 'Backlog',
          description: 'queue',
        },
      },
    });
    expect(r.status).toBe(201);
    expect(await r.json()).toMatchObject({ type: 'system', delivery_status: 'recorded', created_by: commander.id });
    const patched = await call(`/api/db/incidents?id=eq.${created.id}`, {
      method: 'PATCH',
      json: { status: 'investigating' },
    });
    expect(patched.status).toBe(200);
    const [row] = (await patched.json()) as { acknowledged: string | null; updated_at: string; created_at: string }[];
    expect(row!.acknowledged).not.toBeNull();

    const entries = await history(created.id);
    expect(entries.map((e) => e.type)).toEqual([
      'incident.created',
      'hypothesis.created',
      'hypothesis.created',
      'hypothesis.status_updated',
      'evidence.created',
      'evidence.done_definition_added',
      'responder.commented',
      'responder.created',
      'incident.status_updated',
    ]);
    expect(entries.map((e) => e.created_by)).toEqual([
      commander.id,
      commander.id,
      responder.id,
      responder.id,
      responder.id,
      responder.id,
      responder.id,
      commander.id,
      commander.id,
    ]);
    expect(entries.at(-1)!.description).toBe('Status changed from open to investigating');
    const { rows: events } = await test.db.query<{ name: string }>(
      `SELECT name FROM event_queue WHERE properties->>'id' = $1 ORDER BY created_at`,
      [created.id],
    );
    expect(events.map((e) => e.name)).toEqual(['incident.created', 'incident.status.investigating']);
  });

  it('answers 404 NOT_FOUND for responders, evidence and status of an unknown incident', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const [method, path, json] of [
      ['POST', `/api/incidents/${unknown}/responders`, { type: 'person', person_id: unknown }],
      ['POST', `/api/incidents/${unknown}/evidence`, { type: 'comment', description: 'x' }],
      ['PATCH', `/api/incidents/${unknown}/status`, { status: 'closed' }],
    ] as const) {
      const res = await call(path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(((await res.json()) as { code: string }).code, `${method} ${path}`).toBe('NOT_FOUND');
    }
  });

  it('refuses a disallowed status move with a 400 naming the allowed moves', async () => {
    const created = await createIncident({ title: 'Disk full', severity: 'low', type: 'availability' });
    expect(
      (await call(`/api/db/incidents?id=eq.${created.id}`, { method: 'PATCH', json: { status: 'closed' } })).status,
    ).toBe(200);
    const refused = await call(`/api/db/incidents?id=eq.${created.id}`, {
      method: 'PATCH',
      json: { status: 'investigating' },
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      message: 'Incident status cannot move from closed to investigating',
      hint: 'From closed an incident may move to open.',
    });
    const viaApi = await call(`/api/incidents/${created.id}/status`, {
      method: 'PATCH',
      json: { status: 'mitigated' },
    });
    expect(viaApi.status).toBe(400);
    expect(((await viaApi.json()) as { message: string }).message).toContain('cannot move from closed to mitigated');
    const reopened = await call(`/api/incidents/${created.id}/status`, { method: 'PATCH', json: { status: 'open' } });
    expect(reopened.status).toBe(200);
    const { rows } = await test.db.query<{ status: string; closed: string | null }>(
      'SELECT status, closed FROM incidents WHERE id = $1',
      [created.id],
    );
    expect(rows[0]).toEqual({ status: 'open', closed: null });
  });

  it('lets commanders and responders write incidents, evidence, comments and responders, and viewers nothing', async () => {
    const viewerCreate = await call('/api/incidents', { method: 'POST', as: viewer, json: { title: 'nope' } });
    expect(viewerCreate.status).toBe(403);
    const viewerDb = await call('/api/db/incidents', { method: 'POST', as: viewer, json: { title: 'nope' } });
    expect(viewerDb.status).toBe(403);
    const mine = await createIncident({ title: 'Responder made this', severity: 'info', type: 'security' }, responder);
    for (const [path, json] of [
      [`/api/incidents/${mine.id}/evidence`, { type: 'comment', description: 'seen' }],
      ['/api/db/comments', { incident_id: mine.id, comment: 'hello' }],
    ] as const) {
      expect((await call(path, { method: 'POST', as: viewer, json })).status, path).toBe(403);
      expect((await call(path, { method: 'POST', as: responder, json })).status, path).toBe(201);
    }
    const attach = await call(`/api/incidents/${mine.id}/evidence`, {
      method: 'POST',
      as: commander,
      json: { hypothesis_title: 'Leaked key', type: 'comment', description: 'key in a public repo' },
    });
    expect(attach.status).toBe(201);
    const { rows } = await test.db.query<{ type: string; parent_id: string }>(
      'SELECT type, parent_id FROM hypotheses WHERE id = $1',
      [((await attach.json()) as { hypothesis_id: string }).hypothesis_id],
    );
    expect(rows[0]).toEqual({ type: 'factor', parent_id: mine.hypothesis_id });
    expect(
      (
        await call(`/api/incidents/${mine.id}/responders`, {
          method: 'POST',
          as: viewer,
          json: { person_id: viewer.id },
        })
      ).status,
    ).toBe(403);
    const person = await call(`/api/incidents/${mine.id}/responders`, {
      method: 'POST',
      as: responder,
      json: { person_id: commander.id },
    });
    expect(person.status).toBe(201);
    expect(await person.json()).toMatchObject({
      type: 'person',
      person_id: commander.id,
      properties: { responderType: 'person' },
    });
    expect(
      (await call('/api/incidents/rules', { method: 'POST', as: commander, body: 'kind: IncidentRule' })).status,
    ).toBe(403);
  });

  it('delivers an email responder through SMTP and a ticket responder through its connection', async () => {
    const created = await createIncident({ title: 'Payments failing', severity: 'critical', type: 'availability' });
    const { rows: teams } = await test.db.query<{ id: string }>(
      `INSERT INTO teams (name, spec) VALUES ('payments', $1) RETURNING id`,
      [JSON.stringify({ responder_clients: { email: { defaults: { subject: 'Incident' } }, service_now: {} } })],
    );
    const teamId = teams[0]!.id;
    const missing = await call(`/api/incidents/${created.id}/responders`, {
      method: 'POST',
      json: { team_id: teamId, properties: { responderType: 'email', to: 'oncall@example.test', body: ' ' } },
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ field: 'body', message: 'Please provide valid value' });
    const notConfigured = await call(`/api/incidents/${created.id}/responders`, {
      method: 'POST',
      json: {
        team_id: teamId,
        properties: {
          responderType: 'jira',
          project: 'a',
          issueType: 'b',
          priority: 'c',
          summary: 'd',
          description: 'e',
        },
      },
    });
    expect(notConfigured.status).toBe(400);
    expect(((await notConfigured.json()) as { message: string }).message).toBe(
      'The team payments has no Jira responder configured',
    );

    const email = await call(`/api/incidents/${created.id}/responders`, {
      method: 'POST',
      json: {
        team_id: teamId,
        properties: { responderType: 'email', to: 'oncall@example.test', body: 'Please join the bridge.' },
      },
    });
    expect(email.status).toBe(201);
    expect(await email.json()).toMatchObject({
      delivery_status: 'sent',
      delivery_error: null,
      properties: { subject: 'Incident' },
    });
    const mail = await smtp.waitFor('oncall@example.test', /^Incident$/);
    expect(mail.raw).toContain('Please join the bridge.');
    expect(mail.raw).toContain(created.incident_id);
    expect(mail.links.some((l) => l.endsWith(`/incidents/${created.id}`))).toBe(true);

    // Without a connection of the type the responder is recorded only; with one it is posted there.
    const ticket = { responderType: 'service_now', category: 'Network', description: 'Payments down', body: 'Call us' };
    const recorded = await call(`/api/incidents/${created.id}/responders`, {
      method: 'POST',
      json: { team_id: teamId, properties: ticket },
    });
    expect(await recorded.json()).toMatchObject({ delivery_status: 'recorded' });
    await test.db.query(
      `INSERT INTO connections (name, type, url, username) VALUES ('snow', 'service_now', $1, 'bot')`,
      [`${target.url}/tickets`],
    );
    const sent = await call(`/api/incidents/${created.id}/responders`, {
      method: 'POST',
      json: { team_id: teamId, properties: ticket },
    });
    expect(await sent.json()).toMatchObject({ delivery_status: 'sent', external_id: 'OPS-1' });
    expect(target.state.tickets[0]).toMatchObject({
      body: {
        responderType: 'service_now',
        fields: { category: 'Network', body: 'Call us' },
        incident: { id: created.id },
      },
      authorization: `Basic ${Buffer.from('bot:').toString('base64')}`,
    });

    // Progress times are the caller's to set; the delivery outcome is the server's.
    const progress = await call(`/api/db/responders?incident_id=eq.${created.id}`, {
      method: 'PATCH',
      json: { acknowledge_time: '2026-01-01T00:00:00Z', delivery_status: 'failed' },
    });
    expect(progress.status).toBe(200);
    const rows = (await progress.json()) as { acknowledge_time: string; delivery_status: string; created_at: string }[];
    expect(
      rows.sort((a, b) => a.created_at.localeCompare(b.created_at)).map((r) => [r.acknowledge_time, r.delivery_status]),
    ).toEqual([
      ['2026-01-01T00:00:00+00:00', 'sent'],
      ['2026-01-01T00:00:00+00:00', 'recorded'],
      ['2026-01-01T00:00:00+00:00', 'sent'],
    ]);
  });

  // -------------------------------------------------------------------------------------------
  // A real check, a real topology, the rule engine and definition-of-done scripts.

  async function runChecks() {
    await test.db.query(`UPDATE canaries SET next_runtime = now() - interval '1 second' WHERE name = 'inc-api'`);
    expect(await app.ctx.health.tick()).toBe(1);
    await app.ctx.health.stop();
    await app.ctx.topology.recompute();
  }

  it('opens an incident from a rule when a component turns unhealthy and resolves it when it recovers', async () => {
    const canary = await call('/api/canary', {
      method: 'POST',
      as: editor,
      headers: { 'content-type': 'application/yaml' },
      body: `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: inc-api, namespace: ops}
spec:
  http:
    - {name: inc-api-health, url: "${target.url}/health"}
`,
    });
    expect(canary.status).toBe(201);
    const topo = await call('/api/topology', {
      method: 'POST',
      as: editor,
      headers: { 'content-type': 'application/yaml' },
      body: `apiVersion: canaries.flanksource.com/v1
kind: Topology
metadata: {name: inc-shop, namespace: ops}
spec:
  components:
    - name: inc-api
      type: API
      labels: {team: payments}
      checks:
        - selector: {name: inc-api-health}
`,
    });
    expect(topo.status).toBe(201);
    const topologyId = ((await topo.json()) as { applied: { id: string }[] }).applied[0]!.id;
    const run = await app.ctx.topology.runNow(topologyId);
    expect(run).toMatchObject({ errors: [] });

    const badRule = await call('/api/incidents/rules', {
      method: 'POST',
      as: editor,
      body: `apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: api-down}
spec:
  template: {severity: enormous}
`,
    });
    expect(badRule.status).toBe(400);
    expect(((await badRule.json()) as { errors: { message: string; line: number }[] }).errors[0]).toMatchObject({
      message: expect.stringContaining('spec.template.severity: Please select incident severity'),
      line: 5,
    });
    const rule = await call('/api/incidents/rules', {
      method: 'POST',
      as: editor,
      body: `apiVersion: mission-control.flanksource.com/v1
kind: IncidentRule
metadata: {name: api-down}
spec:
  priority: 1
  components:
    - {labelSelector: "team=payments", types: [API]}
  filter: {status: [unhealthy]}
  template:
    title: "{{.component.name}} is {{.component.health}}"
    severity: critical
    type: availability
  breakOnMatch: true
  autoResolve: {enabled: true}
`,
    });
    expect(rule.status).toBe(201);
    // A later rule over the same component: breakOnMatch keeps it out.
    expect(
      (
        await call('/api/incidents/rules', {
          method: 'POST',
          as: editor,
          body: `{"apiVersion": "mission-control.flanksource.com/v1", "kind": "IncidentRule", "metadata": {"name": "catch-all"}, "spec": {"priority": 5, "components": [{"types": ["API"]}]}}`,
        })
      ).status,
    ).toBe(201);

    await runChecks();
    expect((await engine.tick()).rules?.created).toEqual([]); // healthy: nothing to open

    target.state.healthStatus = 500;
    await runChecks();
    const { rows: comp } = await test.db.query<{ id: string; health: string }>(
      `SELECT id, health FROM components WHERE name = 'inc-api' AND deleted_at IS NULL`,
    );
    expect(comp[0]!.health).toBe('unhealthy');
    const pass = await engine.tick();
    expect(pass.leased).toBe(true);
    expect(pass.rules!.created).toHaveLength(1);
    const incidentId = pass.rules!.created[0]!;
    const { rows: opened } = await test.db.query<{ title: string; severity: string; status: string; rule: string }>(
      `SELECT i.title, i.severity, i.status, r.name AS rule FROM incidents i JOIN incident_rules r ON r.id = i.incident_rule_id WHERE i.id = $1`,
      [incidentId],
    );
    expect(opened[0]).toEqual({
      title: 'inc-api is unhealthy',
      severity: 'critical',
      status: 'open',
      rule: 'api-down',
    });
    const byComponent = await call(`/api/db/incidents_by_component?component_id=eq.${comp[0]!.id}`, { as: viewer });
    expect(((await byComponent.json()) as { id: string }[]).map((r) => r.id)).toEqual([incidentId]);
    // The list's component filter reads the ids the triggers keep on the incident.
    const listed = await call(`/api/db/incidents?select=id,component_ids&component_ids=cs.{${comp[0]!.id}}`, {
      as: viewer,
    });
    expect(await listed.json()).toEqual([{ id: incidentId, component_ids: [comp[0]!.id] }]);
    const forged = await call(`/api/db/incidents?id=eq.${incidentId}`, {
      method: 'PATCH',
      json: { component_ids: [] },
    });
    expect(((await forged.json()) as { component_ids: string[] }[])[0]!.component_ids).toEqual([comp[0]!.id]);
    // Still failing: no second incident.
    await runChecks();
    expect((await engine.tick()).rules!.created).toEqual([]);

    target.state.healthStatus = 200;
    await runChecks();
    const healed = await engine.tick();
    expect(healed.rules!.resolved).toEqual([incidentId]);
    const { rows: resolved } = await test.db.query<{ status: string; resolved: string | null }>(
      'SELECT status, resolved FROM incidents WHERE id = $1',
      [incidentId],
    );
    expect(resolved[0]!.status).toBe('resolved');
    expect(resolved[0]!.resolved).not.toBeNull();
    // The component evidence of the definition of done was marked done in the same pass.
    const { rows: evidence } = await test.db.query<{ done: boolean; script_result: string }>(
      `SELECT e.done, e.script_result FROM evidences e JOIN hypotheses h ON h.id = e.hypothesis_id WHERE h.incident_id = $1`,
      [incidentId],
    );
    expect(evidence).toEqual([{ done: true, script_result: 'true' }]);
    expect((await history(incidentId)).map((h) => h.type)).toEqual([
      'incident.created',
      'hypothesis.created',
      'evidence.created',
      'evidence.done_definition_added',
      'incident.status_updated',
      'evidence.done',
    ]);
  });

  it('marks check evidence done when its definition-of-done script holds, and records script errors', async () => {
    const { rows: checks } = await test.db.query<{ id: string }>(`SELECT id FROM checks WHERE name = 'inc-api-health'`);
    const checkId = checks[0]!.id;
    target.state.healthStatus = 500;
    await runChecks();
    const created = await createIncident({
      title: 'API errors',
      severity: 'high',
      type: 'availability',
      evidence: {
        type: 'check',
        check_id: checkId,
        description: 'the health check',
        evidence: { check_id: checkId, includeMessages: true, start: 'now-1h' },
        definition_of_done: true,
        script: "check.status == 'healthy' && age(check.last_transition_time) > duration('5m')",
      },
    });
    const broken = await call(`/api/incidents/${created.id}/evidence`, {
      method: 'POST',
      json: { type: 'check', check_id: checkId, definition_of_done: true, script: 'check.nonsense(' },
    });
    expect(broken.status).toBe(201);
    const evidence = async (id: string) =>
      (
        await test.db.query<{ done: boolean | null; script_result: string | null }>(
          'SELECT done, script_result FROM evidences WHERE id = $1',
          [id],
        )
      ).rows[0]!;

    await engine.tick();
    expect(await evidence(created.evidence_id!)).toEqual({ done: null, script_result: 'false' });
    const brokenId = ((await broken.json()) as { evidence_id: string }).evidence_id;
    expect((await evidence(brokenId)).script_result).toMatch(/^error: /);

    target.state.healthStatus = 200;
    await runChecks();
    await engine.tick();
    // Healthy, but not for five minutes yet.
    expect(await evidence(created.evidence_id!)).toEqual({ done: null, script_result: 'false' });
    // Five minutes on (the check's transition moved back instead of waiting).
    await test.db.query(`UPDATE checks SET last_transition_time = now() - interval '6 minutes' WHERE id = $1`, [
      checkId,
    ]);
    const pass = await engine.tick();
    expect(pass.dod!.done).toBe(1);
    expect(await evidence(created.evidence_id!)).toEqual({ done: true, script_result: 'true' });
    expect((await history(created.id)).map((h) => h.type)).toContain('evidence.done');
  });
});
