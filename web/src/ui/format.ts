// Display formats for dates and durations (one place, no date library).

// Made on first use: a page's first date format costs 20–60 ms on a slow machine (the browser loads
// its locale and time zone data), which a page should not pay before it has shown anything.
let dateTime: Intl.DateTimeFormat | undefined;
const dateTimeFormat = () =>
  (dateTime ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }));

export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? '' : dateTimeFormat().format(d);
}

/** Makes the date format when the browser is idle, so that the first date shown later is quick. */
export function prepareDateFormat(): void {
  if (dateTime || typeof requestIdleCallback === 'undefined') return;
  requestIdleCallback(() => void dateTimeFormat(), { timeout: 3000 });
}

/** '3m ago', '5h ago', '2d ago'. */
export function formatAge(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  const s = Math.round((now.getTime() - d.getTime()) / 1000);
  if (Number.isNaN(s)) return '';
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)}m ago`;
  if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
  if (s < 2_592_000) return `${Math.round(s / 86_400)}d ago`;
  return formatDateTime(d);
}

/** A duration in milliseconds as ms, s, m or h (spec/1 §9). */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)}m ${Math.round((ms % 60_000) / 1000)}s`;
  return `${Math.floor(ms / 3_600_000)}h ${Math.round((ms % 3_600_000) / 60_000)}m`;
}

/** A time ahead as 'in 4m', 'in 2h', 'in 3d'; 'due now' once it has passed. */
export function formatTimeUntil(value: string | Date | null | undefined, now: Date = new Date()): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  const s = Math.round((d.getTime() - now.getTime()) / 1000);
  if (Number.isNaN(s)) return '';
  if (s <= 0) return 'due now';
  if (s < 60) return `in ${s}s`;
  if (s < 3600) return `in ${Math.round(s / 60)}m`;
  if (s < 86_400) return `in ${Math.round(s / 3600)}h`;
  return `in ${Math.round(s / 86_400)}d`;
}
