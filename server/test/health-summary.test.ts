// GET /api/canary/api/summary over long ranges: roll-ups before the last roll-up, raw statuses after
// it, on a real database. Known histories are written straight into check_statuses, rolled up by
// the engine's own rollupCheckStatuses, and the summary of 1h (raw), 2d (hourly) and 7d (daily) ranges
// is compared with what the history says: counts and last pass/fail exact, no run counted twice,
// runs newer than the last roll-up included, percentiles within the roll-ups' approximation.
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { PRECOMPUTED_RANGES, PRECOMPUTED_SUMMARY_SQL, refreshSummary, summarySqlFor } from '../src/health/summary.js';
import { SummaryViews, summaryTail } from '../src/health/summaryViews.js';
import { rollupCheckStatuses } from '../src/health/rollup.js';
import { recordResult } from '../src/health/store.js';
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

  /** A failed run of flaky recorded as the engine records it (not an edit), and remembered. */
  const flakyFails = async (t: number, durationMs: number) => {
    await recordResult(
      test.db,
      ids.flaky!,
      { pass: false, invalid: false, durationMs, message: null, error: 'down', details: undefined },
      new Date(t),
    );
    runs.flaky!.push([t, false, durationMs]);
  };

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
  const floorTo = (t: number, unit: number) => Math.floor(t / unit) * unit;

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
    // 2d: hourly roll-ups from the start of the hour two days ago.
    const twoDays = await summary('2d');
    for (const name of ['steady', 'flaky']) {
      const e = expected(name, floorTo(Date.now() - 2 * 86_400_000, HOUR));
      expect(twoDays[name]!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
      expect(iso(twoDays[name]!.uptime.last_fail)).toBe(e.last_fail);
    }
    // 1h: raw statuses, exact percentiles.
    const hour = await summary('1h');
    const e = expected('steady', Date.now() - HOUR);
    expect(hour.steady!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
    expect(hour.steady!.latency.p99).toBe(5000);

    // Percentiles of long ranges: the run-weighted mean of the hourly ones — steady between its
    // fastest and slowest run, flaky pulled up by its slow failures.
    expect(week.steady!.latency.p95).toBeGreaterThanOrEqual(100);
    expect(week.steady!.latency.p95).toBeLessThanOrEqual(300);
    expect(week.flaky!.latency.p95).toBeGreaterThanOrEqual(900);
    expect(week.flaky!.latency.rolling1h).not.toBeNull();
  });

  it('rolls up again from the last roll-up after a pause, so no hour is left out', async () => {
    // As if the server had been down for about a day: the mark 2 hours into the day of 20 hours ago
    // (20 to 42 hours back), and every roll-up since unmade. The day's own roll-up is gone too, so
    // before rolling up again the range misses that day's 2 hours before the mark, 6 runs a check.
    // (With the mark at 20 hours ago, a run between 20:00 and ~20:20 UTC found no run in that gap,
    // and the first assertion failed.)
    const mark = `date_trunc('day', now() - interval '20 hours') + interval '2 hours'`;
    await test.db.query(`DELETE FROM check_statuses_1h WHERE created_at >= ${mark}`);
    await test.db.query(`DELETE FROM check_statuses_1d WHERE created_at >= date_trunc('day', ${mark})`);
    await test.db.query(`UPDATE check_statuses_rollup_mark SET rolled_at = ${mark}`);
    const before = await summary('7d');
    expect(before.steady!.uptime.passed).toBeLessThan(expected('steady', 0).passed);
    const r = await rollupCheckStatuses(test.db);
    expect(r.ran).toBe(true);
    const week = await summary('7d');
    for (const name of ['steady', 'flaky']) {
      const e = expected(name, 0);
      expect(week[name]!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
    }
  });

  it('builds the same JSON as the json_build_object version did, key for key', async () => {
    // The output part of the summary before it was built from one flat row per check.
    const OLD_OUTPUT = `
SELECT coalesce(json_agg(json_build_object(
  'id', c.id, 'canary_id', c.canary_id, 'canary_name', ca.name, 'canary_namespace', ca.namespace,
    'agent_id', c.agent_id, 'agent_name', ag.name, 'labels', ca.labels || c.labels, 'status', c.status, 'type', c.type, 'name', c.name,
  'namespace', c.namespace, 'owner', c.owner, 'severity', c.severity, 'icon', c.icon, 'description', c.description,
  'endpoint', c.endpoint,
  'uptime', json_build_object('passed', coalesce(s.passed, 0), 'failed', coalesce(s.failed, 0), 'last_pass', s.last_pass, 'last_fail', s.last_fail),
  'latency', json_build_object('p95', s.p95, 'p97', s.p97, 'p99', s.p99, 'rolling1h', s.rolling1h),
  'last_runtime', c.last_runtime, 'last_transition_time', c.last_transition_time, 'next_runtime', c.next_runtime,
  'created_at', c.created_at, 'updated_at', c.updated_at, 'deleted_at', c.deleted_at
) ORDER BY ca.name, c.name), '[]')::text AS checks
FROM checks c
JOIN canaries ca ON ca.id = c.canary_id
LEFT JOIN agents ag ON ag.id = c.agent_id
LEFT JOIN s ON s.check_id = c.id
WHERE c.deleted_at IS NULL AND ca.deleted_at IS NULL
  AND ($3::jsonb IS NULL OR (ca.labels || c.labels) @> $3::jsonb)`;
    const end = new Date();
    for (const [ms, labels] of [
      [HOUR, null],
      [2 * 86_400_000, null],
      [7 * 86_400_000, null],
      [7 * 86_400_000, '{"nope":"x"}'],
    ] as const) {
      const start = new Date(end.getTime() - ms);
      const sql = summarySqlFor(start, end);
      const cut = sql.indexOf('\nSELECT coalesce(json_agg(x ORDER BY');
      expect(cut).toBeGreaterThan(0);
      const [now, old] = await Promise.all(
        [sql, sql.slice(0, cut) + OLD_OUTPUT].map(async (q) => {
          const { rows } = await test.db.query<{ checks: string }>(q, [start, end, labels]);
          return JSON.parse(rows[0]!.checks) as Record<string, unknown>[];
        }),
      );
      expect(now).toEqual(old);
      // Same keys in the same order, nested ones too.
      expect(JSON.stringify(now)).toBe(JSON.stringify(old));
      if (!labels) expect(now.length).toBe(2);
    }
  });

  it('reuses an answer for the same query for a few seconds, until this process writes health data', async () => {
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
    // A write of this process (a check's result) makes the next answer fresh.
    const t = Date.now();
    await recordResult(
      test.db,
      ids.steady!,
      { pass: false, invalid: false, durationMs: 42, message: null, error: 'down', details: undefined },
      new Date(t),
    );
    runs.steady!.push([t, false, 42]);
    const after = await get('start=3h');
    expect(after.headers.get('x-summary-cache')).toBe('miss');
    const steady = ((await after.json()) as { checks_summary: Item[] }).checks_summary.find(
      (c) => c.name === 'steady',
    )!;
    const e = expected('steady', t - 3 * HOUR);
    expect(steady.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
    expect(iso(steady.uptime.last_fail)).toBe(new Date(t).toISOString());
    // Concurrent identical requests share one computation (a single flight).
    await recordResult(
      test.db,
      ids.steady!,
      { pass: true, invalid: false, durationMs: 43, message: null, error: null, details: undefined },
      new Date(t + 1),
    );
    const both = await Promise.all([get('start=3h'), get('start=3h')]);
    expect(both.map((r) => r.headers.get('x-summary-cache')).sort()).toEqual(['hit', 'miss']);
  });

  it('serves the usual ranges from precomputed figures, with runs recorded since merged in', async () => {
    const get = (query: string, headers: Record<string, string> = {}) =>
      fetch(`${app.url}/api/canary/api/summary?${query}`, { headers: { ...viewer.headers, ...headers } });
    const body = async (r: Response) =>
      Object.fromEntries(((await r.json()) as { checks_summary: Item[] }).checks_summary.map((c) => [c.name, c]));
    // Never refreshed (the engines are off here): computed on request.
    expect((await get('start=1h')).headers.get('x-summary-source')).toBe('live');
    for (const range of PRECOMPUTED_RANGES) expect((await refreshSummary(test.db, range, 0)).ran).toBe(true);
    // Younger than its period: another refresh does nothing.
    expect((await refreshSummary(test.db, PRECOMPUTED_RANGES[0]!)).ran).toBe(false);
    for (const [query, range] of [
      ['start=1h', '1h'],
      ['start=now-24h', '1d'],
      ['start=1w', '7d'],
      ['start=43200m', '30d'],
    ] as const) {
      const pre = await get(query);
      expect(pre.headers.get('x-summary-source'), query).toBe('precomputed');
      expect(Date.parse(pre.headers.get('x-summary-as-of')!)).toBeLessThanOrEqual(Date.now());
      const live = await get(query, { 'cache-control': 'no-cache' });
      expect(live.headers.get('x-summary-source')).toBe('live');
      // The same figures as computed now (nothing was recorded in between).
      expect(await body(pre), range).toEqual(await body(live));
    }
    // Asked again soon: the answer this replica keeps (see SummaryViews), with its age in seconds.
    const soon = await get('start=1h');
    expect(soon.headers.get('x-summary-source')).toBe('precomputed');
    expect(Number(soon.headers.get('age'))).toBeLessThanOrEqual(5);
    // The items are kept per check: an answer brought up to date (max-age=0) rebuilds none of them.
    const repeat = await get('start=1h', { 'cache-control': 'max-age=0' });
    expect(repeat.headers.get('x-summary-rebuilt')).toBe('0');
    // The same as the whole summary built from the precomputed figures in one query.
    const at = new Date(repeat.headers.get('x-summary-as-of')!);
    const { rows: whole } = await test.db.query<{ checks: string }>(PRECOMPUTED_SUMMARY_SQL, ['1h', at, null]);
    expect(((await repeat.json()) as { checks_summary: Item[] }).checks_summary).toEqual(JSON.parse(whole[0]!.checks));
    const filtered = await get(`start=1h&labels=${encodeURIComponent('{"nope":"x"}')}`);
    expect(((await filtered.json()) as { checks_summary: Item[] }).checks_summary).toEqual([]);

    // An absolute range, or one with an end, is computed on request.
    expect(
      (await get(`start=1h&end=${encodeURIComponent(new Date().toISOString())}`)).headers.get('x-summary-source'),
    ).toBe('live');
    expect((await get('start=2h')).headers.get('x-summary-source')).toBe('live');

    // A run recorded after the refresh is counted at once.
    const t = Date.now() + 1_000;
    await flakyFails(t, 77);
    // (Runs of the engines show in the view within its next update: asked for with max-age=0 here.)
    const afterRun = await get('start=1h', { 'cache-control': 'max-age=0' });
    // Only the check that ran is rebuilt.
    expect(afterRun.headers.get('x-summary-rebuilt')).toBe('1');
    expect(afterRun.headers.get('age')).toBe('0');
    // The counts of the window the figures were computed for, plus the run since.
    const asOfMs = Date.parse(afterRun.headers.get('x-summary-as-of')!);
    const merged = await body(afterRun);
    const e = expected('flaky', asOfMs - HOUR);
    expect(merged.flaky!.uptime).toMatchObject({ passed: e.passed, failed: e.failed });
    expect(iso(merged.flaky!.uptime.last_fail)).toBe(new Date(t).toISOString());

    // History written into the past sends the ranges back to being computed until the next refresh.
    await write('steady', [[Date.now() - 20 * 60_000, false, 5]]);
    const back = await get('start=1h', { 'cache-control': 'max-age=0' });
    expect(back.headers.get('x-summary-source')).toBe('live');
    const s1 = (await body(back)).steady!;
    expect(s1.uptime.failed).toBe(expected('steady', Date.now() - HOUR).failed);
    await refreshSummary(test.db, PRECOMPUTED_RANGES[0]!);
    const again = await get('start=1h', { 'cache-control': 'max-age=0' });
    expect(again.headers.get('x-summary-source')).toBe('precomputed');
    expect((await body(again)).steady!.uptime.failed).toBe(s1.uptime.failed);

    // Checks added and removed through the API (edits) show up in the next answer, in order.
    const added = await fetch(`${app.url}/api/canary`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: CANARY.replace('name: rollup-summary', 'name: a-first-canary'),
    });
    expect(added.status).toBe(201);
    const addedId = ((await added.json()) as { applied: Array<{ id: string }> }).applied[0]!.id;
    const withNew = await get('start=1h');
    expect(withNew.headers.get('x-summary-source')).toBe('precomputed');
    const names = (r: { checks_summary: Array<Item & { canary_name: string }> }) =>
      r.checks_summary.map((c) => `${c.canary_name}/${c.name}`);
    expect(names((await withNew.json()) as never)).toEqual([
      'a-first-canary/flaky',
      'a-first-canary/steady',
      'rollup-summary/flaky',
      'rollup-summary/steady',
    ]);
    expect(
      (await fetch(`${app.url}/api/canary/${addedId}`, { method: 'DELETE', headers: editor.headers })).status,
    ).toBe(204);
    expect(names((await (await get('start=1h')).json()) as never)).toEqual([
      'rollup-summary/flaky',
      'rollup-summary/steady',
    ]);

    // Figures nobody refreshed for a while are not served.
    await test.db.query(
      `UPDATE check_summary_ranges SET computed_at = now() - interval '10 minutes' WHERE range_key = '1h'`,
    );
    expect((await get('start=1h', { 'cache-control': 'max-age=0' })).headers.get('x-summary-source')).toBe('live');
  });

  it('sends the answers it keeps gzipped to clients that accept it, compressed once per update', async () => {
    await refreshSummary(test.db, PRECOMPUTED_RANGES[0]!, 0);
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
    expect(plain.headers['x-summary-source']).toBe('precomputed');
    const zipped = await raw('gzip, deflate');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Accept-Encoding');
    // One valid gzip member (gunzip checks the CRC-32 and the length), the same answer but for duration.
    const strip = (b: Buffer) => {
      const { duration, ...rest } = JSON.parse(b.toString()) as { duration: number; checks_summary: Item[] };
      expect(typeof duration).toBe('number');
      return rest;
    };
    const unzipped = zlib.gunzipSync(zipped.body);
    expect(strip(unzipped)).toEqual(strip(plain.body));
    expect(strip(unzipped).checks_summary).toHaveLength(2);
    // Again from the same kept answer: its compressed part is reused, only the tail differs.
    const twice = await raw('gzip');
    expect(strip(zlib.gunzipSync(twice.body))).toEqual(strip(plain.body));
  });

  it('keeps the answers of the precomputed ranges up to date in the background while they are asked for', async () => {
    const range = PRECOMPUTED_RANGES[0]!;
    await refreshSummary(test.db, range, 0);
    let edits = 0;
    const views = new SummaryViews(test.db, () => edits, { everyMs: 150, idleMs: 1_000 });
    const failedOf = (v: { json: { body: Buffer } } | undefined) =>
      (
        JSON.parse(Buffer.concat([v!.json.body, summaryTail(0)]).toString()) as { checks_summary: Item[] }
      ).checks_summary.find((c) => c.name === 'flaky' && c.canary_name === 'rollup-summary')!.uptime.failed;
    try {
      const first = await views.get(range);
      expect(first!.rebuilt).toBe(2);
      // Asked again soon: the same answer, nothing read.
      expect(await views.get(range, 60_000)).toBe(first);
      const before = failedOf(first);

      // A scheduled run (not an edit): the background update picks it up within a period or two.
      const t = Date.now() + 2_000;
      await flakyFails(t, 5);
      let current = first;
      for (let i = 0; i < 100 && failedOf(current) === before; i++) {
        await new Promise((r) => setTimeout(r, 50));
        current = await views.get(range, 60_000);
      }
      expect(failedOf(current)).toBe(before + 1);
      expect(current!.rebuilt).toBe(1);

      // An edit of this process: the next answer is brought up to date first, whatever its age.
      const kept = await views.get(range, 60_000);
      edits++;
      const edited = await views.get(range, 60_000);
      expect(edited).not.toBe(kept);
      expect(edited!.edits).toBe(1);
      // max-age=0: a new answer (from the cached items: none rebuilt).
      const asked = await views.get(range, 0);
      expect(asked).not.toBe(edited);
      expect(asked!.rebuilt).toBe(0);

      // Nobody asks for longer than idleMs: the updates stop, and the answer and its items are
      // dropped from memory (the next request builds them again).
      await new Promise((r) => setTimeout(r, 2_000));
      views.sweep(); // (its timer does the same; the protocol test waits for it)
      expect(views.kept).toMatchObject({ views: 0, ranges: 0, items: 0 });

      // A refresh of the figures rebuilds a watched view at once: every item, for the new window.
      const refreshed = await refreshSummary(test.db, range, 0);
      views.refreshed(range);
      let next = await views.get(range, 60_000);
      for (let i = 0; i < 100 && next!.asOf.getTime() !== refreshed.asOf!.getTime(); i++) {
        await new Promise((r) => setTimeout(r, 50));
        next = await views.get(range, 60_000);
      }
      expect(next!.asOf.toISOString()).toBe(refreshed.asOf!.toISOString());
      expect(next!.rebuilt).toBe(2);

      // Figures gone stale: no answer to serve (the route computes the summary instead).
      await test.db.query(`UPDATE check_summary_ranges SET computed_at = NULL WHERE range_key = '1h'`);
      expect(await views.get(range, 0)).toBeUndefined();
    } finally {
      await views.close();
    }
  });
});
