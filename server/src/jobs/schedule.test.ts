import { describe, expect, it } from 'vitest';
import { parseDuration } from '../connections/duration.js';
import { parseSchedule } from './schedule.js';

describe('schedules', () => {
  const t0 = new Date('2026-01-01T00:10:00Z');

  it('runs @every schedules at a fixed period', () => {
    const s = parseSchedule('@every 30s', undefined);
    expect(s.periodMs).toBe(30_000);
    expect(s.next(t0).toISOString()).toBe('2026-01-01T00:10:30.000Z');
  });

  it('turns an interval in seconds into @every', () => {
    expect(parseSchedule(undefined, 90).text).toBe('@every 90s');
    expect(() => parseSchedule(undefined, -1)).toThrow('interval must be a positive number of seconds');
  });

  it('defaults to every minute', () => {
    expect(parseSchedule(undefined, undefined).text).toBe('@every 1m');
  });

  it('follows cron expressions and nicknames in UTC', () => {
    expect(parseSchedule('*/15 * * * *', undefined).next(t0).toISOString()).toBe('2026-01-01T00:15:00.000Z');
    expect(parseSchedule('@hourly', undefined).next(t0).toISOString()).toBe('2026-01-01T01:00:00.000Z');
    expect(parseSchedule('@hourly', undefined).periodMs).toBe(3_600_000);
    expect(parseSchedule('@daily', undefined).next(t0).toISOString()).toBe('2026-01-02T00:00:00.000Z');
  });

  it('refuses nonsense and too frequent schedules with a clear message', () => {
    expect(() => parseSchedule('every minute', undefined)).toThrow(/is not valid: use @every/);
    expect(() => parseSchedule('@every 1s', undefined)).toThrow('too frequent');
    expect(() => parseSchedule('@every soon', undefined)).toThrow('is not a duration');
  });

  it('parses Go durations with days and weeks', () => {
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('7d')).toBe(604_800_000);
    expect(parseDuration('2w')).toBe(1_209_600_000);
    expect(() => parseDuration('10 minutes')).toThrow();
  });
});
