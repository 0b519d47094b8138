// The health summary's figures against brute force (issue 20): a small history written straight
// into check_statuses (10 days of runs, rolled up afterwards by the engine's own rollupCheckStatuses,
// as backfilled history is), a check created mid-range, a deleted check and runs after the last
// roll-up. For the usual ranges and custom ones (raw, hourly and daily pieces, edges inside hours,
// ends in the past), the summary's accurate figures (summarySqlFor(…, true)) must count exactly
// and give p95/p97/p99 within the sketch's stated error of percentile_disc over the raw durations.
// Also: the SQL bins and values are the TypeScript ones (sketch.ts), and the daily roll-ups'
// percentiles (read from the merged sketch of their hours) are within the same error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollupCheckStatuses } from '../src/health/rollup.js';
import { keyOf, SKETCH_RELATIVE_ERROR, valueOf } from '../src/health/sketch.js';
import { summarySqlFor } from '../src/health/summary.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

interface Run {
  t: number;
  ok: boolean;
  d: number;
}

interface Figures {
  passed: number;
  failed: number;
  last_pass: string | null;
  last_fail: string | null;
  p95: number | null;
  p97: number | null;
  p99: number | null;
}

/** A deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function bruteForce(runs: readonly Run[], s: number, e: number): Figures {
  const inRange = runs.filter((r) => r.t >= s && r.t <= e);
  const sorted = inRange.map((r) => r.d).sort((a, b) => a - b);
  const pd = (q: number) => (sorted.length ? sorted[Math.max(1, Math.ceil(q * sorted.length)) - 1]! : null);
  const last = (ok: boolean) => {
    const ts = inRange.filter((r) => r.ok === ok).map((r) => r.t);
    return ts.length ? new Date(Math.max(...ts)).toISOString() : null;
  };
  return {
    passed: inRange.filter((r) => r.ok).length,
    failed: inRange.filter((r) => !r.ok).length,
    last_pass: last(true),
    last_fail: last(false),
    p95: pd(0.95),
    p97: pd(0.97),
    p99: pd(0.99),
  };
}

const iso = (v: string | Date | null | undefined) => (v ? new Date(v).toISOString() : null);

function expectFigures(got: Figures | undefined, want: Figures, what: string) {
  const g = got ?? { passed: 0, failed: 0, last_pass: null, last_fail: null, p95: null, p97: null, p99: null };
  expect([Number(g.passed), Number(g.failed), iso(g.last_pass), iso(g.last_fail)], what).toEqual([
    want.passed,
    want.failed,
    want.last_pass,
    want.last_fail,
  ]);
  for (const p of ['p95', 'p97', 'p99'] as const) {
    if (want[p] === null) {
      expect(g[p], `${what} ${p}`).toBeNull();
      continue;
    }
    expect(g[p], `${what} ${p}`).not.toBeNull();
    expect(Math.abs(Number(g[p]) - want[p]), `${what} ${p}: ${g[p]} vs exact ${want[p]}`).toBeLessThanOrEqual(
      SKETCH_RELATIVE_ERROR * want[p],
    );
  }
}

describe.each(databaseKinds())('health summary from sketches against brute force on %s', (kind) => {
  let test: TestDatabase;
  const runs: Record<string, Run[]> = { steady: [], bimodal: [], late: [], gone: [] };
  const ids: Record<string, string> = {};
  const now = Date.now();
  const rnd = random(20);
  let rolledUpTo = 0;

  async function write(name: string, items: Run[]) {
    for (let i = 0; i < items.length; i += 500) {
      const chunk = items.slice(i, i + 500);
      await test.db.query(
        `INSERT INTO check_statuses (check_id, time, status, duration)
         SELECT $1, t, ok, d FROM unnest($2::timestamptz[], $3::boolean[], $4::int[]) AS u(t, ok, d)`,
        [ids[name], chunk.map((r) => new Date(r.t)), chunk.map((r) => r.ok), chunk.map((r) => r.d)],
      );
    }
    runs[name]!.push(...items);
  }

  /** Runs every `every` ms (jittered by up to a minute) from `from` to `to`. */
  function history(from: number, to: number, every: number, duration: () => number, failEvery = 37): Run[] {
    const out: Run[] = [];
    let i = 0;
    for (let t = from; t < to; t += every) {
      out.push({ t: t + Math.floor(rnd() * MIN), ok: i++ % failEvery !== 0, d: duration() });
    }
    return out.filter((r) => r.t < to);
  }

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    const { rows } = await test.db.query<{ id: string }>(
      `INSERT INTO canaries (name, namespace, spec) VALUES ('sketch', 'team-s', '{}') RETURNING id::text`,
    );
    for (const name of Object.keys(runs)) {
      const r = await test.db.query<{ id: string }>(
        `INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', $2) RETURNING id::text`,
        [rows[0]!.id, name],
      );
      ids[name] = r.rows[0]!.id;
    }
    // Backfilled history up to 20 minutes ago, then rolled up as the engine's job does.
    const upTo = now - 20 * MIN;
    rolledUpTo = upTo;
    await write(
      'steady',
      history(now - 10 * DAY, upTo, 7 * MIN, () => 40 + Math.floor(rnd() * rnd() * 400)),
    );
    await write(
      'bimodal',
      history(
        now - 9 * DAY - 3 * HOUR,
        upTo,
        11 * MIN,
        () => (rnd() < 0.9 ? Math.floor(rnd() * 3) : 2_000 + Math.floor(rnd() * 9_000)),
        5,
      ),
    );
    // Created mid-range (2 days and 5 hours ago): heavy-tailed durations.
    await write(
      'late',
      history(now - 2 * DAY - 5 * HOUR, upTo, 5 * MIN, () => Math.round(10 / Math.pow(1 - rnd(), 1 / 1.1))),
    );
    await write(
      'gone',
      history(now - 6 * DAY, upTo, 13 * MIN, () => 500),
    );
    await rollupCheckStatuses(test.db, new Date(now - 11 * DAY));
    // As if the roll-up had run right after the last of those runs (it holds every run before then).
    await test.db.query(`UPDATE check_statuses_rollup_mark SET rolled_at = $1`, [new Date(upTo + 500)]);
    // Runs after the last roll-up (raw only), and the deleted check.
    await write(
      'steady',
      history(upTo + 1_000, now - 2_000, 2 * MIN, () => 9_000),
    );
    await write(
      'late',
      history(upTo + 1_000, now - 2_000, 3 * MIN, () => 0),
    );
    await test.db.query(`UPDATE checks SET deleted_at = now() WHERE id = $1`, [ids.gone]);
  }, 180_000);

  afterAll(async () => {
    await test?.close();
  });

  it('bins and reports durations in SQL as sketch.ts does', async () => {
    const { rows } = await test.db.query<{ d: number; k: number; v: number }>(
      `SELECT d, check_sketch_key(d) AS k, check_sketch_value(check_sketch_key(d)) AS v
       FROM generate_series(-1, 20000) d UNION ALL
       SELECT d, check_sketch_key(d), check_sketch_value(check_sketch_key(d)) FROM generate_series(20001, 4000000, 997) d`,
    );
    const wrong = rows.filter((r) => r.k !== keyOf(r.d) || r.v !== valueOf(keyOf(r.d)));
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(rows.length).toBeGreaterThan(20_000);
  });

  it('stores a sketch per check and hour and per whole day, holding every run', async () => {
    const { rows } = await test.db.query<{ tbl: string; bad: number; n: number }>(
      `SELECT '1h' AS tbl, count(*) FILTER (WHERE (SELECT sum(c) FROM unnest(sketch_counts) c) <> total)::int AS bad, count(*)::int AS n FROM check_statuses_1h
       UNION ALL
       SELECT '1d', count(*) FILTER (WHERE sketch_keys IS NULL OR (SELECT sum(c) FROM unnest(sketch_counts) c) <> total)::int, count(*)::int FROM check_statuses_1d
       WHERE created_at < date_trunc('day', now())`,
    );
    for (const r of rows) {
      expect(r.bad, r.tbl).toBe(0);
      expect(r.n, r.tbl).toBeGreaterThan(0);
    }
  });

  it('keeps daily percentiles within the error of the exact ones of the day', async () => {
    const { rows } = await test.db.query<{ check_id: string; day: Date; p95: number; p97: number; p99: number }>(
      `SELECT check_id::text, created_at AS day, duration_p95 AS p95, duration_p97 AS p97, duration_p99 AS p99
       FROM check_statuses_1d WHERE sketch_keys IS NOT NULL`,
    );
    expect(rows.length).toBeGreaterThan(20);
    for (const r of rows) {
      const name = Object.keys(ids).find((n) => ids[n] === r.check_id)!;
      const from = new Date(r.day).getTime();
      const want = bruteForce(
        runs[name]!.filter((x) => x.t < rolledUpTo),
        from,
        from + DAY - 1,
      );
      for (const p of ['p95', 'p97', 'p99'] as const) {
        expect(Math.abs(r[p] - want[p]!), `${name} ${iso(r.day)} ${p}: ${r[p]} vs ${want[p]}`).toBeLessThanOrEqual(
          SKETCH_RELATIVE_ERROR * want[p]!,
        );
      }
    }
  });

  const ranges: Array<[string, () => [number, number]]> = [
    ['1h', () => [now - HOUR, now]],
    ['5h (raw)', () => [now - 5 * HOUR, now]],
    ['1d', () => [now - DAY, now]],
    ['2d 7h 13m (hourly)', () => [now - 2 * DAY - 7 * HOUR - 13 * MIN, now]],
    ['7d', () => [now - 7 * DAY, now]],
    ['30d', () => [now - 30 * DAY, now]],
    ['hours inside the past', () => [now - 30 * HOUR - 17 * MIN, now - 9 * HOUR - 41 * MIN]],
    ['days inside the past', () => [now - 8 * DAY - 5 * HOUR - 3 * MIN, now - 2 * DAY - 22 * HOUR - 11 * MIN]],
    ['within one hour in the past', () => [now - 50 * HOUR - 10 * MIN, now - 50 * HOUR - 2 * MIN]],
    [
      'ending on the hour',
      () => [Math.floor((now - 4 * DAY) / HOUR) * HOUR + 1, Math.floor((now - DAY) / HOUR) * HOUR],
    ],
    ['across the last roll-up', () => [now - 4 * DAY - 59 * MIN, now - 5 * MIN]],
  ];

  for (const [name, range] of ranges) {
    it(`accurate figures (sketches): ${name}`, async () => {
      const [s, e] = range();
      const { rows } = await test.db.query<{ checks: string }>(summarySqlFor(new Date(s), new Date(e), true), [
        new Date(s),
        new Date(e),
        null,
      ]);
      const items = JSON.parse(rows[0]!.checks) as Array<{ name: string; uptime: Figures; latency: Figures }>;
      expect(items.map((i) => i.name).sort()).toEqual(['bimodal', 'late', 'steady']);
      for (const item of items) {
        expectFigures({ ...item.uptime, ...item.latency }, bruteForce(runs[item.name]!, s, e), `${name} ${item.name}`);
      }
    });
  }
});
