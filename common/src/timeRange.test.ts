import { describe, expect, it } from 'vitest';
import {
  absoluteRangeFromInputs,
  addRecentRange,
  describeTimeRange,
  formatLocalDateTime,
  parseLocalDateTime,
  durationMinutes,
  INVALID_MAPPED_TIME_RANGE,
  INVALID_RELATIVE_TIME_RANGE,
  isValidRelativeTime,
  mappedRange,
  parseRelativeTime,
  QUICK_RANGES,
  RELATIVE_PRESETS,
  rangeMinutes,
  relativePreset,
  resolveTimeRange,
  TIME_RANGE_OPTIONS,
  timeRangeFromParams,
  timeRangeToParams,
  type TimeRange,
} from './timeRange.js';

// Wednesday 2024-05-15 14:37:12.345 local time.
const now = new Date(2024, 4, 15, 14, 37, 12, 345);
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0) => new Date(y, mo - 1, d, h, mi, s, ms);

describe('relative time expressions', () => {
  it('reads now as the current instant', () => {
    expect(parseRelativeTime('now', now)).toEqual(now);
  });

  it.each([
    ['now-500ms', new Date(now.getTime() - 500)],
    ['now-30s', new Date(now.getTime() - 30_000)],
    ['now-15m', new Date(now.getTime() - 15 * 60_000)],
    ['now+2h', new Date(now.getTime() + 2 * 3_600_000)],
    ['now-2d', local(2024, 5, 13, 14, 37, 12, 345)],
    ['now-1w', local(2024, 5, 8, 14, 37, 12, 345)],
    ['now-1M', local(2024, 4, 15, 14, 37, 12, 345)],
    ['now+1y', local(2025, 5, 15, 14, 37, 12, 345)],
  ])('adds and subtracts units: %s', (expr, expected) => {
    expect(parseRelativeTime(expr, now)).toEqual(expected);
  });

  it('tells five milliseconds from five minutes and five months', () => {
    expect(parseRelativeTime('now-5ms', now).getTime()).toBe(now.getTime() - 5);
    expect(parseRelativeTime('now-5m', now).getTime()).toBe(now.getTime() - 300_000);
    expect(parseRelativeTime('now-5M', now)).toEqual(local(2023, 12, 15, 14, 37, 12, 345));
  });

  it.each([
    ['now/s', local(2024, 5, 15, 14, 37, 12)],
    ['now/m', local(2024, 5, 15, 14, 37)],
    ['now/h', local(2024, 5, 15, 14)],
    ['now/d', local(2024, 5, 15)],
    ['now/w', local(2024, 5, 13)], // weeks start on Monday
    ['now/M', local(2024, 5, 1)],
    ['now/y', local(2024, 1, 1)],
  ])('rounds down to the start of a unit with /: %s', (expr, expected) => {
    expect(parseRelativeTime(expr, now)).toEqual(expected);
  });

  it('rounds up to the last millisecond of the unit for the end of a range', () => {
    expect(parseRelativeTime('now/d', now, { roundUp: true })).toEqual(local(2024, 5, 15, 23, 59, 59, 999));
    expect(parseRelativeTime('now/w', now, { roundUp: true })).toEqual(local(2024, 5, 19, 23, 59, 59, 999));
    expect(parseRelativeTime('now-1M/M', now, { roundUp: true })).toEqual(local(2024, 4, 30, 23, 59, 59, 999));
  });

  it('applies several operations left to right', () => {
    expect(parseRelativeTime('now-1d/d+6h', now)).toEqual(local(2024, 5, 14, 6));
    expect(parseRelativeTime('now/d-1d', now)).toEqual(local(2024, 5, 14));
  });

  it('clamps the day when adding months to a long month', () => {
    expect(parseRelativeTime('now+1M', local(2024, 1, 31, 10))).toEqual(local(2024, 2, 29, 10));
    expect(parseRelativeTime('now-1y', local(2024, 2, 29))).toEqual(local(2023, 2, 28));
  });

  it.each(['', 'today', 'now-', 'now-2', 'now-2x', 'now/2d', 'now--1d', 'now 1d', 'now-1.5h', 'yesterday'])(
    'refuses %j with "Invalid relative time range"',
    (expr) => {
      expect(() => parseRelativeTime(expr, now)).toThrow(INVALID_RELATIVE_TIME_RANGE);
      expect(isValidRelativeTime(expr)).toBe(false);
    },
  );
});

