// Durations and sizes as specs write them: Go-style durations ("300ms", "1h30m") plus d and w, data
// sizes ("10MB", "512k"), their schema, and short human renderings of both for messages.
import { z } from 'zod';
import { durationToMs, parseDuration as parseGoDuration } from '../expr/duration.js';

/**
 * Parses a Go-style duration ("1h30m", "500ms", "1.5h", "-2m") with the extra units d (24h) and w (7d)
 * into milliseconds, with the expression module's parser. Throws a RangeError naming the bad text.
 */
export function parseDuration(text: string): number {
  try {
    return durationToMs(parseGoDuration(text));
  } catch {
    throw new RangeError(`"${text}" is not a duration (examples: 500ms, 30s, 5m, 1h30m, 7d, 2w)`);
  }
}

/** A duration given either as text ("30s") or as a number in `numberUnitMs` units (seconds by default). */
export function durationMs(value: string | number, numberUnitMs = 1_000): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError(`${value} is not a duration`);
    return value * numberUnitMs;
  }
  return parseDuration(value);
}

/** Whether `text` parses as a duration (for schema refinements). */
export function isDuration(text: string): boolean {
  try {
    parseDuration(text);
    return true;
  } catch {
    return false;
  }
}

/** A duration as text ("30s", "1h") or a number of seconds. */
export const durationSchema = z.union([
  z.number().nonnegative(),
  z.string().refine(isDuration, { message: 'not a duration (examples: 500ms, 30s, 5m, 1h30m, 7d)' }),
]);

/** A short human rendering: "812 ms", "2.5 s", "5m 3s", "3h 2m", "3d 4h". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 0) return `-${formatDuration(-ms)}`;
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trimNumber(ms / 1_000)} s`;
  const parts: Array<[number, string]> = [
    [86_400_000, 'd'],
    [3_600_000, 'h'],
    [60_000, 'm'],
    [1_000, 's'],
  ];
  const seconds = Math.round(ms / 1_000) * 1_000;
  const first = parts.findIndex(([size]) => seconds >= size);
  const [size, unit] = parts[first]!;
  const major = Math.floor(seconds / size);
  const next = parts[first + 1];
  const minor = next ? Math.floor((seconds - major * size) / next[0]) : 0;
  return minor > 0 && next ? `${major}${unit} ${minor}${next[1]}` : `${major}${unit}`;
}

function trimNumber(n: number): string {
  return n.toFixed(1).replace(/\.0$/, '');
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
  p: 1024 ** 5,
  pb: 1024 ** 5,
  pib: 1024 ** 5,
};

/**
 * Parses a data size as canary-checker writes them ("100", "10KB", "1.5mb", "2GiB"; units are powers
 * of 1024, case-insensitive) into bytes. Numbers are bytes. Throws a RangeError naming the bad text.
 */
export function parseSize(value: string | number): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new RangeError(`${value} is not a size`);
    return value;
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  if (!m || unit === undefined) throw new RangeError(`"${value}" is not a size (examples: 512, 10KB, 1.5MB, 2GB)`);
  return Math.round(Number(m[1]) * unit);
}

/** Whether `value` parses as a size (for schema refinements). */
export function isSize(value: string | number): boolean {
  try {
    parseSize(value);
    return true;
  } catch {
    return false;
  }
}

/** A short human rendering of a byte count: "512 B", "10 KB", "1.5 MB". */
export function formatSize(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'];
  let n = bytes;
  let i = 0;
  while (Math.abs(n) >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return i === 0 ? `${n} B` : `${trimNumber(n)} ${units[i]}`;
}
