// The health summary (GET /api/canary/api/summary): per check, uptime and latency over any range,
// around the check's own fields. Every range is answered the same way, fast by construction: the
// running tally of each check at the range's end minus the one at its start (sketches.ts), two hour
// rows per check whatever the range, merged in memory; no raw durations are read or sorted. The
// percentiles are DDSketch estimates within 1 % of the exact ones (sketch.ts). Answers are kept for
// a moment per replica (SummaryViews) with an ETag, so polls that find nothing changed get a 304.
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Database, Queryable } from '../db/database.js';
import { buildDirty, HOUR_MS, hourOf, rangeFigures, type Boundary } from './sketches.js';
import { logger } from '../log.js';

const log = logger('health');

/** The quantiles the summary reports. */
const QUANTILES = [0.95, 0.97, 0.99] as const;

/** The check's own fields, in the FORMATS.md order; uptime and latency go after `endpoint`. */
const CHECK_FIELDS = `c.id, c.canary_id, ca.name AS canary_name, ca.namespace AS canary_namespace, c.agent_id,
  ag.name AS agent_name, ca.labels || c.labels AS labels, c.status, c.type, c.name, c.namespace, c.owner,
  c.severity, c.icon, c.description, c.endpoint, c.last_runtime, c.last_transition_time, c.next_runtime,
  c.created_at, c.updated_at, c.deleted_at`;

/** The row at or before an hour ($n) that holds the check's running tally there. */
const boundary = (i: number, param: number) => `
LEFT JOIN LATERAL (
  SELECT h.created_at AS at, h.cum, h.runs FROM check_statuses_1h h
  WHERE h.check_id = c.id AND h.created_at <= $${param} AND h.cum IS NOT NULL
  ORDER BY h.created_at DESC LIMIT 1
) b${i} ON true`;

/** The live checks matching $1 (a label filter: a JSON object, or null) with `n` boundary rows ($2…). */
export function summarySql(n: number): string {
  const cols = Array.from(
    { length: n },
    (_, i) => `, b${i}.at AS at${i}, b${i}.cum AS cum${i}, b${i}.runs AS runs${i}`,
  );
  return `SELECT ${CHECK_FIELDS}${cols.join('')}
FROM checks c
JOIN canaries ca ON ca.id = c.canary_id
LEFT JOIN agents ag ON ag.id = c.agent_id${Array.from({ length: n }, (_, i) => boundary(i, i + 2)).join('')}
WHERE c.deleted_at IS NULL AND ca.deleted_at IS NULL
  AND ($1::jsonb IS NULL OR (ca.labels || c.labels) @> $1::jsonb)
ORDER BY ca.name, c.name, c.id`;
}

type Time = Date | null;
interface CheckRow {
  id: string;
  canary_id: string;
  canary_name: string;
  canary_namespace: string;
  agent_id: string | null;
  agent_name: string | null;
  labels: Record<string, string> | null;
  status: string | null;
  type: string;
  name: string;
  namespace: string | null;
  owner: string | null;
  severity: string | null;
  icon: string | null;
  description: string | null;
  endpoint: string | null;
  last_runtime: Time;
  last_transition_time: Time;
  next_runtime: Time;
  created_at: Time;
  updated_at: Time;
  deleted_at: Time;
}

export interface Uptime {
  passed: number;
  failed: number;
  last_pass: string | null;
  last_fail: string | null;
}
export interface Latency {
  p95: number | null;
  p97: number | null;
  p99: number | null;
  rolling1h: number | null;
}

/** One check of a summary, in the FORMATS.md shape. */
export type SummaryItem = Omit<
  CheckRow,
  'last_runtime' | 'last_transition_time' | 'next_runtime' | 'created_at' | 'updated_at' | 'deleted_at'
> & {
  uptime: Uptime;
  latency: Latency;
  last_runtime: string | null;
  last_transition_time: string | null;
  next_runtime: string | null;
  created_at: string | null;
  updated_at: string | null;
  deleted_at: string | null;
};