describe('ranges', () => {
  it('resolves a past relative range from the expression to now', () => {
    expect(resolveTimeRange({ type: 'relative', range: 'now-2d', display: 'Last 2 days' }, now)).toEqual({
      from: local(2024, 5, 13, 14, 37, 12, 345),
      to: now,
    });
  });

  it('resolves a future relative range from now to the expression', () => {
    const r = resolveTimeRange(relativePreset('1h', true), now);
    expect(r.from).toEqual(now);
    expect(r.to.getTime()).toBe(now.getTime() + 3_600_000);
  });

  it('resolves quick ranges with the end rounded up', () => {
    expect(resolveTimeRange({ type: 'mapped', display: 'Yesterday' }, now)).toEqual({
      from: local(2024, 5, 14),
      to: local(2024, 5, 14, 23, 59, 59, 999),
    });
    expect(resolveTimeRange({ type: 'mapped', display: 'Today so far' }, now)).toEqual({
      from: local(2024, 5, 15),
      to: now,
    });
    expect(resolveTimeRange({ type: 'mapped', display: 'Previous month' }, now)).toEqual({
      from: local(2024, 4, 1),
      to: local(2024, 4, 30, 23, 59, 59, 999),
    });
    expect(resolveTimeRange({ type: 'mapped', display: 'This week' }, now).from).toEqual(local(2024, 5, 13));
  });

  it('offers Yesterday, Today so far, This week and Previous month as quick ranges, all resolvable', () => {
    const names = QUICK_RANGES.map((q) => q.display);
    expect(names).toEqual(expect.arrayContaining(['Yesterday', 'Today so far', 'This week', 'Previous month']));
    for (const q of QUICK_RANGES) {
      const r = resolveTimeRange({ type: 'mapped', display: q.display }, now);
      expect(r.from.getTime()).toBeLessThanOrEqual(r.to.getTime());
    }
  });

  it('throws "Invalid mapped time range" for an unknown quick range', () => {
    expect(() => mappedRange('Last blue moon')).toThrow(INVALID_MAPPED_TIME_RANGE);
    expect(() => resolveTimeRange({ type: 'mapped', display: 'Last blue moon' }, now)).toThrow(
      INVALID_MAPPED_TIME_RANGE,
    );
  });

  it('throws "Invalid relative time range" for a relative range it cannot read', () => {
    expect(() => resolveTimeRange({ type: 'relative', range: 'now-2 days', display: 'x' }, now)).toThrow(
      INVALID_RELATIVE_TIME_RANGE,
    );
  });

  it('names the presets for the past and the future', () => {
    expect(RELATIVE_PRESETS).toEqual([
      '5m',
      '15m',
      '30m',
      '1h',
      '3h',
      '6h',
      '12h',
      '24h',
      '2d',
      '7d',
      '30d',
      '90d',
      '6M',
      '1y',
      '2y',
      '5y',
    ]);
    expect(relativePreset('5m')).toEqual({ type: 'relative', range: 'now-5m', display: 'Last 5 minutes' });
    expect(relativePreset('1h')).toEqual({ type: 'relative', range: 'now-1h', display: 'Last 1 hour' });
    expect(relativePreset('6M', true)).toEqual({ type: 'relative', range: 'now+6M', display: 'Next 6 months' });
  });

  it('measures ranges in minutes', () => {
    expect(rangeMinutes(relativePreset('3h'), now)).toBe(180);
    expect(rangeMinutes(relativePreset('24h'), now)).toBe(1440);
    expect(
      rangeMinutes(
        { type: 'absolute', from: '2024-01-01T00:00:00Z', to: '2024-01-01T01:30:00Z', display: 'Custom' },
        now,
      ),
    ).toBe(90);
  });

  it('maps the duration options to the minutes of spec/1 §9', () => {
    const expected: Record<string, number> = {
      '15m': 15,
      '1h': 60,
      '2h': 120,
      '3h': 180,
      '6h': 360,
      '12h': 720,
      '1d': 1440,
      '2d': 2880,
      '3d': 4320,
      '1w': 10080,
      '1mo': 43200,
    };
    for (const [k, v] of Object.entries(expected)) expect(durationMinutes(k)).toBe(v);
    for (const option of TIME_RANGE_OPTIONS) expect(durationMinutes(option)).toBeGreaterThan(0);
    expect(durationMinutes('soon')).toBeUndefined();
  });
});

