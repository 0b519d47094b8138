import { afterEach, describe, expect, it, vi } from 'vitest';
import { healthApi } from './healthApi';
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

  afterEach(() => vi.unstubAllGlobals());

  it("is the page's first data once read, taken once, and only for its range", async () => {
    const body = {
      format: 'console',
      version: 'e.1',
      full: true,
      columns: ['id', 'name', 'status'],
      rows: [['a', 'alpha', 'healthy']],
      removed: [],
      duration: 3,
    };
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(String(url));
      return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', etag: '"c1"' } });
    });
    expect(healthApi.readySummary(FIRST_START)).toBeUndefined(); // nothing asked for yet
    prefetchSummary({ pathname: '/health', search: '' });
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 10)); // read into a copy
    expect(healthApi.readySummary('7d')).toBeUndefined(); // another range's first render asks itself
    const first = healthApi.readySummary(FIRST_START)!;
    expect(first).toBeDefined();
    expect(first.summary.checks_summary.map((c) => c.name)).toEqual(['alpha']);
    // Asked again during the same render (React's development double render): the same answer.
    expect(healthApi.readySummary(FIRST_START)).toBe(first);
    // Taken: the page's own request does not wait for the early one again.
    expect(takePrefetchedSummary(FIRST_START)).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('start=1h');
  });
});
