// The health summary (GET /api/canary/api/summary): per check, uptime and latency over a range,
// around the check's own fields. The figures of the usual ranges (1h, 1d, 7d, 30d back from now)
// are precomputed into check_summaries by a refresher on whichever replica takes the range's lock,
// so the dashboard's polls only join and serialize; any other range is computed on request.
import os from 'node:os';
import type { Database, Queryable } from '../db/database.js';
import { logger } from '../log.js';
import { parseDuration } from '../connections/duration.js';
import { liveStatsFor, statsFor } from './summaryStats.js';
import { edgeFigures, type RangeFigures } from './edgeFigures.js';
import { Slices } from '../jobs/slices.js';
import { arrayParam } from '../db/arrayParam.js';
import { CopyReader, textLiteral, timestampLiteral } from '../db/copyOut.js';

const log = logger('health');

/** An item's fields before its figures and after them (the item's JSON keys, in order). */
const ITEM_HEAD = `c.id, c.canary_id, ca.name AS canary_name, ca.namespace AS canary_namespace, c.agent_id,
    ag.name AS agent_name, ca.labels || c.labels AS labels, c.status, c.type, c.name, c.namespace, c.owner,
    c.severity, c.icon, c.description, c.endpoint`;
const ITEM_TAIL = `c.last_runtime, c.last_transition_time, c.next_runtime, c.created_at, c.updated_at, c.deleted_at`;

/** The JSON keys of a list of columns (`x.col`, `expr AS key`), in order. */
const keysOf = (columns: string) =>
  columns.split(',').map((c) =>
    c
      .trim()
      .split(/\s+AS\s+|\./)
      .pop()!,
  );
/** The keys of an item's fields before its figures and after them, as row_to_json writes them (summaryRows.ts). */
export const ITEM_HEAD_KEYS = keysOf(ITEM_HEAD);
export const ITEM_TAIL_KEYS = keysOf(ITEM_TAIL);

/** The item of each check, as one flat row (the nested uptime and latency objects are row values). */
const ITEM = `
CROSS JOIN LATERAL (
  SELECT ${ITEM_HEAD},
    (SELECT u FROM (SELECT coalesce(s.passed, 0) AS passed, coalesce(s.failed, 0) AS failed, s.last_pass, s.last_fail) u) AS uptime,
    (SELECT l FROM (SELECT s.p95, s.p97, s.p99, s.rolling1h) l) AS latency,
    ${ITEM_TAIL}
) x`;

const LIVE_CHECKS = `
FROM checks c
JOIN canaries ca ON ca.id = c.canary_id
LEFT JOIN agents ag ON ag.id = c.agent_id`;

const labelFilter = (labels: string) => `
WHERE c.deleted_at IS NULL AND ca.deleted_at IS NULL
  AND (${labels}::jsonb IS NULL OR (ca.labels || c.labels) @> ${labels}::jsonb)`;

/**
 * The JSON of every check around a per-check aggregate `s` (check_id, passed, failed, last_pass,
 * last_fail, p95, p97, p99, rolling1h), ordered by canary and check name: row_to_json of one flat
 * row per check is several times faster than json_build_object for 10,000 checks, same keys in the
 * same order. `labels` is the parameter holding the label filter (a JSON object, or null).
 */
const summaryOutput = (labels: string) => `
SELECT coalesce(json_agg(x ORDER BY ca.name, c.name, c.id), '[]')::text AS checks${LIVE_CHECKS}
LEFT JOIN s ON s.check_id = c.id${ITEM}${labelFilter(labels)}`;

/**
 * The summary query for a range, computed now: $1 start, $2 end, $3 the label filter. `accurate`:
 * the sketch figures over 6 h (exact counts, percentiles within 1 %, see summaryStats.ts) instead
 * of the ones requests and the refresher use (liveStatsFor: 20–40× cheaper in SQL at 10,000 checks).
 */
export function summarySqlFor(start: Date, end: Date, accurate = false): string {
  return `WITH ${(accurate ? statsFor : liveStatsFor)(start, end)}${summaryOutput('$3')}`;
}

