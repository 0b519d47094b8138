// Two real server processes on one PostgreSQL handle 1,000 check.failed events end to end (event
// queue → consumer → send history → delivery → a loopback webhook): every message is sent exactly
// once. PostgreSQL only (TEST_DATABASE_URL): the embedded database belongs to one process.
import http from 'node:http';
import type net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { root, startServerProcess, stopProcess, type RunningServer } from './helpers/processes.js';

const EVENTS = 1000;

/** The server from its TypeScript sources (tsx), engines on, on the given database. */
const startServer = (databaseUrl: string): Promise<RunningServer> =>
  startServerProcess(
    ['--import', 'tsx', path.join(root, 'server/src/main.ts')],
    {
      DATABASE_URL: databaseUrl,
      OPSDECK_DEMO: 'false',
      HOST: '127.0.0.1',
      ADMIN_EMAIL: 'admin@example.test',
      ADMIN_PASSWORD: 'replica test password',
    },
    { cwd: root, timeoutMs: 90_000, pollMs: 200 },
  );

describe.skipIf(!process.env.TEST_DATABASE_URL)('two replicas on one PostgreSQL', () => {
  let t: TestDatabase;
  let receiver: http.Server;
  let port = 0;
  const received = new Map<string, number>();
  const servers: RunningServer[] = [];

  beforeAll(async () => {
    t = await openTestDatabase('postgres');
    receiver = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        const { resource } = JSON.parse(raw) as { resource: string };
        received.set(resource, (received.get(resource) ?? 0) + 1);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    port = (receiver.address() as net.AddressInfo).port;
    servers.push(...(await Promise.all([startServer(t.url!), startServer(t.url!)])));
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => stopProcess(s.child)));
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await t?.close();
  });

  it('sends every one of 1,000 messages exactly once', { timeout: 180_000 }, async () => {
    const db = t.db;
    const body = encodeURIComponent('{"resource":"{{.resource.id}}","title":"{{.title}}"}');
    await db.query(`INSERT INTO notifications (name, events, custom_services) VALUES ('replicas', $1, $2)`, [
      ['check.failed'],
      JSON.stringify([{ url: `generic+http://127.0.0.1:${port}/hook?bodytemplate=${body}` }]),
    ]);
    const { rows: canary } = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('replicas', 'prod', '{}') RETURNING id`,
    );
    await db.query(
      `INSERT INTO checks (canary_id, type, name, namespace, status)
       SELECT $1, 'http', 'check-' || i, 'prod', 'unhealthy' FROM generate_series(1, $2) i`,
      [canary[0]!.id, EVENTS],
    );
    // The events the health engine writes when a check fails.
    await db.query(
      `INSERT INTO event_queue (name, properties)
       SELECT 'check.failed', jsonb_build_object('id', id, 'canary_id', canary_id, 'name', name, 'type', type,
         'status', 'unhealthy', 'previous', 'healthy', 'message', '', 'error', 'connection refused')
       FROM checks WHERE canary_id = $1`,
      [canary[0]!.id],
    );
    const deadline = Date.now() + 150_000;
    let sent = 0;
    while (Date.now() < deadline) {
      const { rows } = await db.query<{ sent: number; open: number }>(
        `SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent,
                (SELECT count(*)::int FROM event_queue) + count(*) FILTER (WHERE status = 'pending')::int AS open
         FROM notification_send_history`,
      );
      sent = rows[0]!.sent;
      if (sent >= EVENTS && rows[0]!.open === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    // A moment for any duplicate still on its way.
    await new Promise((r) => setTimeout(r, 1000));
    const { rows: history } = await db.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM notification_send_history GROUP BY status',
    );
    expect(history, servers.map((s) => s.output()).join('\n')).toEqual([{ status: 'sent', n: EVENTS }]);
    expect(received.size).toBe(EVENTS);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
    const { rows: checks } = await db.query<{ id: string }>('SELECT id FROM checks WHERE canary_id = $1', [
      canary[0]!.id,
    ]);
    expect(checks.every((c) => received.get(c.id) === 1)).toBe(true);
  });
});
