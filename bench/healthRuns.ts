// The health engine's measurement, shared by `bench health` and `bench health-replicas`: canaries
// of http checks against a loopback target process, the trigger that records every planned run
// time, and the analysis of a measured window (lateness of every check run against its planned
// time, missed runs). How lateness is measured: see the top of bench/health.ts.
import path from 'node:path';
import type { Database, Queryable } from '../server/src/db/database.js';
import { parseCanary } from '../server/src/health/canary.js';
import type { Checker } from '../server/src/health/checker.js';
import { httpChecker } from '../server/src/health/checkers/http.js';
import { applyCanary } from '../server/src/health/store.js';
import { parseDocuments } from '../server/src/resources/yaml.js';
import { sleep, startChild, type Child } from './lib.js';

/** The checks' schedule, @every 1m. */
export const PERIOD_MS = 60_000;
/** The lateness goal: p99 under 2 s. */
export const LATENESS_GOAL_MS = 2_000;

const log = (s: string) => console.log(s);
const fmt = (v: number, digits = 0) => (Number.isFinite(v) ? v.toFixed(digits) : v > 0 ? '∞' : '-');
const only: ReadonlyMap<string, Checker> = new Map([['http', httpChecker as Checker]]);

/** A canary of `checks` http checks (check-<n> GETs <targetUrl>/c/<n>) on `@every 1m`. */
function canaryYaml(index: number, checks: number, firstCheck: number, targetUrl: string): string {
  const lines = [
    'apiVersion: canaries.flanksource.com/v1',
    'kind: Canary',
    'metadata:',
    `  name: bench-${String(index).padStart(4, '0')}`,
    '  namespace: bench',
    '  labels: {bench: health}',
    'spec:',
    '  schedule: "@every 1m"',
    '  http:',
  ];
  for (let i = firstCheck; i < firstCheck + checks; i++) {
    lines.push(`    - name: check-${String(i).padStart(5, '0')}`);
    lines.push(`      url: ${targetUrl}/c/${i}`);
    lines.push('      responseCodes: [200]');
  }
  return lines.join('\n') + '\n';
}

/** Applies ceil(total / perCanary) canaries of http checks on `@every 1m` through the engine's own parseCanary + applyCanary. */
export async function applyCanaries(
  db: Database,
  total: number,
  targetUrl: string,
  perCanary: number,
): Promise<number> {
  let made = 0;
  let index = 0;
  while (made < total) {
    const n = Math.min(perCanary, total - made);
    const [doc] = parseDocuments(canaryYaml(index++, n, made, targetUrl));
    await applyCanary(db, parseCanary(doc!, only), { source: 'bench' });
    made += n;
  }
  return index;
}

/** Copies every planned time of every canary into bench_planned (see the top of this file). */
export const PLANNED_SQL = `
CREATE TABLE IF NOT EXISTS bench_planned (
  canary_id uuid NOT NULL, planned timestamptz NOT NULL, recorded_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX IF NOT EXISTS bench_planned_idx ON bench_planned (canary_id, planned);
CREATE OR REPLACE FUNCTION bench_record_planned() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.next_runtime IS NOT NULL AND (TG_OP = 'INSERT' OR NEW.next_runtime IS DISTINCT FROM OLD.next_runtime) THEN
    INSERT INTO bench_planned (canary_id, planned) VALUES (NEW.id, NEW.next_runtime);
  END IF;
  RETURN NULL;
END $$;
DROP TRIGGER IF EXISTS bench_planned ON canaries;
CREATE TRIGGER bench_planned AFTER INSERT OR UPDATE OF next_runtime ON canaries
  FOR EACH ROW EXECUTE FUNCTION bench_record_planned();`;

/** The loopback HTTP target of the checks (bench/health-target.mjs, its own process), with its request count. */
export async function startTarget(): Promise<{ child: Child; url: string; hits(): Promise<number> }> {
  const child = startChild(process.execPath, [path.join(import.meta.dirname, 'health-target.mjs')], {
    PATH: process.env.PATH,
  });
  const deadline = Date.now() + 10_000;
  let port = 0;
  while (!port) {
    const m = /listening (\d+)/.exec(child.output());
    if (m) port = Number(m[1]);
    else if (child.hasExited() || Date.now() > deadline)
      throw new Error(`the target did not start:\n${child.output()}`);
    else await sleep(20);
  }
  const url = `http://127.0.0.1:${port}`;
  return {
    child,
    url,
    hits: async () => ((await (await fetch(`${url}/__hits`)).json()) as { hits: number }).hits,
  };
}

/** Upper bound index: the last element of sorted xs that is ≤ v (−1 when none). */
export function lastAtOrBefore(xs: number[], v: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= v) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Reads the window [ws, we) back from the database: checks run per minute, and per planned run of
 * each canary its checks' lateness (start − planned), missed check runs and skipped slots.
 */
