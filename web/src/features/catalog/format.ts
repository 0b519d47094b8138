// Display rules of the catalog (spec/2 §2.1): counts over 999 as Nk+, the changes badge highlight,
// cost with 2 or 0 decimals, the 1-day cost change against the 30-day daily average, zero dates,
// and the health order of summaries (green, red, orange, gray).

/** 1234 → '1k+'; 999 → '999'. */
export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '';
  if (n > 999) return `${Math.floor(n / 1000)}k+`;
  return String(n);
}

/** Counts of 500 or more in the changes badge are highlighted. */
export const CHANGES_HIGHLIGHT_AT = 500;
export const isHighChangeCount = (n: number | null | undefined): boolean => (n ?? 0) >= CHANGES_HIGHLIGHT_AT;

/** Values of 10 or less show 2 decimals, otherwise 0. */
export function formatCost(value: number | string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return '';
  return `$${n.toFixed(Math.abs(n) <= 10 ? 2 : 0)}`;
}

export interface CostChange {
  direction: 'up' | 'down';
  /** Signed percent of the 1-day cost against the 30-day daily average. */
  percent: number;
  /** '+25%', '-40%', or a multiple ('3.5x') when the change is over 100 percent. */
  label: string;
}

/** Changes of this many percent or less are not flagged. */
export const COST_CHANGE_THRESHOLD_PERCENT = 10;

/** The flag of the 1d cost column, or undefined when the change is 10 percent or less (or unknown). */
export function costChange(
  cost1d: number | string | null | undefined,
  cost30d: number | string | null | undefined,
): CostChange | undefined {
  const day = Number(cost1d);
  const month = Number(cost30d);
  if (cost1d === null || cost1d === undefined || !Number.isFinite(day)) return undefined;
  if (!Number.isFinite(month) || month <= 0) return undefined;
  const average = month / 30;
  // Rounded so that float noise (1.1 against 1.0 is 10.000000000000009) does not cross the line.
  const percent = Math.round(((day - average) / average) * 100 * 1e6) / 1e6;
  if (Math.abs(percent) <= COST_CHANGE_THRESHOLD_PERCENT) return undefined;
  const direction = percent > 0 ? 'up' : 'down';
  const label =
    Math.abs(percent) > 100
      ? `${trimNumber(day / average)}x`
      : `${percent > 0 ? '+' : '-'}${Math.round(Math.abs(percent))}%`;
  return { direction, percent, label };
}

function trimNumber(n: number): string {
  return n >= 10 ? String(Math.round(n)) : String(Math.round(n * 10) / 10);
}

/** Go's zero time, which renders nothing in a date column. */
export function isZeroDate(value: string | null | undefined): boolean {
  return !value || value.startsWith('0001-01-01');
}

export type Health = 'healthy' | 'unhealthy' | 'warning' | 'unknown';

/** Summary order: green, red, orange, gray. */
export const HEALTH_ORDER: readonly Health[] = ['healthy', 'unhealthy', 'warning', 'unknown'];

export const HEALTH_COLOR: Record<Health, string> = {
  healthy: 'bg-success',
  unhealthy: 'bg-danger',
  warning: 'bg-orange-500',
  unknown: 'bg-gray-400',
};

export function isHealth(v: unknown): v is Health {
  return typeof v === 'string' && (HEALTH_ORDER as readonly string[]).includes(v);
}

/** Non-zero health counts in summary order. */
export function orderedHealthCounts(counts: Partial<Record<string, number>> | null | undefined): [Health, number][] {
  if (!counts) return [];
  return HEALTH_ORDER.map((h) => [h, Number(counts[h] ?? 0)] as [Health, number]).filter(([, n]) => n > 0);
}

/** Insight and change severities, most severe first (spec/2 §9). */
export const SEVERITIES = ['critical', 'blocker', 'high', 'medium', 'low', 'warning', 'info'] as const;

export function severityTone(severity: string | null | undefined): 'danger' | 'warning' | 'primary' | 'neutral' {
  switch (severity) {
    case 'critical':
    case 'blocker':
    case 'high':
      return 'danger';
    case 'medium':
    case 'warning':
      return 'warning';
    case 'low':
      return 'primary';
    default:
      return 'neutral';
  }
}

/** Last scraped 1 hour or more ago (and not deleted) is flagged. */
export const STALE_SCRAPE_MS = 60 * 60 * 1000;
export function isScrapeStale(
  item: { last_scraped_time?: string | null; deleted_at?: string | null },
  now: Date = new Date(),
): boolean {
  if (item.deleted_at || isZeroDate(item.last_scraped_time)) return false;
  const t = new Date(item.last_scraped_time!).getTime();
  return Number.isFinite(t) && now.getTime() - t >= STALE_SCRAPE_MS;
}