const iso = (d: Time) => (d ? new Date(d).toISOString() : null);
const isoMs = (ms: number, from: number) => (ms >= from && ms > 0 ? new Date(ms).toISOString() : null);

/**
 * The summary of the runs with start <= time <= end for the live checks matching `labels`, with
 * rolling1h the mean duration of the hour before `now`. In canary, check name and id order.
 */
export async function computeSummary(
  db: Queryable,
  start: Date,
  end: Date,
  labels: string | null,
  now = Date.now(),
): Promise<SummaryItem[]> {
  const s = start.getTime();
  const e = end.getTime();
  const hours = [...new Set([s, e, now - HOUR_MS, now].map(hourOf))];
  const slot = (t: number) => hours.indexOf(hourOf(t));
  const { rows } = await db.query<CheckRow>(summarySql(hours.length), [labels, ...hours.map((h) => new Date(h))]);
  const boundaryOf = (row: CheckRow, i: number): Boundary => {
    const r = row as unknown as Record<string, Date | Uint8Array | null>;
    return {
      at: r[`at${i}`] as Date | null,
      cum: r[`cum${i}`] as Uint8Array | null,
      runs: r[`runs${i}`] as Uint8Array | null,
    };
  };
  return rows.map((row) => {
    const range = rangeFigures(boundaryOf(row, slot(e)), e, boundaryOf(row, slot(s)), s, QUANTILES);
    const hour = rangeFigures(
      boundaryOf(row, slot(now)),
      now,
      boundaryOf(row, slot(now - HOUR_MS)),
      now - HOUR_MS,
      [],
      true,
    );
    const [p95, p97, p99] = range.quantiles;
    const hourTotal = hour.passed + hour.failed;
    return {
      id: row.id,
      canary_id: row.canary_id,
      canary_name: row.canary_name,
      canary_namespace: row.canary_namespace,
      agent_id: row.agent_id,
      agent_name: row.agent_name,
      labels: row.labels,
      status: row.status,
      type: row.type,
      name: row.name,
      namespace: row.namespace,
      owner: row.owner,
      severity: row.severity,
      icon: row.icon,
      description: row.description,
      endpoint: row.endpoint,
      uptime: {
        passed: range.passed,
        failed: range.failed,
        last_pass: isoMs(range.lastPass, s),
        last_fail: isoMs(range.lastFail, s),
      },
      latency: {
        p95: p95 ?? null,
        p97: p97 ?? null,
        p99: p99 ?? null,
        rolling1h: hourTotal > 0 ? Math.round(hour.sum / hourTotal) : null,
      },
      last_runtime: iso(row.last_runtime),
      last_transition_time: iso(row.last_transition_time),
      next_runtime: iso(row.next_runtime),
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
      deleted_at: iso(row.deleted_at),
    };
  });
}

/**
 * The console's item (`format=console`): the fields the /health page shows (table, cards, filters,
 * grouping, sorting), nulls left out. The drawer reads the rest of a check itself.
 */
export function consoleItem(it: SummaryItem): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const keep = (k: string, v: unknown) => {
    if (v !== null && v !== undefined) out[k] = v;
  };
  keep('id', it.id);
  keep('canary_id', it.canary_id);
  keep('canary_name', it.canary_name);
  keep('canary_namespace', it.canary_namespace);
  keep('agent_id', it.agent_id);
  keep('agent_name', it.agent_name);
  if (it.labels && Object.keys(it.labels).length) out.labels = it.labels;
  keep('status', it.status);
  keep('type', it.type);
  keep('name', it.name);
  keep('namespace', it.namespace);
  keep('owner', it.owner);
  keep('severity', it.severity);
  keep('icon', it.icon);
  keep('endpoint', it.endpoint);
  out.uptime = { passed: it.uptime.passed, failed: it.uptime.failed };
  const lat: Record<string, number> = {};
  for (const k of ['p95', 'p97', 'p99', 'rolling1h'] as const) if (it.latency[k] !== null) lat[k] = it.latency[k];
  out.latency = lat;
  keep('last_runtime', it.last_runtime);
  keep('last_transition_time', it.last_transition_time);
  return out;
}

