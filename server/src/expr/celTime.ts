// CEL time functions of canary-checker's environment (gomplate's time.*): time.Now, time.Since,
// time.Until, time.Parse/ParseLocal/ParseInLocation with Go reference layouts ("2006-01-02"),
// time.ParseDuration (with d/w/y units), time.ZoneName and time.ZoneOffset (the server's zone).

import type { CelRegistrar } from './celFunctions.js';
import { toCelDuration } from './celValues.js';
import { CelDuration, parseDuration } from './duration.js';
import { DAYS, MONTHS } from './gofmt.js';

const TS = 'google.protobuf.Timestamp';
const DUR = 'google.protobuf.Duration';

type Field =
  | 'year'
  | 'year2'
  | 'month'
  | 'monthName'
  | 'day'
  | 'hour'
  | 'hour12'
  | 'minute'
  | 'second'
  | 'fraction'
  | 'ampm'
  | 'zone'
  | 'zoneName'
  | 'skip';

/** Go layout elements, longest first, with the text they match and the field they set. */
const ELEMENTS: Array<[string, string, Field]> = [
  ['January', `(${MONTHS.join('|')})`, 'monthName'],
  ['Monday', `(?:${DAYS.join('|')})`, 'skip'],
  ['Z07:00', '(Z|[+-]\\d\\d:\\d\\d)', 'zone'],
  ['-07:00', '([+-]\\d\\d:\\d\\d)', 'zone'],
  ['Z0700', '(Z|[+-]\\d{4})', 'zone'],
  ['-0700', '([+-]\\d{4})', 'zone'],
  ['2006', '(\\d{4})', 'year'],
  ['.000000000', '(\\.\\d{9})', 'fraction'],
  ['.999999999', '(\\.\\d+)?', 'fraction'],
  ['.000000', '(\\.\\d{6})', 'fraction'],
  ['.999999', '(\\.\\d+)?', 'fraction'],
  ['.000', '(\\.\\d{3})', 'fraction'],
  ['.999', '(\\.\\d+)?', 'fraction'],
  ['Jan', `(${MONTHS.map((m) => m.slice(0, 3)).join('|')})`, 'monthName'],
  ['Mon', `(?:${DAYS.map((d) => d.slice(0, 3)).join('|')})`, 'skip'],
  ['MST', '([A-Z]{3,5})', 'zoneName'],
  ['-07', '([+-]\\d\\d)', 'zone'],
  ['_2', '[ ]?(\\d{1,2})', 'day'],
  ['01', '(\\d\\d)', 'month'],
  ['02', '(\\d\\d)', 'day'],
  ['03', '(\\d\\d)', 'hour12'],
  ['04', '(\\d\\d)', 'minute'],
  ['05', '(\\d\\d)', 'second'],
  ['06', '(\\d\\d)', 'year2'],
  ['15', '(\\d\\d?)', 'hour'],
  ['PM', '(AM|PM)', 'ampm'],
  ['pm', '(am|pm)', 'ampm'],
  ['1', '(\\d\\d?)', 'month'],
  ['2', '(\\d\\d?)', 'day'],
  ['3', '(\\d\\d?)', 'hour12'],
  ['4', '(\\d\\d?)', 'minute'],
  ['5', '(\\d\\d?)', 'second'],
];

/**
 * Parse `value` with a Go reference layout. Without a zone in the text the time is in `zone`
 * ('UTC', 'Local' or an IANA name).
 */
