import { describe, expect, it } from 'vitest';
import { disabledRefreshRates, effectiveRefreshRate, REFRESH_RATES, refreshIntervalMs } from './refreshRate.js';

describe('refresh rates', () => {
  it('offers None, 15s, 30s, 60s, 2m, 3m, 5m, 10m and 15m', () => {
    expect(REFRESH_RATES).toEqual(['None', '15s', '30s', '60s', '2m', '3m', '5m', '10m', '15m']);
  });

  it('converts options with s, m, h, d and w units to milliseconds', () => {
    expect(refreshIntervalMs('None')).toBe(0);
    expect(refreshIntervalMs('15s')).toBe(15_000);
    expect(refreshIntervalMs('2m')).toBe(120_000);
    expect(refreshIntervalMs('1h')).toBe(3_600_000);
    expect(refreshIntervalMs('1d')).toBe(86_400_000);
    expect(refreshIntervalMs('1w')).toBe(604_800_000);
  });

  it('allows everything for ranges under 60 minutes', () => {
    expect([...disabledRefreshRates(15)]).toEqual([]);
    expect([...disabledRefreshRates(59)]).toEqual([]);
    expect([...disabledRefreshRates(undefined)]).toEqual([]);
  });

  it('disables 15s and 30s from 60 minutes', () => {
    expect([...disabledRefreshRates(60)].sort()).toEqual(['15s', '30s']);
    expect([...disabledRefreshRates(179)].sort()).toEqual(['15s', '30s']);
  });

  it('also disables 2m and 3m from 180 minutes', () => {
    expect([...disabledRefreshRates(180)].sort()).toEqual(['15s', '2m', '30s', '3m']);
    expect([...disabledRefreshRates(43_200)].sort()).toEqual(['15s', '2m', '30s', '3m']);
  });

  it('falls back to the next allowed option', () => {
    expect(effectiveRefreshRate('15s', 60)).toBe('60s');
    expect(effectiveRefreshRate('30s', 1440)).toBe('60s');
    expect(effectiveRefreshRate('2m', 180)).toBe('5m');
    expect(effectiveRefreshRate('3m', 360)).toBe('5m');
    expect(effectiveRefreshRate('2m', 120)).toBe('2m');
    expect(effectiveRefreshRate('15s', 15)).toBe('15s');
    expect(effectiveRefreshRate('None', 10_000)).toBe('None');
  });
});
