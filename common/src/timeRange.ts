// Time ranges of the time-range picker (spec/3 §3, §4, §5, §9; spec/1 §9): relative expressions
// such as `now-2d/d`, named quick ranges, absolute from/to, their query-string form and the
// recent-ranges list. Pure: "now" is always passed in.

export const INVALID_RELATIVE_TIME_RANGE = 'Invalid relative time range';
export const INVALID_MAPPED_TIME_RANGE = 'Invalid mapped time range';

export class TimeRangeError extends Error {
  override name = 'TimeRangeError';
}

/** Units of relative expressions: '/' rounds to one, '+' and '-' add or subtract a count of one. */
export const RELATIVE_UNITS = ['ms', 's', 'm', 'h', 'd', 'w', 'M', 'y'] as const;
export type RelativeUnit = (typeof RELATIVE_UNITS)[number];

const FIXED_UNIT_MS: Partial<Record<RelativeUnit, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

type RelativeOp = { kind: 'add'; amount: number; unit: RelativeUnit } | { kind: 'round'; unit: RelativeUnit };

// `ms` before `m`/`M` so "5ms" is five milliseconds, not five minutes followed by "s".
const OP_PATTERN = /^(?:([+-])(\d+)(ms|s|m|h|d|w|M|y)|\/(ms|s|m|h|d|w|M|y))/;

function parseOps(expr: string): RelativeOp[] {
  const text = expr.trim();
  if (!text.startsWith('now')) throw new TimeRangeError(INVALID_RELATIVE_TIME_RANGE);
  const ops: RelativeOp[] = [];
  let rest = text.slice(3);
  while (rest.length > 0) {
    const m = OP_PATTERN.exec(rest);
    if (!m) throw new TimeRangeError(INVALID_RELATIVE_TIME_RANGE);
    if (m[4]) ops.push({ kind: 'round', unit: m[4] as RelativeUnit });
    else ops.push({ kind: 'add', amount: (m[1] === '-' ? -1 : 1) * Number(m[2]), unit: m[3] as RelativeUnit });
    rest = rest.slice(m[0].length);
  }
  return ops;
}

function daysInMonth(year: number, month: number): number {
  return new Date(year, month + 1, 0).getDate();
}

/** Calendar months are added with the day clamped to the target month (Jan 31 + 1M = Feb 28/29). */
function addMonths(date: Date, months: number): Date {
  const d = new Date(date);
  const day = d.getDate();
  d.setDate(1);
  d.setMonth(d.getMonth() + months);
  d.setDate(Math.min(day, daysInMonth(d.getFullYear(), d.getMonth())));
  return d;
}

function add(date: Date, amount: number, unit: RelativeUnit): Date {
  if (unit === 'M') return addMonths(date, amount);
  if (unit === 'y') return addMonths(date, amount * 12);
  if (unit === 'd' || unit === 'w') {
    // Calendar days (local time), so "now-1d" stays at the same wall-clock time across DST.
    const d = new Date(date);
    d.setDate(d.getDate() + amount * (unit === 'w' ? 7 : 1));
    return d;
  }
  return new Date(date.getTime() + amount * FIXED_UNIT_MS[unit]!);
}

/** Start of the unit containing `date` (weeks start on Monday), or its last millisecond when roundUp. */
function round(date: Date, unit: RelativeUnit, roundUp: boolean): Date {
  const d = new Date(date);
  switch (unit) {
    case 'ms':
      return d;
    case 's':
      d.setMilliseconds(0);
      break;
    case 'm':
      d.setSeconds(0, 0);
      break;
    case 'h':
      d.setMinutes(0, 0, 0);
      break;
    case 'd':
      d.setHours(0, 0, 0, 0);
      break;
    case 'w':
      d.setHours(0, 0, 0, 0);
      d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
      break;
    case 'M':
      d.setHours(0, 0, 0, 0);
      d.setDate(1);
      break;
    case 'y':
      d.setHours(0, 0, 0, 0);
      d.setMonth(0, 1);
      break;
  }
  if (!roundUp) return d;
  return new Date(add(d, 1, unit).getTime() - 1);
}

