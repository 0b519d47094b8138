// Refresh-rate menu rules (spec/1 §9, spec/3 §9): the options, which of them a range length
// disables, and the fallback when the chosen one is disabled.

export const REFRESH_RATES = ['None', '15s', '30s', '60s', '2m', '3m', '5m', '10m', '15m'] as const;
export type RefreshRate = (typeof REFRESH_RATES)[number];

export function isRefreshRate(value: unknown): value is RefreshRate {
  return typeof value === 'string' && (REFRESH_RATES as readonly string[]).includes(value);
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A refresh interval such as '15s', '2m', '1h', '1d' or '1w' in milliseconds; 0 for None or unreadable. */
export function refreshIntervalMs(rate: string): number {
  const m = /^(\d+)(s|m|h|d|w)$/.exec(rate.trim());
  return m ? Number(m[1]) * UNIT_MS[m[2]] : 0;
}

/** Options turned off for a range of this many minutes: 15s and 30s from 60 minutes, 2m and 3m too from 180. */
export function disabledRefreshRates(rangeMinutes: number | undefined): Set<RefreshRate> {
  const off = new Set<RefreshRate>();
  if (rangeMinutes === undefined) return off;
  if (rangeMinutes >= 60) {
    off.add('15s');
    off.add('30s');
  }
  if (rangeMinutes >= 180) {
    off.add('2m');
    off.add('3m');
  }
  return off;
}

/** The chosen option, or the next allowed one after it when the range disables it (None if none is left). */
export function effectiveRefreshRate(chosen: RefreshRate, rangeMinutes: number | undefined): RefreshRate {
  const off = disabledRefreshRates(rangeMinutes);
  if (!off.has(chosen)) return chosen;
  const after = REFRESH_RATES.slice(REFRESH_RATES.indexOf(chosen) + 1);
  return after.find((r) => !off.has(r)) ?? 'None';
}
