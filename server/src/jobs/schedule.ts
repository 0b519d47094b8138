// Schedules shared by every engine (canaries, scrapers, topologies, playbook triggers, leases):
// `schedule` as `@every <duration>`, a cron expression or a nickname (@hourly, @daily...), or
// `interval` in seconds. Pure: the clock is passed in.
import { Cron } from 'croner';
import { parseDuration } from '../connections/duration.js';

export interface Schedule {
  /** The text shown to people, e.g. "@every 30s". */
  readonly text: string;
  /** The run after `from` (exclusive). */
  next(from: Date): Date;
  /** The typical gap between runs, for jitter and leases. */
  readonly periodMs: number;
}

export const DEFAULT_SCHEDULE = '@every 1m';
/** The shortest gap allowed between two runs of a canary. */
export const MIN_PERIOD_MS = 5_000;

export function parseSchedule(schedule: string | undefined, interval: number | undefined): Schedule {
  if (!schedule && interval !== undefined) {
    if (!Number.isFinite(interval) || interval <= 0)
      throw new Error(`interval must be a positive number of seconds, got ${interval}`);
    schedule = `@every ${interval}s`;
  }
  const text = (schedule ?? DEFAULT_SCHEDULE).trim();
  const every = /^@every\s+(\S+)$/.exec(text);
  if (every) {
    const periodMs = parseDuration(every[1]!);
    if (periodMs < MIN_PERIOD_MS)
      throw new Error(`schedule "${text}" is too frequent: the minimum is every ${MIN_PERIOD_MS / 1000}s`);
    return { text, periodMs, next: (from) => new Date(from.getTime() + periodMs) };
  }
  let cron: Cron;
  try {
    cron = new Cron(text, { paused: true, timezone: 'UTC' });
  } catch (e) {
    throw new Error(
      `schedule "${text}" is not valid: use @every <duration> (e.g. @every 30s), a cron expression (*/5 * * * *) or @hourly/@daily/@weekly (${(e as Error).message})`,
    );
  }
  const first = cron.nextRun(new Date(0));
  const second = first && cron.nextRun(first);
  const periodMs = first && second ? second.getTime() - first.getTime() : 60_000;
  return {
    text,
    periodMs,
    next(from) {
      const n = cron.nextRun(from);
      if (!n) throw new Error(`schedule "${text}" has no next run`);
      return n;
    },
  };
}
