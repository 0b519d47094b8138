import { describe, expect, it } from 'vitest';
import { evaluateCel } from './cel.js';
import { parseGoTime } from './celTime.js';

const ev = (expr: string, vars: Record<string, unknown> = {}) => evaluateCel(expr, vars);

describe('CEL time.*', () => {
  it('time.Now, time.Since, time.Until and timestamp arithmetic', () => {
    expect(Math.abs((ev('time.Now()') as Date).getTime() - Date.now())).toBeLessThan(1000);
    expect(ev('time.Since(timestamp("2020-01-01T00:00:00Z")) > duration("1000h")')).toBe(true);
    expect(ev('time.Until(timestamp("2020-01-01T00:00:00Z")) < duration("0s")')).toBe(true);
    expect(ev('time.Since(t).getSeconds() >= 59', { t: new Date(Date.now() - 60_000) })).toBe(true);
    expect(ev('time.Now() - timestamp("1986-12-18T10:00:20.021-05:00") > duration("87600h")')).toBe(true);
  });

  it('time.Parse with Go layouts, ParseInLocation and ParseLocal', () => {
    expect(ev('string(time.Parse("2006-01-02", "2023-09-26"))')).toBe('2023-09-26T00:00:00.000Z');
    expect(ev('time.Parse("02-01-2006", "26-09-2023").getMonth()')).toBe(8);
    expect(parseGoTime('15:04 02-01-2006', '14:30 26-09-2023').toISOString()).toBe('2023-09-26T14:30:00.000Z');
    expect(parseGoTime('Jan _2 2006 3:04PM', 'Sep  6 2023 2:05PM').toISOString()).toBe('2023-09-06T14:05:00.000Z');
    expect(parseGoTime('2006-01-02T15:04:05.999Z07:00', '2023-09-26T10:00:00.5+02:00').toISOString()).toBe(
      '2023-09-26T08:00:00.500Z',
    );
    expect(ev('string(time.ParseInLocation("2006-01-02 15:04", "Asia/Tokyo", "2023-09-26 09:00"))')).toBe(
      '2023-09-26T00:00:00.000Z',
    );
    expect(ev('time.ParseLocal("2006-01-02", "2023-09-26").getFullYear()')).toBe(2023);
    expect(() => ev('time.Parse("2006-01-02", "26/09/2023")')).toThrow(/does not match the layout/);
    expect(() => ev('time.ParseInLocation("2006", "Mars/Base", "2023")')).toThrow(/unknown time zone/);
  });

  it('time.ParseDuration (with days), time.Unix, Age, ZoneName, ZoneOffset', () => {
    expect(ev('time.ParseDuration("30d12h") == duration("732h")')).toBe(true);
    expect(ev('time.ParseDuration("-2h45m") < duration("0s")')).toBe(true);
    expect(ev('string(time.Unix(0))')).toBe('1970-01-01T00:00:00.000Z');
    expect(ev('Age("2020-01-01T00:00:00Z") > duration("24h")')).toBe(true);
    expect(typeof ev('time.ZoneName()')).toBe('string');
    expect(ev('time.ZoneOffset()')).toBe(0 - new Date().getTimezoneOffset() || 0);
  });

  it('string() of timestamps and durations (standard CEL)', () => {
    expect(ev('string(timestamp("2024-01-31T12:00:00Z"))')).toBe('2024-01-31T12:00:00.000Z');
    expect(ev('string(duration("1m30s"))')).toBe('90s');
  });
});
