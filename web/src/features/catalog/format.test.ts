import { describe, expect, it } from 'vitest';
import {
  costChange,
  formatCost,
  formatCount,
  isHighChangeCount,
  isScrapeStale,
  isZeroDate,
  orderedHealthCounts,
} from './format';

describe('catalog display rules', () => {
  it('shows counts over 999 as Nk+', () => {
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1k+');
    expect(formatCount(12_345)).toBe('12k+');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(undefined)).toBe('');
  });

  it('highlights change badges from 500', () => {
    expect(isHighChangeCount(499)).toBe(false);
    expect(isHighChangeCount(500)).toBe(true);
  });

  it('shows 2 decimals up to 10 and none above', () => {
    expect(formatCost(10)).toBe('$10.00');
    expect(formatCost('3.456')).toBe('$3.46');
    expect(formatCost(10.4)).toBe('$10');
    expect(formatCost(1234.56)).toBe('$1235');
    expect(formatCost(null)).toBe('');
  });

  it('flags a 1-day cost more than 10 percent away from the 30-day daily average', () => {
    // average 1/day
    expect(costChange(1.1, 30)).toBeUndefined();
    expect(costChange(0.9, 30)).toBeUndefined();
    expect(costChange(1.5, 30)).toEqual({ direction: 'up', percent: 50, label: '+50%' });
    expect(costChange(0.5, 30)).toMatchObject({ direction: 'down', label: '-50%' });
    expect(costChange(2, 30)).toMatchObject({ direction: 'up', label: '+100%' });
    expect(costChange(3.5, 30)).toMatchObject({ direction: 'up', label: '3.5x' });
    expect(costChange(25, 30)).toMatchObject({ label: '25x' });
    expect(costChange(1, 0)).toBeUndefined();
    expect(costChange(null, 30)).toBeUndefined();
  });

  it('renders nothing for the zero date', () => {
    expect(isZeroDate('0001-01-01T00:00:00Z')).toBe(true);
    expect(isZeroDate('2024-01-01T00:00:00Z')).toBe(false);
  });

  it('orders health green, red, orange, gray and drops zeros', () => {
    expect(orderedHealthCounts({ unknown: 1, warning: 2, healthy: 3, unhealthy: 0 })).toEqual([
      ['healthy', 3],
      ['warning', 2],
      ['unknown', 1],
    ]);
  });

  it('flags a last scrape an hour or more old unless the item is deleted', () => {
    const now = new Date('2024-01-01T12:00:00Z');
    expect(isScrapeStale({ last_scraped_time: '2024-01-01T11:00:00Z' }, now)).toBe(true);
    expect(isScrapeStale({ last_scraped_time: '2024-01-01T11:30:00Z' }, now)).toBe(false);
    expect(isScrapeStale({ last_scraped_time: '2024-01-01T10:00:00Z', deleted_at: '2024-01-01T10:00:00Z' }, now)).toBe(
      false,
    );
  });
});