/** The `s` CTE from figures computed in the server (edgeFigures.ts), passed as arrays ($2–$10). */
const FIGURES_S = `s AS (
  SELECT * FROM unnest($2::uuid[], $3::bigint[], $4::bigint[], $5::timestamptz[], $6::timestamptz[],
                       $7::int[], $8::int[], $9::int[], $10::int[])
    AS s(check_id, passed, failed, last_pass, last_fail, p95, p97, p99, rolling1h)
)`;

/** The summary from figures computed in the server ($1 the label filter, then figuresParams). */
export const FIGURES_SUMMARY_SQL = `WITH ${FIGURES_S}${summaryOutput('$1')}`;

const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The parameters $2–$10 of FIGURES_SUMMARY_SQL (each array's text written at once, db/arrayParam.ts). */
export const figuresParams = (f: RangeFigures) =>
  [
    f.check_id,
    f.passed,
    f.failed,
    f.last_pass.map(isoOrNull),
    f.last_fail.map(isoOrNull),
    f.p95,
    f.p97,
    f.p99,
    f.rolling1h,
  ].map(arrayParam);

/**
 * The precomputed figures of a range ($1 the range key) with the runs recorded since they were
 * computed ($2 computed_at) added to the counts and last pass and failure; the percentiles and
 * rolling1h are as computed. `only` narrows both to some checks (an SQL condition on check_id).
 */
const precomputedStats = (only = 'true') => `
d AS (
  SELECT check_id, count(*) FILTER (WHERE status) AS passed, count(*) FILTER (WHERE NOT status) AS failed,
         max(time) FILTER (WHERE status) AS last_pass, max(time) FILTER (WHERE NOT status) AS last_fail
  FROM check_statuses WHERE time > $2 AND ${only} GROUP BY check_id
),
s AS (
  SELECT coalesce(p.check_id, d.check_id) AS check_id,
         coalesce(p.passed, 0) + coalesce(d.passed, 0) AS passed, coalesce(p.failed, 0) + coalesce(d.failed, 0) AS failed,
         greatest(p.last_pass, d.last_pass) AS last_pass, greatest(p.last_fail, d.last_fail) AS last_fail,
         p.p95, p.p97, p.p99, p.rolling1h
  FROM (SELECT * FROM check_summaries WHERE range_key = $1 AND ${only}) p FULL JOIN d ON d.check_id = p.check_id
)`;

/**
 * The whole summary from precomputed figures in one query ($1 range key, $2 computed_at, $3 the
 * label filter): what the per-check answers of SummaryItems must add up to (the tests compare them).
 */
export const PRECOMPUTED_SUMMARY_SQL = `WITH ${precomputedStats()}${summaryOutput('$3')}`;

/** What an item depends on besides the range's figures: a run or an apply moves these. */
const VERSION = 'greatest(c.updated_at, ca.updated_at, ag.updated_at)';

/**
 * The checks of a summary in order ($1 the label filter), each with its version, its sort key, and
 * `next`: where the next look for changes starts (see CHANGED_CHECKS_SQL).
 */
export const SUMMARY_CHECKS_SQL = `
SELECT c.id, ${VERSION}::text AS v, ca.name || E'\\n' || c.name AS k, now() - interval '10 seconds' AS next${LIVE_CHECKS}${labelFilter('$1')}
ORDER BY ca.name, c.name, c.id`;

/**
 * The checks changed (run, applied, deleted) since $1, and `next` (one row with nulls when none
 * changed). Looking back 10 s more than the last answer covers transactions that committed late.
 */
export const CHANGED_CHECKS_SQL = `
WITH t AS (SELECT now() - interval '10 seconds' AS next)
SELECT t.next, x.* FROM t LEFT JOIN LATERAL (
  SELECT c.id, ${VERSION}::text AS v, ca.name || E'\\n' || c.name AS k,
         (c.deleted_at IS NULL AND ca.deleted_at IS NULL) AS live${LIVE_CHECKS}
  WHERE greatest(${VERSION}, c.deleted_at, ca.deleted_at) > $1
) x ON true`;

/**
 * Each check's item around its figures, as the JSON of the fields before them (`head`) and after
 * them (`tail`), with its version and sort key: summaryTemplates.ts joins them around any range's
 * figures.
 */
const TEMPLATE_ITEMS = `
SELECT c.id, ${VERSION}::text AS v, ca.name || E'\\n' || c.name AS k, row_to_json(h)::text AS head, row_to_json(t)::text AS tail${LIVE_CHECKS}
CROSS JOIN LATERAL (SELECT ${ITEM_HEAD}) h
CROSS JOIN LATERAL (SELECT ${ITEM_TAIL}) t`;

/** The item parts of some checks ($1 ids), with their version (TEMPLATE_ITEMS). */
export const TEMPLATE_ITEMS_SQL = `${TEMPLATE_ITEMS}
WHERE c.id = ANY($1::uuid[])`;

/**
 * The checks matching a label filter (`labels`: a parameter or an SQL literal) in the summary's
 * order as `s`: their columns, version and sort key, sorted before anything is made of them, and
 * with `json` the JSON of their items' parts (`h`, `t`) made after (sorting rows with their JSON
 * built, 7 MB at 10,000 checks, spilled to disk at the default work_mem: 72 against 64 ms). The
 * outer query orders by `s`'s order again, which the planner takes as given (no second sort).
 */
const sortedItems = (labels: string, json: boolean) => `
FROM (
  SELECT ${ITEM_HEAD}, ${ITEM_TAIL}, ${VERSION}::text AS v, ca.name || E'\\n' || c.name AS k${LIVE_CHECKS}${labelFilter(labels)}
  ORDER BY ca.name, c.name, c.id OFFSET 0
) s${
  json
    ? `
CROSS JOIN LATERAL (SELECT ${ITEM_HEAD_KEYS.map((k) => `s.${k}`).join(', ')}) h
CROSS JOIN LATERAL (SELECT ${ITEM_TAIL_KEYS.map((k) => `s.${k}`).join(', ')}) t`
    : ''
}
ORDER BY s.canary_name, s.name, s.id`;

/**
 * Every check matching a label filter (an SQL literal: COPY takes no parameters), in the summary's
 * order, as binary COPY of its id (text), version, sort key and the item's columns in their binary
 * forms: a server's first answer writes their JSON itself (itemBytes.ts), which took PostgreSQL ~50
 * of its 64 ms at 10,000 checks, on the cores that read the figures beside it.
 */
export const rawItemsCopy = (labels: string) =>
  `COPY (SELECT s.id::text, s.v, s.k, ${[...ITEM_HEAD_KEYS, ...ITEM_TAIL_KEYS].map((k) => `s.${k}`).join(', ')}${sortedItems(labels, false)}) TO STDOUT (FORMAT binary)`;

/** TEMPLATE_ITEMS_SQL for every check of a summary ($1 the label filter), in the summary's order. */
export const ALL_TEMPLATE_ITEMS_SQL = `
SELECT s.id, s.v, s.k, row_to_json(h)::text AS head, row_to_json(t)::text AS tail${sortedItems('$1', true)}`;

/** The precomputed figures of a range ($1 range key, $2 computed_at), as edgeFigures.ts gives figures. */
const PRECOMPUTED_FIGURES_SQL = `WITH ${precomputedStats()}
SELECT s.check_id AS id, s.passed::float8 AS passed, s.failed::float8 AS failed,
       floor(extract(epoch FROM s.last_pass) * 1000)::float8 AS last_pass,
       floor(extract(epoch FROM s.last_fail) * 1000)::float8 AS last_fail, s.p95, s.p97, s.p99, s.rolling1h
FROM s`;

/** The same as binary COPY (no parameters: the key and time written as literals). */
const precomputedFiguresCopy = (range: PrecomputedRange, asOf: Date) =>
  `COPY (WITH ${precomputedStats()}
SELECT check_id::text, passed, failed, last_pass, last_fail, p95, p97, p99, rolling1h FROM s) TO STDOUT (FORMAT binary)`
    .replaceAll('$1', () => textLiteral(range.key))
    .replaceAll('$2', () => timestampLiteral(asOf));

/**
 * A precomputed range's figures as computed at `asOf` with the runs recorded since added (the
 * percentiles as computed): what the range's items are written around when it has none kept
 * (summaryItems.ts). Times to the millisecond; by binary COPY (PGlite: to a blob).
 */
export async function precomputedFigures(db: Queryable, range: PrecomputedRange, asOf: Date): Promise<RangeFigures> {
  const f: RangeFigures = {
    from: new Date(asOf.getTime() - range.ms),
    to: asOf,
    ...{ check_id: [], passed: [], failed: [], last_pass: [], last_fail: [], p95: [], p97: [], p99: [], rolling1h: [] },
  };
  // Binary COPY: PostgreSQL's to the client, PGlite's to a blob (its rows as objects took ~100 ms
  // more at 10,000 checks).
  const data = db.copyOut
    ? await db.copyOut(precomputedFiguresCopy(range, asOf))
    : await db.copyOutBlob?.(precomputedFiguresCopy(range, asOf));
  if (data) {
    const r = new CopyReader(data);
    const ms = (len: number) => (len < 0 ? null : r.ms(len));
    while (r.tuple() === 9) {
      f.check_id.push(r.text(r.field()));
      f.passed.push(r.int8(r.field(), 0));
      f.failed.push(r.int8(r.field(), 0));
      f.last_pass.push(ms(r.field()));
      f.last_fail.push(ms(r.field()));
      for (const k of ['p95', 'p97', 'p99', 'rolling1h'] as const) f[k].push(r.int4(r.field()));
    }
    return f;
  }
  type Row = {
    id: string;
    passed: number;
    failed: number;
    last_pass: number | null;
    last_fail: number | null;
  } & Record<'p95' | 'p97' | 'p99' | 'rolling1h', number | null>;
  const { rows } = await db.query<Row>(PRECOMPUTED_FIGURES_SQL, [range.key, asOf]);
  for (const row of rows) {
    f.check_id.push(row.id);
    for (const k of ['passed', 'failed', 'last_pass', 'last_fail', 'p95', 'p97', 'p99', 'rolling1h'] as const)
      (f[k] as Array<number | null>).push(row[k]);
  }
  return f;
}

/** The items of some checks ($3 ids) from precomputed figures ($1 range key, $2 computed_at). */
export const PRECOMPUTED_ITEMS_SQL = `WITH ${precomputedStats('check_id = ANY($3::uuid[])')}
SELECT c.id, row_to_json(x)::text AS json${LIVE_CHECKS}
LEFT JOIN s ON s.check_id = c.id${ITEM}
WHERE c.id = ANY($3::uuid[])`;

export interface PrecomputedRange {
  /** The key in check_summaries; also how the range is written (`start=1h`). */
  key: string;
  ms: number;
  /** How often the refresher recomputes it. */
  everyMs: number;
}

/** The ranges the dashboard asks for most (its default 1h, and the day, week and month). */
export const PRECOMPUTED_RANGES: readonly PrecomputedRange[] = [
  { key: '1h', ms: 3_600_000, everyMs: 60_000 },
  { key: '1d', ms: 86_400_000, everyMs: 2 * 60_000 },
  { key: '7d', ms: 7 * 86_400_000, everyMs: 5 * 60_000 },
  { key: '30d', ms: 30 * 86_400_000, everyMs: 5 * 60_000 },
];

/** Figures older than this are not served: the refresher has stopped (no replica runs the engines). */
export const staleAfterMs = (r: PrecomputedRange) => 2 * r.everyMs + 30_000;

/**
 * The precomputed range a request asks for: `start` a duration back from now (`1h`, `60m`,
 * `now-24h`, `43200m`, …) within a second of the range, and no `end`. Undefined otherwise.
 */
export function precomputedRangeOf(start: string | undefined, end: string | undefined): PrecomputedRange | undefined {
  if (!start || end) return undefined;
  const m = /^(?:now-)?((?:\d+(?:ms|s|m|h|d|w))+)$/.exec(start.trim());
  if (!m) return undefined;
  let ms: number;
  try {
    ms = parseDuration(m[1]!);
  } catch {
    return undefined;
  }
  return PRECOMPUTED_RANGES.find((r) => Math.abs(r.ms - ms) < 1_000);
}

/**
 * Recomputes one range's figures unless another replica is doing it or they are younger than
 * `minAgeMs`: one transaction that holds the range's row lock, replaces its rows and stamps
 * computed_at (the end of the window). Returns whether it ran, and how many checks it wrote.
 */
export async function refreshSummary(
  db: Database,
  range: PrecomputedRange,
  minAgeMs = range.everyMs,
): Promise<{ ran: boolean; checks: number; ms: number; asOf?: Date }> {
  const started = performance.now();
  const result = await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO check_summary_ranges (range_key) VALUES ($1) ON CONFLICT DO NOTHING`, [range.key]);
    const { rows } = await tx.query<{ key: string }>(
      `SELECT range_key AS key FROM check_summary_ranges
       WHERE range_key = $1 AND (computed_at IS NULL OR computed_at <= now() - make_interval(secs => $2::float8 / 1000))
       FOR UPDATE SKIP LOCKED`,
      [range.key, minAgeMs],
    );
    if (!rows[0]) return { ran: false, checks: 0, asOf: undefined };
    const end = new Date();
    const start = new Date(end.getTime() - range.ms);
    await tx.query(`DELETE FROM check_summaries WHERE range_key = $1`, [range.key]);
    // From the edges (two edges per check) when they are built, else from statuses and roll-ups.
    // No deadline: its loops give way to the checks under way (jobs/slices.ts).
    const figures = await edgeFigures(tx, start, end, undefined, new Slices({ background: true }));
    const insert = (
      key: string,
    ) => `INSERT INTO check_summaries (range_key, check_id, passed, failed, last_pass, last_fail, p95, p97, p99, rolling1h)
       SELECT ${key}, s.check_id, s.passed, s.failed, s.last_pass, s.last_fail, s.p95, s.p97, s.p99, s.rolling1h
       FROM s JOIN checks c ON c.id = s.check_id`;
    const inserted = figures
      ? await tx.query(`WITH ${FIGURES_S} ${insert('$1')}`, [range.key, ...figuresParams(figures)])
      : await tx.query(`WITH ${liveStatsFor(start, end)} ${insert('$3')}`, [start, end, range.key]);
    await tx.query(`UPDATE check_summary_ranges SET computed_at = $2, refreshed_by = $3 WHERE range_key = $1`, [
      range.key,
      end,
      os.hostname(),
    ]);
    return { ran: true, checks: inserted.affectedRows ?? 0, asOf: end };
  });
  return { ...result, ms: performance.now() - started };
}

/** When a range's figures were computed, if they are fresh enough to serve. */
export async function freshComputedAt(db: Queryable, range: PrecomputedRange): Promise<Date | undefined> {
  const { rows } = await db.query<{ computed_at: Date | string | null }>(
    `SELECT computed_at FROM check_summary_ranges WHERE range_key = $1`,
    [range.key],
  );
  const at = rows[0]?.computed_at;
  if (!at) return undefined;
  const d = new Date(at);
  return Date.now() - d.getTime() <= staleAfterMs(range) ? d : undefined;
}

/**
 * Keeps the precomputed ranges fresh: each range on its own period, started together with the
 * engines. Several replicas may run it: the row lock lets one of them refresh a range at a time.
 */
export class SummaryRefresher {
  private timers = new Map<string, NodeJS.Timeout>();
  private running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly db: Database,
    /** Called after each refresh this replica made (e.g. to rebuild the answers it serves). */
    private readonly onRefreshed: (range: PrecomputedRange, asOf: Date) => void = () => undefined,
    private readonly ranges: readonly PrecomputedRange[] = PRECOMPUTED_RANGES,
  ) {}

  start(): void {
    this.stopped = false;
    for (const range of this.ranges) {
      const tick = () => {
        if (this.stopped) return;
        // A little early, so a refresh finishing late does not skip a whole period.
        const p = refreshSummary(this.db, range, range.everyMs - 2_000)
          .then((r) => r.asOf && this.onRefreshed(range, r.asOf))
          .catch((e: unknown) => log.error(`health summary ${range.key}: ${(e as Error).message}`))
          .finally(() => {
            this.running.delete(p);
            if (!this.stopped) this.timers.set(range.key, setTimeout(tick, range.everyMs).unref());
          });
        this.running.add(p);
      };
      this.timers.set(range.key, setTimeout(tick, 1_000).unref());
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.all([...this.running]);
  }
}
