// Value helpers shared by the evaluators: JSON text of script results (durations in Go form,
// bigints as numbers, bytes as base64 like Go's encoding/json), the display string of a result,
// and the JSON copy of variables handed to the JavaScript sandbox (durations in milliseconds).

import { formatDuration, isDuration, durationToMs } from './duration.js';

/** JSON.stringify replacer for script results: durations as Go strings ("1h0m0s"). */
function resultReplacer(this: unknown, key: string, value: unknown): unknown {
  // `value` has already been through toJSON (Date → ISO string); look at the raw value in its
  // holder (for the root, JSON.stringify passes a wrapper object {"": value}).
  const raw = (this as Record<string, unknown>)[key];
  if (isDuration(raw)) return formatDuration(raw);
  return commonReplacement(raw, value);
}

/** JSON.stringify replacer for JavaScript variables: durations as milliseconds. */
function javascriptReplacer(this: unknown, key: string, value: unknown): unknown {
  const raw = (this as Record<string, unknown>)[key];
  if (isDuration(raw)) return durationToMs(raw);
  return commonReplacement(raw, value);
}

function commonReplacement(raw: unknown, value: unknown): unknown {
  if (typeof raw === 'bigint') return Number(raw);
  if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
  if (raw instanceof Map) return Object.fromEntries([...raw].map(([k, v]) => [String(k), v]));
  if (raw instanceof Set) return [...raw];
  return value;
}

/** JSON text of a script value; durations appear as Go duration strings. */
export function toJsonText(value: unknown, indent?: string | number): string {
  return JSON.stringify(value, resultReplacer, indent) ?? 'null';
}

/** JSON text of variables for the JavaScript sandbox; durations appear as milliseconds. */
export function toJavascriptJson(value: unknown): string {
  return JSON.stringify(value, javascriptReplacer) ?? 'null';
}

/**
 * The text of a result shown to people (`display`): strings unchanged, null/undefined as "",
 * durations in Go form, dates as ISO-8601, numbers and booleans as written, bytes as UTF-8, and
 * anything else (lists, maps) as JSON.
 */
export function toDisplayString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (isDuration(value)) return formatDuration(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  if (value instanceof Uint8Array)
    return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  return toJsonText(value);
}

/** A plain object (not an array, date, duration, map, class instance...). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
