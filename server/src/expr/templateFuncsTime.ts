// Time functions for templates: now, date, unixEpoch, ago, duration, humanizeDuration/Time/Bytes.

import { durationToMs, formatDuration, isDuration, parseDuration } from './duration.js';
import { formatGoTime, formatNumber } from './gofmt.js';
import type { TemplateRegistrar } from './template-funcs.js';
import { num, str, toTime } from './templateFuncsValues.js';

export function registerTimeFunctions({ define }: TemplateRegistrar): void {
  define('now', 0, 0, () => new Date());
  define('date', 2, 2, (layout, t) => formatGoTime(toTime(t, 'date'), str(layout)));
  define('unixEpoch', 1, 1, (t) => String(Math.floor(toTime(t, 'unixEpoch').getTime() / 1000)));
  define('ago', 1, 1, (t) => formatDuration(Math.round((Date.now() - toTime(t, 'ago').getTime()) / 1000) * 1000));
  define('duration', 1, 1, (seconds) => formatDuration(num(seconds, 'duration') * 1000));
  define('humanizeDuration', 1, 1, (value) => {
    const seconds = isDuration(value)
      ? durationToMs(value) / 1000
      : typeof value === 'string' && !/^\s*[-+]?[\d.]+\s*$/.test(value)
        ? durationToMs(parseDuration(value)) / 1000
        : num(value, 'humanizeDuration');
    return humanizeSeconds(seconds);
  });
  /** go-humanize's Time (canary-checker's humanizeTime): "3 minutes ago", "2 days from now". */
  define('humanizeTime', 1, 1, (t) => {
    const ms = Date.now() - toTime(t, 'humanizeTime').getTime();
    const when = ms >= 0 ? 'ago' : 'from now';
    const s = Math.abs(ms) / 1000;
    const [MIN, HOUR, DAY, WEEK, MONTH, YEAR] = [60, 3600, 86_400, 604_800, 2_592_000, 31_104_000];
    const steps: Array<[number, string, number]> = [
      [1, 'now', 0],
      [2, '1 second', 0],
      [MIN, 'seconds', 1],
      [2 * MIN, '1 minute', 0],
      [HOUR, 'minutes', MIN],
      [2 * HOUR, '1 hour', 0],
      [DAY, 'hours', HOUR],
      [2 * DAY, '1 day', 0],
      [WEEK, 'days', DAY],
      [2 * WEEK, '1 week', 0],
      [MONTH, 'weeks', WEEK],
      [2 * MONTH, '1 month', 0],
      [YEAR, 'months', MONTH],
      [YEAR * 1.5, '1 year', 0],
      [2 * YEAR, '2 years', 0],
      [37 * YEAR, 'years', YEAR],
    ];
    const step = steps.find(([limit]) => s < limit);
    if (!step) return `a long while ${when}`;
    const [, text, unit] = step;
    if (text === 'now') return 'now';
    return unit ? `${Math.floor(s / unit)} ${text} ${when}` : `${text} ${when}`;
  });
  define('humanizeBytes', 1, 1, (value) => {
    let n = num(value, 'humanizeBytes');
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];
    let unit = 0;
    while (Math.abs(n) >= 1024 && unit < units.length - 1) {
      n /= 1024;
      unit++;
    }
    return `${unit === 0 ? formatNumber(n) : String(Number(n.toFixed(1)))} ${units[unit]}`;
  });
}

/** Prometheus' humanizeDuration: "1d 2h 3m 4s", "45.5s", "12.3ms". */
function humanizeSeconds(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0s';
  const sign = value < 0 ? '-' : '';
  let v = Math.abs(value);
  if (v >= 1) {
    const whole = Math.floor(v);
    const seconds = whole % 60;
    const minutes = Math.floor(whole / 60) % 60;
    const hours = Math.floor(whole / 3600) % 24;
    const days = Math.floor(whole / 86_400);
    if (days) return `${sign}${days}d ${hours}h ${minutes}m ${seconds}s`;
    if (hours) return `${sign}${hours}h ${minutes}m ${seconds}s`;
    if (minutes) return `${sign}${minutes}m ${seconds}s`;
    return `${sign}${Number(v.toPrecision(4))}s`;
  }
  let prefix = '';
  for (const p of ['m', 'u', 'n', 'p']) {
    if (v >= 1) break;
    prefix = p;
    v *= 1000;
  }
  return `${sign}${Number(v.toPrecision(4))}${prefix}s`;
}
