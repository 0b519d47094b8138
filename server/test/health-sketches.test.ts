// The health summary from running tallies (migration 0029, health/sketches.ts), against a brute-force
// computation on a small data set, on PGlite and PostgreSQL: five days of history backfilled straight
// into check_statuses (behind the store's back, out of order), recent runs recorded by the store, a
// check whose history starts mid-range, and a check deleted mid-range (left out, as before). Counts
// and last pass/fail are exact; p95/p97/p99 within 1 % of percentile_disc over the raw durations.
// Then the ETag/304, the delta (`since`) and the console format.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpsdeck, type Opsdeck } from '../src/app.js';
import { recordResult } from '../src/health/store.js';
import { SKETCH_RELATIVE_ERROR } from '../src/health/sketch.js';
import { buildDirty } from '../src/health/sketches.js';
import { createTestUser, type TestUser } from './helpers/auth.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const canary = (checks: string[]) => `apiVersion: canaries.flanksource.com/v1
kind: Canary
metadata:
  name: sketches
  namespace: team-s
  labels:
    team: s
spec:
  schedule: "@every 1h"
  http:
${checks.map((n) => `    - name: ${n}\n      url: http://127.0.0.1:9/${n}`).join('\n')}
`;

interface Item {
  id: string;
  name: string;
  uptime: { passed: number; failed: number; last_pass?: string | null; last_fail?: string | null };
  latency: { p95?: number | null; p97?: number | null; p99?: number | null; rolling1h?: number | null };
}

const MIN = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
type RunT = [number, boolean, number];

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe.each(databaseKinds())('health summary from running tallies on %s', (kind) => {
  let test: TestDatabase;
  let app: Opsdeck;
  let viewer: TestUser;
  let editor: TestUser;
  const ids: Record<string, string> = {};
  const runs: Record<string, RunT[]> = { steady: [], spiky: [], late: [], doomed: [] };
  const now = Date.now();
  const rnd = random(7);

  async function backfill(name: string, items: RunT[]) {
    // Several statuses per statement, newest first: the trigger marks their hours, the summary builds them.
    for (let i = 0; i < items.length; i += 50) {
      const chunk = items.slice(i, i + 50).reverse();
      const values = chunk.map((_, j) => `($1, $${j * 3 + 2}, $${j * 3 + 3}, $${j * 3 + 4})`).join(', ');
      await test.db.query(`INSERT INTO check_statuses (check_id, time, status, duration) VALUES ${values}`, [
        ids[name],
        ...chunk.flatMap(([t, s, d]) => [new Date(t), s, d]),
      ]);
    }
    runs[name]!.push(...items);
  }

  async function record(name: string, [t, pass, duration]: RunT) {
    await recordResult(
      test.db,
      ids[name]!,
      { pass, invalid: false, durationMs: duration, message: null, error: pass ? null : 'down', details: undefined },
      new Date(t),
    );
    runs[name]!.push([t, pass, duration]);
  }

  const get = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/canary/api/summary?${query}`, { headers: { ...viewer.headers, ...headers } });

  async function summary(query: string): Promise<Record<string, Item>> {
    const res = await get(query, { 'cache-control': 'no-cache' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { checks_summary: Item[] };
    return Object.fromEntries(body.checks_summary.map((c) => [c.name, c]));
  }

  /** percentile_disc over the raw durations. */
  const exact = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted.length ? sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)]! : null;
  };

  function expectRange(item: Item | undefined, name: string, from: number, to: number) {
    const rs = runs[name]!.filter(([t]) => t >= from && t <= to);
    const last = (ok: boolean) => {
      const ts = rs.filter(([, s]) => s === ok).map(([t]) => t);
      return ts.length ? new Date(Math.max(...ts)).toISOString() : null;
    };
    expect(item, name).toBeDefined();
    expect(item!.uptime, name).toEqual({
      passed: rs.filter(([, s]) => s).length,
      failed: rs.filter(([, s]) => !s).length,
      last_pass: last(true),
      last_fail: last(false),
    });
    for (const [key, q] of [
      ['p95', 0.95],
      ['p97', 0.97],
      ['p99', 0.99],
    ] as const) {
      const want = exact(
        rs.map(([, , d]) => d),
        q,
      );
      const got = item!.latency[key] ?? null;
      if (want === null) expect(got, `${name} ${key}`).toBeNull();
      else
        expect(Math.abs(got! - want), `${name} ${key}: ${got} vs ${want}`).toBeLessThanOrEqual(
          SKETCH_RELATIVE_ERROR * want,
        );
    }
  }

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    app = await startOpsdeck({ database: test.db, port: 0, host: '127.0.0.1', engines: false });
    viewer = await createTestUser(test.db, 'viewer');
    editor = await createTestUser(test.db, 'editor');
    const apply = async (checks: string[]) => {
      const res = await fetch(`${app.url}/api/canary`, {
        method: 'POST',
        headers: { ...editor.headers, 'content-type': 'application/yaml' },
        body: canary(checks),
      });
      expect(res.status).toBe(201);
      const body = (await res.json()) as { applied: Array<{ checks: Array<{ id: string; name: string }> }> };
      for (const c of body.applied[0]!.checks) ids[c.name] = c.id;
    };
    await apply(['steady', 'spiky', 'late', 'doomed']);
    // Five days, a run every 20 minutes (5 minutes past the marks, so no run sits on the edge of a
    // range while the tests run): steady passes in 100–190 ms; spiky is bimodal with a heavy tail and
    // fails a third of the time; doomed runs throughout; late only from 36 hours ago.
    const hist: Record<string, RunT[]> = { steady: [], spiky: [], late: [], doomed: [] };
    for (let i = 0; ; i++) {
      const t = now - 5 * DAY + i * 20 * MIN + 5 * MIN;
      if (t > now - 3 * HOUR) break;
      hist.steady!.push([t, true, 100 + (i % 10) * 10]);
      const slow = rnd() < 0.2;
      hist.spiky!.push([
        t + 1_000,
        i % 3 !== 0,
        slow ? Math.round(2_000 / Math.pow(1 - rnd(), 0.8)) : Math.round(20 + rnd() * 15),
      ]);
      hist.doomed!.push([t + 2_000, true, 50]);
      if (t > now - 36 * HOUR) hist.late!.push([t + 3_000, rnd() < 0.9, Math.round(rnd() * 600)]);
    }
    // Out of order: the later half first, then the earlier (running tallies after it must move).
    for (const name of Object.keys(hist)) {
      const h = hist[name]!;
      await backfill(name, h.slice(h.length / 2));
      await backfill(name, h.slice(0, h.length / 2));
    }
    // A summary builds imported hours for up to 100 ms before answering (x-summary-pending while some
    // are left); the engines build the rest in the background. Here: one answer, then all of it.
    const early = await get('start=7d', { 'cache-control': 'no-cache' });
    expect(early.status).toBe(200);
    if (early.headers.get('x-summary-pending')) expect((await buildDirty(test.db, Infinity)).pending).toBe(false);
    // The last three hours recorded by the store as the engine does, one a few minutes backdated.
    for (let t = now - 3 * HOUR + 7 * MIN; t < now - 2 * MIN; t += 10 * MIN) {
      await record('steady', [t, true, 120 + Math.round(rnd() * 40)]);
      await record('spiky', [t + 500, rnd() < 0.8, rnd() < 0.1 ? 9_000 : 30]);
      await record('late', [t + 700, true, 0]);
    }
    await record('spiky', [now - 2 * HOUR - 3 * MIN, false, 15_000]);
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await test?.close();
  });

  it('answers 1h, 24h, 7d, 30d and a custom range as a brute-force computation over the raw runs', async () => {
    const ranges: Array<[string, number, number]> = [
      ['start=1h', now - HOUR, now],
      ['start=24h', now - DAY, now],
      ['start=7d', now - 7 * DAY, now],
      ['start=30d', now - 30 * DAY, now],
      [
        `start=${new Date(now - 3 * DAY - 17 * MIN).toISOString()}&end=${new Date(now - 30 * HOUR + 13 * MIN).toISOString()}`,
        now - 3 * DAY - 17 * MIN,
        now - 30 * HOUR + 13 * MIN,
      ],
      [`start=${now - 40 * HOUR}&end=${now - 2 * HOUR}`, now - 40 * HOUR, now - 2 * HOUR],
    ];
    for (const [query, from, to] of ranges) {
      const s = await summary(query);
      for (const name of ['steady', 'spiky', 'late', 'doomed']) expectRange(s[name], name, from, to);
    }
  });

  it('builds the backfilled hours once: the last hour row of each check tallies every run', async () => {
    const { rows } = await test.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM check_sketch_dirty`);
    expect(rows[0]!.n).toBe(0);
    const { rows: days } = await test.db.query<{ name: string; total: number }>(
      `SELECT c.name, sum(d.total)::int AS total FROM check_statuses_1d d JOIN checks c ON c.id = d.check_id GROUP BY c.name`,
    );
    for (const d of days) expect(d.total, d.name).toBe(runs[d.name]!.length);
  });

  it('leaves out a check deleted mid-range, and counts a new check from its first run', async () => {
    const res = await fetch(`${app.url}/api/canary`, {
      method: 'POST',
      headers: { ...editor.headers, 'content-type': 'application/yaml' },
      body: canary(['steady', 'spiky', 'late']),
    });
    expect(res.status).toBe(201);
    const s = await summary('start=7d');
    expect(s.doomed).toBeUndefined();
    expect(Object.keys(s).sort()).toEqual(['late', 'spiky', 'steady']);
    expectRange(s.late, 'late', now - 7 * DAY, now);
    expect(s.late!.uptime.passed + s.late!.uptime.failed).toBeLessThan(
      runs.steady!.filter(([t]) => t >= now - 7 * DAY).length,
    );
  });

  it('filters by labels and reports rolling1h as the mean duration of the last hour', async () => {
    const s = await summary(`start=24h&labels=${encodeURIComponent('{"team":"s"}')}`);
    expect(Object.keys(s)).toHaveLength(3);
    const hour = runs.steady!.filter(([t]) => t >= Date.now() - HOUR);
    expect(s.steady!.latency.rolling1h).toBe(Math.round(hour.reduce((n, [, , d]) => n + d, 0) / hour.length));
    expect(await summary(`start=24h&labels=${encodeURIComponent('{"team":"x"}')}`)).toEqual({});
  });

  it('answers 304 to If-None-Match while nothing changed, and the changed checks to since=<etag>', async () => {
    const first = await get('start=7d&format=console', { 'cache-control': 'no-cache' });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const body = (await first.json()) as { checks_summary: Array<Record<string, unknown>> };
    // The console's items: no description, creation or update times.
    expect(body.checks_summary[0]).not.toHaveProperty('description');
    expect(body.checks_summary[0]).not.toHaveProperty('updated_at');
    expect(body.checks_summary[0]).toHaveProperty('uptime.passed');
    for (const headers of [{}, { 'cache-control': 'no-cache' }] as Array<Record<string, string>>) {
      const again = await get('start=7d&format=console', { ...headers, 'if-none-match': etag });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
      expect((await again.arrayBuffer()).byteLength).toBe(0);
    }
    // The full format is another answer with another ETag.
    const full = await get('start=7d', { 'if-none-match': etag });
    expect(full.status).toBe(200);
    expect(full.headers.get('etag')).not.toBe(etag);
    // A run of one check: a new ETag, and a delta with that check only.
    await record('steady', [Date.now(), false, 77]);
    const changed = await get(`start=7d&format=console&since=${encodeURIComponent(etag)}`, {
      'cache-control': 'no-cache',
      'if-none-match': etag,
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('x-summary-delta')).toBe('true');
    const delta = (await changed.json()) as { etag: string; since: string; changed: Item[]; removed: string[] };
    expect(delta.since).toBe(etag);
    expect(delta.etag).toBe(changed.headers.get('etag'));
    expect(delta.changed.map((c) => c.name)).toEqual(['steady']);
    expect(delta.removed).toEqual([]);
    // An unknown `since` gets the whole answer.
    const unknown = await get('start=7d&format=console&since=%22nope%22');
    expect(unknown.headers.get('x-summary-delta')).toBeNull();
    expect(((await unknown.json()) as { checks_summary: unknown[] }).checks_summary).toHaveLength(3);
  });

  it('refuses a range that ends before it starts and an unknown format, with a message', async () => {
    const bad = await get(`start=1h&end=${new Date(now - 2 * HOUR).toISOString()}`);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/start must be before end/);
    const fmt = await get('start=1h&format=csv');
    expect(fmt.status).toBe(400);
    expect(((await fmt.json()) as { message: string }).message).toMatch(/format must be/);
  });
});
