// What the health summary's figures are held to in the tests: the exact figures of some runs
// (brute force: counting and sorting), compared with the summary's (counts and last pass/failure
// exactly, p95/p97/p99 within the sketch's stated error), and a generator of runs.
import { expect } from 'vitest';
import type { Queryable } from '../../src/db/database.js';
import { SKETCH_RELATIVE_ERROR } from '../../src/health/sketch.js';

export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;

export interface Run {
  t: number;
  ok: boolean;
  d: number;
}

export interface Figures {
  passed: number | string;
  failed: number | string;
  last_pass: string | Date | null;
  last_fail: string | Date | null;
  p95: number | null;
  p97: number | null;
  p99: number | null;
}

/** The exact figures of the runs in [from, to] (or [from, to) when `endIncluded` is false). */
export function bruteForce(runs: readonly Run[], from: number, to: number, endIncluded = true): Figures {
  const inRange = runs.filter((r) => r.t >= from && (endIncluded ? r.t <= to : r.t < to));
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

/** The summary's figures (none: a check without runs) against the exact ones. */
export function expectFigures(got: Figures | undefined, want: Figures, what: string): void {
  const g = got ?? { passed: 0, failed: 0, last_pass: null, last_fail: null, p95: null, p97: null, p99: null };
  expect([Number(g.passed), Number(g.failed), iso(g.last_pass), iso(g.last_fail)], what).toEqual([
    Number(want.passed),
    Number(want.failed),
    iso(want.last_pass),
    iso(want.last_fail),
  ]);
  for (const p of ['p95', 'p97', 'p99'] as const) {
    const w = want[p];
    if (w === null) {
      expect(g[p], `${what} ${p}`).toBeNull();
      continue;
    }
    expect(g[p], `${what} ${p}`).not.toBeNull();
    expect(Math.abs(Number(g[p]) - w), `${what} ${p}: ${g[p]} vs exact ${w}`).toBeLessThanOrEqual(
      SKETCH_RELATIVE_ERROR * w,
    );
  }
}

/** Runs every `every` ms from `from` to `to`, each jittered by up to a minute; every failEvery-th fails. */
export function runsEvery(
  rnd: () => number,
  from: number,
  to: number,
  every: number,
  duration: () => number,
  failEvery = 37,
): Run[] {
  const out: Run[] = [];
  let i = 0;
  for (let t = from; t < to; t += every)
    out.push({ t: t + Math.floor(rnd() * MIN), ok: i++ % failEvery !== 0, d: duration() });
  return out.filter((r) => r.t < to);
}

/** The checks the summary tests write history for, by name. */
export const SUMMARY_TEST_CHECKS = ['steady', 'bimodal', 'late', 'gone'] as const;

/** One canary with the four checks; their ids by name. */
export async function createSummaryChecks(db: Queryable, canary: string): Promise<Record<string, string>> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO canaries (name, namespace, spec) VALUES ($1, 'team-s', '{}') RETURNING id::text`,
    [canary],
  );
  const ids: Record<string, string> = {};
  for (const name of SUMMARY_TEST_CHECKS) {
    const r = await db.query<{ id: string }>(
      `INSERT INTO checks (canary_id, type, name) VALUES ($1, 'http', $2) RETURNING id::text`,
      [rows[0]!.id, name],
    );
    ids[name] = r.rows[0]!.id;
  }
  return ids;
}

/** Writes runs of one check straight into check_statuses (as a backfill or an import does). */
export async function writeRuns(db: Queryable, checkId: string, items: readonly Run[]): Promise<void> {
  for (let i = 0; i < items.length; i += 500) {
    const chunk = items.slice(i, i + 500);
    await db.query(
      `INSERT INTO check_statuses (check_id, time, status, duration)
       SELECT $1, t, ok, d FROM unnest($2::timestamptz[], $3::boolean[], $4::int[]) AS u(t, ok, d)
       ON CONFLICT DO NOTHING`,
      [checkId, chunk.map((r) => new Date(r.t)), chunk.map((r) => r.ok), chunk.map((r) => r.d)],
    );
  }
}

/**
 * The history of the four checks up to `upTo`: steady (10 days, skewed durations), bimodal (9 days
 * 3 hours, 90 % at 0–2 ms and a tail at 2–11 s, every 5th failing), late (created 2 days 5 hours
 * ago, heavy-tailed), gone (6 days, 500 ms; the tests delete it).
 */
export function summaryHistory(rnd: () => number, now: number, upTo: number): Record<string, Run[]> {
  return {
    steady: runsEvery(rnd, now - 10 * DAY, upTo, 7 * MIN, () => 40 + Math.floor(rnd() * rnd() * 400)),
    bimodal: runsEvery(
      rnd,
      now - 9 * DAY - 3 * HOUR,
      upTo,
      11 * MIN,
      () => (rnd() < 0.9 ? Math.floor(rnd() * 3) : 2_000 + Math.floor(rnd() * 9_000)),
      5,
    ),
    late: runsEvery(rnd, now - 2 * DAY - 5 * HOUR, upTo, 5 * MIN, () => Math.round(10 / Math.pow(1 - rnd(), 1 / 1.1))),
    gone: runsEvery(rnd, now - 6 * DAY, upTo, 13 * MIN, () => 500),
  };
}