/**
 * Evaluates a relative expression (`now`, `now-2d`, `now/d`, `now-1M/M+3h`) at `now`.
 * Rounding goes to the start of the unit, or to its end when `roundUp` (the "to" side of a range).
 * Throws TimeRangeError('Invalid relative time range') for anything else.
 */
export function parseRelativeTime(expr: string, now: Date, options: { roundUp?: boolean } = {}): Date {
  let date = new Date(now);
  for (const op of parseOps(expr)) {
    date = op.kind === 'add' ? add(date, op.amount, op.unit) : round(date, op.unit, options.roundUp ?? false);
  }
  return date;
}

export function isValidRelativeTime(expr: string): boolean {
  try {
    parseOps(expr);
    return true;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// Range values

export type TimeRange =
  | { type: 'absolute'; from: string; to: string; display: string }
  | { type: 'relative'; range: string; display: string }
  | { type: 'mapped'; display: string };

export interface ResolvedRange {
  from: Date;
  to: Date;
}

const UNIT_NAMES: Record<string, [string, string]> = {
  ms: ['millisecond', 'milliseconds'],
  s: ['second', 'seconds'],
  m: ['minute', 'minutes'],
  h: ['hour', 'hours'],
  d: ['day', 'days'],
  w: ['week', 'weeks'],
  M: ['month', 'months'],
  y: ['year', 'years'],
};

/** Relative presets of spec/1 §9, offered for the past and the future. */
export const RELATIVE_PRESETS = [
  '5m',
  '15m',
  '30m',
  '1h',
  '3h',
  '6h',
  '12h',
  '24h',
  '2d',
  '7d',
  '30d',
  '90d',
  '6M',
  '1y',
  '2y',
  '5y',
] as const;

function splitPreset(preset: string): { count: number; unit: RelativeUnit } {
  const m = /^(\d+)(ms|s|m|h|d|w|M|y)$/.exec(preset);
  if (!m) throw new TimeRangeError(INVALID_RELATIVE_TIME_RANGE);
  return { count: Number(m[1]), unit: m[2] as RelativeUnit };
}

/** A preset such as '2d' as a relative range: 'now-2d' "Last 2 days", or 'now+2d' "Next 2 days". */
export function relativePreset(preset: string, future = false): TimeRange & { type: 'relative' } {
  const { count, unit } = splitPreset(preset);
  const [one, many] = UNIT_NAMES[unit];
  return {
    type: 'relative',
    range: `now${future ? '+' : '-'}${preset}`,
    display: `${future ? 'Next' : 'Last'} ${count} ${count === 1 ? one : many}`,
  };
}

/** Named quick ranges (mapped ranges): display → [from, to] relative expressions. */
export const QUICK_RANGES: ReadonlyArray<{ display: string; from: string; to: string }> = [
  { display: 'Today', from: 'now/d', to: 'now/d' },
  { display: 'Today so far', from: 'now/d', to: 'now' },
  { display: 'Yesterday', from: 'now-1d/d', to: 'now-1d/d' },
  { display: 'Day before yesterday', from: 'now-2d/d', to: 'now-2d/d' },
  { display: 'This day last week', from: 'now-7d/d', to: 'now-7d/d' },
  { display: 'This week', from: 'now/w', to: 'now/w' },
  { display: 'This week so far', from: 'now/w', to: 'now' },
  { display: 'Previous week', from: 'now-1w/w', to: 'now-1w/w' },
  { display: 'This month', from: 'now/M', to: 'now/M' },
  { display: 'This month so far', from: 'now/M', to: 'now' },
  { display: 'Previous month', from: 'now-1M/M', to: 'now-1M/M' },
  { display: 'This year', from: 'now/y', to: 'now/y' },
  { display: 'This year so far', from: 'now/y', to: 'now' },
  { display: 'Previous year', from: 'now-1y/y', to: 'now-1y/y' },
];

/** The relative expressions of a quick range; throws TimeRangeError('Invalid mapped time range'). */
export function mappedRange(display: string): { from: string; to: string } {
  const quick = QUICK_RANGES.find((q) => q.display === display);
  if (!quick) throw new TimeRangeError(INVALID_MAPPED_TIME_RANGE);
  return { from: quick.from, to: quick.to };
}

/**
 * The concrete interval of a range at `now`. A relative range runs from its expression to now,
 * or from now to it when it lies in the future. Throws TimeRangeError with 'Invalid relative time
 * range', 'Invalid mapped time range', or for an absolute range with unreadable dates.
 */
export function resolveTimeRange(range: TimeRange, now: Date): ResolvedRange {
  switch (range.type) {
    case 'absolute': {
      const from = new Date(range.from);
      const to = new Date(range.to);
      if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime()))
        throw new TimeRangeError('Invalid absolute time range');
      return { from, to };
    }
    case 'relative': {
      const at = parseRelativeTime(range.range, now);
      return at.getTime() <= now.getTime() ? { from: at, to: new Date(now) } : { from: new Date(now), to: at };
    }
    case 'mapped': {
      const { from, to } = mappedRange(range.display);
      return { from: parseRelativeTime(from, now), to: parseRelativeTime(to, now, { roundUp: true }) };
    }
  }
}

