import { describe, expect, it } from 'vitest';
import {
  CelDuration,
  Duration,
  durationFromMs,
  durationFromNanos,
  durationToMs,
  durationToNanos,
  formatDuration,
  isDuration,
  parseDuration,
} from './duration.js';

const ms = (text: string) => durationToMs(parseDuration(text));

describe('parseDuration', () => {
  it('reads every Go unit', () => {
    expect(durationToNanos(parseDuration('1ns'))).toBe(1n);
    expect(durationToNanos(parseDuration('1us'))).toBe(1_000n);
    expect(durationToNanos(parseDuration('1µs'))).toBe(1_000n);
    expect(durationToNanos(parseDuration('1μs'))).toBe(1_000n);
    expect(ms('1ms')).toBe(1);
    expect(ms('1s')).toBe(1000);
    expect(ms('1m')).toBe(60_000);
    expect(ms('1h')).toBe(3_600_000);
  });

  it('adds the day, week and year units of canary-checker', () => {
    expect(ms('1d')).toBe(86_400_000);
    expect(ms('7d')).toBe(604_800_000);
    expect(ms('2w')).toBe(1_209_600_000);
    expect(ms('1y')).toBe(365 * 86_400_000);
  });

  it('reads compound, fractional, signed and zero durations', () => {
    expect(ms('1h30m')).toBe(5_400_000);
    expect(ms('1d12h')).toBe(129_600_000);
    expect(ms('1.5s')).toBe(1500);
    expect(ms('.5m')).toBe(30_000);
    expect(ms('-300ms')).toBe(-300);
    expect(ms('+2s')).toBe(2000);
    expect(ms('0')).toBe(0);
    expect(durationToNanos(parseDuration('2562047h'))).toBe(2562047n * 3_600_000_000_000n);
  });

  it('refuses what is not a duration, naming the input', () => {
    expect(() => parseDuration('')).toThrow(/invalid duration "": empty/);
    expect(() => parseDuration('5')).toThrow(/invalid duration "5": missing unit/);
    expect(() => parseDuration('7x')).toThrow(/unknown unit "x"/);
    expect(() => parseDuration('10 minutes')).toThrow(/invalid duration "10 minutes"/);
    expect(() => parseDuration('h')).toThrow(/expected a number/);
  });
});

describe('formatDuration', () => {
  it("prints like Go's time.Duration.String()", () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(parseDuration('1ns'))).toBe('1ns');
    expect(formatDuration(parseDuration('1500ns'))).toBe('1.5µs');
    expect(formatDuration(1.5)).toBe('1.5ms');
    expect(formatDuration(45_000)).toBe('45s');
    expect(formatDuration(2_500)).toBe('2.5s');
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(3_600_000)).toBe('1h0m0s');
    expect(formatDuration(parseDuration('72h'))).toBe('72h0m0s');
    expect(formatDuration(-1_500)).toBe('-1.5s');
    expect(formatDuration(parseDuration('1h2m3.004005006s'))).toBe('1h2m3.004005006s');
  });
});

describe('Duration values', () => {
  it('are CEL durations that serialise to JSON as milliseconds', () => {
    const d = durationFromMs(1234.5);
    expect(d).toBeInstanceOf(Duration);
    expect(d).toBeInstanceOf(CelDuration);
    expect(isDuration(d)).toBe(true);
    expect(isDuration(1234)).toBe(false);
    expect(durationToMs(d)).toBe(1234.5);
    expect(JSON.stringify({ elapsed: d })).toBe('{"elapsed":1234.5}');
  });

  it('keep seconds and nanoseconds with the same sign', () => {
    const negative = durationFromNanos(-1_500_000_000n);
    expect(negative.seconds).toBe(-1n);
    expect(negative.nanos).toBe(-500_000_000);
    expect(durationToNanos(negative)).toBe(-1_500_000_000n);
  });

  it('refuse non-finite milliseconds', () => {
    expect(() => durationFromMs(Number.NaN)).toThrow(RangeError);
  });
});
