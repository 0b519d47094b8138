import { describe, expect, it } from 'vitest';
import {
  durationError,
  durationLabel,
  durationNsOfText,
  durationTextOfNs,
  formatStoredDuration,
  isDurationChoice,
  REPEAT_INTERVAL_OPTIONS,
  WAIT_FOR_OPTIONS,
} from './durationField';

const MINUTE = 60e9;

describe('duration fields', () => {
  it('stores the chosen or typed text as nanoseconds', () => {
    expect(durationNsOfText('5m')).toBe(5 * MINUTE);
    expect(durationNsOfText('1h30m')).toBe(90 * MINUTE);
    expect(durationNsOfText('1mo')).toBe(30 * 24 * 60 * MINUTE);
    expect(durationNsOfText('  ')).toBeNull();
    expect(durationNsOfText('soon')).toBeNull();
  });

  it('shows a stored value as the choice it equals, else as its shortest text', () => {
    expect(durationTextOfNs(30 * 24 * 60 * MINUTE, REPEAT_INTERVAL_OPTIONS)).toBe('1mo');
    expect(durationLabel('1mo', REPEAT_INTERVAL_OPTIONS)).toBe('1m');
    expect(durationTextOfNs(7 * 24 * 60 * MINUTE, WAIT_FOR_OPTIONS)).toBe('7d');
    expect(durationTextOfNs(90 * MINUTE, WAIT_FOR_OPTIONS)).toBe('1h30m');
    expect(isDurationChoice('1h30m', WAIT_FOR_OPTIONS)).toBe(false);
    expect(durationTextOfNs(null)).toBe('');
    expect(durationTextOfNs(0)).toBe('');
  });

  it('round-trips every offered choice through nanoseconds', () => {
    for (const choices of [WAIT_FOR_OPTIONS, REPEAT_INTERVAL_OPTIONS])
      for (const c of choices) expect(durationTextOfNs(durationNsOfText(c.value), choices)).toBe(c.value);
  });

  it('formats table cells from nanoseconds', () => {
    expect(formatStoredDuration(3600e9)).toBe('1h');
    expect(formatStoredDuration(10 * MINUTE)).toBe('10m');
    expect(formatStoredDuration(null)).toBe('');
  });

  it('refuses an empty required field and anything under a minute', () => {
    expect(durationError('', true)).toBe('This field is required');
    expect(durationError('', false)).toBeUndefined();
    expect(durationError('30s')).toBe('Duration must be greater than 1 minute');
    expect(durationError('1m')).toBeUndefined();
    expect(durationError('often')).toMatch(/not a duration/);
  });
});