export type SummaryFormat = 'full' | 'console';

/** One computed answer: the items' JSON, its ETag, and each item's JSON by id (for deltas). */
export interface SummaryAnswer {
  at: number;
  etag: string;
  /** The whole answer: `{"runnerName":…,"checks_summary":[…],"duration":N}` (N: ms it took to compute). */
  body: Buffer<ArrayBuffer>;
  items: Map<string, string>;
  order: string[];
  gzipped?: Promise<Buffer<ArrayBuffer>>;
}

/** How every full summary answer starts; `duration` comes last, once the request's time is known. */
export const SUMMARY_HEAD = Buffer.from('{"runnerName":"local","checks_summary":');
/** The end of a summary answer that took `ms`. */
export const summaryTail = (ms: number) => Buffer.from(`,"duration":${Math.round(ms)}}`);

/** Builds an answer from items: the ETag is a hash of what the checks say (not of when or how fast). */
export function answerOf(items: SummaryItem[], format: SummaryFormat, started: number, at = Date.now()): SummaryAnswer {
  const map = new Map<string, string>();
  const parts: string[] = [];
  for (const it of items) {
    const json = JSON.stringify(format === 'console' ? consoleItem(it) : it);
    map.set(it.id, json);
    parts.push(json);
  }
  const checks = Buffer.from(`[${parts.join(',')}]`);
  const etag = `"${crypto.createHash('sha1').update(format).update(checks).digest('base64url').slice(0, 22)}"`;
  const body = Buffer.concat([SUMMARY_HEAD, checks, summaryTail(performance.now() - started)]);
  return { at, etag, body, items: map, order: items.map((i) => i.id) };
}

/** The changes from an earlier answer to a later one of the same query (`?since=<etag>`). */
export function deltaOf(from: SummaryAnswer, to: SummaryAnswer): Buffer<ArrayBuffer> {
  const changed: string[] = [];
  for (const [id, json] of to.items) if (from.items.get(id) !== json) changed.push(json);
  const removed = from.order.filter((id) => !to.items.has(id));
  const sameOrder = from.order.length === to.order.length && from.order.every((id, i) => to.order[i] === id);
  return Buffer.from(
    `{"etag":${JSON.stringify(to.etag)},"since":${JSON.stringify(from.etag)},"changed":[${changed.join(',')}],` +
      `"removed":${JSON.stringify(removed)}${sameOrder ? '' : `,"order":${JSON.stringify(to.order)}`}}`,
  );
}

const gzip = promisify(zlib.gzip);

/** The answer's full body compressed (once per answer, level 1, on the thread pool). */
export function gzipAnswer(answer: SummaryAnswer): Promise<Buffer<ArrayBuffer>> {
  answer.gzipped ??= gzip(answer.body, { level: 1 }) as Promise<Buffer<ArrayBuffer>>;
  return answer.gzipped;
}

/** A replica serves an answer at most this old; its own health writes drop its answers at once. */
export const SUMMARY_FRESH_MS = 2_000;
/** Answers kept (per query) for deltas and 304s; all of them are dropped once idle for SUMMARY_FRESH_MS. */
const SUMMARY_MAX_QUERIES = 16;
const SUMMARY_KEEP_ANSWERS = 2;

interface QueryState {
  /** The latest answers, newest first (the older ones for `since`). */
  answers: SummaryAnswer[];
  writes: number;
  pending?: Promise<SummaryAnswer>;
  used: number;
}

/**
 * The summary answers this replica computed recently, per query: one computation at a time per
 * query (requests that arrive meanwhile share it), served while younger than SUMMARY_FRESH_MS and
 * no health data was written through this process since. Memory is bounded whatever ranges are
 * asked for: at most SUMMARY_MAX_QUERIES queries, each dropped once nobody asked for it for
 * `idleMs` (default SUMMARY_FRESH_MS), checked by a timer that runs only while something is kept.
 */
