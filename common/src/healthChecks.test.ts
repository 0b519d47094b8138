import { describe, expect, it } from 'vitest';
import {
  checkHealth,
  defaultRangeForLastRun,
  DURATION_FILTER_ERROR,
  formatDurationFilter,
  formatPercent,
  groupHealth,
  groupHealthWord,
  healthColor,
  historyStatusValue,
  parseDurationFilter,
  progressTone,
  uptimePercent,
} from './healthChecks.js';

describe('health dot colour', () => {
  it('is red for unhealthy, degraded and missing health, and for no health at all', () => {
    for (const h of ['unhealthy', 'degraded', 'missing', 'Unhealthy', null, undefined, ''])
      expect(healthColor(h), String(h)).toBe('red');
  });
  it('is gray for unknown and suspended', () => {
    expect(healthColor('unknown')).toBe('gray');
    expect(healthColor('suspended')).toBe('gray');
  });
  it('is orange for warning, warn and mixed', () => {
    for (const h of ['warning', 'warn', 'mixed']) expect(healthColor(h)).toBe('orange');
  });
  it('is green for anything else', () => {
    for (const h of ['healthy', 'good', 'ok', 'passing']) expect(healthColor(h)).toBe('green');
  });
});

describe('check and group health', () => {
  it('calls a check that never ran unknown (gray), not missing (red)', () => {
    expect(checkHealth(null)).toBe('unknown');
    expect(healthColor(checkHealth(null))).toBe('gray');
    expect(checkHealth('healthy')).toBe('healthy');
    expect(checkHealth('unhealthy')).toBe('unhealthy');
  });

  it('makes a group good, bad or mixed when its members disagree', () => {
    expect(groupHealth(['healthy', 'healthy'])).toBe('good');
    expect(groupHealth(['unhealthy', 'unhealthy'])).toBe('bad');
    expect(groupHealth(['healthy', 'unhealthy'])).toBe('mixed');
    expect(groupHealth(['healthy', null])).toBe('mixed');
    expect(groupHealth([null])).toBe('unknown');
    expect(healthColor(groupHealthWord('mixed'))).toBe('orange');
    expect(healthColor(groupHealthWord('bad'))).toBe('red');
    expect(healthColor(groupHealthWord('good'))).toBe('green');
  });
});

describe('uptime', () => {
  it('is passed over total times 100, with one decimal', () => {
    expect(uptimePercent({ passed: 199, failed: 1 })).toBeCloseTo(99.5);
    expect(formatPercent(uptimePercent({ passed: 199, failed: 1 }))).toBe('99.5%');
    expect(formatPercent(uptimePercent({ passed: 3, failed: 0 }))).toBe('100.0%');
    expect(formatPercent(uptimePercent({ passed: 0, failed: 4 }))).toBe('0.0%');
    expect(formatPercent(uptimePercent({ passed: 1, failed: 2 }))).toBe('33.3%');
  });
  it('never rounds a failing check up to 100.0%', () => {
    expect(formatPercent(uptimePercent({ passed: 9999, failed: 1 }))).toBe('99.9%');
  });
  it('is blank when nothing ran', () => {
    expect(uptimePercent({ passed: 0, failed: 0 })).toBeUndefined();
    expect(formatPercent(undefined)).toBe('');
  });
  it('turns progress bars red above 90 and orange above 75', () => {
    expect(progressTone(91)).toBe('danger');
    expect(progressTone(90)).toBe('warning');
    expect(progressTone(76)).toBe('warning');
    expect(progressTone(75)).toBe('normal');
  });
});

describe('default time range from the last run', () => {
  const now = new Date('2024-06-15T12:00:00Z');
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();

  it('is the smallest bucket covering the age of the last run', () => {
    expect(defaultRangeForLastRun(ago(5), now)).toBe('1h');
    expect(defaultRangeForLastRun(ago(59), now)).toBe('1h');
    expect(defaultRangeForLastRun(ago(60), now)).toBe('3h');
    expect(defaultRangeForLastRun(ago(200), now)).toBe('6h');
    expect(defaultRangeForLastRun(ago(1_000), now)).toBe('1d');
    expect(defaultRangeForLastRun(ago(3 * 1_440), now)).toBe('1w');
    expect(defaultRangeForLastRun(ago(40 * 1_440), now)).toBe('2mo');
    expect(defaultRangeForLastRun(ago(400 * 1_440), now)).toBe('2y');
    expect(defaultRangeForLastRun(ago(10 * 525_600), now)).toBe('5y');
  });
  it('is 1h without a last run', () => {
    expect(defaultRangeForLastRun(null, now)).toBe('1h');
    expect(defaultRangeForLastRun('not a date', now)).toBe('1h');
  });
});

describe('check history filters', () => {
  it('maps Healthy to true, Unhealthy to false and All to no filter', () => {
    expect(historyStatusValue('healthy')).toBe(true);
    expect(historyStatusValue('unhealthy')).toBe(false);
    expect(historyStatusValue('all')).toBeUndefined();
  });

  it('accepts a custom duration only in milliseconds or seconds, converting seconds to ms', () => {
    expect(parseDurationFilter('250ms')).toEqual({ ms: 250 });
    expect(parseDurationFilter('2s')).toEqual({ ms: 2000 });
    expect(parseDurationFilter(' 1.5 s ')).toEqual({ ms: 1500 });
    expect(parseDurationFilter('3S')).toEqual({ ms: 3000 });
    for (const bad of ['5m', '1h', '100', 'ms', 'fast', '-5s', '1,5s', ''])
      expect(parseDurationFilter(bad), bad).toEqual({ error: DURATION_FILTER_ERROR });
    expect(DURATION_FILTER_ERROR).toBe('duration is allowed only in milli seconds & seconds');
  });

  it('shows a minimum duration the way it was offered', () => {
    expect(formatDurationFilter(500)).toBe('500ms');
    expect(formatDurationFilter(2000)).toBe('2s');
    expect(formatDurationFilter(1500)).toBe('1.5s');
    expect(formatDurationFilter(1234)).toBe('1234ms');
  });
});
