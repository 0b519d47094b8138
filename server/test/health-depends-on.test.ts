// dependsOn across replicas and metrics[] on /metrics, on each database: a canary whose dependent
// check sorts before its dependency runs in dependency order when a scheduler claims it; another
// replica (a second engine, nothing in memory) running the dependent alone sees the dependency's
// latest outputs from the database; the values of metrics[] appear on /metrics under their names.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { checkers } from '../src/health/checkers/index.js';
import { HealthEngine } from '../src/health/engine.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { samples, scrape, value } from './helpers/prometheus.js';

/** Answers {"token": "t<n>", "n": <n>} with n counting up, so a dependent can tell which run it saw. */
async function startTokenServer() {
  const state = { n: 0 };
  const server = http.createServer((_req, res) => {
    state.n++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ token: `t${state.n}`, n: state.n }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// exec sorts before http, and "a-uses" before "z-gets": without dependsOn it would run first.
const yaml = (url: string) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata: {name: deps, namespace: team-d}
spec:
  schedule: "@every 1h"
  exec:
    - name: a-uses
      script: echo used
      dependsOn: [z-gets]
      test:
        expr: "outputs['z-gets'].pass && outputs['z-gets'].code == 200 && outputs['z-gets'].json.token != ''"
      display:
        expr: "outputs['z-gets'].json.token"
      metrics:
        - name: deps_token_number
          type: gauge
          value: "outputs['z-gets'].json.n"
          labels:
            - name: check
              valueExpr: check.name
        - name: deps_runs
          type: counter
          value: "1"
  http:
    - name: z-gets
      url: ${url}/token
`;

describe.each(databaseKinds())('dependsOn and metrics[] on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let editor: TestUser;
  let target: Awaited<ReturnType<typeof startTokenServer>>;
  let canaryId: string;

  beforeAll(async () => {
    target = await startTokenServer();
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    editor = await createTestUser(test.db, 'editor');
    const res = await fetch(`${app.url}/api/canary`, {
      method: 'POST',
      body: yaml(target.url),
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    canaryId = ((await res.json()) as { applied: { id: string }[] }).applied[0]!.id;
  });

  afterAll(async () => {
    await app?.close();
    await test?.close();
    await target?.close();
  });

  const latest = async (name: string) => {
    const { rows } = await test.db.query<{ status: boolean; message: string | null; error: string | null }>(
      `SELECT s.status, s.message, s.error FROM check_statuses s JOIN checks c ON c.id = s.check_id
        WHERE c.canary_id = $1 AND c.name = $2 ORDER BY s.time DESC LIMIT 1`,
      [canaryId, name],
    );
    return rows[0];
  };

  it('a claimed run runs the dependency first and the dependent sees its outputs', async () => {
    await test.db.query(`UPDATE canaries SET next_runtime = now() - interval '1 second' WHERE id = $1`, [canaryId]);
    const engine = new HealthEngine(test.db, checkers);
    expect(await engine.tick()).toBe(1);
    await engine.stop();
    expect(await latest('z-gets')).toMatchObject({ status: true });
    expect(await latest('a-uses')).toMatchObject({ status: true, message: 't1' });
  });

  it("another replica running the dependent alone sees the dependency's latest run from the database", async () => {
    const other = new HealthEngine(test.db, checkers);
    const { rows } = await test.db.query<{ id: string }>(
      `SELECT id FROM checks WHERE canary_id = $1 AND name = 'a-uses'`,
      [canaryId],
    );
    const r = await other.runCheckNow(rows[0]!.id);
    expect(r).toMatchObject({ pass: true, message: 't1' });
    expect(target.state.n).toBe(1); // the dependency was not run again
    // Its dependency's next run (t2) is what the dependent sees after it.
    await other.runNow(canaryId);
    expect(await latest('a-uses')).toMatchObject({ status: true, message: 't2' });
    await other.stop();
  });

  it("exports metrics[] on /metrics under the spec's names", async () => {
    await app.ctx.health.runNow(canaryId);
    const s = await scrape(app.url);
    expect(s.status).toBe(200);
    expect(s.families.get('deps_token_number')?.type).toBe('GAUGE');
    expect(value(s, 'deps_token_number', { check: 'a-uses' })).toBe(target.state.n);
    expect(samples(s, 'deps_runs').length).toBe(1);
    expect(Number(samples(s, 'deps_runs')[0]!.value)).toBeGreaterThanOrEqual(1);
    // What the http check reports itself, as canary-checker exports it.
    expect(value(s, 'response_code', { code: '200', url: `${target.url}/token` })).toBeGreaterThanOrEqual(1);
  });

  it('a failed dependency leaves outputs without it: the dependent fails naming the key', async () => {
    await test.db.query(
      `INSERT INTO check_statuses (check_id, time, status, duration, error)
       SELECT id, now() + interval '1 minute', false, 1, 'down' FROM checks WHERE canary_id = $1 AND name = 'z-gets'`,
      [canaryId],
    );
    const { rows } = await test.db.query<{ id: string }>(
      `SELECT id FROM checks WHERE canary_id = $1 AND name = 'a-uses'`,
      [canaryId],
    );
    const r = await app.ctx.health.runCheckNow(rows[0]!.id);
    expect(r).toMatchObject({ pass: false });
    expect((r as { error: string }).error).toMatch(/z-gets/);
  });
});
