import { describe, expect, it } from 'vitest';
import { precomputedRangeOf } from './summary.js';

describe('precomputedRangeOf', () => {
  it('finds the precomputed range a duration back from now stands for', () => {
    expect(precomputedRangeOf('1h', undefined)?.key).toBe('1h');
    expect(precomputedRangeOf('60m', undefined)?.key).toBe('1h');
    expect(precomputedRangeOf('now-1h', undefined)?.key).toBe('1h');
    expect(precomputedRangeOf('24h', undefined)?.key).toBe('1d');
    expect(precomputedRangeOf('1d', undefined)?.key).toBe('1d');
    expect(precomputedRangeOf('1w', undefined)?.key).toBe('7d');
    expect(precomputedRangeOf('43200m', undefined)?.key).toBe('30d');
  });

  it('leaves other ranges, absolute times and ranges with an end to be computed on request', () => {
    expect(precomputedRangeOf('2h', undefined)).toBeUndefined();
    expect(precomputedRangeOf('1h', 'now')).toBeUndefined();
    expect(precomputedRangeOf('2026-01-01T00:00:00Z', undefined)).toBeUndefined();
    expect(precomputedRangeOf('1700000000000', undefined)).toBeUndefined();
    expect(precomputedRangeOf(undefined, undefined)).toBeUndefined();
    expect(precomputedRangeOf('soon', undefined)).toBeUndefined();
  });
});
