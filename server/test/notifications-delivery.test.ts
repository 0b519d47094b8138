// Notification delivery against real receivers: pending send-history rows go out to a loopback HTTP
// receiver and an in-process SMTP server; failures are retried and recorded; waitFor, groups,
// fallback, leases and retention behave as the send history says.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { NotificationDelivery, type DeliveryOptions } from '../src/notifications/delivery.js';
import { claimDue } from '../src/notifications/deliveryStore.js';
import { NO_SMTP, serverChannels } from '../src/notifications/deliveryTargets.js';
import { runRetention } from '../src/retention/run.js';
import { retentionTable } from '../src/retention/tables.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp.js';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The generic webhook's JSON: {title, message} unless a body template says otherwise. */
  body: Record<string, string>;
}

/** A loopback HTTP receiver: answers `status(path)` and keeps every request. */
async function startReceiver(status: (path: string) => number = () => 200) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw) as Record<string, string> });
      res.writeHead(status(req.url ?? '')).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `generic+http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A generic webhook body template carrying the message's state, dedup key and resource. */
const DETAIL_TEMPLATE = encodeURIComponent(
  '{"title":"{{.title}}","state":"{{.state}}","dedupKey":"{{.dedupKey}}","severity":"{{.severity}}","resource":"{{.resource.id}}","permalink":"{{.permalink}}"}',
);

const WAIT_5M = 300e9;

describe.each(databaseKinds())('notification delivery (%s)', (kind) => {
  let t: TestDatabase;
  let db: Database;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let smtp: SmtpSink;
  let canaryId: string;
  const workers: NotificationDelivery[] = [];

  const worker = (options: Partial<DeliveryOptions> = {}) => {
    const w = new NotificationDelivery(db, {
      channels: serverChannels,
      smtp: { url: smtp.url, from: 'Opsdeck <opsdeck@test>' },
      retryBaseMs: 20,
      ...options,
    });
    workers.push(w);
    return w;
  };

  async function check(name: string, status: 'healthy' | 'unhealthy' = 'unhealthy'): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name, status) VALUES ($1, 'http', $2, $3) RETURNING id`,
      [canaryId, name, status],
    );
    return rows[0]!.id;
  }

  async function rule(over: Record<string, unknown> = {}): Promise<string> {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO notifications (name, events, wait_for, fallback, title, template)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [
        `rule-${Math.random().toString(36).slice(2)}`,
        over.events ?? ['check.failed'],
        over.wait_for ?? null,
        over.fallback ? JSON.stringify(over.fallback) : null,
        over.title ?? null,
        over.template ?? null,
      ],
    );
    return rows[0]!.id;
  }

  /** A pending row as the consumer writes it (README.md) for a check event. */
  async function pending(
    ruleId: string,
    checkId: string,
    recipient: { kind: string; value: string },
    over: { event?: string; status?: string; group_id?: string; person_id?: string } = {},
  ): Promise<string> {
    const event = over.event ?? 'check.failed';
    const { rows: c } = await db.query<{ name: string }>('SELECT name FROM checks WHERE id = $1', [checkId]);
    const name = c[0]!.name;
    const state = event === 'check.failed' ? 'unhealthy' : 'healthy';
    const payload = {
      check: { id: checkId, name, type: 'http', labels: { team: 'payments' } },
      canary: { name: 'prod', namespace: 'default' },
      event: { name: event, properties: { error: 'connection refused' } },
      permalink: `https://opsdeck.test/health?checkId=${checkId}`,
      recipient,
    };
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO notification_send_history (notification_id, status, source_event, resource_id, resource_type,
         resource, resource_health, resource_status, body_payload, recipient, dedup_key, person_id, group_id, not_before)
       VALUES ($1, $2, $3, $4, 'check', $5, $6, $6, $7, $8, $9, $10, $11, now()) RETURNING id`,
      [
        ruleId,
        over.status ?? 'pending',
        event,
        checkId,
        JSON.stringify({ id: checkId, name, status: state }),
        state,
        JSON.stringify(payload),
        recipient.value,
        `${ruleId}:${checkId}`,
        over.person_id ?? null,
        over.group_id ?? null,
      ],
    );
    return rows[0]!.id;
  }

  const historyRow = async (id: string) =>
    (
      await db.query<Record<string, unknown>>(
        `SELECT status, attempts, error, title, body, duration_millis, reason, lease_owner, not_before > now() AS later
         FROM notification_send_history WHERE id = $1`,
        [id],
      )
    ).rows[0]!;

  beforeAll(async () => {
    t = await openTestDatabase(kind);
    db = t.db;
    receiver = await startReceiver((path) =>
      path.startsWith('/fail500') ? 500 : path.startsWith('/fail400') ? 400 : 200,
    );
    smtp = await startSmtpSink();
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO canaries (name, spec) VALUES ('prod', '{}') RETURNING id`,
    );
    canaryId = rows[0]!.id;
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
    // Each test sees only its own rows: whatever one left due is put aside.
    await db.query(`UPDATE notification_send_history SET status = 'cancelled' WHERE status = 'pending'`);
    receiver.received.length = 0;
    smtp.messages.length = 0;
  });
  afterAll(async () => {
    await receiver?.close();
    await smtp?.close();
    await t?.close();
  });

  it('delivers a pending row to a webhook and records it as sent', async () => {
    const r = await rule();
    const c = await check('api-health');
    const id = await pending(r, c, { kind: 'url', value: receiver.url('/hook?@X-Token=abc') });
    expect(await worker().drain()).toBe(1);
    expect(receiver.received).toHaveLength(1);
    const got = receiver.received[0]!;
    expect(got.path).toBe('/hook');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-token']).toBe('abc');
    expect(got.body.title).toBe('Check api-health has failed');
    expect(got.body.message).toContain('**Error:** connection refused');
    expect(got.body.message).toContain(`[View check in Opsdeck](https://opsdeck.test/health?checkId=${c})`);
    expect(await historyRow(id)).toMatchObject({
      status: 'sent',
      error: null,
      title: 'Check api-health has failed',
      attempts: 1,
      lease_owner: null,
    });
    expect((await historyRow(id)).duration_millis).toEqual(expect.any(Number));
  });

  it('retries a receiver answering 500, keeping the error, then records error', async () => {
    const r = await rule();
    const id = await pending(r, await check('flaky-500'), { kind: 'url', value: receiver.url('/fail500') });
    // A second's backoff: long enough that `later` still holds when the row is read on a loaded machine.
    const w = worker({ maxAttempts: 3, retryBaseMs: 1_000 });
    await w.drain();
    expect(await historyRow(id)).toMatchObject({
      status: 'pending',
      attempts: 1,
      error: 'generic: HTTP 500',
      later: true,
    });
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && (await historyRow(id)).status === 'pending') {
      await new Promise((res) => setTimeout(res, 100));
      await w.drain();
    }
    expect(await historyRow(id)).toMatchObject({ status: 'error', attempts: 3, error: 'generic: HTTP 500' });
    expect(receiver.received).toHaveLength(3);
  });

  it('records a non-retryable 400 as error at once and queues the fallback recipient', async () => {
    const r = await rule({ fallback: { to: { email: 'oncall@example.test' }, delay: 60e9 } });
    const id = await pending(r, await check('bad-400'), { kind: 'url', value: receiver.url('/fail400') });
    await worker().drain();
    expect(await historyRow(id)).toMatchObject({ status: 'error', attempts: 1, error: 'generic: HTTP 400' });
    expect(receiver.received).toHaveLength(1);
    const { rows } = await db.query<Record<string, unknown>>(
      `SELECT status, recipient, body_payload->'recipient' AS to, not_before > now() + interval '50 seconds' AS delayed
       FROM notification_send_history WHERE parent_id = $1`,
      [id],
    );
    expect(rows).toEqual([
      {
        status: 'pending',
        recipient: 'oncall@example.test',
        to: { kind: 'email', value: 'oncall@example.test' },
        delayed: true,
      },
    ]);
  });

  it('with waitForEvalPeriod asks for a fresh result, then decides after the eval period', async () => {
    const r = await rule({ wait_for: WAIT_5M });
    const c = await check('re-evaluated', 'unhealthy');
    const id = await pending(r, c, { kind: 'url', value: receiver.url('/hook') });
    await db.query(
      `UPDATE notification_send_history SET body_payload = body_payload || '{"wait_for": {"state": "unhealthy", "eval_period_ms": 300}}'::jsonb WHERE id = $1`,
      [id],
    );
    await db.query(`UPDATE canaries SET next_runtime = now() + interval '1 hour' WHERE id = $1`, [canaryId]);
    await worker().drain();
    // Not decided yet: the canary is due now (whichever replica runs it next) and the row waits.
    const deferred = await db.query<{ status: string; due: boolean; evaluated: boolean }>(
      `SELECT status, not_before > now() AS due, (body_payload #>> '{wait_for,evaluated}')::boolean AS evaluated
       FROM notification_send_history WHERE id = $1`,
      [id],
    );
    expect(deferred.rows[0]).toEqual({ status: 'pending', due: true, evaluated: true });
    const canary = await db.query<{ now: boolean }>('SELECT next_runtime <= now() AS now FROM canaries WHERE id = $1', [
      canaryId,
    ]);
    expect(canary.rows[0]!.now).toBe(true);
    expect(receiver.received).toHaveLength(0);
    // The fresh result says it recovered: cancelled after the eval period.
    await db.query(`UPDATE checks SET status = 'healthy' WHERE id = $1`, [c]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    await worker().drain();
    expect((await historyRow(id)).status).toBe('cancelled');
    expect(receiver.received).toHaveLength(0);
  });

  it('cancels a waitFor send when the check recovered first', async () => {
    const r = await rule({ wait_for: WAIT_5M });
    const c = await check('recovers', 'unhealthy');
    const id = await pending(r, c, { kind: 'url', value: receiver.url('/hook') });
    await db.query(`UPDATE checks SET status = 'healthy' WHERE id = $1`, [c]);
    await worker().drain();
    expect(await historyRow(id)).toMatchObject({
      status: 'cancelled',
      reason: 'recovered before waitFor (5m) elapsed',
    });
    expect(receiver.received).toHaveLength(0);
    // Still failing: sent.
    const c2 = await check('stays-down', 'unhealthy');
    const id2 = await pending(r, c2, { kind: 'url', value: receiver.url('/hook') });
    await worker().drain();
    expect((await historyRow(id2)).status).toBe('sent');
  });

  it('sends a group leader as one message naming every member', async () => {
    const r = await rule();
    const leaderCheck = await check('group-0');
    const to = { kind: 'url', value: receiver.url('/group') };
    const leader = await pending(r, leaderCheck, to);
    await db.query('UPDATE notification_send_history SET group_id = id WHERE id = $1', [leader]);
    const members: string[] = [];
    for (let i = 1; i < 10; i++)
      members.push(await pending(r, await check(`group-${i}`), to, { status: 'grouped', group_id: leader }));
    await worker().drain();
    expect(receiver.received).toHaveLength(1);
    const { title, message: body } = receiver.received[0]!.body;
    expect(title).toMatch(/^10 checks failed: group-0, group-1/);
    for (let i = 0; i < 10; i++) expect(body).toContain(`- group-${i}`);
    expect((await historyRow(leader)).status).toBe('sent');
    for (const m of members) expect(await historyRow(m)).toMatchObject({ status: 'grouped', title });
  });

  it('emails a person through the server SMTP exactly once', async () => {
    const r = await rule();
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO people (name, email) VALUES ('On Call', 'oncall-${kind}@example.test') RETURNING id`,
    );
    const address = `oncall-${kind}@example.test`;
    const id = await pending(
      r,
      await check('mail-check'),
      { kind: 'email', value: address },
      { person_id: rows[0]!.id },
    );
    await worker().drain();
    const mail = await smtp.waitFor(address, /Check mail-check has failed/);
    expect(mail.raw).toContain('connection refused');
    expect(mail.raw).toContain('<strong>Error:</strong>');
    await new Promise((res) => setTimeout(res, 200));
    expect(smtp.messages.filter((m) => m.to.includes(address))).toHaveLength(1);
    expect((await historyRow(id)).status).toBe('sent');
  });

  it('says so when no SMTP server is configured', async () => {
    const r = await rule();
    const id = await pending(r, await check('no-smtp'), { kind: 'email', value: 'x@example.test' });
    await worker({ smtp: { url: undefined, from: 'x' } }).drain();
    expect(await historyRow(id)).toMatchObject({ status: 'error', error: NO_SMTP, attempts: 1 });
  });

  it('resolves with the same dedup key when the rule also sends the failure', async () => {
    const r = await rule({ events: ['check.failed', 'check.passed'] });
    const c = await check('pd-check', 'healthy');
    const url = receiver.url(`/pd?bodytemplate=${DETAIL_TEMPLATE}`);
    await pending(r, c, { kind: 'url', value: url }, { event: 'check.failed' });
    await db.query(`UPDATE checks SET status = 'healthy' WHERE id = $1`, [c]);
    await pending(r, c, { kind: 'url', value: url }, { event: 'check.passed' });
    await worker({ concurrency: 1 }).drain();
    expect(receiver.received.map((x) => x.body)).toEqual([
      expect.objectContaining({ state: 'firing', dedupKey: `${r}:${c}`, severity: 'error', resource: c }),
      expect.objectContaining({ state: 'resolved', dedupKey: `${r}:${c}`, severity: 'info', resource: c }),
    ]);
  });

  it('never sends a row twice from two workers, and takes over an expired lease', async () => {
    const r = await rule();
    const to = { kind: 'url', value: receiver.url(`/many?bodytemplate=${DETAIL_TEMPLATE}`) };
    const ids: string[] = [];
    for (let i = 0; i < 40; i++) ids.push(await pending(r, await check(`many-${i}`), to));
    // A replica that claimed one row and died: its lease runs out.
    const dead = await claimDue(db, 'dead-replica', 1, 100);
    expect(dead).toHaveLength(1);
    await new Promise((res) => setTimeout(res, 150));
    const a = worker({ concurrency: 4 });
    const b = worker({ concurrency: 4 });
    await Promise.all([a.drain(), b.drain()]);
    const paths = receiver.received.map((x) => x.body.resource);
    expect(new Set(paths).size).toBe(40);
    expect(paths).toHaveLength(40);
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM notification_send_history WHERE id = ANY($1::uuid[]) AND status = 'sent'`,
      [ids],
    );
    expect(rows[0]!.n).toBe(40);
  });

  it('prunes send history older than the retention, keeping pending rows', async () => {
    const r = await rule();
    const c = await check('old');
    const old = await pending(r, c, { kind: 'url', value: receiver.url('/x') }, { status: 'sent' });
    const oldPending = await pending(r, c, { kind: 'url', value: receiver.url('/x') });
    const child = await pending(r, c, { kind: 'url', value: receiver.url('/x') }, { status: 'repeated' });
    await db.query(`UPDATE notification_send_history SET parent_id = $1 WHERE id = $2`, [old, child]);
    await db.query(
      `UPDATE notification_send_history SET created_at = now() - interval '40 days', not_before = now() + interval '1 day'
       WHERE id = ANY($1::uuid[])`,
      [[old, oldPending]],
    );
    const pruned = await runRetention(db, retentionTable('notification_send_history'), { owner: 'test', days: 30 });
    expect(pruned.deleted).toBe(1);
    const { rows } = await db.query<{ id: string; parent_id: string | null }>(
      'SELECT id, parent_id FROM notification_send_history WHERE id = ANY($1::uuid[]) ORDER BY id',
      [[old, oldPending, child]],
    );
    expect(rows.map((x) => x.id).sort()).toEqual([oldPending, child].sort());
    expect(rows.find((x) => x.id === child)!.parent_id).toBeNull();
  });
});
