// The first summary of /health, asked for when the route starts loading (app/routes.ts) instead of
// when the page first renders. The page renders only after its chunks, the session (whoami) and
// /api/about have arrived, one after the other; at 10,000 checks the summary (~400 kB gzipped, 4 MB
// of JSON) then started ~0.7 s after navigation and was the last thing the first paint waited for.
// Asked early, it travels while those load, and is parsed and read into the page's copy (~0.1 s at
// 10,000 checks) while the main thread waits for them. This module is in the initial chunk, so it
// imports nothing but the API client and the console format's reader.
import { request } from '../../api/client';
import { applyConsole, type ConsoleAnswer, type ConsoleCopy } from './consoleSummary';

/** The page's range before the first answer says otherwise (HealthPage's derived range). */
export const FIRST_START = '1h';
/** An early answer older than this is not used: the page asks again. */
const FRESH_MS = 10_000;

export interface SummaryRequest {
  since?: string;
  etag?: string | null;
  signal?: AbortSignal;
  /** 'throw' for the early request: a lost session is handled by the page's own request. */
  on401?: 'redirect' | 'throw';
}

/** GET /api/canary/api/summary?start=…&format=console[&since=…], with If-None-Match when a copy is held. */
export function requestSummary(start: string, r: SummaryRequest = {}) {
  return request<ConsoleAnswer | undefined>('/api/canary/api/summary', {
    query: { start, format: 'console', since: r.since },
    headers: r.etag ? { 'If-None-Match': r.etag } : undefined,
    signal: r.signal,
    on401: r.on401,
  });
}

let early:
  | {
      start: string;
      at: number;
      copy: Promise<ConsoleCopy | undefined>;
      /** The copy once read, and when its answer arrived. */
      ready?: { copy: ConsoleCopy; at: number };
    }
  | undefined;

/**
 * The summary start a /health link's first render asks for, or undefined when the page will ask for
 * something this cannot tell without the page's code (a range given in months or years).
 */
export function firstStartOf(search: string): string | undefined {
  const range = new URLSearchParams(search).get('timeRange');
  if (!range) return FIRST_START;
  return /^\d+[mhdw]$/.test(range) ? range : undefined;
}

/** Starts the first summary request of a /health page load (once; later navigations ask as usual). */
export function prefetchSummary(location: { pathname: string; search: string } = window.location): void {
  if (early || location.pathname !== '/health') return;
  const start = firstStartOf(location.search);
  if (!start) return;
  // A failure (no session yet, network) is left to the page's own request, which reports it.
  const copy = requestSummary(start, { on401: 'throw' })
    .then((res) => (res.data ? applyConsole(undefined, res.data, res.headers.get('etag')) : undefined))
    .catch(() => undefined);
  const asked = { start, at: Date.now(), copy };
  early = asked;
  void copy.then((c) => {
    if (c && early === asked) early = { ...asked, ready: { copy: c, at: Date.now() } };
  });
}

/**
 * The early copy for `start` when it is already read (then forgotten): the page's first render shows
 * it at once instead of a loading table first, rendered, laid out and then replaced.
 */
export function takeReadySummary(start: string): { copy: ConsoleCopy; at: number } | undefined {
  const e = early;
  if (!e?.ready || e.start !== start || Date.now() - e.at > FRESH_MS) return undefined;
  early = { ...e, start: '' };
  return e.ready;
}

/** The copy made of the early answer for `start`, once (then forgotten), if it was asked for lately. */
export function takePrefetchedSummary(start: string): Promise<ConsoleCopy | undefined> | undefined {
  const e = early;
  if (!e || e.start !== start) return undefined;
  early = { ...e, start: '' }; // used: a later load of the route does not prefetch again
  return Date.now() - e.at <= FRESH_MS ? e.copy : undefined;
}
