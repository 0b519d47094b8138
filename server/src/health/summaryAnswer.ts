// GET /api/canary/api/summary: which data answers a request (the view of a precomputed range, its
// label-filtered items, or figures computed now) and how it is sent: the FORMATS.md shape or the
// console format (summaryConsole.ts), each with a strong ETag and a 304 for If-None-Match.
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'hono';
import type { Database } from '../db/database.js';
import { HttpError } from '../auth/middleware.js';
import { acceptsGzip } from '../http/encoding.js';
import { healthWrites } from './store.js';
import { freshComputedAt, precomputedRangeOf, summarySqlFor } from './summary.js';
import { rowOf } from './summaryItems.js';
import { edgeClock, edgeFigures } from './edgeFigures.js';
import { gzipWithPrefix } from './gzipPrefix.js';
import { consoleRowOf, etagOf, gzipEtag, notModified, type ConsoleStream } from './summaryConsole.js';
import {
  gzipSummary,
  SUMMARY_HEAD,
  SUMMARY_VIEW_MAX_AGE_MS,
  summaryTail,
  type SummaryView,
  type SummaryViews,
} from './summaryViews.js';

/**
 * How long a summary answer computed on request may be reused for the same query (a single flight:
 * requests that arrive while one is computed wait for it). Reused only while this process has
 * written no health data since (see healthWrites); `Cache-Control: no-cache` on the request skips it.
 */
export const SUMMARY_CACHE_MS = 5_000;
const SUMMARY_CACHE_ENTRIES = 8;

/**
 * Every summary answer may be stored by the browser but not reused without asking (the ETag makes
 * that a 304 when nothing changed); it is the caller's data, never a shared cache's.
 */
const CACHE_CONTROL = 'private, no-cache';

const gzip = promisify(zlib.gzip);

/**
 * A console answer gzipped: a full one from its stream's bulk deflated once per version (the page's
 * first load, 3–4 MB at 10,000 checks, then costs the server no compression), a delta at once.
 */
function gzipConsole(stream: ConsoleStream, body: Buffer, full: boolean, tail: Buffer): Promise<Buffer<ArrayBuffer>> {
  if (full) return gzipWithPrefix(stream.deflatedFull(body), tail);
  return gzip(Buffer.concat([body, tail]), { level: 1 });
}

/** A summary computed on request: its checks' JSON array with its validator, and console rows, each made once asked. */
interface LiveAnswer {
  json: () => { text: Buffer; etag: string };
  console: () => { ids: string[]; rows: string[] };
  /** What the figures cover when they come from the edges (their ends rounded to edge instants). */
  range?: string;
}

/** Calls `make` once, on first use. */
function once<T>(make: () => T): () => T {
  let v: { value: T } | undefined;
  return () => (v ??= { value: make() }).value;
}

/** The JSON form of an answer: the array's bytes and the answer's ETag. */
function jsonOf(text: string | Buffer): { text: Buffer; etag: string } {
  const b = typeof text === 'string' ? Buffer.from(text) : text;
  return { text: b, etag: etagOf([SUMMARY_HEAD, b]) };
}

interface LiveEntry {
  at: number;
  writes: number;
  answer: Promise<LiveAnswer>;
}

/** What answers a request, whichever format it is sent in. */
interface Source {
  /** The FORMATS.md answer up to its last key, as chunks, and its ETag (made when asked). */
  json: () => { chunks: Buffer[]; etag: string };
  /** Its items in order as console rows, and the object naming this data (fed once per stream). */
  console: () => { ids: string[]; rows: string[] };
  identity: object;
  /** The console stream's key: the range and the label filter. */
  streamKey: string;
  headers: Record<string, string>;
  view?: SummaryView;
}

/** The label filter of a request, as the JSON object the SQL compares (null: none). */
function labelsOf(raw: string | undefined): string | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error();
    return JSON.stringify(
      Object.fromEntries(Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, String(v)])),
    );
  } catch {
    throw new HttpError(400, 'VALIDATION', 'labels must be a JSON object of label names to values');
  }
}

