// Display rules of health checks (spec/1 §4, §5, §9): health dot colours, uptime percent, the
// default time range derived from the last run's age, and the check history filters (status and
// duration). Pure: "now" is always passed in.

export type HealthColor = 'red' | 'gray' | 'orange' | 'green';

/**
 * The dot colour of a health value: unhealthy, degraded or missing (also no value at all) is red;
 * unknown or suspended is gray; warning, warn or mixed is orange; anything else is green.
 */
export function healthColor(health: string | null | undefined): HealthColor {
  const h = (health ?? 'missing').trim().toLowerCase() || 'missing';
  if (h === 'unhealthy' || h === 'degraded' || h === 'missing') return 'red';
  if (h === 'unknown' || h === 'suspended') return 'gray';
  if (h === 'warning' || h === 'warn' || h === 'mixed') return 'orange';
  return 'green';
}

/** A check's health word: its status, or 'unknown' before its first run. */
export function checkHealth(status: string | null | undefined): 'healthy' | 'unhealthy' | 'unknown' {
  return status === 'healthy' ? 'healthy' : status === 'unhealthy' ? 'unhealthy' : 'unknown';
}

export type GroupHealth = 'good' | 'bad' | 'mixed' | 'unknown';

/** A group is good when all its checks pass, bad when none does, mixed when they disagree. */
export function groupHealth(statuses: ReadonlyArray<string | null | undefined>): GroupHealth {
  const healths = new Set(statuses.map(checkHealth));
  if (healths.size === 0) return 'unknown';
  if (healths.size > 1) return 'mixed';
  const [only] = healths;
  return only === 'healthy' ? 'good' : only === 'unhealthy' ? 'bad' : 'unknown';
}

/** The health word a group's dot is coloured by. */
export function groupHealthWord(health: GroupHealth): string {
  return health === 'good' ? 'healthy' : health === 'bad' ? 'unhealthy' : health;
}

/** Uptime: passed divided by total, times 100; undefined when nothing ran. */
export function uptimePercent(uptime: { passed?: number | null; failed?: number | null }): number | undefined {
  const passed = Number(uptime.passed ?? 0);
  const total = passed + Number(uptime.failed ?? 0);
  return total > 0 ? (passed / total) * 100 : undefined;
}

/** Percent values show one decimal: 99.5%, 100.0%; '' for nothing. */
export function formatPercent(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return `${(Math.floor(value * 10) / 10).toFixed(1)}%`;
}

/** Progress bars are red above 90 and orange above 75 (spec/1 §9). */
export function progressTone(value: number): 'danger' | 'warning' | 'normal' {
  return value > 90 ? 'danger' : value > 75 ? 'warning' : 'normal';
}

// ---------------------------------------------------------------------------------------------
// Default time range from the last run's age (spec/1 §9)

/** The buckets the default range is chosen from, with their length in minutes. */
export const DEFAULT_RANGE_BUCKETS: ReadonlyArray<readonly [string, number]> = [
  ['1h', 60],
  ['3h', 180],
  ['6h', 360],
  ['12h', 720],
  ['1d', 1_440],
  ['2d', 2_880],
  ['3d', 4_320],
  ['1w', 10_080],
  ['2w', 20_160],
  ['3w', 30_240],
  ['1mo', 43_200],
  ['2mo', 86_400],
  ['3mo', 129_600],
  ['6mo', 259_200],
  ['1y', 525_600],
  ['2y', 1_051_200],
  ['3y', 1_576_800],
  ['5y', 2_628_000],
];

/**
 * The smallest bucket that covers the time since the last run, so a check that last ran three days
 * ago opens on a range that shows that run. No (or an unreadable) last run gives 1h.
 */
export function defaultRangeForLastRun(lastRun: string | Date | null | undefined, now: Date): string {
  if (!lastRun) return '1h';
  const at = lastRun instanceof Date ? lastRun : new Date(lastRun);
  const ageMinutes = (now.getTime() - at.getTime()) / 60_000;
  if (!Number.isFinite(ageMinutes) || ageMinutes < 0) return '1h';
  for (const [bucket, minutes] of DEFAULT_RANGE_BUCKETS) if (ageMinutes < minutes) return bucket;
  return '5y';
}

// ---------------------------------------------------------------------------------------------
// Check history filters (spec/1 §2 Check drawer, §5)

export const HISTORY_STATUS_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'healthy', label: 'Healthy' },
  { value: 'unhealthy', label: 'Unhealthy' },
] as const;
export type HistoryStatusFilter = (typeof HISTORY_STATUS_FILTERS)[number]['value'];

/** Healthy is status 1 (true), Unhealthy 0 (false), All no filter. */
export function historyStatusValue(filter: string): boolean | undefined {
  return filter === 'healthy' ? true : filter === 'unhealthy' ? false : undefined;
}

/** The preset duration filters: minimum durations in milliseconds (0 = All). */
export const HISTORY_DURATION_PRESETS = [
  { label: 'All', ms: 0 },
  { label: '100ms', ms: 100 },
  { label: '500ms', ms: 500 },
  { label: '1s', ms: 1_000 },
  { label: '5s', ms: 5_000 },
  { label: '10s', ms: 10_000 },
  { label: '30s', ms: 30_000 },
] as const;

export const DURATION_FILTER_ERROR = 'duration is allowed only in milli seconds & seconds';

/**
 * A custom duration filter: a number with an ms or s suffix ('250ms', '1.5s', '2 s'), seconds
 * converted to milliseconds. Anything else is refused with the message the filter shows.
 */
export function parseDurationFilter(text: string): { ms: number } | { error: string } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/i.exec(text);
  if (!m) return { error: DURATION_FILTER_ERROR };
  const n = Number(m[1]);
  return { ms: Math.round(m[2].toLowerCase() === 's' ? n * 1000 : n) };
}

/** A minimum duration as the filter shows it: 500ms, 2s, 1.5s. */
export function formatDurationFilter(ms: number): string {
  return ms >= 1000 && ms % 100 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
