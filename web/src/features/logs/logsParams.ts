// The /logs query string (spec/2 §2.9): topologyId (the component) or configId (a catalog item
// whose logs are known), logsSelector (one of its log names), query (the search, debounced 500 ms before it lands here) and start (the time range).
// start is a relative expression ('now-15m'); an absolute range or a quick range also carries
// `end` (ISO dates, or the quick range's expressions), so every range the picker offers fits.
import { QUICK_RANGES, relativePreset, type TimeRange } from '@opsdeck/common/timeRange';

export const LOGS_PARAM_KEYS = ['topologyId', 'configId', 'logsSelector', 'query', 'start', 'end'] as const;
export type LogsParamKey = (typeof LOGS_PARAM_KEYS)[number];

export const DEFAULT_START = 'now-15m';
export const QUERY_DEBOUNCE_MS = 500;

export interface LogsParams {
  topologyId?: string;
  /** A catalog item instead of a component (topologyId wins when a link has both). */
  configId?: string;
  logsSelector?: string;
  query?: string;
  range: TimeRange;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}T/;

/** A relative start as the picker shows it: a preset's name ('Last 15 minutes'), else the expression. */
function relativeRange(start: string): TimeRange {
  const m = /^now-(\d+(?:ms|s|m|h|d|w|M|y))$/.exec(start);
  if (m) {
    try {
      return relativePreset(m[1]!);
    } catch {
      // Not a preset's shape after all: shown as written below.
    }
  }
  return { type: 'relative', range: start, display: start };
}

/** The range of `start` (and `end`); the default (last 15 minutes) when there is none. */
export function rangeFromParams(start: string | null, end: string | null): TimeRange {
  const s = start?.trim();
  const e = end?.trim();
  if (!s) return relativeRange(DEFAULT_START);
  if (e) {
    const quick = QUICK_RANGES.find((q) => q.from === s && q.to === e);
    if (quick) return { type: 'mapped', display: quick.display };
    if (ISO_DATE.test(s) && ISO_DATE.test(e)) return { type: 'absolute', from: s, to: e, display: 'Custom' };
  }
  // An absolute start without an end runs until now: the server reads the same expression.
  if (ISO_DATE.test(s)) return { type: 'absolute', from: s, to: 'now', display: 'Custom' };
  return relativeRange(s);
}

/** start and end of a range as the query string holds them. */
export function rangeToParams(range: TimeRange): { start: string; end?: string } {
  switch (range.type) {
    case 'relative':
      return { start: range.range };
    case 'absolute':
      return range.to === 'now' ? { start: range.from } : { start: range.from, end: range.to };
    case 'mapped': {
      const quick = QUICK_RANGES.find((q) => q.display === range.display);
      return quick ? { start: quick.from, end: quick.to } : { start: DEFAULT_START };
    }
  }
}

const clean = (v: string | null) => v?.trim() || undefined;

export function readLogsParams(params: URLSearchParams): LogsParams {
  return {
    topologyId: clean(params.get('topologyId')),
    configId: params.get('topologyId')?.trim() ? undefined : clean(params.get('configId')),
    logsSelector: clean(params.get('logsSelector')),
    query: clean(params.get('query')),
    range: rangeFromParams(params.get('start'), params.get('end')),
  };
}

export type LogsParamsChange =
  | { topologyId: string | undefined }
  | { configId: string | undefined }
  | { logsSelector: string | undefined }
  | { query: string | undefined }
  | { range: TimeRange | undefined };

/**
 * The query string after one change. A new component (or catalog item) drops its selector (the
 * first of the new one's is chosen again) and the other kind's id; clearing the range goes back to the default; empty values are removed.
 */
export function writeLogsParams(params: URLSearchParams, change: LogsParamsChange): URLSearchParams {
  const next = new URLSearchParams(params);
  const put = (key: LogsParamKey, value: string | undefined) => {
    const v = value?.trim();
    if (v) next.set(key, v);
    else next.delete(key);
  };
  if ('topologyId' in change || 'configId' in change) {
    const [key, other, id] =
      'topologyId' in change
        ? (['topologyId', 'configId', change.topologyId] as const)
        : (['configId', 'topologyId', change.configId] as const);
    if (id !== (params.get(key) ?? undefined) || params.has(other)) next.delete('logsSelector');
    next.delete(other);
    put(key, id);
  } else if ('logsSelector' in change) put('logsSelector', change.logsSelector);
  else if ('query' in change) put('query', change.query);
  else {
    const { start, end } = change.range ? rangeToParams(change.range) : { start: undefined, end: undefined };
    put('start', start);
    put('end', end);
  }
  return next;
}

/** The selector in effect: the one in the link when the component has it, else its first. */
export function effectiveSelector(names: readonly string[], fromUrl: string | undefined): string | undefined {
  if (fromUrl && names.includes(fromUrl)) return fromUrl;
  return names[0];
}