describe('query string', () => {
  const base = new URLSearchParams('pageIndex=2&q=x');

  it('round-trips an absolute range and leaves other parameters alone', () => {
    const range: TimeRange = {
      type: 'absolute',
      from: '2024-05-01T00:00:00.000Z',
      to: '2024-05-02T00:00:00.000Z',
      display: 'Custom',
    };
    const params = timeRangeToParams(range, base);
    expect(params.get('pageIndex')).toBe('2');
    expect(params.get('rangeType')).toBe('absolute');
    expect(timeRangeFromParams(params)).toEqual(range);
  });

  it('writes a past relative range with its duration shorthand in timeRange', () => {
    const params = timeRangeToParams(relativePreset('30d'), base);
    expect(Object.fromEntries(params)).toMatchObject({
      rangeType: 'relative',
      range: 'now-30d',
      display: 'Last 30 days',
      timeRange: '30d',
    });
    expect(timeRangeToParams(relativePreset('6M'), base).get('timeRange')).toBe('6mo');
    expect(timeRangeToParams(relativePreset('6M', true), base).has('timeRange')).toBe(false);
    expect(timeRangeFromParams(params)).toEqual(relativePreset('30d'));
  });

  it('round-trips a mapped range', () => {
    const params = timeRangeToParams({ type: 'mapped', display: 'Yesterday' }, base);
    expect(timeRangeFromParams(params)).toEqual({ type: 'mapped', display: 'Yesterday' });
  });

  it('reads a bare timeRange (health links) as a past relative range', () => {
    expect(timeRangeFromParams(new URLSearchParams('timeRange=1h'))).toEqual(relativePreset('1h'));
    expect(timeRangeFromParams(new URLSearchParams('timeRange=1mo'))).toEqual(relativePreset('1M'));
  });

  it('clears every range parameter', () => {
    const set = timeRangeToParams(relativePreset('1h'), base);
    const cleared = timeRangeToParams(undefined, set);
    expect(Object.fromEntries(cleared)).toEqual({ pageIndex: '2', q: 'x' });
    expect(timeRangeFromParams(cleared)).toBeUndefined();
  });

  it('ignores an incomplete absolute range', () => {
    expect(timeRangeFromParams(new URLSearchParams('rangeType=absolute&from=2024-01-01'))).toBeUndefined();
  });
});

describe('recent ranges', () => {
  const abs = (day: number): TimeRange => ({
    type: 'absolute',
    from: `2024-05-0${day}T00:00:00.000Z`,
    to: `2024-05-0${day}T12:00:00.000Z`,
    display: 'Custom',
  });

  it('keeps the last five, newest first', () => {
    let recent: TimeRange[] = [];
    for (let d = 1; d <= 7; d++) recent = addRecentRange(recent, abs(d));
    expect(recent).toEqual([abs(7), abs(6), abs(5), abs(4), abs(3)]);
  });

  it('de-duplicates absolute ranges with the same from and to', () => {
    const recent = addRecentRange(addRecentRange(addRecentRange([], abs(1)), abs(2)), { ...abs(1), display: 'Again' });
    expect(recent).toHaveLength(2);
    const first = abs(1);
    expect(recent[0]).toMatchObject({ from: first.type === 'absolute' ? first.from : '', display: 'Again' });
  });

  it('does not de-duplicate relative ranges', () => {
    const recent = addRecentRange(addRecentRange([], relativePreset('1h')), relativePreset('1h'));
    expect(recent).toHaveLength(2);
  });
});

describe('absolute date inputs', () => {
  it('formats and parses local date-times', () => {
    expect(formatLocalDateTime(now)).toBe('2024-05-15 14:37:12');
    expect(parseLocalDateTime('2024-05-15 14:37:12')).toEqual(local(2024, 5, 15, 14, 37, 12));
    expect(parseLocalDateTime('2024-05-15T14:37')).toEqual(local(2024, 5, 15, 14, 37));
    expect(parseLocalDateTime('2024-05-15')).toEqual(local(2024, 5, 15));
  });

  it('rejects malformed and impossible dates', () => {
    for (const bad of ['', '15/05/2024', '2024-02-31', '2024-05-15 25:00', 'now-1d'])
      expect(parseLocalDateTime(bad)).toBeUndefined();
  });

  it('builds an absolute range from the From and To inputs', () => {
    expect(absoluteRangeFromInputs('2024-05-01 00:00:00', '2024-05-02 00:00:00')).toEqual({
      type: 'absolute',
      from: local(2024, 5, 1).toISOString(),
      to: local(2024, 5, 2).toISOString(),
      display: 'Custom',
    });
    expect(absoluteRangeFromInputs('2024-05-02', '2024-05-01')).toEqual({ error: 'From must be before To' });
    expect(absoluteRangeFromInputs('x', '2024-05-01')).toEqual({
      error: 'From is not a valid date (YYYY-MM-DD HH:mm:ss)',
    });
  });

  it('describes ranges for the picker button', () => {
    expect(describeTimeRange(relativePreset('1h'))).toBe('Last 1 hour');
    expect(
      describeTimeRange({
        type: 'absolute',
        from: local(2024, 5, 1).toISOString(),
        to: local(2024, 5, 2, 6).toISOString(),
        display: 'Custom',
      }),
    ).toBe('2024-05-01 00:00 to 2024-05-02 06:00');
  });
});
