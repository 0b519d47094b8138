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
import { random } from './helpers/random.js';
import {
  bruteForce,
  createSummaryChecks,
  summaryHistory,
  writeRuns,
  DAY,
  expectFigures,
  HOUR,
  MIN,
  runsEvery,
  type Figures,
  type Run,
} from './helpers/summaryFigures.js';
import { summarySqlFor } from '../src/health/summary.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './helpers/databases.js';

describe.each(databaseKinds())('health summary from sketches against brute force on %s', (kind) => {
  let test: TestDatabase;
  const runs: Record<string, Run[]> = { steady: [], bimodal: [], late: [], gone: [] };
  const ids: Record<string, string> = {};
  const now = Date.now();
  const rnd = random(20);
  let rolledUpTo = 0;

  async function write(name: string, items: Run[]) {
    await writeRuns(test.db, ids[name]!, items);
    runs[name]!.push(...items);
  }

  const history = (from: number, to: number, every: number, duration: () => number, failEvery = 37) =>
    runsEvery(rnd, from, to, every, duration, failEvery);

  beforeAll(async () => {
    test = await openTestDatabase(kind);
    Object.assign(ids, await createSummaryChecks(test.db, 'sketch'));
    // Backfilled history up to 20 minutes ago, then rolled up as the engine's job does.
    const upTo = now - 20 * MIN;
    rolledUpTo = upTo;
    for (const [name, items] of Object.entries(summaryHistory(rnd, now, upTo))) await write(name, items);
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
        expect(
          Math.abs(r[p] - want[p]!),
          `${name} ${new Date(r.day).toISOString()} ${p}: ${r[p]} vs ${want[p]}`,
        ).toBeLessThanOrEqual(SKETCH_RELATIVE_ERROR * want[p]!);
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