export function parseGoTime(layout: string, value: string, zone = 'UTC'): Date {
  let pattern = '';
  const fields: Field[] = [];
  for (let i = 0; i < layout.length;) {
    const element = ELEMENTS.find(([token]) => layout.startsWith(token, i));
    if (element) {
      pattern += element[1];
      if (element[2] !== 'skip') fields.push(element[2]);
      i += element[0].length;
    } else {
      pattern += layout[i]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
    }
  }
  const m = new RegExp(`^${pattern}$`).exec(value);
  if (!m) throw new RangeError(`time.Parse(): "${value}" does not match the layout "${layout}"`);
  const t = {
    year: 1,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 0,
    ms: 0,
    pm: false,
    offset: undefined as number | undefined,
  };
  fields.forEach((field, i) => {
    const v = m[i + 1];
    if (v === undefined) return;
    switch (field) {
      case 'year':
        t.year = Number(v);
        break;
      case 'year2':
        t.year = Number(v) + (Number(v) >= 69 ? 1900 : 2000);
        break;
      case 'month':
        t.month = Number(v);
        break;
      case 'monthName':
        t.month = MONTHS.findIndex((name) => name.startsWith(v)) + 1;
        break;
      case 'day':
        t.day = Number(v);
        break;
      case 'hour':
      case 'hour12':
        t.hour = Number(v);
        break;
      case 'minute':
        t.minute = Number(v);
        break;
      case 'second':
        t.second = Number(v);
        break;
      case 'fraction':
        t.ms = Math.floor(Number(`0${v}`) * 1000);
        break;
      case 'ampm':
        t.pm = v.toLowerCase() === 'pm';
        break;
      case 'zone':
        t.offset =
          v === 'Z'
            ? 0
            : (v[0] === '-' ? -1 : 1) * (Number(v.slice(1, 3)) * 60 + Number(v.replace(':', '').slice(3, 5) || 0));
        break;
      case 'zoneName':
        if (v === 'UTC' || v === 'GMT') t.offset = 0;
        break;
    }
  });
  if (fields.includes('hour12')) t.hour = (t.hour % 12) + (t.pm ? 12 : 0);
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31 || t.hour > 23 || t.minute > 59 || t.second > 59)
    throw new RangeError(`time.Parse(): "${value}" is out of range`);
  const utc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, t.ms);
  const offset = t.offset ?? zoneOffsetMinutes(zone, new Date(utc));
  return new Date(utc - offset * 60_000);
}

/** Offset of `zone` from UTC at `at`, in minutes ('Local' is the server's zone). */
function zoneOffsetMinutes(zone: string, at: Date): number {
  if (zone === 'UTC') return 0;
  if (zone === 'Local') return -at.getTimezoneOffset();
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(at);
  } catch {
    throw new RangeError(`unknown time zone "${zone}"`);
  }
  const name = parts.find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d\d):?(\d\d)?/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
}

const since = (t: Date) => CelDuration.fromMilliseconds(Date.now() - t.getTime());

export function registerTimeFunctions({ fn, ns }: CelRegistrar): void {
  ns('time', `Now(): ${TS}`, () => new Date());
  ns('time', `Since(${TS}): ${DUR}`, since);
  ns('time', `Until(${TS}): ${DUR}`, (t: Date) => CelDuration.fromMilliseconds(t.getTime() - Date.now()));
  ns('time', `Parse(string, string): ${TS}`, (layout: string, value: string) => parseGoTime(layout, value));
  ns('time', `ParseLocal(string, string): ${TS}`, (layout: string, value: string) =>
    parseGoTime(layout, value, 'Local'),
  );
  ns('time', `ParseInLocation(string, string, string): ${TS}`, (layout: string, zone: string, value: string) =>
    parseGoTime(layout, value, zone),
  );
  ns('time', `ParseDuration(string): ${DUR}`, (s: string) => toCelDuration(parseDuration(s)));
  ns(
    'time',
    'ZoneName(): string',
    () =>
      new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' })
        .formatToParts(new Date())
        .find((p) => p.type === 'timeZoneName')?.value ?? 'UTC',
  );
  ns('time', 'ZoneOffset(): int', () => BigInt(0 - new Date().getTimezoneOffset()));
  ns('time', `Unix(int): ${TS}`, (seconds: bigint) => new Date(Number(seconds) * 1000));
  fn(`Age(string): ${DUR}`, (s: string) => {
    const t = Date.parse(s);
    if (Number.isNaN(t)) throw new RangeError(`Age(): "${s}" is not a timestamp (use RFC 3339)`);
    return CelDuration.fromMilliseconds(Date.now() - t);
  });
}
