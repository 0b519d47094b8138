// Query keys of the catalog area, so applying a scraper or unlinking a component invalidates
// exactly what it changed.
export const catalogKeys = {
  all: ['catalog'] as const,
  summary: (req: unknown) => [...catalogKeys.all, 'summary', req] as const,
  list: (query: unknown) => [...catalogKeys.all, 'list', query] as const,
  options: (name: string) => [...catalogKeys.all, 'options', name] as const,
  items: () => [...catalogKeys.all, 'item'] as const,
  item: (id: string) => [...catalogKeys.items(), id] as const,
  changes: (req: unknown) => [...catalogKeys.all, 'changes', req] as const,
  change: (id: string) => [...catalogKeys.all, 'change', id] as const,
  insights: (query: unknown) => [...catalogKeys.all, 'insights', query] as const,
  related: (id: string, args: unknown) => [...catalogKeys.item(id), 'related', args] as const,
  componentLinks: (id: string) => [...catalogKeys.item(id), 'components'] as const,
  checks: (id: string) => [...catalogKeys.item(id), 'checks'] as const,
  scrapers: (query: unknown) => [...catalogKeys.all, 'scrapers', query] as const,
  scraper: (id: string) => [...catalogKeys.all, 'scraper', id] as const,
  scraperJobs: (id: string, page: unknown) => [...catalogKeys.scraper(id), 'jobs', page] as const,
};

/** The summary is cached for 5 minutes, label and tag options for a minute (spec/2 §7). */
export const SUMMARY_STALE_MS = 300_000;
export const LABELS_STALE_MS = 60_000;
