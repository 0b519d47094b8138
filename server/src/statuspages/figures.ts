// Uptime and latency figures for status pages and badges, read from the health tables: daily
// roll-ups (check_statuses_1d) up to the roll-up mark plus the raw statuses after it, so today's
// runs count before the next roll-up. A component's figures are those of the checks linked to it.
import type { Queryable } from '../db/database.js';

export const DAY_MS = 86_400_000;
/** Days of uptime bars on a page. */
export const BAR_DAYS = 90;

export interface Tally {
  readonly passed: number;
  readonly failed: number;
}

/** No runs; days without runs share it (tallies are never changed in place). */
export const NO_RUNS: Tally = Object.freeze({ passed: 0, failed: 0 });
const noDays = (): Tally[] => new Array<Tally>(BAR_DAYS).fill(NO_RUNS);

/** The first day of the bars: UTC midnight BAR_DAYS - 1 days before `now`. */
export function barsStart(now: Date): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (BAR_DAYS - 1) * DAY_MS);
}

/**
 * Tallies per check and day index from $2 (the first day) for days in [$2, $3): daily roll-ups, plus
 * the raw statuses after the roll-up mark. One text row per check ("day:passed:failed,…"), joined
 * through unnest so each check is an index lookup.
 */
const DAILY_SQL = `
WITH mark AS (SELECT coalesce((SELECT rolled_at FROM check_statuses_rollup_mark), '-infinity'::timestamptz) AS t),
ids AS (SELECT DISTINCT unnest($1::uuid[]) AS id),
tallies AS (
  SELECT d.check_id, d.created_at AS at, d.passed, d.failed FROM ids
  JOIN check_statuses_1d d ON d.check_id = ids.id AND d.created_at >= $2::timestamptz AND d.created_at < $3::timestamptz
  UNION ALL
  SELECT s.check_id, s.time, CASE WHEN s.status THEN 1 ELSE 0 END, CASE WHEN s.status THEN 0 ELSE 1 END
  FROM ids CROSS JOIN mark
  JOIN check_statuses s ON s.check_id = ids.id AND s.time >= greatest(mark.t, $2::timestamptz) AND s.time < $3::timestamptz
),
days AS (
  SELECT check_id, floor(extract(epoch FROM at - $4::timestamptz) / 86400)::int AS d, sum(passed)::int AS p,
         sum(failed)::int AS f
  FROM tallies GROUP BY 1, 2
)
SELECT check_id::text, string_agg(d || ':' || p || ':' || f, ',') AS days FROM days GROUP BY check_id`;

async function tallyRange(
  db: Queryable,
  checkIds: string[],
  barsFrom: Date,
  from: Date,
  to: Date,
): Promise<Map<string, Tally[]>> {
  const out = new Map<string, Tally[]>();
  if (!checkIds.length) return out;
  const { rows } = await db.query<{ check_id: string; days: string }>(DAILY_SQL, [
    checkIds,
    from.toISOString(),
    to.toISOString(),
    barsFrom.toISOString(),
  ]);
  for (const row of rows) {
    const days = noDays();
    for (const part of row.days.split(',')) {
      const [d, p, f] = part.split(':').map(Number) as [number, number, number];
      if (!(d >= 0 && d < BAR_DAYS)) continue;
      days[d] = { passed: days[d]!.passed + p, failed: days[d]!.failed + f };
    }
    out.set(row.check_id, days);
  }
  return out;
}

/**
 * The days before today change only when history is backfilled: kept per check for a few minutes
 * (per process) so a page reads only today's tallies on most requests.
 */
export const HISTORY_TTL_MS = 5 * 60_000;
const HISTORY_MAX = 100_000;
const history = new Map<string, { from: number; at: number; days: Tally[] }>();

/** Per check, BAR_DAYS tallies from `start` (index 0) to today (the last index). */
export async function dailyTallies(
  db: Queryable,
  checkIds: string[],
  start: Date,
  now = new Date(),
): Promise<Map<string, Tally[]>> {
  const out = new Map<string, Tally[]>();
  if (!checkIds.length) return out;
  const today = new Date(start.getTime() + (BAR_DAYS - 1) * DAY_MS);
  const fresh = (id: string) => {
    const h = history.get(id);
    return h && h.from === start.getTime() && now.getTime() - h.at < HISTORY_TTL_MS ? h : undefined;
  };
  const missing = checkIds.filter((id) => !fresh(id));
  const [past, current] = await Promise.all([
    missing.length ? tallyRange(db, missing, start, start, today) : Promise.resolve(new Map<string, Tally[]>()),
    tallyRange(db, checkIds, start, today, new Date(today.getTime() + DAY_MS)),
  ]);
  if (history.size + missing.length > HISTORY_MAX) history.clear();
  for (const id of missing)
    history.set(id, {
      from: start.getTime(),
      at: now.getTime(),
      days: past.get(id) ?? noDays(),
    });
  for (const id of checkIds) {
    const days = (fresh(id)?.days ?? past.get(id) ?? noDays()).slice();
    days[BAR_DAYS - 1] = current.get(id)?.[BAR_DAYS - 1] ?? NO_RUNS;
    out.set(id, days);
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
  const passed = new Array<number>(BAR_DAYS).fill(0);
  const failed = new Array<number>(BAR_DAYS).fill(0);
  for (const list of lists)
    for (let i = 0; i < BAR_DAYS; i++) {
      passed[i]! += list[i]?.passed ?? 0;
      failed[i]! += list[i]?.failed ?? 0;
    }
  return passed.map((p, i) => ({ passed: p, failed: failed[i]! }));
}

export const RANGES = { '24h': DAY_MS, '7d': 7 * DAY_MS, '30d': 30 * DAY_MS } as const;
export type BadgeRange = keyof typeof RANGES;

const RANGE_SQL = `
WITH mark AS (SELECT coalesce((SELECT rolled_at FROM check_statuses_rollup_mark), '-infinity'::timestamptz) AS t),
ids AS (SELECT DISTINCT unnest($1::uuid[]) AS id),
parts AS (
  SELECT h.total, h.passed, h.failed, h.duration_avg::bigint * h.total AS dur FROM ids CROSS JOIN mark
  JOIN check_statuses_1h h ON h.check_id = ids.id AND h.created_at >= date_trunc('hour', $2::timestamptz) AND h.created_at < mark.t
  UNION ALL
  SELECT 1, CASE WHEN s.status THEN 1 ELSE 0 END, CASE WHEN s.status THEN 0 ELSE 1 END, s.duration FROM ids CROSS JOIN mark
  JOIN check_statuses s ON s.check_id = ids.id AND s.time >= greatest(mark.t, $2::timestamptz)
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