export class SummaryViews {
  private queries = new Map<string, QueryState>();
  private timer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;

  constructor(
    private readonly db: Database,
    private readonly writes: () => number,
    options: { idleMs?: number } = {},
  ) {
    this.idleMs = options.idleMs ?? SUMMARY_FRESH_MS;
  }

  /** How many queries are kept (the benchmark and the tests look). */
  get size(): number {
    return this.queries.size;
  }

  /**
   * The answer for `key`, computed by `compute` unless one younger than `maxAgeMs` (at most
   * SUMMARY_FRESH_MS) is kept and nothing was written since. `since`: an earlier answer's ETag,
   * returned too when still kept (for a delta).
   */
  async get(
    key: string,
    compute: () => Promise<SummaryAnswer>,
    maxAgeMs = SUMMARY_FRESH_MS,
    since?: string,
  ): Promise<{ answer: SummaryAnswer; cached: boolean; base?: SummaryAnswer }> {
    const now = Date.now();
    const writes = this.writes();
    let q = this.queries.get(key);
    if (!q) {
      if (this.queries.size >= SUMMARY_MAX_QUERIES) this.evictOldest();
      this.queries.set(key, (q = { answers: [], writes, used: now }));
    }
    q.used = now;
    this.schedule();
    const base = since ? q.answers.find((a) => a.etag === since) : undefined;
    const latest = q.answers[0];
    if (latest && q.writes === writes && now - latest.at < Math.min(maxAgeMs, SUMMARY_FRESH_MS))
      return { answer: latest, cached: true, base };
    const state = q;
    state.pending ??= compute()
      .then((answer) => {
        state.answers = [answer, ...state.answers.filter((a) => a.etag !== answer.etag)].slice(0, SUMMARY_KEEP_ANSWERS);
        state.writes = writes;
        return answer;
      })
      .finally(() => {
        state.pending = undefined;
      });
    const answer = await state.pending;
    return { answer, cached: false, base: base ?? (since ? state.answers.find((a) => a.etag === since) : undefined) };
  }

  /** Drops every kept answer (health data changed behind this process's back, e.g. built imports). */
  refreshed(): void {
    for (const q of this.queries.values()) q.answers = [];
  }

  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await Promise.allSettled([...this.queries.values()].map((q) => q.pending));
    this.queries.clear();
  }

  private evictOldest(): void {
    let oldest: string | undefined;
    let used = Infinity;
    for (const [k, q] of this.queries) if (q.used < used && !q.pending) [oldest, used] = [k, q.used];
    if (oldest !== undefined) this.queries.delete(oldest);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const now = Date.now();
      for (const [k, q] of this.queries) if (!q.pending && now - q.used >= this.idleMs) this.queries.delete(k);
      if (this.queries.size) this.schedule();
    }, this.idleMs);
    this.timer.unref();
  }
}

/** How often the engines build hours marked by statuses written outside the store. */
export const SKETCH_BUILD_EVERY_MS = 5_000;

/**
 * Builds the hours that statuses written outside the store marked (imports, backfilled history,
 * history from before migration 0029) while the engines run; several replicas share the marks
 * (SKIP LOCKED). `onBuilt` is told when something was built (e.g. to drop kept answers).
 */
export class SummaryRefresher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly db: Database,
    private readonly onBuilt: () => void = () => undefined,
    private readonly everyMs = SKETCH_BUILD_EVERY_MS,
  ) {}

  start(): void {
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = buildDirty(this.db, this.everyMs)
        .then((r) => r.built > 0 && this.onBuilt())
        .catch((e: unknown) => log.error(`health sketches: ${(e as Error).message}`))
        .finally(() => {
          this.running = undefined;
          if (!this.stopped) this.timer = setTimeout(tick, this.everyMs).unref();
        });
    };
    this.timer = setTimeout(tick, 1_000).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}
