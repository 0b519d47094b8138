// Uptime and latency figures for status pages and badges, read from the health tables: daily
// roll-ups (check_statuses_1d) up to the roll-up mark plus the raw statuses after it, so today's
// runs count before the next roll-up. A component's figures are those of the checks linked to it.
import type { Queryable } from '../db/database.js';

export const DAY_MS = 86_400_000;
/** Days of uptime bars on a page. */
export const BAR_DAYS = 90;

export interface Tally {
  passed: number;
  failed: number;
}

/** The first day of the bars: UTC midnight BAR_DAYS - 1 days before `now`. */
export function barsStart(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (BAR_DAYS - 1) * DAY_MS);
}

const DAILY_SQL = `
WITH mark AS (SELECT coalesce((SELECT rolled_at FROM check_statuses_rollup_mark), '-infinity'::timestamptz) AS t),
tallies AS (
  SELECT check_id, created_at AS at, passed, failed FROM check_statuses_1d
  WHERE check_id = ANY($1::uuid[]) AND created_at >= $2::timestamptz
  UNION ALL
  SELECT check_id, time, CASE WHEN status THEN 1 ELSE 0 END, CASE WHEN status THEN 0 ELSE 1 END
  FROM check_statuses, mark WHERE check_id = ANY($1::uuid[]) AND time >= greatest(mark.t, $2::timestamptz)
)
SELECT check_id::text, json_agg(json_build_array(d, p, f)) AS days FROM (
  SELECT check_id, floor(extract(epoch FROM at - $2::timestamptz) / 86400)::int AS d, sum(passed)::int AS p,
         sum(failed)::int AS f
  FROM tallies GROUP BY 1, 2
) t GROUP BY check_id`;

/** Per check, BAR_DAYS tallies from `start` (index 0) to today. */
export async function dailyTallies(db: Queryable, checkIds: string[], start: Date): Promise<Map<string, Tally[]>> {
  const out = new Map<string, Tally[]>();
  if (!checkIds.length) return out;
  const { rows } = await db.query<{ check_id: string; days: [number, number, number][] | string }>(DAILY_SQL, [
    checkIds,
    start.toISOString(),
  ]);
  for (const row of rows) {
    const days: Tally[] = Array.from({ length: BAR_DAYS }, () => ({ passed: 0, failed: 0 }));
    const list = typeof row.days === 'string' ? (JSON.parse(row.days) as [number, number, number][]) : row.days;
    for (const [d, p, f] of list) {
      if (d < 0 || d >= BAR_DAYS) continue;
      days[d]!.passed += p;
      days[d]!.failed += f;
    }
    out.set(row.check_id, days);
  }
  return out;
}

/** The checks linked to each component (topology's check_component_relationships). */
export async function componentChecks(db: Queryable, componentIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!componentIds.length) return out;
  const { rows } = await db.query<{ component_id: string; check_id: string }>(
    `SELECT DISTINCT component_id::text, check_id::text FROM check_component_relationships
     WHERE component_id = ANY($1::uuid[]) AND deleted_at IS NULL`,
    [componentIds],
  );
  for (const r of rows) out.set(r.component_id, [...(out.get(r.component_id) ?? []), r.check_id]);
  return out;
}

/** Percent passed with two decimals; null without runs. */
export function percent(t: Tally): number | null {
  const total = t.passed + t.failed;
  return total ? Math.floor((t.passed / total) * 10_000) / 100 : null;
}

export function sumTallies(lists: Tally[][]): Tally[] {
  const out: Tally[] = Array.from({ length: BAR_DAYS }, () => ({ passed: 0, failed: 0 }));
  for (const list of lists)
    for (const [i, t] of list.entries()) {
      out[i]!.passed += t.passed;
      out[i]!.failed += t.failed;
    }
  return out;
}

export const RANGES = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS } as const;
export type BadgeRange = keyof typeof RANGES;

const RANGE_SQL = `
WITH mark AS (SELECT coalesce((SELECT rolled_at FROM check_statuses_rollup_mark), '-infinity'::timestamptz) AS t),
parts AS (
  SELECT total, passed, failed, duration_avg::bigint * total AS dur FROM check_statuses_1h, mark
  WHERE check_id = ANY($1::uuid[]) AND created_at >= date_trunc('hour', $2::timestamptz) AND created_at < mark.t
  UNION ALL
  SELECT 1, CASE WHEN status THEN 1 ELSE 0 END, CASE WHEN status THEN 0 ELSE 1 END, duration FROM check_statuses, mark
  WHERE check_id = ANY($1::uuid[]) AND time >= greatest(mark.t, $2::timestamptz)
)
SELECT coalesce(sum(passed), 0)::int AS passed, coalesce(sum(failed), 0)::int AS failed,
       (sum(dur) / nullif(sum(total), 0))::int AS latency FROM parts`;

/** Uptime and mean latency (ms) of some checks over the last `range`. */
export async function rangeFigures(
  db: Queryable,
  checkIds: string[],
  range: BadgeRange,
  now = new Date(),
): Promise<{ uptime: number | null; latency: number | null }> {
  if (!checkIds.length) return { uptime: null, latency: null };
  const since = new Date(now.getTime() - RANGES[range]);
  const { rows } = await db.query<{ passed: number; failed: number; latency: number | null }>(RANGE_SQL, [
    checkIds,
    since.toISOString(),
  ]);
  const r = rows[0]!;
  return { uptime: percent(r), latency: r.latency === null ? null : Number(r.latency) };
}
