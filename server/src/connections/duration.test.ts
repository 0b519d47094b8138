// Durations and sizes as check specs write them, and their short renderings in messages.
import { describe, expect, it } from 'vitest';
import { durationMs, formatDuration, formatSize, parseDuration, parseSize } from './duration.js';

describe('parseDuration', () => {
  it('reads Go-style durations plus d and w', () => {
    expect(parseDuration('30s')).toBe(30_000);
    expect(parseDuration('1h30m')).toBe(5_400_000);
    expect(parseDuration('1.5h')).toBe(5_400_000);
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('250us')).toBe(0.25);
    expect(parseDuration('7d')).toBe(7 * 86_400_000);
    expect(parseDuration('2w')).toBe(14 * 86_400_000);
    expect(parseDuration('1d12h')).toBe(36 * 3_600_000);
    expect(parseDuration('-2m')).toBe(-120_000);
    expect(parseDuration('0')).toBe(0);
  });

  it('refuses text that is not a duration', () => {
    for (const bad of ['', '5', '1x', 'h', '1h 30m', 'soon', '1h-5m']) {
      expect(() => parseDuration(bad), bad).toThrow(/is not a duration/);
    }
  });

  it('reads bare numbers in the unit asked for', () => {
    expect(durationMs(5)).toBe(5_000);
    expect(durationMs(5, 60_000)).toBe(300_000);
    expect(durationMs('5m')).toBe(300_000);
  });
});

describe('formatDuration', () => {
  it('renders short human durations', () => {
    expect(formatDuration(812)).toBe('812 ms');
    expect(formatDuration(2_500)).toBe('2.5 s');
    expect(formatDuration(303_000)).toBe('5m 3s');
    expect(formatDuration(3 * 3_600_000 + 120_000)).toBe('3h 2m');
    expect(formatDuration(3 * 86_400_000)).toBe('3d');
    expect(formatDuration(3 * 86_400_000 + 4 * 3_600_000 + 5 * 60_000)).toBe('3d 4h');
  });
});

describe('sizes', () => {
  it('reads canary-checker sizes (powers of 1024)', () => {
    expect(parseSize('512')).toBe(512);
    expect(parseSize(512)).toBe(512);
    expect(parseSize('10KB')).toBe(10_240);
    expect(parseSize('1.5mb')).toBe(1_572_864);
    expect(parseSize('2GiB')).toBe(2 * 1024 ** 3);
    expect(() => parseSize('lots')).toThrow(/is not a size/);
    expect(formatSize(2048)).toBe('2 KB');
    expect(formatSize(1_572_864)).toBe('1.5 MB');
    expect(formatSize(7)).toBe('7 B');
  });
});
