// Maintenance windows (migration 0026): a one-off span or a recurring one (a cron schedule in croner
// syntax, in a time zone, each run lasting `duration`), over checks, components and whole status pages.
// The expansion of a window into occurrences is pure (the clock is passed in); the queries read
// `maintenance_windows` and are what status pages and the notification silences ask.
import { Cron } from 'croner';
import { parseDuration } from '../connections/duration.js';
import type { Queryable } from '../db/database.js';

export interface MaintenanceOccurrence {
  id: string;
  name: string;
  message: string;
  start: Date;
  end: Date;
  checkIds: string[];
  componentIds: string[];
  statusPages: string[];
  silence: boolean;
}

/** A stored window, as the columns read. */
export interface MaintenanceWindowRow {
  id: string;
  name: string;
  message: string;
  starts_at: Date | string | null;
  ends_at: Date | string | null;
  schedule: string | null;
  duration: string | null;
  timezone: string | null;
  check_ids: string[];
  component_ids: string[];
  status_pages: string[];
  silence: boolean;
}

/** The most occurrences one recurring window yields for one range (a guard against `* * * * *` over years). */
export const MAX_OCCURRENCES = 1000;
/** The longest a recurring window's run may last. */
export const MAX_DURATION_MS = 31 * 86_400_000;

/** Throws an Error a person can act on when the time zone is not an IANA name. */
export function validateTimezone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    throw new Error(`timezone "${tz}" is not a time zone name (examples: UTC, Europe/Berlin, America/New_York)`);
  }
}

/** The run length of a recurring window in ms; throws an Error naming the bad text. */
export function windowDurationMs(duration: string): number {
  let ms: number;
  try {
    ms = parseDuration(duration.trim());
  } catch (e) {
    throw new Error(`duration: ${(e as Error).message}`);
  }
  if (ms <= 0) throw new Error(`duration "${duration}" must be longer than zero`);
  if (ms > MAX_DURATION_MS) throw new Error(`duration "${duration}" is longer than the maximum of 31d`);
  return ms;
}

/**
 * The cron of a recurring window (croner syntax: 5 or 6 fields, or @hourly/@daily/@weekly/@monthly/
 * @yearly), in its time zone (UTC when none). Throws an Error a person can act on.
 */
export function windowCron(schedule: string, timezone?: string | null): Cron {
  const text = schedule.trim();
  if (/^@every\b/i.test(text))
    throw new Error(
      `schedule "${text}": @every has no fixed start; use a cron expression (e.g. "0 2 * * 0" for Sundays at 02:00) or @daily/@weekly`,
    );
  if (timezone) validateTimezone(timezone);
  let cron: Cron;
  try {
    cron = new Cron(text, { paused: true, timezone: timezone || 'UTC' });
  } catch (e) {
    throw new Error(
      `schedule "${text}" is not a cron expression (e.g. "0 2 * * 0", "30 1 * * 1-5", @daily): ${(e as Error).message}`,
    );
  }
  if (!cron.nextRun(new Date(0))) throw new Error(`schedule "${text}" never runs`);
  return cron;
}

/**
 * The spans of a window that overlap [from, to]: the span itself for a one-off window, or every run of
 * a recurring one starting within (from - duration, to], at most MAX_OCCURRENCES. Pure. A window
 * whose stored schedule no longer parses yields nothing.
 */
export function expandWindow(w: MaintenanceWindowRow, from: Date, to: Date): { start: Date; end: Date }[] {
  if (to.getTime() < from.getTime()) return [];
  if (w.starts_at && w.ends_at) {
    const start = new Date(w.starts_at);
    const end = new Date(w.ends_at);
    return end.getTime() > from.getTime() && start.getTime() <= to.getTime() ? [{ start, end }] : [];
  }
  if (!w.schedule || !w.duration) return [];
  let cron: Cron;
  let ms: number;
  try {
    cron = windowCron(w.schedule, w.timezone);
    ms = windowDurationMs(w.duration);
  } catch {
    return [];
  }
  const out: { start: Date; end: Date }[] = [];
  // nextRun(t) is the first run strictly after t (second precision): begin just before from - duration.
  let cursor = new Date(from.getTime() - ms);
  while (out.length < MAX_OCCURRENCES) {
    const start = cron.nextRun(cursor);
    if (!start || start.getTime() > to.getTime()) break;
    const end = new Date(start.getTime() + ms);
    if (end.getTime() > from.getTime()) out.push({ start, end });
    // At one instant (activeMaintenance) the earliest run in progress is enough.
    if (out.length && from.getTime() === to.getTime()) break;
    cursor = start;
  }
  return out;
}

/** The occurrences of these windows overlapping [from, to], by start then name. Pure. */
export function expandWindows(rows: MaintenanceWindowRow[], from: Date, to: Date): MaintenanceOccurrence[] {
  const out: MaintenanceOccurrence[] = [];
  for (const w of rows)
    for (const { start, end } of expandWindow(w, from, to))
      out.push({
        id: w.id,
        name: w.name,
        message: w.message,
        start,
        end,
        checkIds: w.check_ids ?? [],
        componentIds: w.component_ids ?? [],
        statusPages: w.status_pages ?? [],
        silence: w.silence,
      });
  return out.sort((a, b) => a.start.getTime() - b.start.getTime() || a.name.localeCompare(b.name));
}

const COLUMNS = `id::text, name, message, starts_at, ends_at, schedule, duration, timezone,
  check_ids::text[] AS check_ids, component_ids::text[] AS component_ids, status_pages, silence`;

/** Every occurrence of a non-deleted window overlapping [from, to] (recurring windows expanded). */
export async function maintenanceOccurrences(db: Queryable, from: Date, to: Date): Promise<MaintenanceOccurrence[]> {
  const { rows } = await db.query<MaintenanceWindowRow>(
    `SELECT ${COLUMNS}
     FROM maintenance_windows
     WHERE deleted_at IS NULL
       AND (schedule IS NOT NULL OR (ends_at > $1 AND starts_at <= $2))
     ORDER BY name`,
    [from, to],
  );
  return expandWindows(rows, from, to);
}

/** The occurrences in progress at `at` (start <= at < end). */
export async function activeMaintenance(db: Queryable, at: Date = new Date()): Promise<MaintenanceOccurrence[]> {
  const all = await maintenanceOccurrences(db, at, at);
  return all.filter((o) => o.start.getTime() <= at.getTime() && o.end.getTime() > at.getTime());
}