/** The summary route's handler; `parseTime` reads start and end (api.ts). */
export function summaryHandler(
  db: Database,
  views: SummaryViews,
  parseTime: (v: string | undefined) => Date | undefined,
) {
  // Recent answers computed on request, by normalized query; they do not depend on the caller.
  const live = new Map<string, LiveEntry>();
  // The checks' items split around their figures (summaryTemplates.ts), shared with the views and
  // swept with them after the summary's idle time (HEALTH_SUMMARY_IDLE_MS).
  const { templates } = views;

  function liveAnswer(
    key: string,
    start: Date,
    end: Date,
    labels: string | null,
    noCache: boolean,
    format: 'json' | 'console',
  ) {
    const now = Date.now();
    const writes = healthWrites();
    let entry = live.get(key);
    const hit = !noCache && !!entry && entry.writes === writes && now - entry.at < SUMMARY_CACHE_MS;
    if (!hit) {
      const answer = (async (): Promise<LiveAnswer> => {
        // Two edges per check from the edges' packs (edgeFigures.ts); from statuses and roll-ups until
        // the edges are built (a new database's first minute, or no replica runs the engines).
        const clock = await edgeClock(db);
        if (clock) {
          // The figures and the checks' templates are read at the same time.
          const figures = edgeFigures(db, start, end, clock).then((f) => f!);
          const t = await templates.answer(db, labels, figures, { rows: format === 'console' });
          const f = await figures;
          return {
            json: once(() => jsonOf(t.bytes())),
            console: once(() => ({ ids: t.ids, rows: t.rows() })),
            range: `${f.from.toISOString()}/${f.to.toISOString()}`,
          };
        }
        const { rows } = await db.query<{ checks: string }>(summarySqlFor(start, end), [start, end, labels]);
        const text = rows[0]!.checks;
        return {
          json: once(() => jsonOf(text)),
          console: once(() => {
            const items = JSON.parse(text) as Array<{ id: string }>;
            return { ids: items.map((it) => it.id), rows: items.map(consoleRowOf) };
          }),
        };
      })();
      const e: LiveEntry = { at: now, writes, answer };
      entry = e;
      for (const [k, old] of live) if (now - old.at >= SUMMARY_CACHE_MS || old.writes !== writes) live.delete(k);
      if (live.size >= SUMMARY_CACHE_ENTRIES) live.delete(live.keys().next().value!);
      live.set(key, e);
      // Forgotten once stale (an answer is ~9 MB for 10,000 checks), or at once if it failed.
      const forget = () => {
        if (live.get(key) === e) live.delete(key);
      };
      setTimeout(forget, SUMMARY_CACHE_MS).unref();
      answer.catch(forget);
    }
    return { answer: entry!.answer, hit };
  }

  return async (c: Context) => {
    const started = performance.now();
    const q = (k: string) => c.req.query(k);
    const format = q('format') ?? 'json';
    if (format !== 'json' && format !== 'console')
      throw new HttpError(400, 'VALIDATION', 'format must be console (the compact answer) or json (the default)');
    const since = q('since');
    if (since !== undefined && format !== 'console')
      throw new HttpError(400, 'VALIDATION', 'since is a version of format=console: add format=console');
    if (since && since.length > 100)
      throw new HttpError(400, 'VALIDATION', 'since must be the version of an earlier answer');
    const startText = q('start') ?? q('timeRange');
    const end = parseTime(q('end')) ?? new Date();
    const start = parseTime(startText) ?? new Date(end.getTime() - 3_600_000);
    const labels = labelsOf(q('labels'));
    const cacheControl = c.req.header('cache-control') ?? '';
    // `no-cache` asks for figures computed now, except on a conditional request: fetch() adds it to
    // every request that sends If-None-Match (Fetch standard, HTTP-network-or-cache fetch).
    const ifNoneMatch = c.req.header('if-none-match');
    const noCache = /no-cache/i.test(cacheControl) && !ifNoneMatch;
    const gz = acceptsGzip(c.req.header('accept-encoding'));
    views.keepSwept();

    // The usual ranges back from now are precomputed (see summary.ts) unless the caller asks for
    // figures computed now, or no replica has refreshed them lately. Unfiltered, they are answered
    // from the view this replica keeps up to date; `Cache-Control: max-age=N` asks for one younger
    // (never older than SUMMARY_VIEW_MAX_AGE_MS).
    let source: Source | undefined;
    const range = noCache ? undefined : precomputedRangeOf(startText, q('end'));
    if (range) {
      const precomputed = (asOf: Date, rebuilt: number) => ({
        'x-summary-source': 'precomputed',
        'x-summary-as-of': asOf.toISOString(),
        'x-summary-rebuilt': String(rebuilt),
      });
      const streamKey = `p\n${range.key}\n${labels ?? ''}`;
      if (labels === null) {
        const maxAge = /max-age=(\d+)/i.exec(cacheControl);
        const maxAgeMs = maxAge ? Math.min(Number(maxAge[1]) * 1_000, SUMMARY_VIEW_MAX_AGE_MS) : undefined;
        const view = await views.get(range, maxAgeMs, gz && format === 'json', format === 'console');
        if (view)
          source = {
            json: () => ({ chunks: [view.json.body], etag: view.json.etag }),
            console: () => ({ ids: view.ids, rows: view.items.map(rowOf) }),
            identity: view,
            streamKey,
            view,
            headers: {
              ...precomputed(view.asOf, view.rebuilt),
              age: String(Math.floor((Date.now() - view.at) / 1_000)),
            },
          };
      } else {
        const asOf = await freshComputedAt(db, range);
        if (asOf) {
          const a = await views.items.answer(range, asOf, labels, { rows: format === 'console' });
          source = {
            json: once(() => {
              const chunks = [SUMMARY_HEAD, ...a.chunks()];
              return { chunks, etag: etagOf(chunks) };
            }),
            console: () => ({ ids: a.ids, rows: a.items.map(rowOf) }),
            identity: a,
            streamKey,
            headers: precomputed(asOf, a.rebuilt),
          };
        }
      }
    }
    if (!source) {
      const key = JSON.stringify([startText ?? '', q('end') ?? '', labels]);
      const { answer, hit } = liveAnswer(key, start, end, labels, noCache, format);
      const a = await answer;
      source = {
        json: () => {
          const j = a.json();
          return { chunks: [SUMMARY_HEAD, j.text], etag: j.etag };
        },
        console: a.console,
        identity: a,
        streamKey: `l\n${key}`,
        headers: {
          'x-summary-source': 'live',
          'x-summary-cache': hit ? 'hit' : 'miss',
          ...(a.range ? { 'x-summary-range': a.range } : {}),
        },
      };
    }

    const common = { 'cache-control': CACHE_CONTROL, vary: 'Accept-Encoding', ...source.headers };
    const json = 'application/json; charset=utf-8';
    if (format === 'console') {
      const stream = views.consoles.get(source.streamKey);
      const { ids, rows } = source.console();
      stream.feed(source.identity, ids, rows);
      const etag = stream.etag;
      if (notModified(ifNoneMatch, etag)) return c.body(null, 304, { ...common, etag });
      const { body, full } = stream.answer(since);
      const tail = summaryTail(performance.now() - started);
      const headers = { ...common, 'content-type': json, 'x-summary-delta': String(!full) };
      if (gz && body.length + tail.length > 16_384)
        return c.body(await gzipConsole(stream, body, full, tail), 200, {
          ...headers,
          etag: gzipEtag(etag),
          'content-encoding': 'gzip',
        });
      return c.body(Buffer.concat([body, tail]), 200, { ...headers, etag });
    }
    const { chunks, etag } = source.json();
    if (notModified(ifNoneMatch, etag)) return c.body(null, 304, { ...common, etag });
    const tail = summaryTail(performance.now() - started);
    if (gz && source.view)
      return c.body(await gzipSummary(source.view, tail), 200, {
        ...common,
        'content-type': json,
        etag: gzipEtag(etag),
        'content-encoding': 'gzip',
      });
    return c.body(Buffer.concat([...chunks, tail]), 200, { ...common, 'content-type': json, etag });
  };
}