/** Length of a range in whole minutes (what the refresh-rate rules look at). */
export function rangeMinutes(range: TimeRange, now: Date): number {
  const { from, to } = resolveTimeRange(range, now);
  return Math.round(Math.abs(to.getTime() - from.getTime()) / 60_000);
}

// ---------------------------------------------------------------------------------------------
// Duration shorthands ('15m', '1h', '1mo'): the health time-range options of spec/1 §9

export const TIME_RANGE_OPTIONS = [
  '15m',
  '1h',
  '2h',
  '3h',
  '6h',
  '12h',
  '1d',
  '2d',
  '3d',
  '1w',
  '2w',
  '3w',
  '1mo',
  '2mo',
  '3mo',
  '6mo',
  '1y',
  '2y',
  '3y',
  '5y',
] as const;

const SHORTHAND_MINUTES: Record<string, number> = {
  m: 1,
  h: 60,
  d: 1_440,
  w: 10_080,
  mo: 43_200,
  M: 43_200,
  y: 525_600,
};

/** '15m' → 15, '1d' → 1440, '1mo' → 43200 (a month counts 30 days); undefined when unreadable. */
export function durationMinutes(shorthand: string): number | undefined {
  const m = /^(\d+)(mo|m|h|d|w|M|y)$/.exec(shorthand.trim());
  return m ? Number(m[1]) * SHORTHAND_MINUTES[m[2]] : undefined;
}

/** A duration shorthand as the relative range it stands for ('1mo' → now-1M). */
export function shorthandRange(shorthand: string): (TimeRange & { type: 'relative' }) | undefined {
  const m = /^(\d+)(mo|m|h|d|w|M|y)$/.exec(shorthand.trim());
  if (!m) return undefined;
  const unit = m[2] === 'mo' ? 'M' : m[2];
  return relativePreset(`${m[1]}${unit}`);
}

// ---------------------------------------------------------------------------------------------
// Query string (spec/3 §4: rangeType, display, from, to, range, timeRange)

export const TIME_RANGE_PARAMS = ['rangeType', 'display', 'from', 'to', 'range', 'timeRange'] as const;

/** The part of URLSearchParams used here (common/ has no DOM types; browsers and Node both have it). */
export interface SearchParams {
  get(name: string): string | null;
  set(name: string, value: string): void;
  delete(name: string): void;
}

/** Reads a range from query parameters; `timeRange=1h` alone (health links) is a relative range. */
export function timeRangeFromParams(params: Pick<SearchParams, 'get'>): TimeRange | undefined {
  const type = params.get('rangeType');
  const display = params.get('display') ?? '';
  if (type === 'absolute') {
    const from = params.get('from');
    const to = params.get('to');
    return from && to ? { type, from, to, display: display || 'Custom' } : undefined;
  }
  if (type === 'relative') {
    const range = params.get('range');
    if (!range) return undefined;
    return { type, range, display: display || range };
  }
  if (type === 'mapped') return display ? { type, display } : undefined;
  const shorthand = params.get('timeRange');
  return shorthand ? shorthandRange(shorthand) : undefined;
}

