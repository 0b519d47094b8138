import { describe, expect, it } from 'vitest';
import { FIRST_START, firstStartOf, prefetchSummary, takePrefetchedSummary } from './summaryPrefetch';

describe('the early summary of /health', () => {
  it('asks for the range the first render asks for, or nothing when only the page can tell', () => {
    expect(firstStartOf('')).toBe(FIRST_START);
    expect(firstStartOf('?hidePassing=false&groupBy=no-group')).toBe(FIRST_START);
    expect(firstStartOf('?timeRange=7d')).toBe('7d');
    expect(firstStartOf('?timeRange=15m&checkId=x')).toBe('15m');
    // Months and years go to the server as minutes (summaryStart): left to the page.
    expect(firstStartOf('?timeRange=1mo')).toBeUndefined();
  });

  it('is not asked for on other pages, so there is nothing to take', () => {
    prefetchSummary({ pathname: '/topology', search: '' });
    expect(takePrefetchedSummary(FIRST_START)).toBeUndefined();
  });
});