export async function analyse(db: Database, ws: number, we: number, stopAt: number) {
  const checksOf = new Map<string, number>();
  for (const r of (
    await db.query<{ id: string; n: number }>(
      `SELECT ca.id, count(c.id)::int AS n FROM canaries ca JOIN checks c ON c.canary_id = ca.id AND c.deleted_at IS NULL
       WHERE ca.deleted_at IS NULL GROUP BY ca.id`,
    )
  ).rows)
    checksOf.set(r.id, r.n);

  const planned = new Map<string, number[]>();
  for (const r of (
    await db.query<{ canary_id: string; p: number }>(
      `SELECT canary_id, (extract(epoch FROM planned) * 1000)::float8 AS p FROM bench_planned ORDER BY canary_id, planned, recorded_at`,
    )
  ).rows) {
    const list = planned.get(r.canary_id) ?? [];
    if (list[list.length - 1] !== r.p) list.push(r.p);
    planned.set(r.canary_id, list);
  }

  const { rows } = await db.query<{ canary_id: string; t: number; status: boolean; error: string | null }>(
    `SELECT c.canary_id, (extract(epoch FROM cs.time) * 1000)::float8 AS t, cs.status, cs.error
     FROM check_statuses cs JOIN checks c ON c.id = cs.check_id
     WHERE cs.time >= $1 AND cs.time <= $2`,
    [new Date(ws), new Date(stopAt + 120_000)],
  );

  // Checks run per minute of the window, by the time they ran.
  const perMinute = Array.from({ length: Math.floor((we - ws) / 60_000) }, () => 0);
  let failed = 0;
  let firstError: string | null = null;
  // Per planned run (canary, planned): the start times of its checks.
  const runs = new Map<string, { canary: string; planned: number; times: number[] }>();
  let unattributed = 0;
  for (const r of rows) {
    if (r.t >= ws && r.t < we) {
      const m = Math.floor((r.t - ws) / 60_000);
      if (m < perMinute.length) perMinute[m]!++;
      if (!r.status) {
        failed++;
        firstError ??= r.error;
      }
    }
    const list = planned.get(r.canary_id) ?? [];
    const i = lastAtOrBefore(list, r.t);
    if (i < 0) {
      unattributed++;
      continue;
    }
    const p = list[i]!;
    if (p < ws || p >= we) continue;
    const key = `${r.canary_id} ${p}`;
    const run = runs.get(key) ?? { canary: r.canary_id, planned: p, times: [] };
    run.times.push(r.t);
    runs.set(key, run);
  }
  if (unattributed) log(`  (${unattributed} statuses had no planned time before them: not counted)`);

  const lateness: number[] = [];
  const startLateness: number[] = [];
  const queueing: number[] = [];
  for (const run of runs.values()) {
    const first = Math.min(...run.times);
    startLateness.push(first - run.planned);
    for (const t of run.times) {
      lateness.push(t - run.planned);
      queueing.push(t - first);
    }
  }

  // Planned runs in the window, check runs they should have produced, and slots the engine skipped.
  let plannedRuns = 0;
  let expectedCheckRuns = 0;
  let missedCheckRuns = 0;
  let skippedSlots = 0;
  for (const [canary, list] of planned) {
    const n = checksOf.get(canary) ?? 0;
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      if (p >= ws && p < we) {
        plannedRuns++;
        expectedCheckRuns += n;
        const done = runs.get(`${canary} ${p}`)?.times.length ?? 0;
        missedCheckRuns += Math.max(0, n - done);
      }
      // Slots of the planned phase between this planned time and the next one that were never planned
      // (the engine re-plans from "now" after a run that ended past its next slot), and slots after the
      // last planned time when its run never finished: both are missed runs.
      const next = list[i + 1] ?? Infinity;
      for (let slot = p + PERIOD_MS; slot < next - 1000 && slot < we; slot += PERIOD_MS) {
        if (slot < ws) continue;
        skippedSlots++;
        expectedCheckRuns += n;
        missedCheckRuns += n;
      }
    }
  }

  const jobs = (
    await db.query<{ d: number }>(
      `SELECT (extract(epoch FROM (time_end - time_start)) * 1000)::float8 AS d FROM job_history
       WHERE name = 'Canary' AND time_start >= $1 AND time_start < $2`,
      [new Date(ws), new Date(we)],
    )
  ).rows.map((r) => r.d);
  const rollups = (
    await db.query<{ start: string; ms: number; details: unknown }>(
      `SELECT time_start::text AS start, duration_millis::float8 AS ms, details::text AS details FROM job_history
       WHERE name = 'CheckStatusRollup' ORDER BY time_start`,
    )
  ).rows.map((r) => `${r.start}: ${fmt(r.ms)} ms ${String(r.details)}`);

  return {
    perMinute,
    failed,
    firstError,
    lateness: Float64Array.from(lateness),
    startLateness: Float64Array.from(startLateness),
    queueing: Float64Array.from(queueing),
    runDurations: Float64Array.from(jobs),
    plannedRuns,
    expectedCheckRuns,
    missedCheckRuns,
    skippedSlots,
    rollups,
  };
}

/** Waits (at most `seconds`) until no canary is still due before `windowEnd`: the window's runs finished. */
export async function drainPlanned(db: Queryable, windowEnd: number, seconds: number): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < seconds * 1000) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM canaries WHERE deleted_at IS NULL AND next_runtime < $1`,
      [new Date(windowEnd)],
    );
    if (rows[0]!.n === 0) return;
    await sleep(1000);
  }
}