/** Writes a range into a copy of `params` (all range keys are replaced; undefined clears them). */
export function timeRangeToParams<P extends SearchParams>(range: TimeRange | undefined, params: P): P {
  // A copy of the same kind (URLSearchParams copies itself through its constructor).
  const next = new (params.constructor as new (init: P) => P)(params);
  for (const key of TIME_RANGE_PARAMS) next.delete(key);
  if (!range) return next;
  next.set('rangeType', range.type);
  next.set('display', range.display);
  if (range.type === 'absolute') {
    next.set('from', range.from);
    next.set('to', range.to);
  } else if (range.type === 'relative') {
    next.set('range', range.range);
    // Past ranges also carry the duration shorthand that duration-based pages read (timeRange=2d).
    const m = /^now-(\d+)(m|h|d|w|M|y)$/.exec(range.range);
    if (m) next.set('timeRange', `${m[1]}${m[2] === 'M' ? 'mo' : m[2]}`);
  }
  return next;
}

// ---------------------------------------------------------------------------------------------
// Recent absolute ranges

export const RECENT_RANGES_KEPT = 5;

/** Puts a submitted range first; only absolute ranges with the same from and to are de-duplicated. */
export function addRecentRange(recent: readonly TimeRange[], range: TimeRange): TimeRange[] {
  const rest = recent.filter(
    (r) => !(r.type === 'absolute' && range.type === 'absolute' && r.from === range.from && r.to === range.to),
  );
  return [range, ...rest].slice(0, RECENT_RANGES_KEPT);
}

export function sameTimeRange(a: TimeRange | undefined, b: TimeRange | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.type !== b.type) return false;
  if (a.type === 'absolute' && b.type === 'absolute') return a.from === b.from && a.to === b.to;
  if (a.type === 'relative' && b.type === 'relative') return a.range === b.range;
  return a.display === b.display;
}

// ---------------------------------------------------------------------------------------------
// Absolute date inputs ('YYYY-MM-DD HH:mm[:ss]', local time)

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date as the picker's From/To inputs show it, in local time: 2024-05-15 14:37:12. */
export function formatLocalDateTime(date: Date): string {
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ` +
    `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** Reads 'YYYY-MM-DD', 'YYYY-MM-DD HH:mm' or 'YYYY-MM-DD HH:mm:ss' (also with a T) as local time. */
export function parseLocalDateTime(text: string): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text.trim());
  if (!m) return undefined;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  // Reject rollovers such as 2024-02-31 or 25:00.
  if (
    date.getMonth() !== Number(mo) - 1 ||
    date.getDate() !== Number(d) ||
    date.getHours() !== Number(h) ||
    date.getMinutes() !== Number(mi)
  ) {
    return undefined;
  }
  return date;
}

/** The absolute range of two picker inputs, or an error message for the form. */
export function absoluteRangeFromInputs(from: string, to: string): TimeRange | { error: string } {
  const f = parseLocalDateTime(from);
  const t = parseLocalDateTime(to);
  if (!f) return { error: 'From is not a valid date (YYYY-MM-DD HH:mm:ss)' };
  if (!t) return { error: 'To is not a valid date (YYYY-MM-DD HH:mm:ss)' };
  if (f.getTime() > t.getTime()) return { error: 'From must be before To' };
  return { type: 'absolute', from: f.toISOString(), to: t.toISOString(), display: 'Custom' };
}

/** Short text for a range button: the display name, or "from – to" for an absolute range. */
export function describeTimeRange(range: TimeRange): string {
  if (range.type !== 'absolute') return range.display;
  const f = new Date(range.from);
  const t = new Date(range.to);
  if (Number.isNaN(f.getTime()) || Number.isNaN(t.getTime())) return range.display;
  return `${formatLocalDateTime(f).slice(0, 16)} to ${formatLocalDateTime(t).slice(0, 16)}`;
}
