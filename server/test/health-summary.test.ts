// GET /api/canary/api/summary over long ranges, on a real database. Known histories are written
// straight into check_statuses (built into the hourly running tallies before the answer, see
// health/sketches.ts), rolled up by the engine's own rollupCheckStatuses, and the summary of 1h, 2d
// and 7d ranges is compared with what the history says: counts and last pass/fail exact, no run
// counted twice, runs after the roll-up included, percentiles within the sketch's 1 %. Then the
// answers kept per replica: reuse, single flight, gzip. (Brute-force comparisons: health-sketches.test.ts.)
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { rollupCheckStatuses } from '../src/health/rollup.js';
import { recordResult } from '../src/health/store.js';
import { buildDirty } from '../src/health/sketches.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const CANARY = `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: rollup-summary
  namespace: team-r
spec:
  schedule: "@every 1h"
  http:
    - name: steady
      url: http://127.0.0.1:9/steady
    - name: flaky
      url: http://127.0.0.1:9/flaky
`;

interface Item {
  id: string;
  name: string;
  canary_name?: string;
  uptime: { passed: number; failed: number; last_pass: string | null; last_fail: string | null };
  latency: { p95: number | null; p97: number | null; p99: number | null; rolling1h: number | null };
}

const HOUR = 3_600_000;

describe.each(databaseKinds())('health summary from roll-ups on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let viewer: TestUser;
  let editor: TestUser;
  const ids: Record<string, string> = {};
  // Runs written so far, per check: [time ms, status, duration].
  const runs: Record<string, Array<[number, boolean, number]>> = { steady: [], flaky: [] };
  const now = Date.now();

  async function write(name: string, items: Array<[number, boolean, number]>) {
    for (const [t, status, duration] of items) {
      await test.db.query(`INSERT INTO check_statuses (check_id, time, status, duration) VALUES ($1, $2, $3, $4)`, [
        ids[name],
        new Date(t),
        status,
        duration,
      ]);
      runs[name]!.push([t, status, duration]);
    }
  }

  // The history is written straight into the database, behind the server's back: ask for a fresh
  // answer (the server reuses one for a few seconds otherwise; see the last tests).
  async function summary(start: string): Promise<Record<string, Item>> {
    const res = await fetch(`${app.url}/api/canary/api/summary?start=${start}`, {
      headers: { ...viewer.headers, 'cache-control': 'no-cache' },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { checks_summary: Item[] };
    return Object.fromEntries(body.checks_summary.map((c) => [c.name, c]));
  }

  /** What the summary must say from the raw history for runs at or after `from`. */
  function expected(name: string, from: number) {
    const rs = runs[name]!.filter(([t]) => t >= from);
    const last = (ok: boolean) => {
      const ts = rs.filter(([, s]) => s === ok).map(([t]) => t);
      return ts.length ? new Date(Math.max(...ts)).toISOString() : null;
    };
    return {
      passed: rs.filter(([, s]) => s).length,
      failed: rs.filter(([, s]) => !s).length,
      last_pass: last(true),
      last_fail: last(false),
    };
  }

  const iso = (v: string | null) => (v ? new Date(v).toISOString() : null);

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    viewer = await createTestUser(test.db, 'viewer');
    editor = await createTestUser(test.db, 'editor');
    const res = await fetch(`${app.url}/api/canary`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: CANARY,
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { applied: Array<{ checks: Array<{ id: string; name: string }> }> };
    for (const c of body.applied[0]!.checks) ids[c.name] = c.id;
    // Five days of history, one run every 20 minutes: steady always passes in 100–190 ms; flaky
    // fails every third run and is slow (1000 ms) when it fails.
    const steady: Array<[number, boolean, number]> = [];
    const flaky: Array<[number, boolean, number]> = [];
    for (let i = 0; i < 5 * 72; i++) {
      // Five minutes past the 20-minute marks: no run sits on the edge of a range (now - 1h, now - 1d)
      // while the tests run, so answers computed a few seconds apart agree.
      const t = now - 5 * 86_400_000 + i * 20 * 60_000 + 5 * 60_000;
      if (t > now - 2 * 60_000) break;
      steady.push([t, true, 100 + (i % 10) * 10]);
      flaky.push([t + 1_000, i % 3 !== 0, i % 3 === 0 ? 1000 : 200]);
    }
    await write('steady', steady);
    await write('flaky', flaky);
    // Imported history is built by the engines in the background (and for a moment before an answer):
    // here, all of it now.
    expect((await buildDirty(test.db, Infinity)).pending).toBe(false);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('counts every run of a long range from raw statuses before the first roll-up', async () => {
    const s = await summary('7d');
    for (const name of ['steady', 'flaky']) {
      const e = expected(name, 0);
      expect(s[name]!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
      expect(iso(s[name]!.uptime.last_pass)).toBe(e.last_pass);
      expect(iso(s[name]!.uptime.last_fail)).toBe(e.last_fail);
    }
  });

  it('reads roll-ups before the last roll-up and raw statuses after it, without counting a run twice', async () => {
    const r = await rollupCheckStatuses(test.db, new Date(now - 6 * 86_400_000));
    expect(r.ran).toBe(true);
    const { rows: mark } = await test.db.query<{ rolled_at: Date }>('SELECT rolled_at FROM check_statuses_rollup_mark');
    expect(mark).toHaveLength(1);
    const { rows: hourly } = await test.db.query<{ n: number; p95: number | null; last_fail: Date | null }>(
      `SELECT count(*)::int AS n, max(duration_p95) AS p95, max(last_fail) AS last_fail FROM check_statuses_1h WHERE check_id = $1`,
      [ids.flaky],
    );
    expect(hourly[0]!.n).toBeGreaterThan(100);
    expect(hourly[0]!.p95).toBe(1000);
    expect(hourly[0]!.last_fail && new Date(hourly[0]!.last_fail).toISOString()).toBe(expected('flaky', 0).last_fail);

    // Runs after the roll-up: a failure of steady and a pass of flaky.
    const after = new Date(mark[0]!.rolled_at).getTime();
    await write('steady', [[after + 200, false, 5000]]);
    await write('flaky', [[after + 300, true, 150]]);
    while (Date.now() < after + 1_000) await new Promise((r) => setTimeout(r, 100));

    // 7d: daily roll-ups (the whole first day) + the new raw runs: everything, once.
    const week = await summary('7d');
    for (const name of ['steady', 'flaky']) {
      const e = expected(name, 0);
      expect(week[name]!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
      expect(iso(week[name]!.uptime.last_pass)).toBe(e.last_pass);
      expect(iso(week[name]!.uptime.last_fail)).toBe(e.last_fail);
    }
    // 2d: exactly the runs of the last two days.
    const twoDays = await summary('2d');
    for (const name of ['steady', 'flaky']) {
      const e = expected(name, Date.now() - 2 * 86_400_000);
      expect(twoDays[name]!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
      expect(iso(twoDays[name]!.uptime.last_fail)).toBe(e.last_fail);
    }
    // 1h: percentiles within the sketch's 1 %.
    const hour = await summary('1h');
    const e = expected('steady', Date.now() - HOUR);
    expect(hour.steady!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
    expect(Math.abs(hour.steady!.latency.p99! - 5000)).toBeLessThanOrEqual(50);

    // Percentiles of long ranges: from the merged sketches — steady between its fastest and
    // slowest run, flaky pulled up by its slow failures.
    expect(week.steady!.latency.p95).toBeGreaterThanOrEqual(100);
    expect(week.steady!.latency.p95).toBeLessThanOrEqual(300);
    expect(week.flaky!.latency.p95).toBeGreaterThanOrEqual(900);
    expect(week.flaky!.latency.rolling1h).not.toBeNull();
  });

  it('writes the FORMATS.md keys of every item, in order', async () => {
    const res = await fetch(`${app.url}/api/canary/api/summary?start=7d`, { headers: viewer.headers });
    const body = (await res.json()) as { runnerName: string; duration: number; checks_summary: object[] };
    expect(Object.keys(body)).toEqual(['runnerName', 'checks_summary', 'duration']);
    for (const item of body.checks_summary) {
      expect(Object.keys(item)).toEqual([
        'id',
        'canary_id',
        'canary_name',
        'canary_namespace',
        'agent_id',
        'agent_name',
        'labels',
        'status',
        'type',
        'name',
        'namespace',
        'owner',
        'severity',
        'icon',
        'description',
        'endpoint',
        'uptime',
        'latency',
        'last_runtime',
        'last_transition_time',
        'next_runtime',
        'created_at',
        'updated_at',
        'deleted_at',
      ]);
      expect(Object.keys((item as Item).uptime)).toEqual(['passed', 'failed', 'last_pass', 'last_fail']);
      expect(Object.keys((item as Item).latency)).toEqual(['p95', 'p97', 'p99', 'rolling1h']);
    }
  });

  it('reuses an answer for the same query for a moment, until someone edits health data here', async () => {
    const get = (query: string, headers: Record<string, string> = {}) =>
      fetch(`${app.url}/api/canary/api/summary?${query}`, { headers: { ...viewer.headers, ...headers } });
    const first = await get('start=3h');
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { checks_summary: Item[] };
    const again = await get('start=3h');
    expect(again.headers.get('x-summary-cache')).toBe('hit');
    expect(((await again.json()) as { checks_summary: Item[] }).checks_summary).toEqual(firstBody.checks_summary);
    // Another query, or a request that asks for a fresh answer, is computed.
    expect((await get('start=4h')).headers.get('x-summary-cache')).toBe('miss');
    expect((await get('start=3h', { 'cache-control': 'no-cache' })).headers.get('x-summary-cache')).toBe('miss');
    // A result recorded now shows on a fresh answer, exactly.
    const t = Date.now();
    await recordResult(
      test.db,
      ids.steady!,
      { pass: false, invalid: false, durationMs: 42, message: null, error: 'down', details: undefined },
      new Date(t),
    );
    runs.steady!.push([t, false, 42]);
    const after = await get('start=3h', { 'cache-control': 'no-cache' });
    const steady = ((await after.json()) as { checks_summary: Item[] }).checks_summary.find(
      (c) => c.name === 'steady',
    )!;
    const e = expected('steady', t - 3 * HOUR);
    expect(steady.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
    expect(iso(steady.uptime.last_fail)).toBe(new Date(t).toISOString());
    // An edit through this process (an apply) drops the kept answers.
    expect((await get('start=3h')).headers.get('x-summary-cache')).toBe('hit');
    const applied = await fetch(`${app.url}/api/canary`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: CANARY,
    });
    expect(applied.status).toBe(201);
    expect((await get('start=3h')).headers.get('x-summary-cache')).toBe('miss');
    // Concurrent identical requests share one computation (a single flight).
    const both = await Promise.all([
      get('start=5h', { 'cache-control': 'max-age=0' }),
      get('start=5h', { 'cache-control': 'max-age=0' }),
    ]);
    expect(both.map((r) => r.headers.get('etag'))).toEqual([
      both[0]!.headers.get('etag'),
      both[0]!.headers.get('etag'),
    ]);
  });

  it('sends answers gzipped to clients that accept it, compressed once per answer', async () => {
    const raw = (encoding: string) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        const req = http.get(
          `${app.url}/api/canary/api/summary?start=1h`,
          { headers: { ...viewer.headers, 'accept-encoding': encoding } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
      });
    const plain = await raw('identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    const zipped = await raw('gzip, deflate');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    expect(zipped.headers.etag).toBe(plain.headers.etag);
    const unzipped = JSON.parse(zlib.gunzipSync(zipped.body).toString()) as { checks_summary: Item[] };
    expect(unzipped).toEqual(JSON.parse(plain.body.toString()));
    expect(unzipped.checks_summary).toHaveLength(2);
  });
});
